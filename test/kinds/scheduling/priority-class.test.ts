import { describe, expect, it } from 'vitest';
import { PodKind, PriorityClassKind, type PriorityClass } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const classes = () => cluster.client.resource(PriorityClassKind);
const pods = () => cluster.client.resource(PodKind);

const pc = (over: Partial<PriorityClass> = {}, name = 'high'): PriorityClass => ({ metadata: { name }, value: 1000, ...over });

async function expectInvalid(write: () => Promise<unknown>, name: string, ...causes: [string, string][]) {
  const s = await statusOf(write);
  const lines = causes.map(([f, m]) => `${f}: ${m}`);
  expect(s).toMatchObject({
    code: 422,
    reason: 'Invalid',
    message: `PriorityClass.scheduling.k8s.io "${name}" is invalid: ${lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`}`,
  });
  expect(s.details?.causes?.map((c) => [c.field, c.message])).toEqual(causes);
}

describe('PriorityClass', () => {
  it('defaults preemptionPolicy to PreemptLowerPriority and starts at generation 1', async () => {
    const created = await classes().create({ ...pc(), metadata: { name: 'high', generation: 7 } });
    expect(created).toMatchObject({ apiVersion: 'scheduling.k8s.io/v1', kind: 'PriorityClass', value: 1000, preemptionPolicy: 'PreemptLowerPriority' });
    expect(created.metadata?.generation).toBe(1);
    expect(created.metadata?.namespace).toBeUndefined();
    const zero = await classes().create({ metadata: { name: 'zero' } });
    expect(zero.value).toBe(0);
  });

  it('comes as system-node-critical and system-cluster-critical in every cluster', async () => {
    const system = (await classes().list()).items.map((c) => [c.metadata?.name, c.value, c.globalDefault ?? false, c.preemptionPolicy, c.description]);
    expect(system).toEqual([
      [
        'system-cluster-critical',
        2000000000,
        false,
        'PreemptLowerPriority',
        'Used for system critical pods that must run in the cluster, but can be moved to another node if necessary.',
      ],
      ['system-node-critical', 2000001000, false, 'PreemptLowerPriority', 'Used for system critical pods that must not be moved from their current node.'],
    ]);
  });

  it('refuses to delete a system class (but deletes others)', async () => {
    expect(await statusOf(() => classes().delete('system-node-critical'))).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'priorityclasses.scheduling.k8s.io "system-node-critical" is forbidden: this is a system priority class and cannot be deleted',
    });
    await classes().create(pc());
    await classes().delete('high');
    await expect(classes().get('high')).rejects.toMatchObject({ status: { code: 404 } });
  });

  it('reserves the system- prefix and values above 1000000000', async () => {
    await expectInvalid(() => classes().create(pc({}, 'system-mine')), 'system-mine', [
      'metadata.name',
      "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: system-mine is not a known system priority class",
    ]);
    // The known class, exactly: valid, but there already.
    expect(await statusOf(() => classes().create(pc({ value: 2000001000 }, 'system-node-critical')))).toMatchObject({ code: 409, reason: 'AlreadyExists' });
    await expectInvalid(() => classes().create(pc({ value: 5 }, 'system-cluster-critical')), 'system-cluster-critical', [
      'metadata.name',
      "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: value of system-cluster-critical PriorityClass must be 2000000000",
    ]);
    await expectInvalid(() => classes().create(pc({ value: 2000000000, globalDefault: true }, 'system-cluster-critical')), 'system-cluster-critical', [
      'metadata.name',
      "Forbidden: priority class names with 'system-' prefix are reserved for system use only. error: globalDefault of system-cluster-critical PriorityClass must be false",
    ]);
    await expectInvalid(() => classes().create(pc({ value: 1000000001 })), 'high', [
      'value',
      'Forbidden: maximum allowed value of a user defined priority is 1000000000',
    ]);
    await classes().create(pc({ value: 1000000000 }));
  });

  it('checks preemptionPolicy', async () => {
    await expectInvalid(() => classes().create(pc({ preemptionPolicy: 'Sometimes' })), 'high', [
      'preemptionPolicy',
      'Unsupported value: "Sometimes": supported values: "PreemptLowerPriority", "Never"',
    ]);
    await expectInvalid(() => classes().create(pc({ preemptionPolicy: '' })), 'high', ['preemptionPolicy', 'Required value']);
    expect((await classes().create(pc({ preemptionPolicy: 'Never' }))).preemptionPolicy).toBe('Never');
  });

  it('never changes value or preemptionPolicy; description and globalDefault may change, the generation stays', async () => {
    const created = await classes().create(pc());
    await expectInvalid(
      () => classes().update({ ...created, value: 2, preemptionPolicy: 'Never' }),
      'high',
      ['value', 'Forbidden: may not be changed in an update.'],
      ['preemptionPolicy', 'Invalid value: "Never": field is immutable'],
    );
    const updated = await classes().update({ ...created, description: 'more', globalDefault: true });
    expect(updated).toMatchObject({ description: 'more', globalDefault: true, metadata: { generation: 1 } });
    // An update without preemptionPolicy gets the default, so it is no change.
    const { preemptionPolicy: _, ...withoutPolicy } = updated;
    expect((await classes().update(withoutPolicy)).preemptionPolicy).toBe('PreemptLowerPriority');
  });

  it('prints Value, Global-Default, Age and PreemptionPolicy', async () => {
    await classes().create(pc({ globalDefault: true, preemptionPolicy: 'Never' }));
    const res = await cluster.fetch(
      new Request('http://memkube/apis/scheduling.k8s.io/v1/priorityclasses/high', { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }),
    );
    const t = (await res.json()) as { columnDefinitions: { name: string; type: string }[]; rows: { cells: unknown[] }[] };
    expect(t.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Value', 'integer'],
      ['Global-Default', 'boolean'],
      ['Age', 'string'],
      ['PreemptionPolicy', 'string'],
    ]);
    expect(t.rows[0]?.cells).toEqual(['high', 1000, true, '0s', 'Never']);
  });

  it('answers hostile values with a 4xx and stores nothing', async () => {
    for (const over of [{ value: 2 ** 31 }, { value: 1.5 }, { value: '10' }, { globalDefault: 'yes' }]) {
      const s = await statusOf(() => classes().create(pc(over as Partial<PriorityClass>)));
      expect(s.code).toBeGreaterThanOrEqual(400);
      expect(s.code).toBeLessThan(500);
    }
    await expect(classes().get('high')).rejects.toMatchObject({ status: { code: 404 } });
  });
});

describe('Priority admission and PriorityClasses', () => {
  const pod = (over: Record<string, unknown> = {}) => ({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'nginx' }], ...over } });

  it('allows one globalDefault class only (the existing one may stay marked)', async () => {
    await classes().create(pc({ globalDefault: true }, 'first'));
    expect(await statusOf(() => classes().create(pc({ globalDefault: true }, 'second')))).toMatchObject({
      code: 403,
      message: 'priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass first is already marked as default. Only one default can exist',
    });
    await classes().create(pc({}, 'second'));
    expect(await statusOf(() => classes().patch('second', { globalDefault: true }, { type: 'merge' }))).toMatchObject({
      code: 403,
      message: 'priorityclasses.scheduling.k8s.io "second" is forbidden: PriorityClass first is already marked as default. Only one default can exist',
    });
    const first = await classes().patch('first', { description: 'still the default' }, { type: 'merge' });
    expect(first.globalDefault).toBe(true);
  });

  it('gives a pod without a class the global default class, its value and its preemption policy', async () => {
    const plain = await pods().create(pod(), { namespace: 'default' });
    expect(plain.spec).toMatchObject({ priority: 0, preemptionPolicy: 'PreemptLowerPriority' });
    expect(plain.spec?.priorityClassName).toBeUndefined();
    await classes().create(pc({ value: 7, globalDefault: true, preemptionPolicy: 'Never' }, 'standard'));
    const defaulted = await pods().create({ ...pod(), metadata: { name: 'q' } }, { namespace: 'default' });
    expect(defaulted.spec).toMatchObject({ priorityClassName: 'standard', priority: 7, preemptionPolicy: 'Never' });
  });

  it('resolves a named class from the stored PriorityClasses', async () => {
    await classes().create(pc({ value: 42, preemptionPolicy: 'Never' }, 'gold'));
    const created = await pods().create(pod({ priorityClassName: 'gold' }), { namespace: 'default' });
    expect(created.spec).toMatchObject({ priority: 42, preemptionPolicy: 'Never' });
  });
});
