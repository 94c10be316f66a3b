/** RoleBinding (rbac.authorization.k8s.io/v1, namespaced). */
import { defineKind } from '../../schema/define-kind.js';
import { pathSegmentNameValidator } from '../../schema/validation/names.js';
import { RoleBinding as RoleBindingSchema } from '../types/rbac-v1.js';
import { applyBindingDefaults, bindingColumns, validateBinding, validateRoleRefUnchanged, type Binding } from './binding.js';
import { checkBindingWrite } from './escalation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A RoleBinding object. */
export type RoleBinding = RoleBindingSchema;

/**
 * RoleBinding: grants a Role of its namespace, or a ClusterRole, to users, groups and service
 * accounts. `roleRef.apiGroup` and subjects' `apiGroup` are defaulted; `roleRef` never changes.
 * PUT creates; no generation.
 */
export const RoleBindingKind = defineKind<RoleBinding>({
  group: 'rbac.authorization.{api_domain}',
  kind: 'RoleBinding',
  plural: 'rolebindings',
  scope: 'Namespaced',
  // No generation: pkg/registry/rbac/rolebinding/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', RoleBindingSchema, { storage: true })],
  nameValidator: pathSegmentNameValidator,
  allowCreateOnUpdate: true,
  schemaRequired: false,
  printerColumns: bindingColumns('roleBinding'),
  strategy: {
    // The policy-based storage: bind only what the writer may bind or holds (pkg/registry/rbac/rolebinding/policybased).
    prepareForCreate: (rb, ctx) => checkBindingWrite('rolebindings', rb, undefined, ctx),
    prepareForUpdate: (rb, old, ctx) => checkBindingWrite('rolebindings', rb, old, ctx),
    defaults: (rb, ctx) => applyBindingDefaults(rb as Binding, ctx),
    validate: (rb, ctx) => (ctx.operation === 'create' ? validateBinding(rb as Binding, true, ctx) : []),
    // ValidateRoleBinding, then ValidateRoleBindingUpdate: the same rules again, and roleRef unchanged.
    validateUpdate(rb, old, ctx) {
      const errs = validateBinding(rb as Binding, true, ctx);
      return [...errs, ...errs, ...validateRoleRefUnchanged(rb as Binding, old as Binding)];
    },
  },
});
