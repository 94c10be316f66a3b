/** A test cluster whose authorizer is RBAC over its own storage, and shorthands for RBAC objects. */
import type { Cluster, ClusterOptions } from '../../../src/cluster.js';
import type { AuthorizationAttributes, Authorizer } from '../../../src/machinery/auth.js';
import type { UserInfo } from '../../../src/machinery/request.js';
import { ClusterRoleBindingKind, ClusterRoleKind, RoleBindingKind, RoleKind } from '../../../src/kinds/index.js';
import type { PolicyRule, Subject } from '../../../src/kinds/types/rbac-v1.js';
import { useTestCluster } from '../../support/cluster.js';

/**
 * A fresh cluster per test with `--authorization-mode=RBAC`, and its authorizer chain (the
 * `system:masters` authorizer, then RBAC).
 */
export function useRbacCluster(options: ClusterOptions = {}): { readonly cluster: Cluster; readonly authorizer: Authorizer } {
  const cluster = useTestCluster({ ...options, authorization: { modes: ['RBAC'] } });
  return {
    cluster,
    get authorizer() {
      return cluster.access.authorizer;
    },
  };
}

export const alice: UserInfo = { username: 'alice', groups: ['devs', 'system:authenticated'] };

export const rule = (verbs: string[], resources: string[], apiGroups: string[] = [''], resourceNames?: string[]): PolicyRule =>
  resourceNames ? { verbs, apiGroups, resources, resourceNames } : { verbs, apiGroups, resources };

export const user = (name: string): Subject => ({ kind: 'User', name, apiGroup: 'rbac.authorization.k8s.io' });
export const group = (name: string): Subject => ({ kind: 'Group', name, apiGroup: 'rbac.authorization.k8s.io' });
export const serviceAccount = (name: string, namespace?: string): Subject =>
  namespace ? { kind: 'ServiceAccount', name, namespace } : { kind: 'ServiceAccount', name };

/** Creates (as the cluster admin) a ClusterRole. */
export const clusterRole = (cluster: Cluster, name: string, rules: PolicyRule[], labels?: Record<string, string>) =>
  cluster.client.resource(ClusterRoleKind).create({ metadata: { name, labels }, rules });
export const role = (cluster: Cluster, namespace: string, name: string, rules: PolicyRule[]) =>
  cluster.client.resource(RoleKind).create({ metadata: { name }, rules }, { namespace });
export const clusterRoleBinding = (cluster: Cluster, name: string, roleName: string, subjects: Subject[]) =>
  cluster.client
    .resource(ClusterRoleBindingKind)
    .create({ metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: roleName }, subjects });
export const roleBinding = (cluster: Cluster, namespace: string, name: string, roleRef: { kind: 'Role' | 'ClusterRole'; name: string }, subjects: Subject[]) =>
  cluster.client
    .resource(RoleBindingKind)
    .create({ metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', ...roleRef }, subjects }, { namespace });

/** Attributes of a resource request. */
export const ask = (who: UserInfo, verb: string, resource: string, more: Partial<AuthorizationAttributes> = {}): AuthorizationAttributes => ({
  user: who,
  verb,
  resourceRequest: true,
  apiGroup: '',
  resource,
  ...more,
});
