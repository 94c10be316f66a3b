import { describe, expect, it } from 'vitest';
import { structuralOf } from '../../../src/schema/structural.js';
import { ConfigMap, Pod } from '../../../src/kinds/types/core-v1.js';
import { StatefulSet } from '../../../src/kinds/types/apps-v1.js';
import { FieldSet, pathElement as pe, recordUpdate, type ManagedFieldsEntry } from '../../../src/patch/apply/index.js';

const cm = structuralOf(ConfigMap());
const pod = structuralOf(Pod());
const sts = structuralOf(StatefulSet());
const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const T1 = T0 + 60_000;
const T2 = T0 + 120_000;

type Obj = Record<string, unknown> & { metadata: Record<string, unknown> };

function configMap(data: Record<string, string>, extra: Record<string, unknown> = {}): Obj {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm', namespace: 'default', ...extra }, data };
}

/** The stored object after a write: uid, resourceVersion and the managedFields just computed. */
function stored(obj: Obj, managedFields: ManagedFieldsEntry[]): Obj {
  const meta: Record<string, unknown> = { ...obj.metadata, uid: 'u-1', resourceVersion: '1' };
  if (managedFields.length) meta.managedFields = managedFields;
  else delete meta.managedFields;
  return { ...obj, metadata: meta };
}

