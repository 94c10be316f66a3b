/**
 * Child process of the watch fan-out figures. Two clusters of a default `createCluster()`: one
 * with 1,000 in-process watches on the namespace the writes go to, each read by its own `for await`
 * loop, and one with no watch. Measured in interleaved rounds:
 * - a create of a ~1 KB ConfigMap until every one of the 1,000 watchers has read its ADDED event,
 *   and the same create with no watcher: (watched − quiet) / 1,000 is the cost per watcher;
 * - for comparison, one event handed to 1,000 plain async-iterator queues, each read by its own
 *   `for await` loop: what any in-process watch with one async iterator per watcher pays at least;
 *   and the same with each reader deep-copying what it reads (`cloneJson`, as the client does).
 * - a create with 1,000 watches through `cluster.fetch` (the HTTP door without sockets, each
 *   reading its body) until each got its line, and the same create with none, in CPU time.
 * Prints one JSON line: per-round microseconds per watcher of each, and the per-call times. Progress
 * goes to stderr.
 * Usage: node --import tsx bench/suites/fanout-child.ts ROUNDS [WATCHERS] [ROUND_MS]
 */
import { createCluster, kinds, type KubeObject, type ResourceClient, type WatchStream } from '../../src/index.js';
import { benchConfigMap } from '../configmap.js';
import { timePerOp } from '../figure.js';
import { cloneJson } from '../../src/util/json-clone.js';

const rounds = Number(process.argv[2] ?? 5);
const watchers = Number(process.argv[3] ?? 1_000);
const roundMs = Number(process.argv[4] ?? 400);
const template = benchConfigMap('template');
const log = (line: string) => process.stderr.write(`  fanout: ${line}\n`);

type ConfigMaps = ResourceClient<KubeObject>;

/** Counts what every reader got, and wakes the writer once the count reaches what it waits for. */
class Arrivals {
  count = 0;
  private want = 0;
  private wake: (() => void) | undefined;
  arrived(): void {
    if (++this.count >= this.want && this.wake) {
      const w = this.wake;
      this.wake = undefined;
      w();
    }
  }
  /** Resolves once `more` further arrivals happened (counted from now). */
  async expect(more: number, during: () => Promise<unknown>): Promise<void> {
    this.want = this.count + more;
    const all = new Promise<void>((r) => (this.wake = r));
    await during();
    if (this.count < this.want) await all;
    else this.wake = undefined;
  }
}

/** A reader as a user writes one: reads every event and looks at the object. */
async function read(stream: WatchStream<KubeObject>, arrivals: Arrivals, names: { last: string }): Promise<void> {
  for await (const e of stream) {
    if (e.type === 'ADDED' && e.object.metadata?.name) {
      names.last = e.object.metadata.name;
      arrivals.arrived();
    }
  }
}

/** The least an in-process watch does: a queue per watcher, drained by an async iterator. */
class PlainQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private wake: (() => void) | undefined;
  /** `map`: what the reader is handed for each item (its own copy, for the copying floor). */
  constructor(private readonly map: (item: T) => T = (item) => item) {}
  push(item: T): void {
    this.items.push(item);
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }
  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for (;;) {
      while (this.items.length) yield this.map(this.items.shift()!);
      await new Promise<void>((r) => (this.wake = r));
    }
  }
}

const watched = await createCluster();
const quiet = await createCluster();
const watchedCms = watched.client.resource(kinds.ConfigMapKind) as unknown as ConfigMaps;
const quietCms = quiet.client.resource(kinds.ConfigMapKind) as unknown as ConfigMaps;
const arrivals = new Arrivals();
const seen = { last: '' };
const streams: WatchStream<KubeObject>[] = [];
for (let k = 0; k < watchers; k++) {
  const stream = await watchedCms.watch({ namespace: 'default' });
  streams.push(stream);
  void read(stream, arrivals, seen);
}
if (watched.activeWatchers !== watchers) throw new Error(`${watched.activeWatchers} watchers registered, not ${watchers}`);

const queueArrivals = new Arrivals();
const queues: PlainQueue<{ type: string; object: unknown }>[] = [];
for (let k = 0; k < watchers; k++) {
  const q = new PlainQueue<{ type: string; object: unknown }>();
  queues.push(q);
  void (async () => {
    for await (const e of q) if (e.type === 'ADDED' && e.object) queueArrivals.arrived();
  })();
}
// The same queues, each handing its reader a deep copy of every event (cloneJson, as the client does):
// the floor of an in-process watch whose watchers each own their event object.
const copyArrivals = new Arrivals();
const copyQueues: PlainQueue<{ type: string; object: unknown }>[] = [];
for (let k = 0; k < watchers; k++) {
  const q = new PlainQueue<{ type: string; object: unknown }>((e) => ({ type: e.type, object: cloneJson(e.object) }));
  copyQueues.push(q);
  void (async () => {
    for await (const e of q) if (e.type === 'ADDED' && (e.object as KubeObject).metadata?.name) copyArrivals.arrived();
  })();
}
const sample = Object.freeze(await quietCms.create({ ...template, metadata: { name: 'sample' } } as unknown as KubeObject, { namespace: 'default' }));

