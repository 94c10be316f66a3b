/**
 * Every in-process watcher owns the objects of the events it reads: the server hands all watchers
 * of an event the same stored object, and each copies it when it reads it, so what one watcher
 * does to its event never reaches another watcher, a later read, or the store.
 */
import { describe, expect, it } from 'vitest';
import { ConfigMapKind } from '../../src/kinds/index.js';
import type { WatchEvent } from '../../src/machinery/request.js';
import { useTestCluster } from '../support/cluster.js';

const cluster = useTestCluster();

async function first<T>(stream: AsyncIterable<WatchEvent<T>>): Promise<WatchEvent<T>> {
  for await (const e of stream) return e;
  throw new Error('the watch ended without an event');
}

describe('in-process watch events', () => {
  it('are each watcher’s own copy: changing one changes neither another watcher’s nor the stored object', async () => {
    const configMaps = cluster.client.resource(ConfigMapKind);
    const a = await configMaps.watch({ namespace: 'default' });
    const b = await configMaps.watch({ namespace: 'default' });
    const created = await configMaps.create({ metadata: { name: 'shared', namespace: 'default', labels: { tier: 'one' } }, data: { k: 'v' } });
    const [ea, eb] = await Promise.all([first(a), first(b)]);
    expect(ea.object).toEqual(created);
    expect(ea.object).not.toBe(eb.object);
    expect(Object.isFrozen(ea.object)).toBe(false);
    ea.object.data!.k = 'changed';
    ea.object.metadata!.labels!.tier = 'changed';
    ea.object.metadata!.managedFields![0]!.manager = 'changed';
    expect(eb.object).toEqual(created);
    expect(await configMaps.get('shared', { namespace: 'default' })).toEqual(created);
    a.close();
    b.close();
  });

  it('hand out managedFields whose every level the reader may change, the stored ones staying as they were', async () => {
    const configMaps = cluster.client.resource(ConfigMapKind);
    const w = await configMaps.watch({ namespace: 'default' });
    const created = await configMaps.create({ metadata: { name: 'fields', namespace: 'default' }, data: { x: '1', y: '2' } });
    const e = await first(w);
    for (const copy of [created, e.object]) {
      const fields = copy.metadata!.managedFields![0]!.fieldsV1 as Record<string, Record<string, Record<string, unknown>>>;
      // Each leaf is an object of the reader's own, not one shared with another leaf or the store.
      expect(fields['f:data']!['f:x']).not.toBe(fields['f:data']!['f:y']);
      fields['f:data']!['f:x']!['.'] = { changed: true };
      fields['f:data']!['.']!['f:z'] = {};
      expect(fields['f:data']!['f:y']).toEqual({});
    }
    const again = await configMaps.get('fields', { namespace: 'default' });
    expect(again.metadata!.managedFields![0]!.fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:x': {}, 'f:y': {} } });
    w.close();
  });

  it('hand the engine’s watchers the stored object itself, frozen, so nothing can change it', async () => {
    const configMaps = cluster.client.resource(ConfigMapKind);
    const raw = await cluster.request({
      verb: 'watch',
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      namespace: 'default',
      user: { username: 'system:admin', groups: ['system:masters'] },
    });
    const stream = raw.body as AsyncIterable<WatchEvent> & { close(): void };
    await configMaps.create({ metadata: { name: 'frozen', namespace: 'default' }, data: { k: 'v' } });
    const e = await first(stream);
    expect(Object.isFrozen(e.object)).toBe(true);
    expect(Object.isFrozen((e.object as { data: object }).data)).toBe(true);
    stream.close();
  });
});
