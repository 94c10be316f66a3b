import { describe, expect, it } from 'vitest';
import { RoleKind, type Role } from '../../../src/kinds/rbac/index.js';
import { T0, statusOf, useTestCluster } from '../../support/cluster.js';
import { expectInvalid, SLASH, table } from './helpers.js';

const cluster = useTestCluster();
const roles = () => cluster.client.resource(RoleKind);
const NS = { namespace: 'default' };

const role = (rules: Role['rules'], name = 'r'): Role => ({ metadata: { name }, rules });
const podReader = (): Role => role([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);

describe('Role', () => {
  it('is served namespaced at rbac.authorization.k8s.io/v1, stored as sent, without a generation', async () => {
    const created = await roles().create(podReader(), NS);
    expect(created).toMatchObject({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', metadata: { name: 'r', namespace: 'default' } });
    expect(created.rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }]);
    expect(created.metadata?.generation).toBeUndefined();
    const res = await cluster.fetch(new Request('http://memkube/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/r'));
    expect(res.status).toBe(200);
  });

  it('requires verbs, API groups and resources, with Kubernetes messages and paths', async () => {
    await expectInvalid(
      () => roles().create(role([{ verbs: [] }, { apiGroups: [''], resources: ['pods'], verbs: ['get'] }, { verbs: ['get'], resources: ['pods'] }]), NS),
      'Role.rbac.authorization.k8s.io "r"',
      ['rules[0].verbs', 'Required value: verbs must contain at least one value'],
      ['rules[0].apiGroups', 'Required value: resource rules must supply at least one api group'],
      ['rules[0].resources', 'Required value: resource rules must supply at least one resource'],
      ['rules[2].apiGroups', 'Required value: resource rules must supply at least one api group'],
    );
    expect((await roles().list(NS)).items).toHaveLength(0);
  });

  it('refuses non-resource URLs in a namespaced role, and rules mixing both', async () => {
    await expectInvalid(() => roles().create(role([{ nonResourceURLs: ['/healthz'], verbs: ['get'] }]), NS), 'Role.rbac.authorization.k8s.io "r"', [
      'rules[0].nonResourceURLs',
      'Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs',
    ]);
    await expectInvalid(
      () => roles().create(role([{ nonResourceURLs: ['/healthz'], resources: ['pods'], verbs: ['get'] }]), NS),
      'Role.rbac.authorization.k8s.io "r"',
      ['rules[0].nonResourceURLs', 'Invalid value: ["/healthz"]: namespaced rules cannot apply to non-resource URLs'],
      ['rules[0].nonResourceURLs', 'Invalid value: ["/healthz"]: rules cannot apply to both regular resources and non-resource URLs'],
    );
  });

  it('accepts resourceNames with several resources (v1.36 has no such rule)', async () => {
    const created = await roles().create(role([{ apiGroups: [''], resources: ['pods', 'secrets'], resourceNames: ['a'], verbs: ['get'] }]), NS);
    expect(created.rules?.[0]?.resourceNames).toEqual(['a']);
  });

  it('takes names that are path segments, not only DNS names', async () => {
    const created = await roles().create({ ...podReader(), metadata: { name: 'system:Reader_1' } }, NS);
    expect(created.metadata?.name).toBe('system:Reader_1');
    await expectInvalid(() => roles().create({ ...podReader(), metadata: { name: 'a/b' } }, NS), 'Role.rbac.authorization.k8s.io "a/b"', [
      'metadata.name',
      `Invalid value: "a/b": ${SLASH}`,
    ]);
  });

  it('reports each rule error twice in the causes of an update, as Kubernetes validates twice', async () => {
    const created = await roles().create(podReader(), NS);
    await expectInvalid(
      () => roles().update({ ...created, rules: [{ resources: ['pods'], verbs: ['get'] }] }, NS),
      'Role.rbac.authorization.k8s.io "r"',
      ['rules[0].apiGroups', 'Required value: resource rules must supply at least one api group'],
      ['rules[0].apiGroups', 'Required value: resource rules must supply at least one api group'],
    );
  });

  it('creates on PUT and updates without a resourceVersion', async () => {
    const res = await cluster.fetch(
      new Request('http://memkube/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles/r', {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', ...podReader() }),
      }),
    );
    expect(res.status).toBe(201);
    const updated = await roles().update({ metadata: { name: 'r' }, rules: [{ apiGroups: ['apps'], resources: ['deployments'], verbs: ['get'] }] }, NS);
    expect(updated.rules?.[0]?.apiGroups).toEqual(['apps']);
  });

  it('prints the default table: Name and Created At (RFC 3339), no Age', async () => {
    await roles().create(podReader(), NS);
    cluster.clock.advance(3_600_000);
    const t = await table(cluster, '/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles');
    expect(t.columnDefinitions.map((c) => [c.name, c.type, c.format])).toEqual([
      ['Name', 'string', 'name'],
      ['Created At', 'date', ''],
    ]);
    expect(t.rows.map((r) => r.cells)).toEqual([['r', T0.toISOString().replace('.000Z', 'Z')]]);
  });

  it('answers malformed rules with a 4xx and stores nothing', async () => {
    for (const rules of [[{ verbs: 'get' }], ['get'], [{ verbs: ['get'], apiGroups: [1] }], { a: 1 }]) {
      const s = await statusOf(() => roles().create({ metadata: { name: 'bad' }, rules } as never, NS));
      expect(s.code).toBeGreaterThanOrEqual(400);
      expect(s.code).toBeLessThan(500);
    }
    expect((await roles().list(NS)).items).toHaveLength(0);
  });
});
