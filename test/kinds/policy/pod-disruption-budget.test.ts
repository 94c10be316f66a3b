import { describe, expect, it } from 'vitest';
import { PodDisruptionBudgetKind, type PodDisruptionBudget } from '../../../src/kinds/policy/index.js';
import { MemoryStorage } from '../../../src/storage/memory.js';
import { statusOf, testCluster, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const pdbs = () => cluster.client.resource(PodDisruptionBudgetKind);
const NS = { namespace: 'default' };
const WHAT = 'PodDisruptionBudget.policy "p"';

type Spec = NonNullable<PodDisruptionBudget['spec']>;
const pdb = (spec: Spec = { minAvailable: 1, selector: { matchLabels: { app: 'web' } } }): PodDisruptionBudget => ({ metadata: { name: 'p' }, spec });

const PERCENT = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

async function expectInvalid(write: () => Promise<unknown>, ...causes: [string, string][]) {
  const s = await statusOf(write);
  const lines = causes.map(([f, m]) => `${f}: ${m}`);
  expect(s).toMatchObject({ code: 422, reason: 'Invalid', message: `${WHAT} is invalid: ${lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`}` });
  expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual(causes);
}

describe('PodDisruptionBudget create', () => {
  it('starts at generation 1 with the zero status a real server serializes, whatever status was sent', async () => {
    const created = await pdbs().create({ ...pdb(), status: { disruptionsAllowed: 5, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3 } }, NS);
    expect(created).toMatchObject({ apiVersion: 'policy/v1', kind: 'PodDisruptionBudget', metadata: { name: 'p', namespace: 'default', generation: 1 } });
    expect(created.spec).toEqual({ minAvailable: 1, selector: { matchLabels: { app: 'web' } } });
    expect(created.status).toEqual({ disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 });
  });

  it('serializes an empty spec for a budget without one, and sets no default policy', async () => {
    const created = await pdbs().create({ metadata: { name: 'p' } }, NS);
    expect(created.spec).toEqual({});
  });

  it('drops the v1beta1 empty-selector label from a selector that is not the match-none one', async () => {
    const label = 'pdb.kubernetes.io/deprecated-v1beta1-empty-selector-match';
    const mixed = await pdbs().create(
      pdb({ selector: { matchLabels: { app: 'web', [label]: 'x' }, matchExpressions: [{ key: label, operator: 'Exists' }] } }),
      NS,
    );
    expect(mixed.spec?.selector).toEqual({ matchLabels: { app: 'web' } });
    const none = await pdbs().create({ metadata: { name: 'none' }, spec: { selector: { matchExpressions: [{ key: label, operator: 'Exists' }] } } }, NS);
    expect(none.spec?.selector).toEqual({ matchExpressions: [{ key: label, operator: 'Exists' }] });
  });
});

describe('PodDisruptionBudget validation', () => {
  it('refuses minAvailable and maxUnavailable together (the spec is shown as Go prints it)', async () => {
    await expectInvalid(
      () => pdbs().create(pdb({ minAvailable: 1, maxUnavailable: '10%' }), NS),
      [
        'spec',
        'Invalid value: policy.PodDisruptionBudgetSpec{MinAvailable:(*intstr.IntOrString)(0xc000000000), Selector:(*v1.LabelSelector)(nil), MaxUnavailable:(*intstr.IntOrString)(0xc000000000), UnhealthyPodEvictionPolicy:(*policy.UnhealthyPodEvictionPolicyType)(nil)}: minAvailable and maxUnavailable cannot be both set',
      ],
    );
    expect((await pdbs().list(NS)).items).toHaveLength(0);
  });

  it('checks the integer or percentage of minAvailable and maxUnavailable', async () => {
    await expectInvalid(() => pdbs().create(pdb({ minAvailable: -1 }), NS), ['spec.minAvailable', 'Invalid value: -1: must be greater than or equal to 0']);
    await expectInvalid(
      () => pdbs().create(pdb({ maxUnavailable: '5' }), NS),
      ['spec.maxUnavailable', `Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"5"}: ${PERCENT}`],
    );
    await expectInvalid(
      () => pdbs().create(pdb({ minAvailable: '101%' }), NS),
      ['spec.minAvailable', 'Invalid value: intstr.IntOrString{Type:1, IntVal:0, StrVal:"101%"}: must not be greater than 100%'],
    );
    for (const ok of [0, '0%', '100%', 3]) await pdbs().create({ metadata: { name: `ok-${String(ok).replace('%', 'p')}` }, spec: { maxUnavailable: ok } }, NS);
  });

  it('checks the selector and unhealthyPodEvictionPolicy', async () => {
    await expectInvalid(
      () => pdbs().create(pdb({ selector: { matchExpressions: [{ key: 'app', operator: 'In' }] }, unhealthyPodEvictionPolicy: 'Sometimes' }), NS),
      ['spec.selector.matchExpressions[0].values', "Required value: must be specified when `operator` is 'In' or 'NotIn'"],
      ['spec.unhealthyPodEvictionPolicy', 'Unsupported value: "Sometimes": supported values: "AlwaysAllow", "IfHealthyBudget"'],
    );
    const ok = await pdbs().create(pdb({ minAvailable: 1, unhealthyPodEvictionPolicy: 'AlwaysAllow' }), NS);
    expect(ok.spec?.unhealthyPodEvictionPolicy).toBe('AlwaysAllow');
  });
});

describe('PodDisruptionBudget updates', () => {
  it('allow spec changes, bump the generation only for them, and need a resourceVersion', async () => {
    const created = await pdbs().create(pdb(), NS);
    const relabelled = await pdbs().update({ ...created, metadata: { ...created.metadata, labels: { a: 'b' } } }, NS);
    expect(relabelled.metadata?.generation).toBe(1);
    const changed = await pdbs().update({ ...relabelled, spec: { ...relabelled.spec, minAvailable: '50%' } }, NS);
    expect(changed.metadata?.generation).toBe(2);
    const s = await statusOf(() => pdbs().update({ ...changed, metadata: { name: 'p' } }, NS));
    expect(s).toMatchObject({ code: 422, details: { causes: [{ field: 'metadata.resourceVersion' }] } });
  });

  it('keep the status, which only /status writes, and check it there', async () => {
    const created = await pdbs().create(pdb(), NS);
    const main = await pdbs().update({ ...created, status: { ...created.status!, disruptionsAllowed: 4 } }, NS);
    expect(main.status?.disruptionsAllowed).toBe(0);
    const status = { ...main.status!, disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3, observedGeneration: 1 };
    const written = await pdbs().updateStatus({ ...main, spec: { maxUnavailable: 9 }, status }, NS);
    expect(written.status).toEqual(status);
    expect(written.spec?.minAvailable).toBe(1);
    const s = await statusOf(() =>
      pdbs().updateStatus(
        {
          ...written,
          status: {
            ...status,
            disruptionsAllowed: -1,
            conditions: [{ type: 'DisruptionAllowed', status: 'Maybe', reason: 'R', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }],
          },
        },
        NS,
      ),
    );
    expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual([
      ['status.conditions[0].status', 'Unsupported value: "Maybe": supported values: "False", "True", "Unknown"'],
      ['status.disruptionsAllowed', 'Invalid value: -1: must be greater than or equal to 0'],
    ]);
  });

  it('refuse invalid label values in a selector, unless the stored selector already has some', async () => {
    await pdbs().create(pdb(), NS);
    const bad = { selector: { matchExpressions: [{ key: 'app', operator: 'In', values: ['a b'] }] } };
    const s = await statusOf(() => pdbs().patch('p', { spec: bad }, { type: 'merge', ...NS }));
    expect(s.details?.causes?.map((c) => c.field)).toEqual(['spec.selector.matchExpressions[0].values[0]']);

    // A budget an older server stored with such a value: put into the storage a cluster then starts on.
    const storage = new MemoryStorage();
    await storage.create(
      { bucket: 'policy/poddisruptionbudgets', namespace: 'default', name: 'old' },
      {
        apiVersion: 'policy/v1',
        kind: 'PodDisruptionBudget',
        metadata: { name: 'old', namespace: 'default', uid: 'u', generation: 1, creationTimestamp: '2025-01-01T00:00:00Z' },
        spec: { minAvailable: 1, ...bad },
        status: { disruptionsAllowed: 0, currentHealthy: 0, desiredHealthy: 0, expectedPods: 0 },
      },
    );
    const older = await testCluster({ storage });
    try {
      const client = older.client.resource(PodDisruptionBudgetKind);
      const stored = await client.get('old', NS);
      const updated = await client.update({ ...stored, spec: { ...stored.spec, minAvailable: 2 } }, NS);
      expect(updated.metadata?.generation).toBe(2);
    } finally {
      await older.close();
    }
  });
});

describe('PodDisruptionBudget printing', () => {
  it('prints Min Available, Max Unavailable, Allowed Disruptions and Age; N/A for an unset bound', async () => {
    await pdbs().create(pdb({ minAvailable: '50%' }), NS);
    await pdbs().create({ metadata: { name: 'q' }, spec: { maxUnavailable: 1 } }, NS);
    const res = await cluster.fetch(
      new Request('http://memkube/apis/policy/v1/namespaces/default/poddisruptionbudgets', {
        headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' },
      }),
    );
    const t = (await res.json()) as { columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] };
    expect(t.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Min Available', 'string'],
      ['Max Unavailable', 'string'],
      ['Allowed Disruptions', 'integer'],
      ['Age', 'string'],
    ]);
    expect(t.rows.map((r) => r.cells)).toEqual([
      ['p', '50%', 'N/A', 0, '0s'],
      ['q', 'N/A', '1', 0, '0s'],
    ]);
  });

  it('is found by its short name pdb in discovery', async () => {
    const res = await cluster.fetch(new Request('http://memkube/apis/policy/v1'));
    const list = (await res.json()) as { resources: { name: string; shortNames?: string[]; namespaced: boolean }[] };
    expect(list.resources.find((r) => r.name === 'poddisruptionbudgets')).toMatchObject({ shortNames: ['pdb'], namespaced: true });
    expect(list.resources.map((r) => r.name)).toContain('poddisruptionbudgets/status');
  });
});

describe('PodDisruptionBudget hostile input', () => {
  it.each([
    ['a float minAvailable', { minAvailable: 1.5 }],
    ['an object maxUnavailable', { maxUnavailable: { a: 1 } }],
    ['a string selector', { selector: 'app=web' }],
    ['a huge minAvailable', { minAvailable: 2 ** 40 }],
  ])('answers %s with a 4xx and stores nothing', async (_, spec) => {
    const s = await statusOf(() => pdbs().create(pdb(spec as Spec), NS));
    expect(s.code).toBeGreaterThanOrEqual(400);
    expect(s.code).toBeLessThan(500);
    expect((await pdbs().list(NS)).items).toHaveLength(0);
  });
});
