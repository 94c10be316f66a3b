/**
 * A slow consumer over HTTP: a raw TCP client opens a watch and stops reading while writes go on.
 * The server must close that watcher once `watchBufferSize` events are waiting (and let go of its
 * connection), keep its own memory bounded, and keep serving a watcher that reads.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/cluster.js';
import type { Listening } from '../../src/http/listen.js';
import { ConfigMapKind, NamespaceKind } from '../../src/kinds/index.js';
import { testCluster } from '../support/cluster.js';
import { eventually, openRawWatch, openWatch } from './watch-stream.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const BUFFER = 50;
const WRITES = 3000;
const BLOB = 32 * 1024; // bytes of data per object: 3,000 writes put ~94 MiB of events on the wire per watcher

let cluster: Cluster;
let server: Listening;
beforeAll(async () => {
  // No history is kept (retention 0 on a frozen clock), so the heap holds only the live objects
  // and whatever the watch machinery buffers.
  cluster = await testCluster({ watchBufferSize: BUFFER, historyRetentionMs: 0 });
  server = await cluster.listen({ port: 0 });
  await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'slow' } });
});
afterAll(async () => {
  await server?.close();
  await cluster?.close();
});

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

const turn = () => new Promise<void>((r) => setImmediate(r));
const PATH = '/api/v1/namespaces/slow/configmaps?watch=true';

/**
 * {@link WRITES} writes of ~{@link BLOB} bytes (updates of ten ConfigMaps) while a reading watcher
 * follows; answers how many events of the writes the reader got, the peak heap (sampled after forced GCs), and
 * the write after which `onWrite` first returned true.
 */
async function writeWhileWatching(onWrite: () => boolean): Promise<{ received: number; peakHeap: number; at: number }> {
  const configMaps = cluster.client.resource(ConfigMapKind);
  // The watch starts with an ADDED for each object already there.
  const initial = (await configMaps.list({ namespace: 'slow' })).items.length;
  let lastSeen = '';
  const reader = await openWatch(server.url, PATH, { keep: false, onEvent: (e) => (lastSeen = e.object.metadata?.resourceVersion ?? '') });
  let readerEnded = false;
  void reader.ended.then(() => (readerEnded = true));
  // Waits for the reader (an event-loop turn at a time, no timers); fails if its stream ended.
  const until = async (condition: () => boolean) => {
    while (!condition()) {
      if (readerEnded) throw new Error(`the reading watcher's stream ended after ${reader.count()} events`);
      await turn();
    }
  };
  let lastWritten = '';
  let at = -1;
  let peakHeap = 0;
  for (let i = 0; i < WRITES; i++) {
    const metadata = { name: `cm-${i % 10}`, namespace: 'slow' };
    const data = { i: String(i), blob: String(i % 10).repeat(BLOB) };
    const written = await configMaps.get(metadata.name, { namespace: 'slow' }).then(
      () => configMaps.update({ metadata, data }),
      () => configMaps.create({ metadata, data }),
    );
    lastWritten = written.metadata!.resourceVersion!;
    // The reader is a client that keeps up: it is never more than 10 events behind.
    await until(() => reader.count() - initial >= i - 10);
    if (at < 0 && onWrite()) at = i;
    if (i % 250 === 0) peakHeap = Math.max(peakHeap, heapUsed());
  }
  // The reading watcher catches up with the last write.
  await until(() => lastSeen === lastWritten);
  peakHeap = Math.max(peakHeap, heapUsed());
  reader.abort();
  expect(await reader.ended).toBeUndefined();
  return { received: reader.count() - initial, peakHeap, at };
}

const mib = (n: number) => `${(n / 2 ** 20).toFixed(1)} MiB`;

describe('slow consumer', () => {
  it('closes a watcher that stops reading, keeps memory bounded and keeps serving the others', async () => {
    // Baseline: the same writes with only the reading watcher.
    const baseline = await writeWhileWatching(() => false);
    expect(baseline.received).toBe(WRITES);
    await eventually(() => cluster.activeWatchers === 0, 'the hub holds no watcher once every client left');

    const stalled = await openRawWatch(server.port, PATH);
    stalled.socket.pause();
    const run = await writeWhileWatching(() => cluster.activeWatchers === 1);
    const totalBytes = WRITES * BLOB;
    console.log(
      `slow consumer: watcher closed after write ${run.at} of ${WRITES} (buffer ${BUFFER}); peak heap ${mib(run.peakHeap)} (baseline without it ${mib(baseline.peakHeap)}) for ${mib(totalBytes)} of events`,
    );
    // The stalled watcher was released while writes were still landing; the reader got every event.
    expect(run.at).toBeGreaterThanOrEqual(0);
    expect(run.at).toBeLessThan(WRITES - 100);
    expect(run.received).toBe(WRITES);
    // Bounded memory: nothing like the ~94 MiB of events the stalled client did not take is held
    // (the slack covers GC noise of ~10 MiB between samples).
    expect(run.peakHeap - baseline.peakHeap).toBeLessThan(totalBytes / 4);

    // The server dropped the connection rather than wait for the client: once the client reads
    // again it gets what was already in flight, then the connection ends without the chunked
    // body's last chunk (a cut stream, not a finished one), and far fewer events than were written.
    stalled.socket.resume();
    let ended = false;
    void stalled.closed.then(() => (ended = true));
    await eventually(() => ended, 'the stalled connection ends once its client reads again');
    const text = stalled.text();
    const events = text.split('\n').filter((l) => l.startsWith('{"type"'));
    console.log(`slow consumer: the stalled client got ${events.length} events of ${WRITES} after resuming`);
    expect(events.length).toBeLessThan(WRITES / 2);
    expect(text.endsWith('\r\n0\r\n\r\n')).toBe(false);
    await eventually(() => cluster.activeWatchers === 0, 'the hub holds no watcher once every client left');
  }, 60_000);
});
