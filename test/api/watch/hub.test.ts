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
