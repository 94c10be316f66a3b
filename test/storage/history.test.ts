import { describe, expect, it } from 'vitest';
import { MemoryStorage } from '../../src/storage/memory.js';
import { StorageCompactedError, StorageFutureRevisionError } from '../../src/storage/storage.js';

function setup(retention = 1000) {
  let now = 0;
  const storage = new MemoryStorage({ now: () => now, historyRetentionMs: retention });
  const key = (name: string, namespace = 'ns') => ({ bucket: 'b', namespace, name });
  return { storage, key, advance: (ms: number) => (now += ms) };
}

const names = (r: { items: readonly { name: string }[] }) => r.items.map((i) => i.name);

describe('MemoryStorage history', () => {
  it('gets an object as it was at a past revision', async () => {
    const { storage, key } = setup();
    const a1 = await storage.create(key('a'), { v: 1 });
    const a2 = await storage.update(key('a'), { v: 2 }, a1.revision);
    await storage.delete(key('a'), a2.revision);
    expect(await storage.get(key('a'), { revision: 0 })).toBeUndefined();
    expect((await storage.get(key('a'), { revision: a1.revision }))?.value.v).toBe(1);
    expect((await storage.get(key('a'), { revision: a2.revision }))?.value.v).toBe(2);
    expect(await storage.get(key('a'), { revision: a2.revision + 1 })).toBeUndefined();
    await expect(storage.get(key('a'), { revision: 99 })).rejects.toBeInstanceOf(StorageFutureRevisionError);
  });

  it('reads a key deleted and created again at every revision, before and after older deletes are compacted', async () => {
    const { storage, key, advance } = setup(1000);
    const readAt = async (name: string, revision: number) => (await storage.get(key(name), { revision }))?.value.v;
    const x = await storage.create(key('x'), { v: 'x' });
    await storage.delete(key('x'), x.revision);
    advance(2000);
    // This write compacts x's create and delete; y's changes are retained.
    const y1 = await storage.create(key('y'), { v: 1 });
    expect(await storage.compactedRevision()).toBe(x.revision + 1);
    const gone = await storage.delete(key('y'), y1.revision);
    const y2 = await storage.create(key('y'), { v: 2 });
    const y3 = await storage.update(key('y'), { v: 3 }, y2.revision);
    expect(await readAt('y', y1.revision)).toBe(1);
    expect(await readAt('y', y1.revision + 1)).toBeUndefined();
    expect(await readAt('y', y2.revision)).toBe(2);
    expect(await readAt('y', y3.revision)).toBe(3);
    expect(names(await storage.list('b', { revision: y1.revision }))).toEqual(['y']);
    expect(names(await storage.list('b', { revision: gone.revision + 1 }))).toEqual([]);
    // x's delete is compacted: created again, it has no past the history could show.
    const x2 = await storage.create(key('x'), { v: 'x2' });
    expect(await readAt('x', x2.revision - 1)).toBeUndefined();
    expect(await readAt('x', x2.revision)).toBe('x2');
  });

  it('lists a snapshot at a past revision, paged, with what was deleted since and without what was created since', async () => {
    const { storage, key } = setup();
    for (const n of ['a', 'b', 'c', 'd']) await storage.create(key(n), { n });
    const at = await storage.currentRevision();
    await storage.delete(key('b'), 2);
    await storage.create(key('bb'), {});
    const c = await storage.get(key('c'));
    await storage.update(key('c'), { n: 'c2' }, c!.revision);
    const now = await storage.list('b');
    expect(names(now)).toEqual(['a', 'bb', 'c', 'd']);
    const page1 = await storage.list('b', { revision: at, limit: 2 });
    expect(names(page1)).toEqual(['a', 'b']);
    expect(page1).toMatchObject({ revision: at, more: true, remaining: 2 });
    const page2 = await storage.list('b', { revision: at, limit: 2, after: 'ns/b' });
    expect(names(page2)).toEqual(['c', 'd']);
    expect(page2.items[0]!.value.n).toBe('c');
    expect(page2.more).toBe(false);
  });

  it('filters while walking so limit counts matches', async () => {
    const { storage, key } = setup();
    for (const n of ['a', 'b', 'c', 'd', 'e']) await storage.create(key(n), { even: 'bd'.includes(n) });
    const r = await storage.list('b', { filter: (v) => v.even === true, limit: 1 });
    expect(names(r)).toEqual(['b']);
    expect(r.more).toBe(true);
    expect(r.remaining).toBeUndefined();
  });

  it('replays the changes of a bucket since a revision, per namespace', async () => {
    const { storage, key } = setup();
    await storage.create(key('a'), {});
    await storage.create(key('x', 'other'), {});
    await storage.update(key('a'), { v: 2 }, 1);
    const all = await storage.changesSince('b', 1);
    expect(all.map((e) => [e.type, e.name])).toEqual([
      ['ADDED', 'x'],
      ['MODIFIED', 'a'],
    ]);
    expect((await storage.changesSince('b', 0, { namespace: 'ns' })).map((e) => e.revision)).toEqual([1, 3]);
  });

  it('compacts history older than the retention window on its clock', async () => {
    const { storage, key, advance } = setup(1000);
    await storage.create(key('a'), {});
    await storage.update(key('a'), { v: 2 }, 1);
    expect(await storage.compactedRevision()).toBe(0);
    advance(1000);
    await storage.create(key('b'), {});
    expect(await storage.compactedRevision()).toBe(2);
    await expect(storage.changesSince('b', 1)).rejects.toBeInstanceOf(StorageCompactedError);
    await expect(storage.list('b', { revision: 1 })).rejects.toMatchObject({ requested: 1, compacted: 2 });
    expect((await storage.changesSince('b', 2)).map((e) => e.name)).toEqual(['b']);
    expect(names(await storage.list('b', { revision: 2 }))).toEqual(['a']);
  });

  it('reads at a past revision cost the changes since it, not the store', async () => {
    const { storage, key } = setup(60_000);
    for (let i = 0; i < 2000; i++) await storage.create(key(`o${String(i).padStart(5, '0')}`), { i });
    const at = await storage.currentRevision();
    await storage.delete(key('o00000'), 1);
    let calls = 0;
    const r = await storage.list('b', { revision: at, limit: 3, filter: () => (calls++, true) });
    expect(names(r)).toEqual(['o00000', 'o00001', 'o00002']);
    expect(calls).toBe(4); // three items and one to know there is more
    expect((await storage.list('b', { revision: at, limit: 3 })).remaining).toBe(1997);
  });
});
