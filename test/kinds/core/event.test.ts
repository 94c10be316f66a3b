import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src/cluster.js';
import { EventKind, NamespaceKind, type Event } from '../../../src/kinds/index.js';
import { statusOf, testCluster } from '../../support/cluster.js';

let cluster: Cluster;
beforeEach(async () => {
  cluster = await testCluster();
  await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'team' } });
});
afterEach(async () => {
  await cluster.close();
});

const events = () => cluster.client.resource(EventKind);
const create = (e: Event, namespace = 'team') => events().create(e, { namespace });
const names = async (namespace = 'team') => (await events().list({ namespace })).items.map((e) => e.metadata?.name);

async function rejected(e: Event, namespace = 'team') {
  const before = await names(namespace);
  const s = await statusOf(() => create(e, namespace));
  expect(s).toMatchObject({ code: 422, reason: 'Invalid', details: { kind: 'Event', name: e.metadata.name } });
  expect(await names(namespace)).toEqual(before);
  return s;
}

const classic = (over: Partial<Event> = {}): Event => ({
  metadata: { name: 'web.17a8b2c3d4e5f6a7' },
  involvedObject: { kind: 'Pod', namespace: 'team', name: 'web', uid: 'u-1', apiVersion: 'v1' },
  reason: 'Started',
  message: 'Started container web',
  source: { component: 'kubelet', host: 'node-1' },
  firstTimestamp: '2026-01-01T00:00:00Z',
  lastTimestamp: '2026-01-01T00:00:00Z',
  count: 1,
  type: 'Normal',
  ...over,
});

const modern = (over: Partial<Event> = {}): Event => ({
  metadata: { name: 'web.17a8b2c3d4e5f6a8' },
  involvedObject: { kind: 'Pod', namespace: 'team', name: 'web' },
  eventTime: '2026-01-01T00:00:00.000000Z',
  reportingComponent: 'kubernetes.io/kubelet',
  reportingInstance: 'node-1',
  action: 'Pulling',
  reason: 'Pulling',
  type: 'Normal',
  ...over,
});

describe('Event (core/v1), classic events', () => {
  it('stores an event as given: no defaults', async () => {
    const e = await create(classic());
    const { metadata, ...rest } = e;
    const { metadata: _m, ...sent } = classic();
    expect(rest).toEqual({ apiVersion: 'v1', kind: 'Event', ...sent });
    expect(metadata).toMatchObject({ name: 'web.17a8b2c3d4e5f6a7', namespace: 'team' });
  });

  it("requires the involved object's namespace to be the event's", async () => {
    const s = await rejected(classic({ involvedObject: { kind: 'Pod', namespace: 'other', name: 'web' } }));
    expect(s.message).toBe('Event "web.17a8b2c3d4e5f6a7" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace');
    expect(s.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: "other": does not match event.namespace', field: 'involvedObject.namespace' },
    ]);
  });

  it('puts events about cluster-scoped objects in default only', async () => {
    const node = classic({ involvedObject: { kind: 'Node', name: 'node-1' } });
    const s = await rejected(node);
    expect(s.message).toBe('Event "web.17a8b2c3d4e5f6a7" is invalid: involvedObject.namespace: Invalid value: "": does not match event.namespace');
    await create(node, 'default');
    await rejected(node, 'kube-system');
  });

  it('does not check type, names or any event field besides the namespaces', async () => {
    await create(classic({ metadata: { name: 'Not_A.DNS~Name' }, type: 'Bogus', reason: '', message: 'x'.repeat(5000), count: -3 }));
    expect(await names()).toEqual(['Not_A.DNS~Name']);
  });

  it('still applies the path-segment name rules', async () => {
    const s = await rejected(classic({ metadata: { name: 'a%b' } }));
    expect(s.message).toBe('Event "a%b" is invalid: metadata.name: Invalid value: "a%b": may not contain \'%\'');
  });
});

