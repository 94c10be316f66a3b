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
