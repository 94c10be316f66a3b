/**
 * MatchResources and its rules (admissionregistration), shared by MutatingAdmissionPolicy's
 * `matchConstraints` and its binding's `matchResources`: the defaults and the structural checks
 * Kubernetes applies to them (`validateMatchResources`, `validateNamedRuleWithOperations`,
 * `validateRule`, `validateResources` of pkg/apis/admissionregistration/validation).
 */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { isPathSegmentName } from '../../schema/validation/names.js';
import { validateLabelSelector } from '../shared/label-selector-validation.js';
import type { MatchResources, NamedRuleWithOperations, RuleWithOperations } from '../types/admissionregistration-v1.js';

/** `matchPolicy` values, sorted as Kubernetes lists them. */
const MATCH_POLICIES = ['Equivalent', 'Exact'];
/** Operations any rule may name, sorted as Kubernetes lists them. */
const OPERATIONS = ['*', 'CONNECT', 'CREATE', 'DELETE', 'UPDATE'];
/** Operations a mutating policy or binding may name: a delete cannot be mutated. */
export const MUTATING_OPERATIONS: readonly string[] = ['*', 'CONNECT', 'CREATE', 'UPDATE'];
/** Rule scopes, sorted as Kubernetes lists them. */
const SCOPES = ['*', 'Cluster', 'Namespaced'];

/**
 * Kubernetes' defaults for a MatchResources: `matchPolicy: Equivalent`, empty (match-all)
 * namespace and object selectors, and `scope: "*"` on every rule.
 */
export function defaultMatchResources(mr: MatchResources | undefined): void {
  if (!mr) return;
  mr.matchPolicy ??= 'Equivalent';
  mr.namespaceSelector ??= {};
  mr.objectSelector ??= {};
  for (const rule of [...(mr.resourceRules ?? []), ...(mr.excludeResourceRules ?? [])]) defaultRule(rule);
}

/** `SetDefaults_Rule`: a rule's `scope` is `*` (all scopes) unless given. */
export function defaultRule(rule: RuleWithOperations): void {
  rule.scope ??= '*';
}

const hasWildcard = (values: readonly string[]) => values.includes('*');

/** `validateResources`: resources with optional `/subresource`, and the wildcard combinations Kubernetes refuses. */
function validateResources(resources: readonly string[], path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (resources.length === 0) errors.push(fieldError.required(path));
  const wildcardSub = new Set<string>(); // x/*
  const wildcardRes = new Set<string>(); // */x
  let doubleWildcard = false;
  let singleWildcard = false;
  let withoutSubresource = false;
  resources.forEach((resSub, i) => {
    if (resSub === '') {
      errors.push(fieldError.required(index(path, i)));
      return;
    }
    if (resSub === '*/*') doubleWildcard = true;
    if (resSub === '*') singleWildcard = true;
    const slash = resSub.indexOf('/');
    if (slash < 0) {
      // As upstream: the last resource without a subresource decides.
      withoutSubresource = resSub !== '*';
      return;
    }
    const res = resSub.slice(0, slash);
    const sub = resSub.slice(slash + 1);
    if (wildcardSub.has(res)) errors.push(fieldError.invalid(index(path, i), resSub, `if '${res}/*' is present, must not specify ${resSub}`));
    if (wildcardRes.has(sub)) errors.push(fieldError.invalid(index(path, i), resSub, `if '*/${sub}' is present, must not specify ${resSub}`));
    if (sub === '*') wildcardSub.add(res);
    if (res === '*') wildcardRes.add(sub);
  });
  if (resources.length > 1 && doubleWildcard) errors.push(fieldError.invalid(path, resources, "if '*/*' is present, must not specify other resources"));
  if (singleWildcard && withoutSubresource)
    errors.push(fieldError.invalid(path, resources, "if '*' is present, must not specify other resources without subresources"));
  return errors;
}

/**
 * `validateRuleWithOperations` with `validateRule` (subresources allowed): the rule of a webhook,
 * and the part of a policy's named rule after its resource names.
 */