describe('Event (core/v1), events with eventTime', () => {
  it('accepts a complete event', async () => {
    const e = await create(modern());
    expect(e).toMatchObject({ reportingComponent: 'kubernetes.io/kubelet', action: 'Pulling', eventTime: '2026-01-01T00:00:00.000000Z' });
  });

  it('requires reportingComponent (named so in the path for a core request), reportingInstance, action and reason', async () => {
    const { reportingComponent: _c, action: _a, ...rest } = modern({ reportingInstance: '', reason: '' });
    const s = await rejected(rest);
    expect(s.message).toBe(
      'Event "web.17a8b2c3d4e5f6a8" is invalid: [reportingComponent: Required value, ' +
        'reportingComponent: Invalid value: "": name part must be non-empty, ' +
        "reportingComponent: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), " +
        'reportingInstance: Required value, action: Required value, reason: Required value]',
    );
  });

  it('checks that reportingComponent is a qualified name', async () => {
    const s = await rejected(modern({ reportingComponent: 'a/b/c' }));
    expect(s.details?.causes?.map((c) => c.field)).toEqual(['reportingComponent']);
    expect(s.message).toContain('reportingComponent: Invalid value: "a/b/c": ');
  });

  it('limits reportingInstance, action and reason to 128 and message to 1024 bytes, printing an empty value', async () => {
    await create(
      modern({ metadata: { name: 'max' }, reportingInstance: 'i'.repeat(128), action: 'a'.repeat(128), reason: 'r'.repeat(128), message: 'm'.repeat(1024) }),
    );
    const s = await rejected(modern({ reportingInstance: 'i'.repeat(129), action: 'a'.repeat(129), reason: 'é'.repeat(65), message: '🚀'.repeat(257) }));
    expect(s.message).toBe(
      'Event "web.17a8b2c3d4e5f6a8" is invalid: [reportingInstance: Invalid value: "": can have at most 128 characters, ' +
        'action: Invalid value: "": can have at most 128 characters, reason: Invalid value: "": can have at most 128 characters, ' +
        'message: Invalid value: "": can have at most 1024 characters]',
    );
  });

  it('allows events about cluster-scoped objects in default and kube-system only', async () => {
    const node = modern({ involvedObject: { kind: 'Node', name: 'node-1' } });
    await create(node, 'default');
    await create(node, 'kube-system');
    const s = await rejected(node);
    expect(s.message).toBe('Event "web.17a8b2c3d4e5f6a8" is invalid: involvedObject.namespace: Invalid value: "": does not match event.namespace');
    // A namespaced involved object may live elsewhere once eventTime is set.
    await create(modern({ metadata: { name: 'cross' }, involvedObject: { kind: 'Pod', namespace: 'default', name: 'x' } }));
  });

  it('treats a zero eventTime like none', async () => {
    const s = await rejected(classic({ eventTime: '0001-01-01T00:00:00Z', involvedObject: { namespace: 'other' } }));
    expect(s.details?.causes?.map((c) => c.field)).toEqual(['involvedObject.namespace']);
  });
});

describe('Event updates', () => {
  it('allows changing anything (core/v1 has no immutable event fields) and re-validates', async () => {
    const e = await create(classic());
    const updated = await events().update({ ...e, count: 2, message: 'again', reason: 'Other', type: 'Warning' }, { namespace: 'team' });
    expect(updated).toMatchObject({ count: 2, message: 'again', reason: 'Other', type: 'Warning' });
    const s = await statusOf(() => events().update({ ...updated, involvedObject: { namespace: 'x' } }, { namespace: 'team' }));
    expect(s.message).toBe('Event "web.17a8b2c3d4e5f6a7" is invalid: involvedObject.namespace: Invalid value: "x": does not match event.namespace');
    expect((await events().get(e.metadata.name!, { namespace: 'team' })).message).toBe('again');
  });

  it('creates on PUT when the event does not exist, with the same rules', async () => {
    const created = await events().update(classic({ metadata: { name: 'put-created' } }), { namespace: 'team' });
    expect(created.metadata.uid).toBeTruthy();
    const s = await statusOf(() => events().update(classic({ metadata: { name: 'bad' }, involvedObject: { namespace: 'x' } }), { namespace: 'team' }));
    expect(s.code).toBe(422);
    expect(await names()).toEqual(['put-created']);
  });
});
