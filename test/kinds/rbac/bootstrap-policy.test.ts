import { describe, expect, it } from 'vitest';
import { ClusterRoleBindingKind, ClusterRoleKind, RoleBindingKind, RoleKind } from '../../../src/kinds/index.js';
import { BOOTSTRAP_CONTROLLER_ROLE_BINDINGS, BOOTSTRAP_CONTROLLER_ROLES } from '../../../src/kinds/rbac/bootstrap-controller-policy.js';
import { BOOTSTRAP_NAMESPACE_ROLE_BINDINGS, BOOTSTRAP_NAMESPACE_ROLES } from '../../../src/kinds/rbac/bootstrap-namespace-policy.js';
import { BOOTSTRAP_CLUSTER_ROLE_BINDINGS, BOOTSTRAP_CLUSTER_ROLES } from '../../../src/kinds/rbac/bootstrap-policy.js';
import { useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const LABELS = { 'kubernetes.io/bootstrapping': 'rbac-defaults' };
const ANNOTATIONS = { 'rbac.authorization.kubernetes.io/autoupdate': 'true' };

describe('the bootstrap RBAC policy', () => {
  it('binds every controller role to the service account of its controller in kube-system', () => {
    expect(BOOTSTRAP_CONTROLLER_ROLES).toHaveLength(38);
    expect(BOOTSTRAP_CONTROLLER_ROLE_BINDINGS.find((b) => b.metadata?.name === 'system:controller:namespace-controller')).toEqual({
      metadata: { name: 'system:controller:namespace-controller', labels: LABELS, annotations: ANNOTATIONS },
      roleRef: { kind: 'ClusterRole', name: 'system:controller:namespace-controller' },
      subjects: [{ kind: 'ServiceAccount', name: 'namespace-controller', namespace: 'kube-system' }],
    });
    const names = BOOTSTRAP_CONTROLLER_ROLES.map((r) => r.metadata?.name);
    expect(names).toEqual([...names].sort());
  });

  it('refers only to roles it creates, with unique names', () => {
    const clusterRoles = new Set([...BOOTSTRAP_CLUSTER_ROLES, ...BOOTSTRAP_CONTROLLER_ROLES].map((r) => r.metadata?.name));
    expect(clusterRoles.size).toBe(BOOTSTRAP_CLUSTER_ROLES.length + BOOTSTRAP_CONTROLLER_ROLES.length);
    for (const b of [...BOOTSTRAP_CLUSTER_ROLE_BINDINGS, ...BOOTSTRAP_CONTROLLER_ROLE_BINDINGS]) expect(clusterRoles.has(b.roleRef.name)).toBe(true);
    const roles = new Set(BOOTSTRAP_NAMESPACE_ROLES.map((r) => `${r.metadata?.namespace}/${r.metadata?.name}`));
    for (const b of BOOTSTRAP_NAMESPACE_ROLE_BINDINGS) expect(roles.has(`${b.metadata?.namespace}/${b.roleRef.name}`)).toBe(true);
  });

  it('is stored in a new cluster: controller roles, their bindings, and the Roles and RoleBindings of kube-system and kube-public', async () => {
    const role = await cluster.client.resource(ClusterRoleKind).get('system:controller:clusterrole-aggregation-controller');
    expect(role.rules).toEqual([
      { apiGroups: ['rbac.authorization.k8s.io'], resources: ['clusterroles'], verbs: ['escalate', 'get', 'list', 'patch', 'update', 'watch'] },
    ]);
    const crb = await cluster.client.resource(ClusterRoleBindingKind).get('system:controller:clusterrole-aggregation-controller');
    expect(crb.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'system:controller:clusterrole-aggregation-controller' });
    const leader = await cluster.client.resource(RoleKind).get('system::leader-locking-kube-scheduler', { namespace: 'kube-system' });
    expect(leader.metadata).toMatchObject({ namespace: 'kube-system', labels: LABELS, annotations: ANNOTATIONS });
    const signer = await cluster.client.resource(RoleBindingKind).get('system:controller:bootstrap-signer', { namespace: 'kube-public' });
    expect(signer.subjects).toEqual([{ kind: 'ServiceAccount', name: 'bootstrap-signer', namespace: 'kube-system' }]);
    const rbs = await cluster.client.resource(RoleBindingKind).list({ namespace: 'kube-system' });
    expect(rbs.items.map((b) => b.metadata?.name)).toEqual([
      'system::extension-apiserver-authentication-reader',
      'system::leader-locking-kube-controller-manager',
      'system::leader-locking-kube-scheduler',
      'system:controller:bootstrap-signer',
      'system:controller:cloud-provider',
      'system:controller:token-cleaner',
    ]);
  });
});
