import { describe, expect, it } from 'vitest';
import { CompositePodGroupKind, type CompositePodGroup } from '../../../src/kinds/scheduling/index.js';
import { statusOf, testCluster, useTestCluster } from '../../support/cluster.js';
import type { Cluster } from '../../../src/cluster.js';

const cluster = useTestCluster();

type Spec = CompositePodGroup['spec'];
const cpgs = (c: Cluster = cluster) => c.client.resource(CompositePodGroupKind);
const spec = (s: Partial<Spec> = {}): Spec => ({
  workloadRef: { workloadName: 'training', templateName: 'workers' },
  schedulingPolicy: { gang: { minGroupCount: 2 } },
  ...s,
});
const create = (name: string, s: Spec, c: Cluster = cluster) => cpgs(c).create({ metadata: { name }, spec: s }, { namespace: 'default' });
const names = async (c: Cluster = cluster) => (await cpgs(c).list({ namespace: 'default' })).items.map((x) => x.metadata?.name).sort();

/** Expects a 422 on `name` with exactly these causes (field, message body), and the store unchanged. */
async function rejects(name: string, write: () => Promise<unknown>, causes: [field: string, body: string][], c: Cluster = cluster) {
  const before = await names(c);
  const s = await statusOf(write);
  const lines = causes.map(([f, b]) => `${f}: ${b}`);
  const body = lines.length === 1 ? lines[0] : `[${lines.join(', ')}]`;
  expect(s).toMatchObject({ code: 422, reason: 'Invalid', message: `CompositePodGroup.scheduling.k8s.io "${name}" is invalid: ${body}` });
  expect(s.details).toMatchObject({ name, group: 'scheduling.k8s.io', kind: 'CompositePodGroup' });
  expect(s.details?.causes?.map((x) => [x.field, x.message])).toEqual(causes.map(([f, b]) => [f, b]));
  expect(await names(c)).toEqual(before);
  return s;
}

const DNS_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS_LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

const condition = (status: string, reason = 'Scheduled') => ({
  type: 'CompositePodGroupInitiallyScheduled',
  status,
  reason,
  message: '',
  lastTransitionTime: '2026-01-01T00:00:00Z',
});