let w = 0;
let q = 0;
const write = () =>
  arrivals.expect(watchers, () => watchedCms.create({ ...template, metadata: { name: `w-${w++}` } } as unknown as KubeObject, { namespace: 'default' }));
const quietWrite = () => quietCms.create({ ...template, metadata: { name: `w-${q++}` } } as unknown as KubeObject, { namespace: 'default' });
const handOff = () =>
  queueArrivals.expect(watchers, async () => {
    const event = { type: 'ADDED', object: sample };
    for (const queue of queues) queue.push(event);
  });
const copyHandOff = () =>
  copyArrivals.expect(watchers, async () => {
    const event = { type: 'ADDED', object: sample };
    for (const queue of copyQueues) queue.push(event);
  });

// Untimed warm-up of each, then the interleaved rounds.
log(`${watchers} watchers, warm-up`);
await timePerOp(roundMs, write);
await timePerOp(roundMs, quietWrite);
await timePerOp(roundMs, handOff);
await timePerOp(roundMs, copyHandOff);
const watchedUs: number[] = [];
const quietUs: number[] = [];
const queueUs: number[] = [];
const copyQueueUs: number[] = [];
for (let r = 0; r < rounds; r++) {
  watchedUs.push(await timePerOp(roundMs, write));
  quietUs.push(await timePerOp(roundMs, quietWrite));
  queueUs.push(await timePerOp(roundMs, handOff));
  copyQueueUs.push(await timePerOp(roundMs, copyHandOff));
}
if (arrivals.count !== w * watchers) throw new Error(`the watchers read ${arrivals.count} events, not ${w * watchers}`);
if (seen.last !== `w-${w - 1}`) throw new Error(`the last event a watcher read was ${seen.last}, not w-${w - 1}`);
for (const s of streams) s.close();
await watched.close();

// The HTTP door without sockets: 1,000 watches through cluster.fetch, each reading its body (one
// chunk per event). CPU time of this process per create, with those watchers and with none.
log(`${watchers} watches through cluster.fetch`);
const fetched = await createCluster();
const fetchedCms = fetched.client.resource(kinds.ConfigMapKind) as unknown as ConfigMaps;
const lines = new Arrivals();
const readers: ReadableStreamDefaultReader<Uint8Array>[] = [];
for (let k = 0; k < watchers; k++) {
  const res = await fetched.fetch(
    new Request('http://memkube/api/v1/namespaces/default/configmaps?watch=true', { headers: { authorization: `Bearer ${fetched.adminToken}` } }),
  );
  if (res.status !== 200 || !res.body) throw new Error(`a watch through cluster.fetch answered ${res.status}`);
  const reader = res.body.getReader();
  readers.push(reader);
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      if (value.length > 0) lines.arrived();
    }
  })();
}
let f = 0;
const fetchedWrite = () =>
  lines.expect(watchers, () => fetchedCms.create({ ...template, metadata: { name: `w-${f++}` } } as unknown as KubeObject, { namespace: 'default' }));
/** CPU time of this process per call of `op`, in µs, over at least `ms` of wall time. */
async function cpuPerOp(ms: number, op: () => Promise<unknown>): Promise<number> {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let n = 0;
  while (performance.now() - t0 < ms) for (let k = 0; k < 4; k++, n++) await op();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}
await cpuPerOp(roundMs, fetchedWrite);
await cpuPerOp(roundMs, quietWrite);
const fetchedCpu: number[] = [];
const quietCpu: number[] = [];
for (let r = 0; r < rounds; r++) {
  fetchedCpu.push(await cpuPerOp(roundMs, fetchedWrite));
  quietCpu.push(await cpuPerOp(roundMs, quietWrite));
}
if (lines.count !== f * watchers) throw new Error(`the fetch watchers read ${lines.count} events, not ${f * watchers}`);
for (const reader of readers) await reader.cancel();
await fetched.close();
await quiet.close();

const perWatcher = watchedUs.map((t, i) => (t - quietUs[i]!) / watchers);
const queuePerWatcher = queueUs.map((t) => t / watchers);
const copyQueuePerWatcher = copyQueueUs.map((t) => t / watchers);
const fetchPerWatcher = fetchedCpu.map((t, i) => (t - quietCpu[i]!) / watchers);
process.stdout.write(
  `${JSON.stringify({ watchers, perWatcher, queuePerWatcher, copyQueuePerWatcher, watchedUs, quietUs, fetchPerWatcher, fetchedCpu, quietCpu })}\n`,
);
