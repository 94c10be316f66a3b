/**
 * `cluster.close()`: every watch ends (in-process and over HTTP) and the hub holds none; afterwards
 * every door answers 503 ServiceUnavailable instead of hanging or quietly working.
 */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../src/machinery/errors.js';
import type { WatchEvent, WatchStream } from '../src/machinery/request.js';
import { ConfigMapKind, NamespaceKind } from '../src/kinds/index.js';
import { statusOf, testCluster } from './support/cluster.js';
import { openWatch } from './reliability/watch-stream.js';

/** Fails with `what` unless `promise` settles within `ms` (a bound on a hang, not a pause). */
async function within<T>(promise: Promise<T>, what: string, ms = 5_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms)));
  try {
    return await Promise.race([promise, hang]);
  } finally {
    clearTimeout(timer);
  }
}

/** Consumes a watch with `for await` until it ends; answers the event types seen. */
async function consume(stream: WatchStream<unknown>): Promise<string[]> {
  const types: string[] = [];
  for await (const e of stream as AsyncIterable<WatchEvent<unknown>>) types.push(e.type);
  return types;
}

const CLOSED = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', code: 503, reason: 'ServiceUnavailable', message: 'the cluster is closed' };

describe('cluster.close()', () => {
  it('ends every in-process watch: a for await over it finishes and the hub holds no watcher', async () => {
    const cluster = await testCluster();
    const cms = cluster.client.resource(ConfigMapKind);
    await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'other' } });
    await cms.create({ metadata: { name: 'a' } });
    const watches = [
      await cms.watch({ namespace: 'default' }),
      await cms.watch({}),
      await cms.watch({ namespace: 'default', fieldSelector: 'metadata.name=a', resourceVersion: '0' }),
      await cms.watch({ namespace: 'other', allowWatchBookmarks: true, timeoutSeconds: 600 }),
      await cluster.client.resource(NamespaceKind).watch({ resourceVersion: '1' }),
    ];
    expect(cluster.activeWatchers).toBe(watches.length);
    // The consumers are waiting for their next event when the cluster closes.
    const consumers = watches.map(consume);
    await cluster.settle();
    await cluster.close();
    expect(cluster.activeWatchers).toBe(0);
    const seen = await within(Promise.all(consumers), 'every for await over a watch finishes');
    // What a watch already held is still read before its end (here its initial ADDED events).
    expect(seen[0]).toEqual(['ADDED']);
    expect(seen[3]).toEqual([]);
    await within(Promise.all(watches.map((w) => w.done)), 'every watch is done');
  });

  it('ends HTTP watch streams, over listen() and over fetch()', async () => {
    const cluster = await testCluster();
    const server = await cluster.listen({ port: 0 });
    const wire = await openWatch(server.url, '/api/v1/namespaces/default/configmaps?watch=true');
    const fetched = await cluster.fetch(new Request('http://memkube.test/api/v1/configmaps?watch=true&allowWatchBookmarks=true'));
    expect(fetched.status).toBe(200);
    const body = fetched.text();
    expect(cluster.activeWatchers).toBe(2);
    await cluster.close();
    expect(cluster.activeWatchers).toBe(0);
    await within(wire.ended, 'the watch over listen() ends');
    expect(await within(body, 'the watch over fetch() ends')).toBe('');
  });

  it('afterwards every call fails with 503 ServiceUnavailable: the client, request(), load(), fetch() and listen()', async () => {
    const cluster = await testCluster();
    const cms = cluster.client.resource(ConfigMapKind);
    await cms.create({ metadata: { name: 'a' } });
    await cluster.close();
    const calls: [string, () => Promise<unknown>][] = [
      ['get', () => cms.get('a')],
      ['list', () => cms.list()],
      ['create', () => cms.create({ metadata: { name: 'b' } })],
      ['patch', () => cms.patch('a', { data: { k: 'v' } }, { type: 'merge' })],
      ['delete', () => cms.delete('a')],
      ['watch', () => cms.watch({ namespace: 'default' })],
      ['request', () => cluster.request({ verb: 'list', resource: { group: '', version: 'v1', resource: 'namespaces' }, user: { username: 'u', groups: [] } })],
      ['load', () => cluster.load('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}')],
    ];
    for (const [what, call] of calls) {
      const status = await within(statusOf(call), what);
      expect(status, what).toEqual(CLOSED);
    }
    expect(cluster.activeWatchers).toBe(0);
    for (const path of ['/api/v1/namespaces/default/configmaps', '/api/v1/configmaps?watch=true', '/version', '/apis']) {
      const res = await within(cluster.fetch(new Request(`http://memkube.test${path}`)), path);
      expect(res.status, path).toBe(503);
      expect(await res.json(), path).toEqual(CLOSED);
    }
    await expect(cluster.listen({ port: 0 })).rejects.toBeInstanceOf(ApiError);
    await cluster.close(); // idempotent
  });
});
