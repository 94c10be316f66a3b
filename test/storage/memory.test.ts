import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { MemoryStorage } from '../../src/storage/memory.js';
import { DryRunStorage } from '../../src/storage/dry-run.js';
import { StorageConflictError, StorageKeyError, type StorageEvent } from '../../src/storage/storage.js';

const key = (namespace: string, name: string) => ({ bucket: 'core/configmaps', namespace, name });

describe('MemoryStorage', () => {
  it('stamps each write with the next global revision as metadata.resourceVersion', async () => {
    const s = new MemoryStorage();
    const a = await s.create(key('default', 'a'), { metadata: { name: 'a' } });
    const b = await s.create({ bucket: 'core/secrets', namespace: 'default', name: 'b' }, { metadata: { name: 'b' } });
    expect(a.revision).toBe(1);
    expect(b.revision).toBe(2);
    expect((a.value.metadata as { resourceVersion: string }).resourceVersion).toBe('1');
    expect(await s.currentRevision()).toBe(2);
  });

  it('refuses a create of an existing key and changes nothing', async () => {
    const s = new MemoryStorage();
    await s.create(key('default', 'a'), { metadata: { name: 'a' }, data: { x: '1' } });
    await expect(s.create(key('default', 'a'), { metadata: { name: 'a' }, data: { x: '2' } })).rejects.toBeInstanceOf(StorageKeyError);
    expect((await s.get(key('default', 'a')))!.value.data).toEqual({ x: '1' });
    expect(await s.currentRevision()).toBe(1);
  });

  it('updates only with the current revision (compare-and-swap)', async () => {
    const s = new MemoryStorage();
    const a = await s.create(key('default', 'a'), { metadata: { name: 'a' } });
    const b = await s.update(key('default', 'a'), { metadata: { name: 'a' }, data: { v: '1' } }, a.revision);
    expect(b.revision).toBe(2);
    const err = await s.update(key('default', 'a'), { metadata: { name: 'a' } }, a.revision).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageConflictError);
    expect((err as StorageConflictError).actual).toBe(2);
    await expect(s.update(key('default', 'zz'), {}, 1)).rejects.toBeInstanceOf(StorageKeyError);
  });

  it('deletes with compare-and-swap and emits the delete revision', async () => {
    const s = new MemoryStorage();
    const events: StorageEvent[] = [];
    s.subscribe((e) => events.push(e));
    const a = await s.create(key('ns', 'a'), { metadata: { name: 'a' } });
    await expect(s.delete(key('ns', 'a'), 99)).rejects.toBeInstanceOf(StorageConflictError);
    const removed = await s.delete(key('ns', 'a'), a.revision);
    expect(removed.revision).toBe(1);
    expect(await s.get(key('ns', 'a'))).toBeUndefined();
    expect(events.map((e) => [e.type, e.revision])).toEqual([
      ['ADDED', 1],
      ['DELETED', 2],
    ]);
    expect((events[1]!.object.metadata as { resourceVersion: string }).resourceVersion).toBe('2');
  });

  it('lists in Kubernetes key order (namespace, then name, byte order) and by namespace', async () => {
    const s = new MemoryStorage();
    for (const [ns, n] of [
      ['b', 'x'],
      ['a', 'z'],
      ['a-b', 'y'],
      ['a', 'a'],
    ] as const) {
      await s.create(key(ns, n), { metadata: { name: n, namespace: ns } });
    }
    const all = await s.list('core/configmaps');
    expect(all.items.map((i) => `${i.namespace}/${i.name}`)).toEqual(['a-b/y', 'a/a', 'a/z', 'b/x']);
    const inA = await s.list('core/configmaps', { namespace: 'a' });
    expect(inA.items.map((i) => i.name)).toEqual(['a', 'z']);
    expect((await s.list('core/nothing')).items).toEqual([]);
  });

  it('takes ownership of written values and freezes them, so nothing can change what is stored', async () => {
    const s = new MemoryStorage();
    const input = { metadata: { name: 'a' }, data: { k: 'v' } };
    const stored = await s.create(key('d', 'a'), input);
    expect(() => {
      input.data.k = 'changed';
    }).toThrow(TypeError);
    expect(() => {
      (stored.value.data as Record<string, string>).k = 'x';
    }).toThrow(TypeError);
    expect((await s.get(key('d', 'a')))!.value.data).toEqual({ k: 'v' });
  });

  it('keeps list order sorted for any insert/delete sequence (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(fc.boolean(), fc.stringMatching(/^[a-z0-9]{1,4}$/)), { maxLength: 60 }), async (ops) => {
        const s = new MemoryStorage();
        const model = new Map<string, number>();
        for (const [add, name] of ops) {
          const k = key('ns', name);
          const cur = await s.get(k);
          if (add && !cur) await s.create(k, { metadata: { name } });
          else if (!add && cur) await s.delete(k, cur.revision);
          if (add) model.set(name, 1);
          else model.delete(name);
        }
        const names = (await s.list('core/configmaps')).items.map((i) => i.name);
        expect(names).toEqual([...model.keys()].sort());
      }),
      { numRuns: 100 },
    );
  });
});

describe('DryRunStorage', () => {
  it('checks writes like the real storage but keeps nothing and emits nothing', async () => {
    const s = new MemoryStorage();
    const events: StorageEvent[] = [];
    s.subscribe((e) => events.push(e));
    const real = await s.create(key('d', 'a'), { metadata: { name: 'a' } });
    const dry = new DryRunStorage(s);
    const created = await dry.create(key('d', 'b'), { metadata: { name: 'b', resourceVersion: '5' } });
    expect(created.value.metadata).toEqual({ name: 'b' });
    await expect(dry.create(key('d', 'a'), {})).rejects.toBeInstanceOf(StorageKeyError);
    await expect(dry.update(key('d', 'a'), {}, 42)).rejects.toBeInstanceOf(StorageConflictError);
    const updated = await dry.update(key('d', 'a'), { metadata: { name: 'a' }, data: { x: 'y' } }, real.revision);
    expect((updated.value.metadata as { resourceVersion: string }).resourceVersion).toBe('1');
    await dry.delete(key('d', 'a'), real.revision);
    expect(await s.get(key('d', 'b'))).toBeUndefined();
    expect((await s.get(key('d', 'a')))!.value).toEqual(real.value);
    expect(await s.currentRevision()).toBe(1);
    expect(events).toHaveLength(1);
  });
});