describe('CompositePodGroup', () => {
  it('is served at scheduling.k8s.io/v1alpha3, namespaced, with defaults filled in', async () => {
    const cpg = await create(
      'group',
      spec({
        parentCompositePodGroupName: 'root.group',
        priorityClassName: 'high',
        priority: 1000,
        schedulingConstraints: { topology: [{ key: 'topology.kubernetes.io/zone' }] },
      }),
    );
    expect(cpg.apiVersion).toBe('scheduling.k8s.io/v1alpha3');
    expect(cpg.kind).toBe('CompositePodGroup');
    expect(cpg.metadata?.namespace).toBe('default');
    expect(cpg.spec).toEqual({
      workloadRef: { workloadName: 'training', templateName: 'workers' },
      schedulingPolicy: { gang: { minGroupCount: 2 } },
      parentCompositePodGroupName: 'root.group',
      priorityClassName: 'high',
      priority: 1000,
      schedulingConstraints: { topology: [{ key: 'topology.kubernetes.io/zone' }] },
      disruptionMode: 'Single',
      preemptionPolicy: 'PreemptLowerPriority',
    });
  });

  it('keeps the disruptionMode and preemptionPolicy it is given', async () => {
    const cpg = await create('all', spec({ schedulingPolicy: { basic: {} }, disruptionMode: 'All', preemptionPolicy: 'Never' }));
    expect(cpg.spec).toMatchObject({ schedulingPolicy: { basic: {} }, disruptionMode: 'All', preemptionPolicy: 'Never' });
  });

  it('requires workloadRef and a scheduling policy', async () => {
    await rejects('g', () => cpgs().create({ metadata: { name: 'g' }, spec: {} as Spec }, { namespace: 'default' }), [
      ['spec.workloadRef', 'Required value'],
      ['spec.schedulingPolicy', 'Invalid value: "": must specify one of: `basic`, `gang`'],
    ]);
    await rejects('g', () => cpgs().create({ metadata: { name: 'g' } } as CompositePodGroup, { namespace: 'default' }), [
      ['spec.workloadRef', 'Required value'],
      ['spec.schedulingPolicy', 'Invalid value: "": must specify one of: `basic`, `gang`'],
    ]);
  });

  it('checks the workload reference: workloadName a DNS subdomain, templateName a DNS label', async () => {
    await rejects('g', () => create('g', spec({ workloadRef: { workloadName: '', templateName: '' } })), [
      ['spec.workloadRef.workloadName', 'Required value'],
      ['spec.workloadRef.templateName', 'Required value'],
    ]);
    await rejects('g', () => create('g', spec({ workloadRef: { workloadName: 'Training', templateName: 'a.b' } })), [
      ['spec.workloadRef.workloadName', `Invalid value: "Training": ${DNS_SUBDOMAIN}`],
      ['spec.workloadRef.templateName', 'Invalid value: "a.b": must not contain dots'],
    ]);
    await rejects('g', () => create('g', spec({ workloadRef: { workloadName: 'w', templateName: 'UP' } })), [
      ['spec.workloadRef.templateName', `Invalid value: "UP": ${DNS_LABEL}`],
    ]);
    await create('dotted', spec({ workloadRef: { workloadName: 'a.b-c', templateName: 'x-1' } }));
  });

  it('accepts exactly one of basic and gang', async () => {
    await rejects('g', () => create('g', spec({ schedulingPolicy: { basic: {}, gang: { minGroupCount: 1 } } })), [
      ['spec.schedulingPolicy', 'Invalid value: "{basic, gang}": must specify exactly one of: `basic`, `gang`'],
    ]);
    await create('basic', spec({ schedulingPolicy: { basic: {} } }));
    await create('gang', spec({ schedulingPolicy: { gang: { minGroupCount: 1 } } }));
  });

  it('requires a positive gang minGroupCount', async () => {
    await rejects('g', () => create('g', spec({ schedulingPolicy: { gang: {} as { minGroupCount: number } } })), [
      ['spec.schedulingPolicy.gang.minGroupCount', 'Required value'],
    ]);
    await rejects('g', () => create('g', spec({ schedulingPolicy: { gang: { minGroupCount: 0 } } })), [
      ['spec.schedulingPolicy.gang.minGroupCount', 'Required value'],
    ]);
    await rejects('g', () => create('g', spec({ schedulingPolicy: { gang: { minGroupCount: -3 } } })), [
      ['spec.schedulingPolicy.gang.minGroupCount', 'Invalid value: -3: must be greater than or equal to 1'],
    ]);
  });

  it('checks parentCompositePodGroupName and priorityClassName as DNS subdomains', async () => {
    await rejects('g', () => create('g', spec({ parentCompositePodGroupName: 'Parent_1', priorityClassName: 'High' })), [
      ['spec.parentCompositePodGroupName', `Invalid value: "Parent_1": ${DNS_SUBDOMAIN}`],
      ['spec.priorityClassName', `Invalid value: "High": ${DNS_SUBDOMAIN}`],
    ]);
    // An empty parent name is set (a pointer in Kubernetes) and therefore checked; an empty class name is unset.
    await rejects('g', () => create('g', spec({ parentCompositePodGroupName: '' })), [
      ['spec.parentCompositePodGroupName', `Invalid value: "": ${DNS_SUBDOMAIN}`],
    ]);
    const ok = await create('empty-class', spec({ priorityClassName: '' }));
    expect(ok.spec.priorityClassName).toBe('');
  });

  it('limits priority to the highest user-definable priority', async () => {
    await create('max', spec({ priority: 1_000_000_000 }));
    await create('negative', spec({ priority: -5 }));
    await rejects('g', () => create('g', spec({ priority: 1_000_000_001 })), [
      ['spec.priority', 'Invalid value: 1000000001: must be less than or equal to 1000000000'],
    ]);
  });

  it('allows one topology constraint with a label key', async () => {
    await rejects('g', () => create('g', spec({ schedulingConstraints: { topology: [{ key: 'a' }, { key: 'b' }] } })), [
      ['spec.schedulingConstraints.topology', 'Too many: 2: must have at most 1 item'],
    ]);
    await rejects('g', () => create('g', spec({ schedulingConstraints: { topology: [{ key: '' }] } })), [
      ['spec.schedulingConstraints.topology[0].key', 'Required value'],
    ]);
    const s = await rejects('g', () => create('g', spec({ schedulingConstraints: { topology: [{ key: 'bad key' }] } })), [
      [
        'spec.schedulingConstraints.topology[0].key',
        "Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      ],
    ]);
    expect(s.details?.causes?.[0]?.reason).toBe('FieldValueInvalid');
    await create('no-topology', spec({ schedulingConstraints: {} }));
  });

  it('accepts only Single or All as disruptionMode, and Never or PreemptLowerPriority as preemptionPolicy', async () => {
    await rejects('g', () => create('g', spec({ disruptionMode: 'single', preemptionPolicy: 'Always' })), [
      ['spec.disruptionMode', 'Unsupported value: "single": supported values: "All", "Single"'],
      ['spec.preemptionPolicy', 'Unsupported value: "Always": supported values: "Never", "PreemptLowerPriority"'],
    ]);
  });

  it('checks the name as a DNS subdomain', async () => {
    const s = await rejects('Bad', () => create('Bad', spec()), [['metadata.name', `Invalid value: "Bad": ${DNS_SUBDOMAIN}`]]);
    expect(s.details?.causes?.[0]?.reason).toBe('FieldValueInvalid');
  });

  it.each<[keyof Spec, unknown]>([
    ['parentCompositePodGroupName', 'other'],
    ['workloadRef', { workloadName: 'training', templateName: 'other' }],
    ['schedulingPolicy', { gang: { minGroupCount: 3 } }],
    ['schedulingConstraints', { topology: [{ key: 'rack' }] }],
    ['disruptionMode', 'All'],
    ['priorityClassName', 'low'],
    ['priority', 7],
    ['preemptionPolicy', 'Never'],
  ])('keeps spec.%s immutable', async (field, value) => {
    const cpg = await create(
      'g',
      spec({ parentCompositePodGroupName: 'p', priorityClassName: 'high', priority: 5, schedulingConstraints: { topology: [{ key: 'zone' }] } }),
    );
    const s = await statusOf(() => cpgs().update({ ...cpg, spec: { ...cpg.spec, [field]: value } }));
    expect(s).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: `CompositePodGroup.scheduling.k8s.io "g" is invalid: spec.${field}: Invalid value: null: field is immutable`,
    });
    expect(s.details?.causes).toEqual([{ reason: 'FieldValueInvalid', field: `spec.${field}`, message: 'Invalid value: null: field is immutable' }]);
    expect((await cpgs().get('g', { namespace: 'default' })).spec).toEqual(cpg.spec);
  });

  it('takes an empty topology list for an absent one, but not an empty schedulingConstraints for a nil one', async () => {
    const cpg = await create('g', spec({ schedulingConstraints: {} }));
    const same = await cpgs().update({ ...cpg, spec: { ...cpg.spec, schedulingConstraints: { topology: [] } } });
    expect(same.spec.schedulingConstraints?.topology ?? []).toEqual([]);
    const bare = await create('bare', spec());
    const s = await statusOf(() => cpgs().update({ ...bare, spec: { ...bare.spec, schedulingConstraints: {} } }));
    expect(s.message).toBe('CompositePodGroup.scheduling.k8s.io "bare" is invalid: spec.schedulingConstraints: Invalid value: null: field is immutable');
  });

  it('rejects unsetting a field or a merge patch of the spec as immutable, and accepts metadata changes', async () => {
    const cpg = await create('g', spec({ priority: 5 }));
    const { priority: _dropped, ...withoutPriority } = cpg.spec;
    const s = await statusOf(() => cpgs().update({ ...cpg, spec: withoutPriority as Spec }));
    expect(s.message).toBe('CompositePodGroup.scheduling.k8s.io "g" is invalid: spec.priority: Invalid value: null: field is immutable');
    const p = await statusOf(() => cpgs().patch('g', { spec: { schedulingPolicy: { basic: {}, gang: null } } }, { type: 'merge', namespace: 'default' }));
    expect(p.message).toBe('CompositePodGroup.scheduling.k8s.io "g" is invalid: spec.schedulingPolicy: Invalid value: null: field is immutable');
    const labeled = await cpgs().patch('g', { metadata: { labels: { team: 'ml' } } }, { type: 'merge', namespace: 'default' });
    expect(labeled.metadata?.labels).toEqual({ team: 'ml' });
    expect(labeled.spec).toEqual(cpg.spec);
  });

  it('rejects malformed bodies with 4xx and stores nothing', async () => {
    for (const bad of [
      { metadata: { name: 'x' }, spec: { workloadRef: 'training', schedulingPolicy: { basic: {} } } },
      { metadata: { name: 'x' }, spec: { workloadRef: { workloadName: 'w', templateName: 't' }, schedulingPolicy: { gang: { minGroupCount: '2' } } } },
      { metadata: { name: 'x' }, spec: { workloadRef: { workloadName: 'w', templateName: 't' }, schedulingPolicy: { basic: {} }, priority: 2 ** 31 } },
      {
        metadata: { name: 'x' },
        spec: { workloadRef: { workloadName: 'w', templateName: 't' }, schedulingPolicy: { basic: {} }, schedulingConstraints: { topology: 'zone' } },
      },
      { metadata: { name: 'x' }, spec: [] },
    ]) {
      const s = await statusOf(() => cpgs().create(bad as unknown as CompositePodGroup, { namespace: 'default' }));
      expect(s.code === 400 || s.code === 422).toBe(true);
    }
    await rejects('x', () => create('x', spec({ workloadRef: { workloadName: 'w\u0000\u202e'.repeat(100), templateName: 'ü'.repeat(70) } })), [
      ['spec.workloadRef.workloadName', `Invalid value: "${'w\\x00\\u202e'.repeat(100)}": must be no more than 253 characters`],
      ['spec.workloadRef.workloadName', `Invalid value: "${'w\\x00\\u202e'.repeat(100)}": ${DNS_SUBDOMAIN}`],
      ['spec.workloadRef.templateName', `Invalid value: "${'ü'.repeat(70)}": must be no more than 63 characters`],
      ['spec.workloadRef.templateName', `Invalid value: "${'ü'.repeat(70)}": ${DNS_LABEL}`],
    ]);
    expect(await names()).toEqual([]);
  });
});

