/** ClusterRoleBinding (rbac.authorization.k8s.io/v1, cluster-scoped). */
import { defineKind } from '../../schema/define-kind.js';
import { pathSegmentNameValidator } from '../../schema/validation/names.js';
import { ClusterRoleBinding as ClusterRoleBindingSchema } from '../types/rbac-v1.js';
import { applyBindingDefaults, bindingColumns, validateBinding, validateRoleRefUnchanged, type Binding } from './binding.js';
import { checkBindingWrite } from './escalation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ClusterRoleBinding object. */
export type ClusterRoleBinding = ClusterRoleBindingSchema;

/**
 * ClusterRoleBinding: grants a ClusterRole in every namespace to users, groups and service accounts
 * (each with its namespace). `roleRef.apiGroup` and subjects' `apiGroup` are defaulted; `roleRef`
 * never changes. PUT creates; no generation.
 */
export const ClusterRoleBindingKind = defineKind<ClusterRoleBinding>({
  group: 'rbac.authorization.{api_domain}',
  kind: 'ClusterRoleBinding',
  plural: 'clusterrolebindings',
  scope: 'Cluster',
  // No generation: pkg/registry/rbac/clusterrolebinding/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', ClusterRoleBindingSchema, { storage: true })],
  nameValidator: pathSegmentNameValidator,
  allowCreateOnUpdate: true,
  schemaRequired: false,
  printerColumns: bindingColumns('clusterRoleBinding'),
  strategy: {
    // The policy-based storage: bind only what the writer may bind or holds (pkg/registry/rbac/clusterrolebinding/policybased).
    prepareForCreate: (crb, ctx) => checkBindingWrite('clusterrolebindings', crb, undefined, ctx),
    prepareForUpdate: (crb, old, ctx) => checkBindingWrite('clusterrolebindings', crb, old, ctx),
    defaults: (rb, ctx) => applyBindingDefaults(rb as Binding, ctx),
    validate: (rb, ctx) => (ctx.operation === 'create' ? validateBinding(rb as Binding, false, ctx) : []),
    // ValidateClusterRoleBinding, then ValidateClusterRoleBindingUpdate: the same rules again, and roleRef unchanged.
    validateUpdate(rb, old, ctx) {
      const errs = validateBinding(rb as Binding, false, ctx);
      return [...errs, ...errs, ...validateRoleRefUnchanged(rb as Binding, old as Binding)];
    },
  },
});
