import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/storage/memory.js';
import { ClusterSnapshot, loadSnapshot, SnapshotFormatError, snapshotState } from '../../src/storage/snapshot.js';
import { StorageCompactedError, type StorageEvent } from '../../src/storage/storage.js';

const key = (name: string, bucket = 'core/configmaps') => ({ bucket, namespace: 'default', name });
const cm = (name: string, labels?: Record<string, string>) => ({ metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) } });

async function filled(n: number): Promise<MemoryStorage> {
  const s = new MemoryStorage();
  for (let i = 0; i < n; i++) {
    const name = `cm-${String(i).padStart(3, '0')}`;
    await s.create(key(name), cm(name, { app: i % 2 ? 'odd' : 'even' }));
  }
  return s;
}

describe('MemoryStorage state() and restore()', () => {
  it('shares the stored objects with the storage that starts from the state, copying nothing', async () => {
    const source = await filled(3);
    const copy = new MemoryStorage();
    copy.restore(source.state());
    expect(await copy.get(key('cm-001'))).toBe(await source.get(key('cm-001')));
    expect(await copy.currentRevision()).toBe(3);
  });

  it('copies a bucket before its first write after a state was taken, so the state never changes', async () => {
    const source = await filled(4);
    const state = source.state();
    const copy = new MemoryStorage();
    copy.restore(state);
    await source.delete(key('cm-000'), 1);
    await source.create(key('extra'), cm('extra', { app: 'odd' }));
    await copy.update(key('cm-001'), cm('cm-001', { app: 'changed' }), 2);

    const names = async (s: MemoryStorage, labels?: { key: string; value: string }[]) =>
      (await s.list('core/configmaps', labels ? { labels, filter: () => true } : {})).items.map((i) => i.name);
    expect(await names(source)).toEqual(['cm-001', 'cm-002', 'cm-003', 'extra']);
    expect(await names(copy)).toEqual(['cm-000', 'cm-001', 'cm-002', 'cm-003']);
    // The label index is copied with its bucket: each storage finds its own objects by label.
    expect(await names(source, [{ key: 'app', value: 'odd' }])).toEqual(['cm-001', 'cm-003', 'extra']);
    expect(await names(copy, [{ key: 'app', value: 'odd' }])).toEqual(['cm-003']);
    const again = new MemoryStorage();
    again.restore(state);
    expect(await names(again)).toEqual(['cm-000', 'cm-001', 'cm-002', 'cm-003']);
    expect(await names(again, [{ key: 'app', value: 'odd' }])).toEqual(['cm-001', 'cm-003']);
  });

  it('restoring silently into an empty storage tells no listener, and later writes are told as usual', async () => {
    const state = (await filled(2)).state();
    const s = new MemoryStorage();
    const events: StorageEvent[] = [];
    s.subscribe((e) => events.push(e));
    s.restore(state, { silent: true });
    expect(events).toEqual([]);
    expect((await s.list('core/configmaps')).items.map((i) => i.name)).toEqual(['cm-000', 'cm-001']);
    await s.create(key('after'), cm('after'));
    expect(events.map((e) => `${e.type} ${e.name} ${e.revision}`)).toEqual(['ADDED after 3']);
    // A storage with content is told what a restore changes, silent or not.
    s.restore(state, { silent: true });
    expect(events.map((e) => `${e.type} ${e.name}`)).toEqual(['ADDED after', 'DELETED after']);
  });

  it('restoring moves the revision on, compacts the history and tells listeners only what changed', async () => {
    const s = await filled(2);
    await s.create(key('secret', 'core/secrets'), cm('secret'));
    const state = s.state();
    await s.update(key('cm-000'), cm('cm-000', { app: 'new' }), 1);
    await s.create(key('added'), cm('added'));
    const events: StorageEvent[] = [];
    s.subscribe((e) => events.push(e));
    s.restore(state);
    expect(await s.currentRevision()).toBe(6);
    expect(events.map((e) => `${e.type} ${e.name} ${e.revision}`)).toEqual(['MODIFIED cm-000 6', 'DELETED added 6']);
    await expect(s.changesSince('core/configmaps', 5)).rejects.toBeInstanceOf(StorageCompactedError);
    expect(await s.changesSince('core/configmaps', 6)).toEqual([]);
    expect((await s.get(key('cm-000')))?.revision).toBe(1);
  });
});