describe('CompositePodGroup status', () => {
  it('drops status on create and on main-resource updates; /status changes only status', async () => {
    const cpg = await cpgs().create({ metadata: { name: 'g' }, spec: spec(), status: { conditions: [condition('True')] } }, { namespace: 'default' });
    expect(cpg.status).toEqual({});
    const ignored = await cpgs().update({ ...cpg, status: { conditions: [condition('True')] } });
    expect(ignored.status).toEqual({});
    const updated = await cpgs().updateStatus({
      ...ignored,
      spec: { ...ignored.spec, priority: 9 },
      status: { conditions: [condition('False', 'Unschedulable')] },
    });
    expect(updated.status?.conditions).toEqual([condition('False', 'Unschedulable')]);
    expect(updated.spec.priority).toBeUndefined();
    const read = await cpgs().getStatus('g', { namespace: 'default' });
    expect(read.status?.conditions).toEqual([condition('False', 'Unschedulable')]);
  });

  it('merges conditions on type in a strategic merge patch of /status', async () => {
    await create('g', spec());
    await cpgs().patch(
      'g',
      { status: { conditions: [condition('False', 'Unschedulable')] } },
      { type: 'strategic', subresource: 'status', namespace: 'default' },
    );
    const disruption = {
      type: 'DisruptionTarget',
      status: 'True',
      reason: 'PreemptionByScheduler',
      message: 'preempted',
      lastTransitionTime: '2026-01-01T00:00:00Z',
    };
    const merged = await cpgs().patch('g', { status: { conditions: [disruption] } }, { type: 'strategic', subresource: 'status', namespace: 'default' });
    // Kubernetes orders a merged list: a new item from the patch comes before the ones only the server had.
    expect(merged.status?.conditions?.map((c) => [c.type, c.status])).toEqual([
      ['DisruptionTarget', 'True'],
      ['CompositePodGroupInitiallyScheduled', 'False'],
    ]);
    const replaced = await cpgs().patch(
      'g',
      { status: { conditions: [condition('True')] } },
      { type: 'strategic', subresource: 'status', namespace: 'default' },
    );
    // An item the server already has keeps its place; only its fields change.
    expect(replaced.status?.conditions?.map((c) => [c.type, c.status])).toEqual([
      ['DisruptionTarget', 'True'],
      ['CompositePodGroupInitiallyScheduled', 'True'],
    ]);
  });

  it('validates conditions as metav1 Conditions', async () => {
    const cpg = await create('g', spec());
    const s = await statusOf(() =>
      cpgs().updateStatus({
        ...cpg,
        status: {
          conditions: [{ type: 'bad type', status: 'Maybe', reason: '', message: '' } as ReturnType<typeof condition>, condition('True'), condition('True')],
        },
      }),
    );
    expect(s.code).toBe(422);
    expect(s.details?.causes?.map((c) => [c.field, c.reason])).toEqual([
      ['status.conditions[0].type', 'FieldValueInvalid'],
      ['status.conditions[0].status', 'FieldValueNotSupported'],
      ['status.conditions[0].lastTransitionTime', 'FieldValueRequired'],
      ['status.conditions[0].reason', 'FieldValueRequired'],
      ['status.conditions[2].type', 'FieldValueDuplicate'],
    ]);
    expect(s.details?.causes?.[1]?.message).toBe('Unsupported value: "Maybe": supported values: "False", "True", "Unknown"');
    expect((await cpgs().get('g', { namespace: 'default' })).status).toEqual({});
    // An empty time does not decode (Go's metav1.Time): 400.
    const empty = await statusOf(() => cpgs().updateStatus({ ...cpg, status: { conditions: [{ ...condition('True'), lastTransitionTime: '' }] } }));
    expect(empty.code).toBe(400);
  });

  it('never lets CompositePodGroupInitiallyScheduled leave True', async () => {
    const cpg = await create('g', spec());
    const unscheduled = await cpgs().updateStatus({ ...cpg, status: { conditions: [condition('False', 'Unschedulable')] } });
    const scheduled = await cpgs().updateStatus({ ...unscheduled, status: { conditions: [condition('True')] } });
    const detail = 'Forbidden: the CompositePodGroupInitiallyScheduled condition may not change once it is True';
    for (const status of ['False', 'Unknown']) {
      const s = await statusOf(() => cpgs().updateStatus({ ...scheduled, status: { conditions: [condition(status, 'Unschedulable')] } }));
      expect(s).toMatchObject({
        code: 422,
        reason: 'Invalid',
        message: `CompositePodGroup.scheduling.k8s.io "g" is invalid: status.conditions[0].status: ${detail}`,
      });
      expect(s.details?.causes).toEqual([{ reason: 'FieldValueForbidden', field: 'status.conditions[0].status', message: detail }]);
    }
    const dropped = await statusOf(() => cpgs().updateStatus({ ...scheduled, status: {} }));
    expect(dropped.message).toBe(`CompositePodGroup.scheduling.k8s.io "g" is invalid: status.conditions: ${detail}`);
    const patched = await statusOf(() =>
      cpgs().patch(
        'g',
        { status: { conditions: [{ type: 'CompositePodGroupInitiallyScheduled', status: 'False' }] } },
        { type: 'strategic', subresource: 'status', namespace: 'default' },
      ),
    );
    expect(patched.details?.causes?.map((c) => c.field)).toContain('status.conditions[0].status');
    // Still True, and other conditions (and the message of this one) may change.
    const other = { type: 'DisruptionTarget', status: 'True', reason: 'PreemptionByScheduler', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' };
    const later = await cpgs().updateStatus({ ...scheduled, status: { conditions: [{ ...condition('True'), message: 'done' }, other] } });
    expect(later.status?.conditions?.map((c) => c.status)).toEqual(['True', 'True']);
  });
});

describe('CompositePodGroup feature gates', () => {
  it('does not exist without the CompositePodGroup gate', async () => {
    const off = await testCluster({ featureGates: { CompositePodGroup: false } });
    try {
      const s = await statusOf(() => create('g', spec(), off));
      expect(s).toMatchObject({ code: 404, reason: 'NotFound' });
    } finally {
      await off.close();
    }
  });

  it('without PodGroupPreemptionPolicy drops preemptionPolicy on create and does not default it', async () => {
    const off = await testCluster({ featureGates: { PodGroupPreemptionPolicy: false } });
    try {
      const cpg = await create('g', spec({ preemptionPolicy: 'Never' }), off);
      expect(cpg.spec.preemptionPolicy).toBeUndefined();
      expect(cpg.spec.disruptionMode).toBe('Single');
      // An invalid value is dropped before validation, as Kubernetes drops disabled fields.
      const bad = await create('bad', spec({ preemptionPolicy: 'Sometimes' }), off);
      expect(bad.spec.preemptionPolicy).toBeUndefined();
      // Dropped on update too when the stored object does not use it.
      const updated = await cpgs(off).update({ ...cpg, metadata: { ...cpg.metadata, labels: { a: 'b' } }, spec: { ...cpg.spec, preemptionPolicy: 'Never' } });
      expect(updated.spec.preemptionPolicy).toBeUndefined();
      expect(updated.metadata?.labels).toEqual({ a: 'b' });
    } finally {
      await off.close();
    }
  });

  it('without PodGroupPreemptionPolicy keeps a preemptionPolicy the stored object already has', async () => {
    const { MemoryStorage } = await import('../../../src/storage/memory.js');
    const storage = new MemoryStorage();
    const on = await testCluster({ storage });
    const off = await testCluster({ storage, featureGates: { PodGroupPreemptionPolicy: false } });
    try {
      await create('g', spec({ preemptionPolicy: 'Never' }), on);
      const stored = await cpgs(off).get('g', { namespace: 'default' });
      expect(stored.spec.preemptionPolicy).toBe('Never');
      const kept = await cpgs(off).update({ ...stored, metadata: { ...stored.metadata, labels: { a: 'b' } } });
      expect(kept.spec.preemptionPolicy).toBe('Never');
      const s = await statusOf(() => cpgs(off).update({ ...kept, spec: { ...kept.spec, preemptionPolicy: 'PreemptLowerPriority' } }));
      expect(s.message).toBe('CompositePodGroup.scheduling.k8s.io "g" is invalid: spec.preemptionPolicy: Invalid value: null: field is immutable');
      // An object stored without the gate compares as defaulted once the gate is on.
      await create('h', spec(), off);
      const h = await cpgs(on).get('h', { namespace: 'default' });
      expect(h.spec.preemptionPolicy).toBeUndefined();
      const relabeled = await cpgs(on).update({ ...h, metadata: { ...h.metadata, labels: { x: 'y' } } });
      expect(relabeled.spec.preemptionPolicy).toBe('PreemptLowerPriority');
    } finally {
      await on.close();
      await off.close();
    }
  });
});