describe('recordUpdate', () => {
  it('on create, gives the creator everything it set, as kubectl create configmap shows', () => {
    const mf = recordUpdate({ live: undefined, updated: configMap({ key: 'v' }), manager: 'kubectl-create', apiVersion: 'v1', schema: cm, now: T0 });
    expect(mf).toEqual([
      {
        manager: 'kubectl-create',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-01-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:key': {} } },
      },
    ]);
  });

  it('on create of a Pod, leaves spec without "." (a Go struct is never absent) and marks new lists and maps', () => {
    const p = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default', labels: { run: 'p' } },
      spec: {
        containers: [
          { name: 'c', image: 'nginx', ports: [{ containerPort: 80, protocol: 'TCP' }], resources: {}, terminationMessagePath: '/dev/termination-log' },
        ],
        restartPolicy: 'Always',
        securityContext: {},
      },
    };
    const [entry] = recordUpdate({ live: undefined, updated: p, manager: 'kubectl-run', apiVersion: 'v1', schema: pod, now: T0 });
    expect(entry!.fieldsV1).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:run': {} } },
      'f:spec': {
        'f:containers': {
          'k:{"name":"c"}': {
            '.': {},
            'f:image': {},
            'f:name': {},
            'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {}, 'f:protocol': {} } },
            'f:resources': {},
            'f:terminationMessagePath': {},
          },
        },
        'f:restartPolicy': {},
        'f:securityContext': {},
      },
    });
  });

  it('moves changed fields to the writer and keeps the rest with their owner', () => {
    const created = configMap({ a: '1', b: '2' });
    const live = stored(created, recordUpdate({ live: undefined, updated: created, manager: 'creator', apiVersion: 'v1', schema: cm, now: T0 }));
    const updated = configMap({ a: '1', b: 'changed', c: 'new' });
    const mf = recordUpdate({ live, updated, manager: 'editor', apiVersion: 'v1', schema: cm, now: T1 });
    expect(mf).toEqual([
      {
        manager: 'creator',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-01-01T10:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } },
      },
      {
        manager: 'editor',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-01-01T10:01:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { 'f:b': {}, 'f:c': {} } },
      },
    ]);
  });

  it('takes removed fields away from everyone, and drops managers left with nothing', () => {
    const created = configMap({ a: '1' });
    const live = stored(created, recordUpdate({ live: undefined, updated: created, manager: 'creator', apiVersion: 'v1', schema: cm, now: T0 }));
    expect(recordUpdate({ live, updated: configMap({}), manager: 'editor', apiVersion: 'v1', schema: cm, now: T1 })).toEqual([]);
  });

  it('keeps a container that outlives its content with its owner (the `f:data: {}` clusters show)', () => {
    const created = configMap({ a: '1', b: '2' });
    const live = stored(created, recordUpdate({ live: undefined, updated: created, manager: 'creator', apiVersion: 'v1', schema: cm, now: T0 }));
    const edited = recordUpdate({ live, updated: configMap({ a: 'x', b: 'y' }), manager: 'editor', apiVersion: 'v1', schema: cm, now: T1 });
    expect(edited.map((e) => [e.manager, e.fieldsV1])).toEqual([
      ['creator', { 'f:data': {} }],
      ['editor', { 'f:data': { 'f:a': {}, 'f:b': {} } }],
    ]);
  });

  it('sees empty omitempty lists and maps as absent, as the typed object does', () => {
    const created = configMap({ a: '1' }, { finalizers: [], labels: {} });
    expect(recordUpdate({ live: undefined, updated: created, manager: 'creator', apiVersion: 'v1', schema: cm, now: T0 })[0]!.fieldsV1).toEqual({
      'f:data': { '.': {}, 'f:a': {} },
    });
  });

  it('merges a manager with its own earlier entry and refreshes its time', () => {
    const created = configMap({ a: '1' });
    const live1 = stored(created, recordUpdate({ live: undefined, updated: created, manager: 'm', apiVersion: 'v1', schema: cm, now: T0 }));
    const next = configMap({ a: '1', b: '2' });
    const mf = recordUpdate({ live: live1, updated: next, manager: 'm', apiVersion: 'v1', schema: cm, now: T1 });
    expect(mf).toEqual([
      {
        manager: 'm',
        operation: 'Update',
        apiVersion: 'v1',
        time: '2026-01-01T10:01:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:a': {}, 'f:b': {} } },
      },
    ]);
  });

  it('leaves managedFields exactly as they were when nothing changed (time included)', () => {
    const created = configMap({ a: '1' });
    const first = recordUpdate({ live: undefined, updated: created, manager: 'm', apiVersion: 'v1', schema: cm, now: T0 });
    const live = stored(created, first);
    const same = { ...configMap({ a: '1' }), metadata: { ...live.metadata } };
    expect(recordUpdate({ live, updated: same, manager: 'other', apiVersion: 'v1', schema: cm, now: T2 })).toEqual(first);
  });

  it('clears managedFields when the write sends [] or [{}], and then leaves the object untracked', () => {
    const created = configMap({ a: '1' });
    const live = stored(created, recordUpdate({ live: undefined, updated: created, manager: 'm', apiVersion: 'v1', schema: cm, now: T0 }));
    for (const reset of [[], [{}]]) {
      const updated = { ...configMap({ a: '2' }), metadata: { ...live.metadata, managedFields: reset } };
      expect(recordUpdate({ live, updated, manager: 'x', apiVersion: 'v1', schema: cm, now: T1 })).toEqual([]);
    }
    const untracked = stored(created, []);
    expect(recordUpdate({ live: untracked, updated: configMap({ a: '3' }), manager: 'x', apiVersion: 'v1', schema: cm, now: T1 })).toEqual([]);
  });

  it('ignores managedFields that do not decode, keeping the stored ones', () => {
    const created = configMap({ a: '1' });
    const first = recordUpdate({ live: undefined, updated: created, manager: 'm', apiVersion: 'v1', schema: cm, now: T0 });
    const live = stored(created, first);
    const updated = {
      ...created,
      metadata: { ...live.metadata, managedFields: [{ manager: 'evil', operation: 'Delete', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: {} }] },
    };
    expect(recordUpdate({ live, updated, manager: 'x', apiVersion: 'v1', schema: cm, now: T1 })).toEqual(first);
    const malformed = {
      ...created,
      metadata: {
        ...live.metadata,
        managedFields: [{ manager: 'evil', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { nope: {} } }],
      },
    };
    expect(recordUpdate({ live, updated: malformed, manager: 'x', apiVersion: 'v1', schema: cm, now: T1 })).toEqual(first);
  });

  it('accepts valid managedFields sent by the client', () => {
    const created = configMap({ a: '1' });
    const live = stored(created, recordUpdate({ live: undefined, updated: created, manager: 'm', apiVersion: 'v1', schema: cm, now: T0 }));
    const mine = [{ manager: 'me', operation: 'Apply', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:data': { 'f:a': {} } } }];
    const updated = { ...created, metadata: { ...live.metadata, managedFields: mine } };
    expect(recordUpdate({ live, updated, manager: 'x', apiVersion: 'v1', schema: cm, now: T1 })).toEqual(mine);
  });

  it('records a subresource write under its own entry and ignores the managedFields it sends', () => {
    const p = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i' }] }, status: { phase: 'Pending' } };
    const live = stored(p, recordUpdate({ live: undefined, updated: p, manager: 'creator', apiVersion: 'v1', schema: pod, now: T0 }));
    const updated = {
      ...p,
      metadata: { ...live.metadata, managedFields: [] },
      status: { phase: 'Running', conditions: [{ type: 'Ready', status: 'True', lastProbeTime: null }], podIPs: [{ ip: '10.0.0.1' }] },
    };
    const mf = recordUpdate({ live, updated, manager: 'kubelet', apiVersion: 'v1', subresource: 'status', schema: pod, now: T1 });
    expect(mf.map((e) => [e.manager, e.subresource])).toEqual([
      ['creator', undefined],
      ['kubelet', 'status'],
    ]);
    expect(mf[1]!.fieldsV1).toEqual({
      'f:status': {
        // lastTransitionTime is a Go value (zero time, null) even though the JSON omitted it.
        'f:conditions': { '.': {}, 'k:{"type":"Ready"}': { '.': {}, 'f:lastProbeTime': {}, 'f:lastTransitionTime': {}, 'f:status': {}, 'f:type': {} } },
        'f:phase': {},
        'f:podIPs': { '.': {}, 'k:{"ip":"10.0.0.1"}': { '.': {}, 'f:ip': {} } },
      },
    });
  });

  it('never records fields the strategy resets', () => {
    const s = {
      apiVersion: 'apps/v1',
      kind: 'StatefulSet',
      metadata: { name: 's' },
      spec: { replicas: 1, selector: { matchLabels: { a: 'b' } }, template: {} },
    };
    const live = stored(s, recordUpdate({ live: undefined, updated: s, manager: 'creator', apiVersion: 'apps/v1', schema: sts, now: T0 }));
    const updated = { ...s, metadata: live.metadata, spec: { ...s.spec, replicas: 2 }, status: { replicas: 7 } };
    const mf = recordUpdate({
      live,
      updated,
      manager: 'editor',
      apiVersion: 'apps/v1',
      schema: sts,
      now: T1,
      ignoredFields: FieldSet.of([pe.field('status')]),
    });
    expect(mf.find((e) => e.manager === 'editor')!.fieldsV1).toEqual({ 'f:spec': { 'f:replicas': {} } });
  });

  it('caps Update managers at 10, merging the oldest into ancient-changes', () => {
    let live: Obj = stored(configMap({}), []);
    let mf: ManagedFieldsEntry[] = recordUpdate({ live: undefined, updated: configMap({ k0: 'v' }), manager: 'm0', apiVersion: 'v1', schema: cm, now: T0 });
    live = stored(configMap({ k0: 'v' }), mf);
    const data: Record<string, string> = { k0: 'v' };
    for (let i = 1; i <= 11; i++) {
      data[`k${i}`] = 'v';
      const updated = { ...configMap({ ...data }), metadata: live.metadata };
      mf = recordUpdate({ live, updated, manager: `m${i}`, apiVersion: 'v1', schema: cm, now: T0 + i * 1000 });
      live = stored(configMap({ ...data }), mf);
    }
    expect(mf).toHaveLength(10);
    expect(mf[0]).toMatchObject({ manager: 'ancient-changes', apiVersion: 'v1', time: '2026-01-01T10:00:02Z' });
    expect(mf[0]!.fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:k0': {}, 'f:k1': {}, 'f:k2': {} } });
    expect(mf.map((e) => e.manager).slice(1)).toEqual(['m3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9', 'm10', 'm11']);
  });

  it('does not mutate its inputs', () => {
    const created = configMap({ a: '1' });
    const live = stored(created, recordUpdate({ live: undefined, updated: created, manager: 'm', apiVersion: 'v1', schema: cm, now: T0 }));
    const updated = configMap({ a: '2' });
    const before = JSON.stringify([live, updated]);
    recordUpdate({ live, updated, manager: 'x', apiVersion: 'v1', schema: cm, now: T1 });
    expect(JSON.stringify([live, updated])).toBe(before);
  });
});