export function validateRuleWithOperations(rule: RuleWithOperations, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const operations = rule.operations ?? [];
  const opsPath = child(path, 'operations');
  if (operations.length === 0) errors.push(fieldError.required(opsPath));
  if (operations.length > 1 && hasWildcard(operations))
    errors.push(fieldError.invalid(opsPath, operations, "if '*' is present, must not specify other operations"));
  operations.forEach((op, i) => {
    if (!OPERATIONS.includes(op)) errors.push(fieldError.notSupported(index(opsPath, i), op, OPERATIONS));
  });

  const groups = rule.apiGroups ?? [];
  if (groups.length === 0) errors.push(fieldError.required(child(path, 'apiGroups')));
  if (groups.length > 1 && hasWildcard(groups))
    errors.push(fieldError.invalid(child(path, 'apiGroups'), groups, "if '*' is present, must not specify other API groups"));
  const versions = rule.apiVersions ?? [];
  const versionsPath = child(path, 'apiVersions');
  if (versions.length === 0) errors.push(fieldError.required(versionsPath));
  if (versions.length > 1 && hasWildcard(versions))
    errors.push(fieldError.invalid(versionsPath, versions, "if '*' is present, must not specify other API versions"));
  versions.forEach((v, i) => {
    if (v === '') errors.push(fieldError.required(index(versionsPath, i)));
  });
  errors.push(...validateResources(rule.resources ?? [], child(path, 'resources')));
  if (rule.scope !== undefined && !SCOPES.includes(rule.scope)) errors.push(fieldError.notSupported(child(path, 'scope'), rule.scope, SCOPES));
  return errors;
}

/** `validateNamedRuleWithOperations`: unique path-segment resource names, then the rule. */
function validateNamedRule(rule: NamedRuleWithOperations, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const seen = new Set<string>();
  (rule.resourceNames ?? []).forEach((name, i) => {
    const p = index(child(path, 'resourceNames'), i);
    for (const msg of isPathSegmentName(name)) errors.push(fieldError.invalid(p, name, msg));
    if (seen.has(name)) errors.push(fieldError.duplicate(p, name));
    seen.add(name);
  });
  errors.push(...validateRuleWithOperations(rule, path));
  return errors;
}

/** `validateMatchResources`: match policy, both selectors (strictly), and every rule. */
export function validateMatchResources(mr: MatchResources, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (mr.matchPolicy === undefined) errors.push(fieldError.required(child(path, 'matchPolicy')));
  else if (!MATCH_POLICIES.includes(mr.matchPolicy)) errors.push(fieldError.notSupported(child(path, 'matchPolicy'), mr.matchPolicy, MATCH_POLICIES));
  for (const name of ['namespaceSelector', 'objectSelector'] as const) {
    const selector = mr[name];
    if (!selector) errors.push(fieldError.required(child(path, name)));
    else errors.push(...validateLabelSelector(selector, child(path, name)));
  }
  (mr.resourceRules ?? []).forEach((rule, i) => errors.push(...validateNamedRule(rule, index(child(path, 'resourceRules'), i))));
  (mr.excludeResourceRules ?? []).forEach((rule, i) => errors.push(...validateNamedRule(rule, index(child(path, 'excludeResourceRules'), i))));
  return errors;
}

/**
 * Kubernetes' check that a mutating policy or binding names only operations that can be mutated:
 * every operation of every resource rule, reported (as upstream does) at
 * `<path>.resourceRules.operations` without indexes.
 */
export function validateMutatingOperations(mr: MatchResources, path: string): FieldError[] {
  const opsPath = child(child(path, 'resourceRules'), 'operations');
  return (mr.resourceRules ?? []).flatMap((rule) =>
    (rule.operations ?? []).filter((op) => !MUTATING_OPERATIONS.includes(op)).map((op) => fieldError.notSupported(opsPath, op, MUTATING_OPERATIONS)),
  );
}

/** The resources a mutating admission policy may never match: its own kind and its binding's. */
const POLICY_RESOURCES = new Set(['mutatingadmissionpolicies', 'mutatingadmissionpolicybindings']);

/** The message of {@link validateNotMatchingPolicies}. */
export const MATCHES_POLICY_KINDS_MSG = 'must not match MutatingAdmissionPolicy or MutatingAdmissionPolicyBinding resources';

/**
 * memkube's rule that a mutating policy cannot match the policy or binding kinds. Kubernetes
 * accepts such a rule and only exempts these resources when admitting; memkube refuses a resource
 * rule that names one of them (or a subresource of one) under the `admissionregistration` group or
 * a `*` group, and a `*` resource under the `admissionregistration` group itself. A rule of `*`
 * groups and `*` resources stays allowed: it is the usual catch-all and never reaches these kinds.
 */
export function validateNotMatchingPolicies(mr: MatchResources, path: string, apiDomain: string): FieldError[] {
  const group = `admissionregistration.${apiDomain}`;
  const errors: FieldError[] = [];
  (mr.resourceRules ?? []).forEach((rule, i) => {
    const groups = rule.apiGroups ?? [];
    const ownGroup = groups.includes(group);
    if (!ownGroup && !groups.includes('*')) return;
    (rule.resources ?? []).forEach((resSub, j) => {
      const res = resSub.split('/', 1)[0]!;
      if (POLICY_RESOURCES.has(res) || (ownGroup && res === '*'))
        errors.push(fieldError.forbidden(index(child(index(child(path, 'resourceRules'), i), 'resources'), j), MATCHES_POLICY_KINDS_MSG));
    });
  });
  return errors;
}
