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
    // Synchronous while every authorizer answers synchronously (RBAC, Node, the privileged group):
    // every request asks, and a webhook is the only one that needs to wait.
    authorize: (attributes) => ask(authorizers, attributes, 0, undefined, undefined),
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

/** The decision of `authorizers` from `from` on; `reasons` and `errors` are what the ones before said with no opinion. */
function ask(
  authorizers: readonly Authorizer[],
  attributes: AuthorizationAttributes,
  from: number,
  reasons: string[] | undefined,
  errors: string[] | undefined,
): AuthorizationResult | Promise<AuthorizationResult> {
  for (let i = from; i < authorizers.length; i++) {
    const answer = authorizers[i]!.authorize(attributes);
    if (answer instanceof Promise) {
      return answer.then((result: AuthorizationResult) =>
        result.decision !== 'NoOpinion' ? result : ask(authorizers, attributes, i + 1, noted(reasons, result.reason), noted(errors, result.evaluationError)),
      );
    }
    if (answer.decision !== 'NoOpinion') return answer;
    reasons = noted(reasons, answer.reason);
    errors = noted(errors, answer.evaluationError);
  }
  return { decision: 'NoOpinion', reason: reasons ? reasons.join('\n') : '', evaluationError: joinErrors(errors ?? []) };
}

/** `list` with `text` added when there is one (the list made on the first). */
function noted(list: string[] | undefined, text: string | undefined): string[] | undefined {
  if (!text) return list;
  (list ??= []).push(text);
  return list;
}

/** utilerrors.NewAggregate's text (each distinct message once); none is undefined. */
function joinErrors(errors: readonly string[]): string | undefined {
  return errors.length === 0 ? undefined : aggregateErrorText(errors);
}
