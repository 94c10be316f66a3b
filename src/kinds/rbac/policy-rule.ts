/** The rules of a Role or ClusterRole (`pkg/apis/rbac/validation/validation.go` `ValidatePolicyRule`). */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import type { PolicyRule } from '../types/rbac-v1.js';

/** `ValidatePolicyRule`: verbs; either non-resource URLs (ClusterRoles only) or API groups and resources. */
export function validatePolicyRule(rule: PolicyRule, namespaced: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const len = (list: readonly string[] | undefined) => list?.length ?? 0;
  if (len(rule.verbs) === 0) errs.push(fieldError.required(child(path, 'verbs'), 'verbs must contain at least one value'));
  if (len(rule.nonResourceURLs) > 0) {
    const urls = child(path, 'nonResourceURLs');
    if (namespaced) errs.push(fieldError.invalid(urls, rule.nonResourceURLs, 'namespaced rules cannot apply to non-resource URLs'));
    if (len(rule.apiGroups) > 0 || len(rule.resources) > 0 || len(rule.resourceNames) > 0) {
      errs.push(fieldError.invalid(urls, rule.nonResourceURLs, 'rules cannot apply to both regular resources and non-resource URLs'));
    }
    return errs;
  }
  if (len(rule.apiGroups) === 0) errs.push(fieldError.required(child(path, 'apiGroups'), 'resource rules must supply at least one api group'));
  if (len(rule.resources) === 0) errs.push(fieldError.required(child(path, 'resources'), 'resource rules must supply at least one resource'));
  return errs;
}

/** Every rule of a role, at `rules[i]`. */
export function validatePolicyRules(rules: readonly PolicyRule[] | undefined, namespaced: boolean): FieldError[] {
  return (rules ?? []).flatMap((rule, i) => validatePolicyRule(rule, namespaced, index('rules', i)));
}
