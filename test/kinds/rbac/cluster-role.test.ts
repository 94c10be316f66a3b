import { describe, expect, it } from 'vitest';
import { ClusterRoleBindingKind, ClusterRoleKind, type ClusterRole } from '../../../src/kinds/rbac/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';
import { expectInvalid, table } from './helpers.js';

const cluster = useTestCluster();
const roles = () => cluster.client.resource(ClusterRoleKind);
const WHAT = 'ClusterRole.rbac.authorization.k8s.io "c"';

const clusterRole = (over: Partial<ClusterRole> = {}): ClusterRole => ({
  metadata: { name: 'c' },
  rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
  ...over,
});

describe('ClusterRole', () => {
  it('is served cluster-scoped and takes non-resource URLs', async () => {
    const created = await roles().create(clusterRole());
    expect(created).toMatchObject({
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'ClusterRole',
      rules: [{ nonResourceURLs: ['/healthz'], verbs: ['get'] }],
    });
    expect(created.metadata?.namespace).toBeUndefined();
    expect(created.metadata?.generation).toBeUndefined();
  });

  it('checks its rules as a Role does, but allows non-resource URLs', async () => {
    await expectInvalid(
      () => roles().create(clusterRole({ rules: [{ nonResourceURLs: ['/x'], apiGroups: [''], verbs: [] }] })),
      WHAT,
      ['rules[0].verbs', 'Required value: verbs must contain at least one value'],
      ['rules[0].nonResourceURLs', 'Invalid value: ["/x"]: rules cannot apply to both regular resources and non-resource URLs'],
    );
  });

  it('needs at least one selector in an aggregation rule, and valid selectors', async () => {
    await expectInvalid(() => roles().create(clusterRole({ aggregationRule: {} })), WHAT, [
      'aggregationRule.clusterRoleSelectors',
      'Required value: at least one clusterRoleSelector required if aggregationRule is non-nil',
    ]);
    await expectInvalid(
      () => roles().create(clusterRole({ aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Is' }] }] } })),
      WHAT,
      ['aggregationRule.clusterRoleSelectors[0].matchExpressions[0].operator', 'Invalid value: "Is": not a valid selector operator'],
      ['aggregationRule.clusterRoleSelectors[0]', 'Invalid value: null: invalid label selector.'],
    );
    await expectInvalid(
      () => roles().create(clusterRole({ aggregationRule: { clusterRoleSelectors: [{ matchLabels: { a: 'b c' } }] } })),
      WHAT,
      [
        'aggregationRule.clusterRoleSelectors[0].matchLabels',
        "Invalid value: \"b c\": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
      ],
      ['aggregationRule.clusterRoleSelectors[0]', 'Invalid value: null: invalid label selector.'],
    );
  });

  it('prints the default table: Name and Created At', async () => {
    const t = await table(cluster, '/apis/rbac.authorization.k8s.io/v1/clusterroles/cluster-admin');
    expect(t.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Created At']);
    expect(t.rows[0]?.cells).toEqual(['cluster-admin', '2026-01-01T00:00:00Z']);
  });

  it('answers a hostile aggregation rule with a 4xx and stores nothing', async () => {
    for (const aggregationRule of [{ clusterRoleSelectors: 'all' }, { clusterRoleSelectors: [{ matchLabels: ['a'] }] }, [1]]) {
      const s = await statusOf(() => roles().create(clusterRole({ aggregationRule } as never)));
      expect(s.code).toBeGreaterThanOrEqual(400);
      expect(s.code).toBeLessThan(500);
    }
    await expect(roles().get('c')).rejects.toMatchObject({ status: { code: 404 } });
  });
});

describe('the bootstrap ClusterRoles and ClusterRoleBindings', () => {
  it('exist in a new cluster, labelled and annotated as a real server makes them', async () => {
    const names = (await roles().list()).items.map((r) => r.metadata?.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'cluster-admin',
        'admin',
        'edit',
        'view',
        'system:aggregate-to-admin',
        'system:aggregate-to-edit',
        'system:aggregate-to-view',
        'system:discovery',
        'system:basic-user',
        'system:public-info-viewer',
        'system:node',
        'system:kube-scheduler',
      ]),
    );
    const admin = await roles().get('cluster-admin');
    expect(admin.metadata).toMatchObject({
      labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults' },
      annotations: { 'rbac.authorization.kubernetes.io/autoupdate': 'true' },
    });
    expect(admin.rules).toEqual([
      { apiGroups: ['*'], resources: ['*'], verbs: ['*'] },
      { nonResourceURLs: ['*'], verbs: ['*'] },
    ]);
    const binding = await cluster.client.resource(ClusterRoleBindingKind).get('cluster-admin');
    expect(binding.roleRef).toEqual({ apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'cluster-admin' });
    expect(binding.subjects).toEqual([{ apiGroup: 'rbac.authorization.k8s.io', kind: 'Group', name: 'system:masters' }]);
  });

  it('aggregate view into edit and edit into admin, owned by the aggregation controller', async () => {
    const view = await roles().get('view');
    const edit = await roles().get('edit');
    const admin = await roles().get('admin');
    const aggregateToView = await roles().get('system:aggregate-to-view');
    expect(view.rules).toEqual(aggregateToView.rules);
    expect(edit.rules).toEqual(expect.arrayContaining([...aggregateToView.rules!, ...(await roles().get('system:aggregate-to-edit')).rules!]));
    expect(admin.rules).toEqual(expect.arrayContaining([...edit.rules!, ...(await roles().get('system:aggregate-to-admin')).rules!]));
    expect(admin.rules).toContainEqual({
      apiGroups: ['rbac.authorization.k8s.io'],
      resources: ['rolebindings', 'roles'],
      verbs: expect.arrayContaining(['create']),
    });
    expect((view.metadata?.managedFields as { manager: string; operation: string }[]).map((m) => [m.manager, m.operation])).toContainEqual([
      'clusterrole-aggregation-controller',
      'Apply',
    ]);
  });

  it('are the same objects in every new cluster, each with its own uid', async () => {
    const first = await roles().get('edit');
    const other = await (await import('../../support/cluster.js')).testCluster();
    try {
      const again = await other.client.resource(ClusterRoleKind).get('edit');
      expect(again.rules).toEqual(first.rules);
      expect(again.metadata?.uid).not.toBe(first.metadata?.uid);
      expect(again.metadata?.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    } finally {
      await other.close();
    }
  });
});
