import { describe, expect, it } from 'vitest';
import { ConfigMapKind, EventKind, NamespaceKind } from '../../src/kinds/index.js';
import type { StorageEvent } from '../../src/storage/storage.js';
import { MemoryStorage } from '../../src/storage/memory.js';
import { statusOf, testCluster, useTestCluster } from '../support/cluster.js';

const cluster = useTestCluster();

const cms = () => cluster.client.resource(ConfigMapKind);

describe('update (PUT)', () => {
  it('replaces the object and bumps resourceVersion; a ConfigMap gets no generation', async () => {
    const a = await cms().create({ metadata: { name: 'a' }, data: { k: '1' } });
    const b = await cms().update({ ...a, data: { k: '2' } });
    expect(Number(b.metadata!.resourceVersion)).toBeGreaterThan(Number(a.metadata!.resourceVersion));
    expect(b.metadata?.generation).toBeUndefined();
    expect(b.data).toEqual({ k: '2' });
    const c = await cms().update({ ...b, metadata: { ...b.metadata, labels: { x: 'y' } } });
    expect(c.metadata?.generation).toBeUndefined();
    expect(c.metadata?.labels).toEqual({ x: 'y' });
  });

  it('answers 409 Conflict when the body resourceVersion is stale, and changes nothing', async () => {
    const a = await cms().create({ metadata: { name: 'a' }, data: { k: '1' } });
    await cms().update({ ...a, data: { k: '2' } });
    const s = await statusOf(() => cms().update({ ...a, data: { k: '3' } }));
    expect(s).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Operation cannot be fulfilled on configmaps "a": the object has been modified; please apply your changes to the latest version and try again',
      details: { name: 'a', kind: 'configmaps' },
    });
    expect((await cms().get('a')).data).toEqual({ k: '2' });
  });

  it('treats an empty resourceVersion as an unconditional update', async () => {
    await cms().create({ metadata: { name: 'a' }, data: { k: '1' } });
    const b = await cms().update({ metadata: { name: 'a' }, data: { k: '9' } });
    expect(b.data).toEqual({ k: '9' });
  });

  it('keeps uid and creationTimestamp; a different uid in the body is a failed precondition', async () => {
    const a = await cms().create({ metadata: { name: 'a' } });
    cluster.clock.advance(60_000);
    const b = await cms().update({ metadata: { name: 'a', creationTimestamp: '1999-01-01T00:00:00Z' }, data: { x: 'y' } });
    expect(b.metadata?.uid).toBe(a.metadata?.uid);
    expect(b.metadata?.creationTimestamp).toBe(a.metadata?.creationTimestamp);
    const s = await statusOf(() => cms().update({ metadata: { name: 'a', uid: 'other' } }));
    expect(s.code).toBe(409);
    expect(s.message).toBe(
      `Operation cannot be fulfilled on configmaps "a": StorageError: invalid object, Code: 4, Key: /registry/configmaps/default/a, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: other, UID in object meta: ${a.metadata!.uid}`,
    );
  });

  it('answers 404 for a missing object, and creates it for kinds that allow create on update', async () => {
    const s = await statusOf(() => cms().update({ metadata: { name: 'ghost' } }));
    expect(s).toMatchObject({ code: 404, reason: 'NotFound', message: 'configmaps "ghost" not found' });
    const ev = await cluster.client.resource(EventKind).update({ metadata: { name: 'e1' }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' } });
    expect(ev.metadata?.uid).toBeDefined();
  });

  it('answers 400 when the body name is not the URL name', async () => {
    await cms().create({ metadata: { name: 'a' } });
    const s = await statusOf(() =>
      cluster.request({
        verb: 'update',
        resource: { group: '', version: 'v1', resource: 'configmaps' },
        namespace: 'default',
        name: 'a',
        body: { metadata: { name: 'b' } },
        user: { username: 'u', groups: [] },
      }),
    );
    expect(s).toMatchObject({ code: 400, message: 'the name of the object (b) does not match the name on the URL (a)' });
  });

  it('answers 400 for a non-numeric resourceVersion', async () => {
    await cms().create({ metadata: { name: 'a' } });
    const s = await statusOf(() => cms().update({ metadata: { name: 'a', resourceVersion: 'abc' } }));
    expect(s).toMatchObject({ code: 400, reason: 'BadRequest' });
  });

  it('does not write an unchanged object: same resourceVersion, no event', async () => {
    const a = await cms().create({ metadata: { name: 'a' }, data: { k: 'v' } });
    await cluster.settle();
    const events: StorageEvent[] = [];
    const storage = new MemoryStorage();
    const c = await testCluster({ storage });
    storage.subscribe((e) => events.push(e));
    const x = await c.client.resource(ConfigMapKind).create({ metadata: { name: 'x' } });
    await c.settle();
    events.length = 0;
    const y = await c.client.resource(ConfigMapKind).update(x);
    expect(y.metadata?.resourceVersion).toBe(x.metadata?.resourceVersion);
    expect(events).toHaveLength(0);
    await c.close();
    const before = (await cms().list({ namespace: 'default' })).metadata.resourceVersion;
    const b = await cms().update(a);
    expect(b.metadata?.resourceVersion).toBe(a.metadata?.resourceVersion);
    expect((await cms().list({ namespace: 'default' })).metadata.resourceVersion).toBe(before);
  });

  it('rejects an invalid update with 422 and keeps the stored object', async () => {
    const a = await cms().create({ metadata: { name: 'a', labels: { ok: 'yes' } } });
    const s = await statusOf(() => cms().update({ ...a, metadata: { ...a.metadata, labels: { 'bad key!': 'x' } } }));
    expect(s.code).toBe(422);
    expect(s.message).toContain('metadata.labels: Invalid value: "bad key!"');
    expect((await cms().get('a')).metadata?.labels).toEqual({ ok: 'yes' });
  });

  it('updateStatus changes only status; PUT of the main resource keeps status', async () => {
    const ns = cluster.client.resource(NamespaceKind);
    const created = await ns.create({ metadata: { name: 'team' } });
    expect(created.status).toEqual({ phase: 'Active' });
    const viaMain = await ns.update({ ...created, status: { phase: 'Terminating' }, metadata: { ...created.metadata, labels: { a: 'b' } } });
    expect(viaMain.status).toEqual({ phase: 'Active' });
    expect(viaMain.metadata?.labels?.a).toBe('b');
    const viaStatus = await ns.updateStatus({
      ...viaMain,
      metadata: { ...viaMain.metadata, labels: { changed: 'no' } },
      status: { phase: 'Active', conditions: [{ type: 'X', status: 'True' }] },
    });
    expect(viaStatus.status?.conditions).toHaveLength(1);
    expect(viaStatus.metadata?.labels?.changed).toBeUndefined();
    expect(viaStatus.metadata?.labels?.a).toBe('b');
  });
});
