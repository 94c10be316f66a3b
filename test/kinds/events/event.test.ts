/**
 * Event in events.k8s.io/v1: the core Events through another door, converted field by field, with
 * Kubernetes' strict rules for requests through this group.
 */
import { describe, expect, it } from 'vitest';
import { EventKind, EventsV1EventKind, type Event, type EventsV1Event } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const events = () => cluster.client.resource(EventsV1EventKind);
const core = () => cluster.client.resource(EventKind);
const ns = { namespace: 'default' };

const modern = (over: Partial<EventsV1Event> = {}): EventsV1Event => ({
  metadata: { name: 'web.1' },
  eventTime: '2026-01-01T00:00:00.123456Z',
  reportingController: 'example.com/controller',
  reportingInstance: 'controller-0',
  action: 'Scale',
  reason: 'Scaled',
  regarding: { kind: 'StatefulSet', namespace: 'default', name: 'web', apiVersion: 'apps/v1' },
  related: { kind: 'Pod', namespace: 'default', name: 'web-0' },
  note: 'scaled to 3',
  type: 'Normal',
  ...over,
});

async function rejected(e: EventsV1Event) {
  const before = (await core().list(ns)).items.length;
  const s = await statusOf(() => events().create(e, ns));
  // The door reports as the stored kind: Kubernetes' events.k8s.io serves the core Event storage.
  expect(s).toMatchObject({ code: 422, reason: 'Invalid', details: { kind: 'Event', name: e.metadata?.name } });
  expect(s.details?.group).toBeUndefined();
  expect((await core().list(ns)).items.length).toBe(before);
  return s;
}

