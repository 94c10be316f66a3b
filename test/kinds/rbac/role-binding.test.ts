import { describe, expect, it } from 'vitest';
import { RoleBindingKind, type RoleBinding } from '../../../src/kinds/rbac/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';
import { expectInvalid, SLASH, table } from './helpers.js';

const cluster = useTestCluster();
const bindings = () => cluster.client.resource(RoleBindingKind);
const NS = { namespace: 'default' };
const WHAT = 'RoleBinding.rbac.authorization.k8s.io "rb"';
const RBAC = 'rbac.authorization.k8s.io';

const binding = (over: Partial<RoleBinding> = {}): RoleBinding => ({
  metadata: { name: 'rb' },
  roleRef: { kind: 'ClusterRole', name: 'view' },
  subjects: [
    { kind: 'User', name: 'alice' },
    { kind: 'Group', name: 'devs' },
    { kind: 'ServiceAccount', name: 'robot' },
  ],
  ...over,
});

describe('RoleBinding defaults', () => {
  it('defaults roleRef.apiGroup and the apiGroup of User and Group subjects, not of service accounts', async () => {
    const created = await bindings().create(binding(), NS);
    expect(created.roleRef).toEqual({ apiGroup: RBAC, kind: 'ClusterRole', name: 'view' });
    expect(created.subjects).toEqual([
      { kind: 'User', name: 'alice', apiGroup: RBAC },
      { kind: 'Group', name: 'devs', apiGroup: RBAC },
      { kind: 'ServiceAccount', name: 'robot' },
    ]);
    expect(created.metadata?.generation).toBeUndefined();
  });
});

describe('RoleBinding validation', () => {
  it('needs a roleRef to a Role or ClusterRole of the RBAC group, with a name', async () => {
    await expectInvalid(
      () => bindings().create(binding({ roleRef: { apiGroup: 'example.com', kind: 'Pod', name: '' } }), NS),
      WHAT,
      ['roleRef.apiGroup', `Unsupported value: "example.com": supported values: "${RBAC}"`],
      ['roleRef.kind', 'Unsupported value: "Pod": supported values: "Role", "ClusterRole"'],
      ['roleRef.name', 'Required value'],
    );
    await expectInvalid(() => bindings().create(binding({ roleRef: { kind: 'Role', name: 'a/b' } }), NS), WHAT, [
      'roleRef.name',
      `Invalid value: "a/b": ${SLASH}`,
    ]);
    await expectInvalid(
      () => bindings().create({ metadata: { name: 'rb' } } as RoleBinding, NS),
      WHAT,
      ['roleRef.kind', 'Unsupported value: "": supported values: "Role", "ClusterRole"'],
      ['roleRef.name', 'Required value'],
    );
    expect((await bindings().list(NS)).items).toHaveLength(0);
  });

  it('checks each subject by kind', async () => {
    await expectInvalid(
      () =>
        bindings().create(
          binding({
            subjects: [
              { kind: 'ServiceAccount', name: 'Robot_1', apiGroup: 'v1' },
              { kind: 'User', name: '', apiGroup: 'example.com' },
              { kind: 'Group', name: 'g', apiGroup: 'example.com' },
              { kind: 'Team', name: 't' },
            ],
          }),
          NS,
        ),
      WHAT,
      [
        'subjects[0].name',
        "Invalid value: \"Robot_1\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
      ['subjects[0].apiGroup', 'Unsupported value: "v1": supported values: ""'],
      ['subjects[1].name', 'Required value'],
      ['subjects[1].apiGroup', `Unsupported value: "example.com": supported values: "${RBAC}"`],
      ['subjects[2].apiGroup', `Unsupported value: "example.com": supported values: "${RBAC}"`],
      ['subjects[3].kind', 'Unsupported value: "Team": supported values: "ServiceAccount", "User", "Group"'],
    );
  });

  it('lets a ServiceAccount subject go without a namespace (the binding namespace is meant)', async () => {
    const created = await bindings().create(binding({ subjects: [{ kind: 'ServiceAccount', name: 'robot' }] }), NS);
    expect(created.subjects).toEqual([{ kind: 'ServiceAccount', name: 'robot' }]);
  });
});

describe('RoleBinding updates', () => {
  it('never change roleRef: the exact message, path and Go-printed value', async () => {
    const created = await bindings().create(binding(), NS);
    await expectInvalid(() => bindings().update({ ...created, roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: 'edit' } }, NS), WHAT, [
      'roleRef',
      `Invalid value: rbac.RoleRef{APIGroup:"${RBAC}", Kind:"ClusterRole", Name:"edit"}: cannot change roleRef`,
    ]);
    const s = await statusOf(() => bindings().patch('rb', { roleRef: { kind: 'Role' } }, { type: 'merge', ...NS }));
    expect(s.message).toBe(`${WHAT} is invalid: roleRef: Invalid value: rbac.RoleRef{APIGroup:"${RBAC}", Kind:"Role", Name:"view"}: cannot change roleRef`);
  });

  it('take a roleRef without apiGroup as the same one (defaulting comes first)', async () => {
    const created = await bindings().create(binding(), NS);
    const updated = await bindings().update({ ...created, roleRef: { kind: 'ClusterRole', name: 'view' }, subjects: [{ kind: 'User', name: 'bob' }] }, NS);
    expect(updated.subjects).toEqual([{ kind: 'User', name: 'bob', apiGroup: RBAC }]);
  });

  it('create on PUT', async () => {
    const res = await cluster.fetch(
      new Request('http://memkube/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings/rb', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: `${RBAC}/v1`, kind: 'RoleBinding', ...binding() }),
      }),
    );
    expect(res.status).toBe(201);
  });
});

describe('RoleBinding printing', () => {
  it('prints Role and Age, and with -o wide Users, Groups and ServiceAccounts', async () => {
    await bindings().create(
      binding({ subjects: [...binding().subjects!, { kind: 'User', name: 'carol' }, { kind: 'ServiceAccount', name: 'b', namespace: 'x' }] }),
      NS,
    );
    await bindings().create(binding({ metadata: { name: 'empty' }, roleRef: { kind: 'Role', name: 'r' }, subjects: undefined }), NS);
    const t = await table(cluster, '/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings');
    expect(t.columnDefinitions.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Role', 'string', 0],
      ['Age', 'string', 0],
      ['Users', 'string', 1],
      ['Groups', 'string', 1],
      ['ServiceAccounts', 'string', 1],
    ]);
    expect(t.rows.map((r) => r.cells)).toEqual([
      ['empty', 'Role/r', '0s', '', '', ''],
      ['rb', 'ClusterRole/view', '0s', 'alice, carol', 'devs', '/robot, x/b'],
    ]);
  });
});

describe('RoleBinding hostile input', () => {
  it.each([
    ['a string roleRef', { roleRef: 'view' }],
    ['a number as subject name', { subjects: [{ kind: 'User', name: 5 }] }],
    ['an object as subjects', { subjects: { kind: 'User' } }],
  ])('answers %s with a 4xx and stores nothing', async (_, over) => {
    const s = await statusOf(() => bindings().create(binding(over as unknown as Partial<RoleBinding>), NS));
    expect(s.code).toBeGreaterThanOrEqual(400);
    expect(s.code).toBeLessThan(500);
    expect((await bindings().list(NS)).items).toHaveLength(0);
  });
});
