import { describe, expect, it } from 'vitest';
import { ClusterRoleBindingKind, type ClusterRoleBinding } from '../../../src/kinds/rbac/index.js';
import { useTestCluster } from '../../support/cluster.js';
import { expectInvalid, table } from './helpers.js';

const cluster = useTestCluster();
const bindings = () => cluster.client.resource(ClusterRoleBindingKind);
const WHAT = 'ClusterRoleBinding.rbac.authorization.k8s.io "crb"';
const RBAC = 'rbac.authorization.k8s.io';

const binding = (over: Partial<ClusterRoleBinding> = {}): ClusterRoleBinding => ({
  metadata: { name: 'crb' },
  roleRef: { kind: 'ClusterRole', name: 'view' },
  subjects: [{ kind: 'ServiceAccount', name: 'robot', namespace: 'default' }],
  ...over,
});

describe('ClusterRoleBinding', () => {
  it('is cluster-scoped, with the defaults of a RoleBinding', async () => {
    const created = await bindings().create(binding({ subjects: [{ kind: 'Group', name: 'g' }, ...binding().subjects!] }));
    expect(created.metadata?.namespace).toBeUndefined();
    expect(created.roleRef.apiGroup).toBe(RBAC);
    expect(created.subjects).toEqual([
      { kind: 'Group', name: 'g', apiGroup: RBAC },
      { kind: 'ServiceAccount', name: 'robot', namespace: 'default' },
    ]);
  });

  it('binds only ClusterRoles, and needs the namespace of a service account', async () => {
    await expectInvalid(
      () => bindings().create(binding({ roleRef: { kind: 'Role', name: 'r' }, subjects: [{ kind: 'ServiceAccount', name: 'robot' }] })),
      WHAT,
      ['roleRef.kind', 'Unsupported value: "Role": supported values: "ClusterRole"'],
      ['subjects[0].namespace', 'Required value'],
    );
  });

  it('never changes roleRef', async () => {
    const created = await bindings().create(binding());
    await expectInvalid(() => bindings().update({ ...created, roleRef: { ...created.roleRef, name: 'admin' } }), WHAT, [
      'roleRef',
      `Invalid value: rbac.RoleRef{APIGroup:"${RBAC}", Kind:"ClusterRole", Name:"admin"}: cannot change roleRef`,
    ]);
  });

  it('reports each rule error twice in the causes of an update, then the roleRef change', async () => {
    const created = await bindings().create(binding());
    await expectInvalid(
      () => bindings().update({ ...created, roleRef: { ...created.roleRef, name: 'edit' }, subjects: [{ kind: 'User', name: 'u', apiGroup: 'x' }] }),
      WHAT,
      ['subjects[0].apiGroup', `Unsupported value: "x": supported values: "${RBAC}"`],
      ['subjects[0].apiGroup', `Unsupported value: "x": supported values: "${RBAC}"`],
      ['roleRef', `Invalid value: rbac.RoleRef{APIGroup:"${RBAC}", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef`],
    );
  });

  it('prints Role, Age and the wide subject columns', async () => {
    await bindings().create(binding({ subjects: [{ kind: 'User', name: 'bob' }, ...binding().subjects!] }));
    const t = await table(cluster, '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/crb');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Role', 'Age', 'Users', 'Groups', 'ServiceAccounts']);
    expect(t.rows[0]?.cells).toEqual(['crb', 'ClusterRole/view', '0s', 'bob', '', 'default/robot']);
  });
});
