/**
 * Whether one RBAC policy rule allows a request, exactly as kube-apiserver decides it
 * (`pkg/apis/rbac/v1/evaluation_helpers.go` VerbMatches, APIGroupMatches, ResourceMatches,
 * ResourceNameMatches, NonResourceURLMatches; `plugin/pkg/auth/authorizer/rbac/rbac.go` RuleAllows).
 * Matching is by exact strings and `*` wildcards only: no case folding, no path cleaning.
 */
import type { AuthorizationAttributes } from '../../machinery/auth.js';
import type { PolicyRule } from '../../kinds/types/rbac-v1.js';

/** `*` in a rule's verbs, apiGroups, resources or nonResourceURLs. */
const ALL = '*';

/** The rule names the verb, or every verb. */
export function verbMatches(rule: Readonly<PolicyRule>, verb: string): boolean {
  for (const v of rule.verbs ?? []) if (v === ALL || v === verb) return true;
  return false;
}

/** The rule names the API group (`''` is the core group), or every group. */
export function apiGroupMatches(rule: Readonly<PolicyRule>, group: string): boolean {
  for (const g of rule.apiGroups ?? []) if (g === ALL || g === group) return true;
  return false;
}

/**
 * The rule names the resource: `*`, the exact `resource` or `resource/subresource` asked
 * (`combined`), or, for a subresource, `*\/<subresource>`.
 */
export function resourceMatches(rule: Readonly<PolicyRule>, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (subresource.length > 0 && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

/** A rule without resourceNames matches every name; otherwise the name must be listed (a list or create has none). */
export function resourceNameMatches(rule: Readonly<PolicyRule>, name: string): boolean {
  const names = rule.resourceNames ?? [];
  if (names.length === 0) return true;
  return names.includes(name);
}

/** Go's `strings.TrimRight(s, "*")`. */
function trimStars(s: string): string {
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 0x2a) end--;
  return s.slice(0, end);
}

/** `*`, the exact path, or a prefix ending in `*` (`/apis/*` matches `/apis/apps/v1`, and `/apis/` itself). */
export function nonResourceURLMatches(rule: Readonly<PolicyRule>, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === ALL || u === path) return true;
    if (u.endsWith('*') && path.startsWith(trimStars(u))) return true;
  }
  return false;
}

/** `RuleAllows`: the rule allows the request (a resource request, or a non-resource one by its path). */
export function ruleAllows(attributes: AuthorizationAttributes, rule: Readonly<PolicyRule>): boolean {
  if (attributes.resourceRequest) {
    const resource = attributes.resource ?? '';
    const subresource = attributes.subresource ?? '';
    const combined = subresource.length > 0 ? `${resource}/${subresource}` : resource;
    return (
      verbMatches(rule, attributes.verb) &&
      apiGroupMatches(rule, attributes.apiGroup ?? '') &&
      resourceMatches(rule, combined, subresource) &&
      resourceNameMatches(rule, attributes.name ?? '')
    );
  }
  return verbMatches(rule, attributes.verb) && nonResourceURLMatches(rule, attributes.path ?? '');
}

/** `RulesAllow`: some rule allows the request. */
export function rulesAllow(attributes: AuthorizationAttributes, rules: readonly Readonly<PolicyRule>[]): boolean {
  return rules.some((rule) => ruleAllows(attributes, rule));
}
