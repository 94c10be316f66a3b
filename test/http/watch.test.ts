/**
 * Watch streams over HTTP: a watch from an older resourceVersion replays every change after it on
 * the wire (or ends with an ERROR 410), and a stream whose watch ended before the HTTP layer read
 * it ends the response instead of leaving it open.
 */
import { describe, expect, it } from 'vitest';
import { WatchChannel } from '../../src/api/watch/channel.js';
import { watchResponse } from '../../src/http/watch.js';
import { ConfigMapKind, NamespaceKind } from '../../src/kinds/index.js';
import { useServedCluster } from '../support/cluster.js';
import { eventually, openWatch } from '../reliability/watch-stream.js';
import { patchMany } from '../support/patch-many.js';

const served = useServedCluster();

describe('HTTP watch from an older resourceVersion', () => {
  it('replays every change after it on the wire, 1,000 or 1,100 changes back or from 1, then stays open for live changes', async () => {
    await served.cluster.client.resource(NamespaceKind).create({ metadata: { name: 'replay' } });
    const configMaps = served.cluster.client.resource(ConfigMapKind);
    const created = await configMaps.create({ metadata: { name: 'c', namespace: 'replay' } });
    const patched = await patchMany(served.cluster, 'replay', 'c', 1100);
    const createdRv = created.metadata!.resourceVersion!;
    const cases: [string, string[]][] = [
      [patched[patched.length - 1001]!, patched.slice(-1000)],
      [createdRv, patched],
      ['1', [createdRv, ...patched]],
    ];
    const watches = [];
    for (const [resourceVersion, expected] of cases) {
      const w = await openWatch(served.server.url, `/api/v1/namespaces/replay/configmaps?watch=true&resourceVersion=${resourceVersion}`);
      let ended = false;
      void w.ended.then(() => (ended = true));
      await eventually(() => ended || w.count() >= expected.length, `${expected.length} replayed events from resourceVersion ${resourceVersion}`);
      expect(ended).toBe(false);
      expect(w.events.map((e) => e.object.metadata?.resourceVersion)).toEqual(expected);
      expect(w.events.map((e) => e.type)).toEqual(expected.map((rv) => (rv === createdRv ? 'ADDED' : 'MODIFIED')));
      watches.push({ w, seen: expected.length });
    }
    const live = await configMaps.patch('c', { data: { n: 'live' } }, { namespace: 'replay', type: 'merge' });
    for (const { w, seen } of watches) {
      await eventually(() => w.count() > seen, 'the live change after the replay');
      expect(w.events.slice(seen).map((e) => [e.type, e.object.metadata?.resourceVersion])).toEqual([['MODIFIED', live.metadata!.resourceVersion]]);
      w.abort();
    }
    await eventually(() => served.cluster.activeWatchers === 0, 'the watchers are released once their clients left');
  });

  it('from a compacted resourceVersion: one ERROR event with 410 Expired, then the response ends', async () => {
    const configMaps = served.cluster.client.resource(ConfigMapKind);
    const a = await configMaps.create({ metadata: { name: 'a' } });
    const b = await configMaps.create({ metadata: { name: 'b' } });
    // Past the retention window: a and b leave the history; b, the newest gone, stays the oldest readable.
    served.cluster.clock.advance(5 * 60 * 1000);
    await configMaps.create({ metadata: { name: 'c' } });
    const w = await openWatch(served.server.url, `/api/v1/namespaces/default/configmaps?watch=true&resourceVersion=${a.metadata!.resourceVersion}`);
    expect(await w.ended).toBeUndefined();
    const compacted = b.metadata!.resourceVersion;
    expect(w.events).toEqual([
      {
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          code: 410,
          reason: 'Expired',
          message: `too old resource version: ${a.metadata!.resourceVersion} (${compacted})`,
        },
      },
    ]);
  });
});

describe('watchResponse', () => {
  const json = { contentType: 'application/json', format: 'json' as const };

  it('ends the body of a watch that ended before the HTTP layer read it, after its events', async () => {
    const channel = new WatchChannel(5);
    channel.push({ type: 'ERROR', object: { kind: 'Status', code: 410 } }, false);
    channel.end();
    const text = await watchResponse(channel, json).text();
    expect(text).toBe('{"type":"ERROR","object":{"kind":"Status","code":410}}\n');
  });

  it('fails the body of a watch closed as a slow consumer before the HTTP layer read it (the transport drops the connection)', async () => {
    const channel = new WatchChannel(1);
    channel.push({ type: 'ADDED', object: {} });
    channel.push({ type: 'ADDED', object: {} });
    expect(channel.overflowed).toBe(true);
    await expect(watchResponse(channel, json).text()).rejects.toThrow('watch closed: the client fell too far behind');
  });
});
