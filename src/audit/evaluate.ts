/**
 * Which level and stages a request is audited at (k8s.io/apiserver `pkg/audit/policy/checker.go`,
 * `EvaluatePolicyRule`): the first rule that matches decides; a request no rule matches is not
 * audited (level None). A rule's omitted stages are its own and the policy's.
 */
import type { AuditLevel, AuditPolicy, AuditStage, ValidPolicyRule } from '../config/audit/types.js';
import type { AuthorizationAttributes } from '../machinery/auth.js';
import type { UserInfo } from '../machinery/request.js';

/** What applies to one request (`RequestAuditConfig`). */
export interface RequestAuditConfig {
  readonly level: AuditLevel;
  readonly omitStages: readonly AuditStage[];
  /** Whether `metadata.managedFields` is dropped from the request and response objects recorded. */
  readonly omitManagedFields: boolean;
}

/**
 * What a rule is matched against: a request's authorizer attributes; no user before authentication.
 * @category Audit
 */
export type AuditAttributes = Omit<AuthorizationAttributes, 'user'> & { readonly user?: UserInfo };

/** Evaluates a policy for requests. */
export type PolicyRuleEvaluator = (attributes: AuditAttributes) => RequestAuditConfig;

/** The evaluator of a loaded policy (`NewPolicyRuleEvaluator`). */
export function policyRuleEvaluator(policy: AuditPolicy): PolicyRuleEvaluator {
  const policyOmits = policy.omitStages ?? [];
  const policyOmitsManagedFields = policy.omitManagedFields ?? false;
  const rules = policy.rules.map((rule) => ({
    rule,
    config: {
      level: rule.level,
      omitStages: [...new Set([...policyOmits, ...(rule.omitStages ?? [])])],
      // A rule's own setting overrides the policy's (`isOmitManagedFields`).
      omitManagedFields: rule.omitManagedFields ?? policyOmitsManagedFields,
    } satisfies RequestAuditConfig,
  }));
  const unmatched: RequestAuditConfig = { level: 'None', omitStages: policyOmits, omitManagedFields: policyOmitsManagedFields };
  return (attributes) => {
    for (const { rule, config } of rules) if (ruleMatches(rule, attributes)) return config;
    return unmatched;
  };
}

/** `ruleMatches`: users, groups and verbs, then either the resource or the non-resource part. */
export function ruleMatches(rule: ValidPolicyRule, attributes: AuditAttributes): boolean {
  const user = attributes.user;
  if (rule.users?.length && (!user || !rule.users.includes(user.username))) return false;
  if (rule.userGroups?.length && (!user || !user.groups.some((g) => rule.userGroups!.includes(g)))) return false;
  if (rule.verbs?.length && !rule.verbs.includes(attributes.verb)) return false;
  if (rule.namespaces?.length || rule.resources?.length) return resourceMatches(rule, attributes);
  if (rule.nonResourceURLs?.length) return !attributes.resourceRequest && rule.nonResourceURLs.some((spec) => pathMatches(attributes.path ?? '', spec));
  return true;
}

/** `*` matches every path, `/a*` every path starting with `/a`, anything else itself. */
export function pathMatches(path: string, spec: string): boolean {
  if (spec === '*' || spec === path) return true;
  return spec.endsWith('*') && path.startsWith(spec.replace(/\*+$/, ''));
}

function resourceMatches(rule: ValidPolicyRule, attributes: AuditAttributes): boolean {
  if (!attributes.resourceRequest) return false;
  // Cluster-scoped requests have the namespace "".
  if (rule.namespaces?.length && !rule.namespaces.includes(attributes.namespace ?? '')) return false;
  if (!rule.resources?.length) return true;
  const group = attributes.apiGroup ?? '';
  const resource = attributes.resource ?? '';
  const subresource = attributes.subresource ?? '';
  const combined = subresource ? `${resource}/${subresource}` : resource;
  const name = attributes.name ?? '';
  for (const gr of rule.resources) {
    if ((gr.group ?? '') !== group && gr.group !== '*') continue;
    if (!gr.resources?.length) return true;
    if (gr.resourceNames?.length && !gr.resourceNames.includes(name)) continue;
    for (const res of gr.resources) {
      if (res === combined || res === '*') return true;
      if (subresource && res.startsWith('*/') && res.slice(2) === subresource) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === resource) return true;
    }
  }
  return false;
}
