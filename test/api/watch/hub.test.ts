/** The watch hub's view of the newest revision, when the storage moved without events. */
import { describe, expect, it } from 'vitest';
import { WatchHub } from '../../../src/api/watch/hub.js';
import { MemoryStorage } from '../../../src/storage/memory.js';

describe('WatchHub.skipTo', () => {
  it('takes a newer revision as seen, never an older one, and keeps following events after it', async () => {
    const storage = new MemoryStorage();
    const hub = new WatchHub(storage);
    hub.skipTo(7);
    expect(hub.lastRevision).toBe(7);
    hub.skipTo(3);
    expect(hub.lastRevision).toBe(7);
    for (let i = 0; i < 8; i++) await storage.create({ bucket: 'core/configmaps', namespace: 'default', name: `cm-${i}` }, { metadata: { name: `cm-${i}` } });
    expect(hub.lastRevision).toBe(8);
    hub.close();
  });
});

describe('WatchHub dispatch', () => {
  const bucket = 'core/configmaps';
  const create = (storage: MemoryStorage, name: string) => storage.create({ bucket, namespace: 'default', name }, { metadata: { name } });

  it('hands an event to the watchers registered when it came, whoever registers or leaves while it is handed out', async () => {
    const storage = new MemoryStorage();
    const hub = new WatchHub(storage);
    const seen: string[] = [];
    let unregisterLast: () => void = () => undefined;
    let added = false;
    hub.register({
      bucket,
      namespace: 'default',
      onEvent: (e) => {
        seen.push(`first ${e.name}`);
        unregisterLast();
        if (!added) {
          added = true;
          hub.register({ bucket, namespace: 'default', onEvent: (e2) => seen.push(`late ${e2.name}`) });
        }
      },
    });
    unregisterLast = hub.register({ bucket, namespace: 'default', onEvent: (e) => seen.push(`last ${e.name}`) });
    await create(storage, 'a');
    await create(storage, 'b');
    expect(seen).toEqual(['first a', 'last a', 'first b', 'late b']);
    expect(hub.activeWatchers).toBe(2);
    hub.close();
  });

  it('gives each of 1,000 watchers of a namespace every event once, in order', async () => {
    const storage = new MemoryStorage();
    const hub = new WatchHub(storage);
    const counts = new Array<number>(1000).fill(0);
    const last = new Array<string>(1000).fill('');
    const unregister = counts.map((_, i) =>
      hub.register({
        bucket,
        namespace: 'default',
        onEvent: (e) => {
          counts[i]!++;
          expect(e.name > last[i]!).toBe(true);
          last[i] = e.name;
        },
      }),
    );
    for (const name of ['a', 'b', 'c']) await create(storage, name);
    for (let i = 0; i < 500; i++) unregister[i]!();
    await create(storage, 'd');
    expect(counts.slice(0, 500).every((n) => n === 3)).toBe(true);
    expect(counts.slice(500).every((n) => n === 4)).toBe(true);
    expect(hub.activeWatchers).toBe(500);
    hub.close();
  });
});

describe('WatchHub field index', () => {
  const bucket = 'core/pods';
  const nodeOf = (v: { spec?: unknown }) => (v.spec as { nodeName?: string } | undefined)?.nodeName ?? '';
  const pod = (name: string, nodeName?: string) => ({ metadata: { name }, spec: nodeName === undefined ? {} : { nodeName } });

  it('hands a watcher of a field value only the events of objects that have the value now or had it before', async () => {
    const storage = new MemoryStorage();
    const hub = new WatchHub(storage);
    const seen: Record<string, string[]> = { n1: [], n2: [], unset: [] };
    const watch = (label: string, value: string) =>
      hub.register({ bucket, field: { field: 'spec.nodeName', value, read: nodeOf }, onEvent: (e) => seen[label]!.push(`${e.type} ${e.name}`) });
    const stop = watch('n1', 'n1');
    watch('n2', 'n2');
    watch('unset', '');
    const key = (name: string) => ({ bucket, namespace: 'default', name });
    const a = await storage.create(key('a'), pod('a', 'n1'));
    await storage.create(key('b'), pod('b', 'n2'));
    const c = await storage.create(key('c'), pod('c'));
    // c is bound to n1: the watcher of n1 and the watcher of unset pods both see the change.
    await storage.update(key('c'), pod('c', 'n1'), c.revision);
    await storage.delete(key('a'), a.revision);
    expect(seen).toEqual({
      n1: ['ADDED a', 'MODIFIED c', 'DELETED a'],
      n2: ['ADDED b'],
      unset: ['ADDED c', 'MODIFIED c'],
    });
    stop();
    await storage.create(key('d'), pod('d', 'n1'));
    expect(seen.n1).toHaveLength(3);
    expect(hub.activeWatchers).toBe(2);
    hub.close();
  });
});