describe('loadSnapshot', () => {
  it('reads back what toJSON wrote: the same objects, revision and key order', async () => {
    const s = await filled(3);
    await s.create({ bucket: 'core/namespaces', namespace: '', name: 'default' }, { metadata: { name: 'default' } });
    const snapshot = new ClusterSnapshot(s.state());
    const text = JSON.stringify(snapshot);
    const loaded = loadSnapshot(text);
    expect(loaded.revision).toBe(4);
    expect(loaded.size).toBe(4);
    expect(JSON.stringify(loaded)).toBe(text);
    expect(JSON.parse(text).objects.map((o: { bucket: string; object: { metadata: { name: string } } }) => `${o.bucket} ${o.object.metadata.name}`)).toEqual([
      'core/configmaps cm-000',
      'core/configmaps cm-001',
      'core/configmaps cm-002',
      'core/namespaces default',
    ]);
    const restored = new MemoryStorage();
    restored.restore(snapshotState(loaded));
    expect((await restored.get(key('cm-002')))?.value).toEqual((await s.get(key('cm-002')))?.value);
    expect(Object.isFrozen((await restored.get(key('cm-002')))?.value.metadata)).toBe(true);
  });

  const valid = { bucket: 'core/configmaps', object: { metadata: { name: 'a', namespace: 'default', resourceVersion: '2' } } };
  const doc = (over: Record<string, unknown>) =>
    JSON.stringify({ apiVersion: 'memkube.io/v1', kind: 'ClusterSnapshot', revision: 5, objects: [valid], ...over });
  it.each([
    ['not JSON', '{"apiVersion":', /^invalid cluster snapshot: not JSON/],
    ['not an object', '[]', 'invalid cluster snapshot: expected a JSON object'],
    ['another kind', JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [] }), /expected apiVersion "memkube.io\/v1" and kind "ClusterSnapshot"/],
    ['a negative revision', doc({ revision: -1 }), 'invalid cluster snapshot: revision: expected a non-negative integer'],
    ['a fractional revision', doc({ revision: 1.5 }), 'invalid cluster snapshot: revision: expected a non-negative integer'],
    ['objects not a list', doc({ objects: {} }), 'invalid cluster snapshot: objects: expected an array'],
    ['a bad bucket', doc({ objects: [{ ...valid, bucket: '../etc' }] }), 'invalid cluster snapshot: objects[0].bucket: expected group/resource'],
    [
      'no metadata',
      doc({ objects: [{ bucket: 'core/configmaps', object: { kind: 'x' } }] }),
      'invalid cluster snapshot: objects[0].object.metadata: expected an object',
    ],
    [
      'no name',
      doc({ objects: [{ bucket: 'core/configmaps', object: { metadata: { resourceVersion: '1' } } }] }),
      /objects\[0\]\.object\.metadata\.name: expected a non-empty string/,
    ],
    [
      'a future resourceVersion',
      doc({ objects: [{ bucket: 'core/configmaps', object: { metadata: { name: 'a', resourceVersion: '6' } } }] }),
      /resourceVersion: expected a positive integer no newer than revision 5/,
    ],
    [
      'a resourceVersion that is no number',
      doc({ objects: [{ bucket: 'core/configmaps', object: { metadata: { name: 'a', resourceVersion: '0x1' } } }] }),
      /resourceVersion/,
    ],
    ['an object twice', doc({ objects: [valid, valid] }), 'invalid cluster snapshot: objects[1]: core/configmaps default/a is there twice'],
    ['nesting too deep', doc({ objects: [] }).replace('"objects":[]', `"objects":[${'['.repeat(10_000)}${']'.repeat(10_000)}]`), /nested deeper than 10000/],
  ])('refuses %s with a SnapshotFormatError that says where', (_what, text, message) => {
    let error: unknown;
    try {
      loadSnapshot(text);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(SnapshotFormatError);
    if (typeof message === 'string') expect((error as Error).message).toBe(message);
    else expect((error as Error).message).toMatch(message);
  });

  it('keeps a __proto__ key as data, never as a prototype', () => {
    const text = doc({
      objects: [{ bucket: 'core/configmaps', object: { metadata: { name: 'a', resourceVersion: '1' }, data: JSON.parse('{"__proto__":{"polluted":"yes"}}') } }],
    });
    const [entry] = [...loadSnapshot(JSON.parse(text)).entries()];
    const data = entry!.object.data as Record<string, unknown>;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(data, '__proto__')?.value).toEqual({ polluted: 'yes' });
  });
});