describe('events.k8s.io/v1 Event ↔ core/v1 Event', () => {
  it('serves an event created through events.k8s.io as a core Event, fields renamed', async () => {
    const created = await events().create(modern({ series: { count: 2, lastObservedTime: '2026-01-01T00:00:05.000000Z' } }), ns);
    const { metadata: _m, ...body } = created;
    expect(body).toEqual({
      kind: 'Event',
      apiVersion: 'events.k8s.io/v1',
      eventTime: '2026-01-01T00:00:00.123456Z',
      series: { count: 2, lastObservedTime: '2026-01-01T00:00:05.000000Z' },
      reportingController: 'example.com/controller',
      reportingInstance: 'controller-0',
      action: 'Scale',
      reason: 'Scaled',
      regarding: { kind: 'StatefulSet', namespace: 'default', name: 'web', apiVersion: 'apps/v1' },
      related: { kind: 'Pod', namespace: 'default', name: 'web-0' },
      note: 'scaled to 3',
      type: 'Normal',
      // Go zero values the events.k8s.io JSON never omits.
      deprecatedSource: {},
      deprecatedFirstTimestamp: null,
      deprecatedLastTimestamp: null,
    });
    const asCore = await core().get('web.1', ns);
    expect(asCore).toMatchObject({
      apiVersion: 'v1',
      kind: 'Event',
      involvedObject: { kind: 'StatefulSet', name: 'web' },
      related: { kind: 'Pod', name: 'web-0' },
      message: 'scaled to 3',
      reportingComponent: 'example.com/controller',
      reportingInstance: 'controller-0',
      series: { count: 2, lastObservedTime: '2026-01-01T00:00:05.000000Z' },
    });
    for (const f of ['note', 'regarding', 'reportingController', 'deprecatedSource']) expect(asCore).not.toHaveProperty(f);
    expect(asCore.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
  });

  it('serves a classic core event through events.k8s.io with the deprecated fields', async () => {
    const classic: Event = {
      metadata: { name: 'web.2' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'web-0' },
      reason: 'Started',
      message: 'Started container',
      source: { component: 'kubelet', host: 'node-1' },
      firstTimestamp: '2026-01-01T00:00:00Z',
      lastTimestamp: '2026-01-01T00:01:00Z',
      count: 4,
      type: 'Normal',
    };
    await core().create(classic, ns);
    const e = await events().get('web.2', ns);
    expect(e).toMatchObject({
      apiVersion: 'events.k8s.io/v1',
      eventTime: null,
      regarding: { kind: 'Pod', name: 'web-0' },
      note: 'Started container',
      deprecatedSource: { component: 'kubelet', host: 'node-1' },
      deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
      deprecatedLastTimestamp: '2026-01-01T00:01:00Z',
      deprecatedCount: 4,
    });
    expect(e).not.toHaveProperty('message');
    expect(e).not.toHaveProperty('involvedObject');
  });

  it('lists and watches the same objects through both doors', async () => {
    await events().create(modern(), ns);
    const list = await events().list(ns);
    expect(list).toMatchObject({ apiVersion: 'events.k8s.io/v1', kind: 'EventList' });
    expect(list.items.map((i) => i.note)).toEqual(['scaled to 3']);
    const w = await events().watch({ ...ns, resourceVersion: list.metadata.resourceVersion });
    await core().create({ metadata: { name: 'c' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' }, message: 'from core' }, ns);
    const first = await w[Symbol.asyncIterator]().next();
    expect(first.value).toMatchObject({ type: 'ADDED', object: { apiVersion: 'events.k8s.io/v1', note: 'from core', regarding: { name: 'p' } } });
    w.close();
    // Deleting through one door deletes the one object.
    await events().delete('c', ns);
    expect((await core().list(ns)).items.map((i) => i.metadata?.name)).toEqual(['web.1']);
  });

  it('selects by the events.k8s.io field labels', async () => {
    await events().create(modern(), ns);
    await events().create(
      modern({
        metadata: { name: 'other' },
        reportingController: 'example.com/other',
        type: 'Warning',
        regarding: { kind: 'Pod', name: 'x', namespace: 'default' },
      }),
      ns,
    );
    const names = async (fieldSelector: string) => (await events().list({ ...ns, fieldSelector })).items.map((i) => i.metadata?.name);
    expect(await names('reportingController=example.com/other')).toEqual(['other']);
    expect(await names('regarding.kind=StatefulSet')).toEqual(['web.1']);
    expect(await names('type=Warning,reason=Scaled')).toEqual(['other']);
    const s = await statusOf(() => events().list({ ...ns, fieldSelector: 'note=x' }));
    expect(s).toMatchObject({ code: 400, message: 'field label not supported: note' });
  });
});

describe('events.k8s.io/v1 strict rules on create', () => {
  it('requires eventTime and a type of Normal or Warning', async () => {
    const { eventTime: _t, type: _y, ...rest } = modern();
    const s = await rejected(rest as EventsV1Event);
    expect(s.message).toContain('eventTime: Required value');
    expect(s.message).toContain('type: Invalid value: "": has invalid value: ');
    const bad = await rejected(modern({ type: 'Info' }));
    expect(bad.message).toBe('Event "web.1" is invalid: type: Invalid value: "": has invalid value: Info');
  });

  it('requires reportingController (named so here), reportingInstance, action and reason', async () => {
    const s = await rejected(modern({ reportingController: '', reportingInstance: '', action: '', reason: '' }));
    expect(s.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'reportingController: Required value',
      'reportingController: Invalid value: "": name part must be non-empty',
      "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'reportingInstance: Required value',
      'action: Required value',
      'reason: Required value',
    ]);
  });

  it('limits action, reason and reportingInstance to 128 characters and note to 1 KiB', async () => {
    await events().create(
      modern({ metadata: { name: 'max' }, action: 'a'.repeat(128), reason: 'r'.repeat(128), reportingInstance: 'i'.repeat(128), note: 'n'.repeat(1024) }),
      ns,
    );
    const s = await rejected(modern({ action: 'a'.repeat(129), reason: 'r'.repeat(129), reportingInstance: 'i'.repeat(129), note: 'n'.repeat(1025) }));
    expect(s.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'reportingInstance: Invalid value: "": can have at most 128 characters',
      'action: Invalid value: "": can have at most 128 characters',
      'reason: Invalid value: "": can have at most 128 characters',
      'message: Invalid value: "": can have at most 1024 characters',
    ]);
  });

  it('wants the classic fields unset and a series of at least two with a last time', async () => {
    const s = await rejected(
      modern({
        deprecatedFirstTimestamp: '2026-01-01T00:00:00Z',
        deprecatedLastTimestamp: '2026-01-01T00:00:00Z',
        deprecatedCount: 2,
        deprecatedSource: { component: 'kubelet' },
        series: { count: 1, lastObservedTime: '0001-01-01T00:00:00.000000Z' },
      }),
    );
    expect(s.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'series.count: Invalid value: "": should be at least 2',
      'series.lastObservedTime: Required value',
      'firstTimestamp: Invalid value: "": needs to be unset',
      'lastTimestamp: Invalid value: "": needs to be unset',
      'count: Invalid value: "": needs to be unset',
      'source: Invalid value: "": needs to be unset',
    ]);
  });

  it('wants a DNS subdomain name (a core event only needs a path segment)', async () => {
    const s = await rejected(modern({ metadata: { name: 'Web_1' } }));
    expect(s.details?.causes?.[0]?.field).toBe('metadata.name');
    const fromCore = await core().create({ metadata: { name: 'Web_1' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' } }, ns);
    expect(fromCore.metadata?.name).toBe('Web_1');
  });

  it('does not apply the strict rules to writes through core/v1', async () => {
    const e = await core().create(
      { metadata: { name: 'loose' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'p' }, count: 3, firstTimestamp: '2026-01-01T00:00:00Z' },
      ns,
    );
    expect(e.count).toBe(3);
  });
});

describe('events.k8s.io/v1 updates', () => {
  it('keeps what an event reports immutable, naming the core fields', async () => {
    const created = await events().create(modern(), ns);
    const s = await statusOf(() =>
      events().update(
        { ...created, note: 'changed', reason: 'Other', regarding: { kind: 'Pod', name: 'p' }, action: 'Delete', reportingInstance: 'controller-1' },
        ns,
      ),
    );
    expect(s).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(s.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'involvedObject: Invalid value: core.ObjectReference{Kind:"Pod", Namespace:"", Name:"p", UID:"", APIVersion:"", ResourceVersion:"", FieldPath:""}: field is immutable',
      'reason: Invalid value: "Other": field is immutable',
      'message: Invalid value: "changed": field is immutable',
      'action: Invalid value: "Delete": field is immutable',
      'reportingInstance: Invalid value: "controller-1": field is immutable',
    ]);
    expect((await events().get('web.1', ns)).note).toBe('scaled to 3');
  });

  it('compares what an event reports by value, whatever order its keys come in', async () => {
    const created = await events().create(modern(), ns);
    // Clients serialize in their own key order: the same references, reordered, are no change.
    const reordered = {
      ...created,
      regarding: { apiVersion: 'apps/v1', name: 'web', namespace: 'default', kind: 'StatefulSet' },
      related: { name: 'web-0', namespace: 'default', kind: 'Pod' },
    };
    const updated = await events().update(reordered, ns);
    expect(updated.regarding).toEqual(created.regarding);
  });

  it('lets a series be updated (the way recorders report repeats) and checks it', async () => {
    await events().create(modern(), ns);
    const patched = await events().patch('web.1', { series: { count: 5, lastObservedTime: '2026-01-01T00:10:00.000000Z' } }, { type: 'merge', ...ns });
    expect(patched.series).toEqual({ count: 5, lastObservedTime: '2026-01-01T00:10:00.000000Z' });
    const s = await statusOf(() => events().patch('web.1', { series: { count: 1 } }, { type: 'merge', ...ns }));
    expect(s.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual(['series.count: Invalid value: "": should be at least 2']);
  });

  it('tolerates an eventTime change below a microsecond', async () => {
    const created = await events().create(modern(), ns);
    const updated = await events().update({ ...created, eventTime: '2026-01-01T00:00:00.1234569Z' }, ns);
    expect(updated.metadata?.name).toBe('web.1');
    const s = await statusOf(() => events().update({ ...updated, eventTime: '2026-01-01T00:00:01.000000Z' }, ns));
    expect(s.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual(['eventTime: Invalid value: 2026-01-01 00:00:01 +0000 UTC: field is immutable']);
  });

  it('creates on PUT like the core Event and applies server-side through the door', async () => {
    const put = await events().update(modern({ metadata: { name: 'put' } }), ns);
    expect(put).toMatchObject({ apiVersion: 'events.k8s.io/v1', note: 'scaled to 3' });
    const applied = await events().apply(
      { apiVersion: 'events.k8s.io/v1', kind: 'Event', ...modern({ metadata: { name: 'applied' } }) },
      { fieldManager: 'recorder', ...ns },
    );
    expect(applied.note).toBe('scaled to 3');
    const entry = (applied.metadata?.managedFields as { manager: string; apiVersion: string; fieldsV1: Record<string, unknown> }[])[0]!;
    expect(entry).toMatchObject({ manager: 'recorder', apiVersion: 'events.k8s.io/v1' });
    expect(Object.keys(entry.fieldsV1)).toContain('f:note');
    expect((await core().get('applied', ns)).message).toBe('scaled to 3');
  });

  it('answers hostile bodies with 4xx and keeps the store unchanged', async () => {
    for (const body of [
      { metadata: { name: 'h' }, note: 5 },
      { metadata: { name: 'h' }, regarding: 'pod' },
      { metadata: { name: 'h' }, eventTime: 'yesterday' },
      { metadata: { name: 'h' }, series: [] },
    ]) {
      const s = await statusOf(() => events().create(body as unknown as EventsV1Event, ns));
      expect(s.code).toBeGreaterThanOrEqual(400);
      expect(s.code).toBeLessThan(500);
    }
    expect((await core().list(ns)).items).toEqual([]);
  });
});
