/** ClusterRole (rbac.authorization.k8s.io/v1, cluster-scoped). */
import { fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { pathSegmentNameValidator } from '../../schema/validation/names.js';
import { labelSelectorFromObject, SelectorParseError } from '../../selectors/label-selector.js';
import { validateLabelSelector, type LabelSelectorValidationOptions } from '../shared/label-selector-validation.js';
import { ClusterRole as ClusterRoleSchema } from '../types/rbac-v1.js';
import { validatePolicyRules } from './policy-rule.js';
import { checkRoleWrite } from './escalation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ClusterRole object. */
export type ClusterRole = ClusterRoleSchema;

const SELECTORS = 'aggregationRule.clusterRoleSelectors';

/** `ValidateClusterRole` without ObjectMeta: the rules, and the aggregation rule's selectors. */
function validateClusterRole(role: ClusterRole, options: LabelSelectorValidationOptions): FieldError[] {
  const errs = validatePolicyRules(role.rules, false);
  const rule = role.aggregationRule;
  if (rule) {
    const selectors = rule.clusterRoleSelectors ?? [];
    if (selectors.length === 0) errs.push(fieldError.required(SELECTORS, 'at least one clusterRoleSelector required if aggregationRule is non-nil'));
    selectors.forEach((selector, i) => {
      const path = index(SELECTORS, i);
      errs.push(...validateLabelSelector(selector, path, options));
      try {
        labelSelectorFromObject(selector);
      } catch (e) {
        if (!(e instanceof SelectorParseError)) throw e;
        // metav1.LabelSelectorAsSelector failed: Kubernetes reports its nil result.
        errs.push(fieldError.invalid(path, null, 'invalid label selector.'));
      }
    });
  }
  return errs;
}

/** Whether a stored role's selectors have label values `ValidateLabelSelector` refuses (they stay allowed on update). */
function hasInvalidLabelValue(role: Readonly<ClusterRole>): boolean {
  return (role.aggregationRule?.clusterRoleSelectors ?? []).some((s, i) => {
    const strict = validateLabelSelector(s, index(SELECTORS, i));
    const lenient = validateLabelSelector(s, index(SELECTORS, i), { allowInvalidLabelValueInSelector: true });
    return strict.length > lenient.length;
  });
}

/**
 * ClusterRole: policy rules for the whole cluster (non-resource URLs allowed) or, with
 * `aggregationRule.clusterRoleSelectors`, rules the cluster-role aggregation controller keeps
 * equal to the union of the rules of the ClusterRoles the selectors match. PUT creates; no
 * generation; `kubectl get` prints Kubernetes' default table (Name, Created At).
 */
export const ClusterRoleKind = defineKind<ClusterRole>({
  group: 'rbac.authorization.{api_domain}',
  kind: 'ClusterRole',
  plural: 'clusterroles',
  scope: 'Cluster',
  // No generation: pkg/registry/rbac/clusterrole/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', ClusterRoleSchema, { storage: true })],
  nameValidator: pathSegmentNameValidator,
  allowCreateOnUpdate: true,
  schemaRequired: false,
  defaultTable: true,
  strategy: {
    // The policy-based storage: no rules the writer does not hold, and an aggregation rule only
    // for a writer who holds everything (pkg/registry/rbac/clusterrole/policybased).
    prepareForCreate: (role, ctx) => checkRoleWrite('clusterroles', role, undefined, ctx),
    prepareForUpdate: (role, old, ctx) => checkRoleWrite('clusterroles', role, old, ctx),
    validate: (role, ctx) => (ctx.operation === 'create' ? validateClusterRole(role, {}) : []),
    // Kubernetes' ValidateUpdate runs ValidateClusterRole, then ValidateClusterRoleUpdate, which runs
    // it again (each cause is reported twice), with invalid label values allowed when the stored
    // role already has some.
    validateUpdate(role, old) {
      const errs = validateClusterRole(role, { allowInvalidLabelValueInSelector: hasInvalidLabelValue(old) });
      return [...errs, ...errs];
    },
  },
});
