/**
 * The RBAC authorizer (`--authorization-mode=RBAC`; `plugin/pkg/auth/authorizer/rbac/rbac.go`):
 * allows a request some rule of the user's roles allows, and has no opinion otherwise (the next
 * authorizer of the chain decides). Its answers and reasons are kube-apiserver's.
 */
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, NonResourceRuleInfo, ResourceRuleInfo, RulesForResult } from '../../machinery/auth.js';
import type { UserInfo } from '../../machinery/request.js';
import type { Storage } from '../../storage/storage.js';
import { aggregateErrorText } from './aggregate-error.js';
import { StoragePolicyIndex, type RbacPolicySource } from './policy-index.js';
import { ruleAllows } from './rule-matching.js';
import { describeSource, resolveRules, visitRulesFor } from './rule-resolver.js';

/** The RBAC authorizer, and what it reads. */
export interface RbacAuthorizer extends Authorizer {
  readonly source: RbacPolicySource;
}

/** The RBAC API group of a cluster with this API domain. */
export function rbacApiGroup(apiDomain = 'k8s.io'): string {
  return `rbac.authorization.${apiDomain}`;
}

const NO_OPINION: AuthorizationResult = { decision: 'NoOpinion', reason: '' };

/** `RBACAuthorizer.Authorize` over a source that is ready. */
function decide(source: RbacPolicySource, group: string, attributes: AuthorizationAttributes): AuthorizationResult {
  let allowedBy: string | undefined;
  let errors: string[] | undefined;
  visitRulesFor(source, group, attributes.user, attributes.namespace ?? '', (from, rule, error) => {
    if (from && rule && ruleAllows(attributes, rule)) {
      allowedBy = describeSource(from);
      return false;
    }
    if (error !== undefined) (errors ??= []).push(error);
    return true;
  });
  if (allowedBy !== undefined) return { decision: 'Allow', reason: `RBAC: allowed by ${allowedBy}` };
  if (errors) return { decision: 'NoOpinion', reason: `RBAC: ${aggregateErrorText(errors)}` };
  return NO_OPINION;
}

/** `RBACAuthorizer.RulesFor`: resource rules and non-resource rules apart; errors make the evaluation error. */
function listRules(source: RbacPolicySource, group: string, user: UserInfo, namespace: string): RulesForResult {
  const { rules, errors } = resolveRules(source, group, user, namespace);
  const resourceRules: ResourceRuleInfo[] = [];
  const nonResourceRules: NonResourceRuleInfo[] = [];
  for (const rule of rules) {
    if (rule.resources?.length) {
      const info: ResourceRuleInfo = { verbs: [...rule.verbs] };
      if (rule.apiGroups) info.apiGroups = [...rule.apiGroups];
      info.resources = [...rule.resources];
      if (rule.resourceNames) info.resourceNames = [...rule.resourceNames];
      resourceRules.push(info);
    }
    if (rule.nonResourceURLs?.length) nonResourceRules.push({ verbs: [...rule.verbs], nonResourceURLs: [...rule.nonResourceURLs] });
  }
  // As kube-apiserver's RBAC authorizer, a missing role makes an evaluation error, not an incomplete list.
  const result: RulesForResult = { resourceRules, nonResourceRules, incomplete: false };
  if (errors.length) result.evaluationError = aggregateErrorText(errors);
  return result;
}

/**
 * An RBAC authorizer over a policy source. Answers without a promise once the source is ready
 * (after its first read of storage).
 */
export function createRbacAuthorizer(source: RbacPolicySource, options: { apiDomain?: string } = {}): RbacAuthorizer {
  const group = rbacApiGroup(options.apiDomain);
  return {
    source,
    authorize(attributes) {
      const waiting = source.ready();
      return waiting ? waiting.then(() => decide(source, group, attributes)) : decide(source, group, attributes);
    },
    rulesFor(user, namespace) {
      const waiting = source.ready();
      return waiting ? waiting.then(() => listRules(source, group, user, namespace)) : listRules(source, group, user, namespace);
    },
  };
}

/** An RBAC authorizer reading the Roles, ClusterRoles and bindings of `storage` (kept current from its events). */
export function createStorageRbacAuthorizer(storage: Storage, options: { apiDomain?: string } = {}): RbacAuthorizer & { close(): void } {
  const index = new StoragePolicyIndex(storage, rbacApiGroup(options.apiDomain));
  return { ...createRbacAuthorizer(index, options), close: () => index.close() };
}
