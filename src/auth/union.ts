/**
 * The authorizer chain kube-apiserver builds (k8s.io/apiserver `pkg/authorization/union`, and
 * kubernetes `pkg/kubeapiserver/authorizer` which always puts the `system:masters` group first):
 * the authorizers are asked in order; the first that allows or denies decides; when every one has
 * no opinion, the request is not allowed and the reasons of all are joined.
 */
import { SYSTEM_PRIVILEGED_GROUP, type AuthorizationAttributes, type AuthorizationResult, type Authorizer, type RulesForResult } from '../machinery/auth.js';
import type { UserInfo } from '../machinery/request.js';
import { aggregateErrorText } from './rbac/aggregate-error.js';

const ALLOW_PRIVILEGED: AuthorizationResult = { decision: 'Allow', reason: '' };

/** Whether the user is in `system:masters`, which every chain allows everything. */
export function isPrivileged(user: UserInfo): boolean {
  return user.groups.includes(SYSTEM_PRIVILEGED_GROUP);
}

/**
 * Allows every request of a `system:masters` member (`authorizerfactory.NewPrivilegedGroups`);
 * no opinion on anyone else.
 */
export const privilegedGroupAuthorizer: Authorizer = {
  authorize: (attributes) => (isPrivileged(attributes.user) ? ALLOW_PRIVILEGED : { decision: 'NoOpinion', reason: '' }),
  // kube-apiserver does not list rules for it: a member of system:masters sees the rules its
  // other authorizers list (RBAC's cluster-admin binding), as on a real cluster.
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
};

/** The chain of `authorizers`, asked in order. */
export function unionAuthorizer(authorizers: readonly Authorizer[]): Authorizer {
  return {
    async authorize(attributes: AuthorizationAttributes): Promise<AuthorizationResult> {
      const reasons: string[] = [];
      const errors: string[] = [];
      for (const authorizer of authorizers) {
        const result = await authorizer.authorize(attributes);
        if (result.decision !== 'NoOpinion') return result;
        if (result.reason) reasons.push(result.reason);
        if (result.evaluationError) errors.push(result.evaluationError);
      }
      return { decision: 'NoOpinion', reason: reasons.join('\n'), evaluationError: joinErrors(errors) };
    },
    async rulesFor(user: UserInfo, namespace: string): Promise<RulesForResult> {
      const out: RulesForResult = { resourceRules: [], nonResourceRules: [], incomplete: false };
      const errors: string[] = [];
      for (const authorizer of authorizers) {
        const rules = await authorizer.rulesFor(user, namespace);
        out.resourceRules.push(...rules.resourceRules);
        out.nonResourceRules.push(...rules.nonResourceRules);
        if (rules.incomplete) out.incomplete = true;
        if (rules.evaluationError) errors.push(rules.evaluationError);
      }
      const evaluationError = joinErrors(errors);
      return evaluationError === undefined ? out : { ...out, evaluationError };
    },
  };
}

/** utilerrors.NewAggregate's text (each distinct message once); none is undefined. */
function joinErrors(errors: readonly string[]): string | undefined {
  return errors.length === 0 ? undefined : aggregateErrorText(errors);
}
