/** The rbac.authorization.k8s.io group's kinds, and the bootstrap roles and bindings of a cluster. */
import type { BuiltinObject, KindDefinition } from '../../schema/define-kind.js';
import { BOOTSTRAP_CONTROLLER_ROLE_BINDINGS, BOOTSTRAP_CONTROLLER_ROLES } from './bootstrap-controller-policy.js';
import { BOOTSTRAP_NAMESPACE_ROLE_BINDINGS, BOOTSTRAP_NAMESPACE_ROLES } from './bootstrap-namespace-policy.js';
import { BOOTSTRAP_CLUSTER_ROLE_BINDINGS, BOOTSTRAP_CLUSTER_ROLES } from './bootstrap-policy.js';
import { ClusterRoleBindingKind } from './cluster-role-binding.js';
import { ClusterRoleKind } from './cluster-role.js';
import { RoleBindingKind } from './role-binding.js';
import { RoleKind } from './role.js';

export { ClusterRoleBindingKind, type ClusterRoleBinding } from './cluster-role-binding.js';
export { ClusterRoleKind, type ClusterRole } from './cluster-role.js';
export { RoleBindingKind, type RoleBinding } from './role-binding.js';
export { RoleKind, type Role } from './role.js';

/** ClusterRole, ClusterRoleBinding, Role, RoleBinding. */
export const rbacKinds: readonly KindDefinition[] = [ClusterRoleKind, ClusterRoleBindingKind, RoleKind, RoleBindingKind];

/**
 * What kube-apiserver's `rbac/bootstrap-roles` post-start hook creates: the bootstrap ClusterRoles
 * and the controllers' roles, their ClusterRoleBindings, then the Roles and RoleBindings of
 * kube-system and kube-public (namespaces every cluster starts with).
 */
export const rbacBuiltinObjects: readonly BuiltinObject[] = [
  ...[...BOOTSTRAP_CLUSTER_ROLES, ...BOOTSTRAP_CONTROLLER_ROLES].map((object) => ({ kind: ClusterRoleKind as KindDefinition, object })),
  ...[...BOOTSTRAP_CLUSTER_ROLE_BINDINGS, ...BOOTSTRAP_CONTROLLER_ROLE_BINDINGS].map((object) => ({ kind: ClusterRoleBindingKind as KindDefinition, object })),
  ...BOOTSTRAP_NAMESPACE_ROLES.map((object) => ({ kind: RoleKind as KindDefinition, namespace: object.metadata!.namespace, object })),
  ...BOOTSTRAP_NAMESPACE_ROLE_BINDINGS.map((object) => ({ kind: RoleBindingKind as KindDefinition, namespace: object.metadata!.namespace, object })),
];
