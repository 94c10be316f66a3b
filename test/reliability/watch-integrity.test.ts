/**
 * Watch integrity over HTTP: 200 watchers (every namespace, one namespace, a label selector) follow
 * 5,000 writes (creates, updates that move objects in and out of the selector, deletes) made by 5
 * concurrent HTTP writers over 5 namespaces. Each watcher must receive exactly the events it
 * matches, each once, in resourceVersion order; once they disconnect the hub holds no watcher.
 *
 * The expected events come from the writes themselves: each writer owns its objects, so the
 * sequence of states of every object is known, and a watcher's events for one object are that
 * sequence seen through its selector (Kubernetes' transitions: leaving the selector is DELETED,
 * entering it ADDED). Deletes answer a Status without the deletion's resourceVersion, so a
 * DELETED event's resourceVersion is checked by order and by agreement among the watchers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/cluster.js';
import type { Listening } from '../../src/http/listen.js';
import { NamespaceKind } from '../../src/kinds/index.js';
import { testCluster } from '../support/cluster.js';
import { keepAliveAgent, send, sendJson } from './http-client.js';
import { eventually, openWatch, type FetchWatch } from './watch-stream.js';

const NAMESPACES = ['ns-0', 'ns-1', 'ns-2', 'ns-3', 'ns-4'];
const WRITERS = 5;
const WRITES_PER_WRITER = 1000;
const OBJECTS_PER_WRITER = 40;

let cluster: Cluster;
let server: Listening;
beforeAll(async () => {
  // A buffer larger than the whole run: this suite checks delivery, not the slow-consumer cut-off.
  cluster = await testCluster({ watchBufferSize: 20_000 });
  server = await cluster.listen({ port: 0 });
  for (const name of NAMESPACES) await cluster.client.resource(NamespaceKind).create({ metadata: { name } });
  await cluster.settle();
});
afterAll(async () => {
  await server?.close();
  await cluster?.close();
});

/** A small seeded PRNG (mulberry32): the same writes every run. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One state of an object as a write left it; `rv` undefined for a deletion. */
interface State {
  readonly team?: string;
  readonly count?: string;
  readonly rv?: string;
}

/** key `namespace/name` → the object's states in order (undefined team/rv: deleted). */
type History = Map<string, State[]>;

interface WatcherSpec {
  readonly path: string;
  readonly namespace?: string;
  readonly team?: string;
}

/**
 * One event a watcher must see for one object: its type and resourceVersion, or for a deletion
 * (whose resourceVersion no response tells) which of the object's deletions it is.
 */
interface Expected {
  readonly type: string;
  readonly rv?: string;
  readonly count?: string;
  readonly deletion?: number;
}

/** The events a watcher must see for one object, in order. */
function expectedFor(spec: WatcherSpec, key: string, states: readonly State[]): Expected[] {
  if (spec.namespace !== undefined && !key.startsWith(`${spec.namespace}/`)) return [];
  const matches = (s: State | undefined) => s !== undefined && s.rv !== undefined && (spec.team === undefined || s.team === spec.team);
  const out: Expected[] = [];
  let previous: State | undefined;
  let deletions = 0;
  for (const s of states) {
    const before = matches(previous);
    if (s.rv === undefined) {
      if (before) out.push({ type: 'DELETED', deletion: deletions });
      deletions++;
    } else {
      const now = matches(s);
      if (now && before) out.push({ type: 'MODIFIED', rv: s.rv, count: s.count });
      else if (now) out.push({ type: 'ADDED', rv: s.rv, count: s.count });
      else if (before) out.push({ type: 'DELETED', rv: s.rv, count: s.count });
    }
    previous = s;
  }
  return out;
}

/** One writer: WRITES_PER_WRITER creates/updates/deletes of its own objects, recording each state. */
async function writer(index: number, history: History, statuses: number[]): Promise<void> {
  const agent = keepAliveAgent(1);
  const next = random(1000 + index);
  const live = new Map<string, { namespace: string; name: string; rv: string; count: number }>();
  try {
    for (let i = 0; i < WRITES_PER_WRITER; i++) {
      const n = Math.floor(next() * OBJECTS_PER_WRITER);
      const namespace = NAMESPACES[n % NAMESPACES.length]!;
      const name = `w${index}-o${n}`;
      const key = `${namespace}/${name}`;
      const team = next() < 0.5 ? 'a' : 'b';
      const states = history.get(key) ?? history.set(key, []).get(key)!;
      const current = live.get(key);
      const collection = `/api/v1/namespaces/${namespace}/configmaps`;
      if (!current) {
        const res = await sendJson(server.url, collection, 'POST', { metadata: { name, labels: { team } }, data: { count: '0' } }, { agent });
        statuses.push(res.status);
        const rv = (JSON.parse(res.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
        live.set(key, { namespace, name, rv, count: 0 });
        states.push({ team, count: '0', rv });
      } else if (next() < 0.25) {
        const res = await send(server.url, `${collection}/${name}`, { method: 'DELETE', agent });
        statuses.push(res.status);
        live.delete(key);
        states.push({});
      } else {
        const count = current.count + 1;
        const body = { metadata: { name, namespace, labels: { team }, resourceVersion: current.rv }, data: { count: String(count) } };
        const res = await sendJson(server.url, `${collection}/${name}`, 'PUT', body, { agent });
        statuses.push(res.status);
        const rv = (JSON.parse(res.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;
        live.set(key, { ...current, rv, count });
        states.push({ team, count: String(count), rv });
      }
    }
  } finally {
    agent.destroy();
  }
}

const turn = () => new Promise<void>((r) => setImmediate(r));

describe('watch integrity', () => {
  it('200 watchers each get exactly their events, once, in order, while 5,000 writes land; none is left after', async () => {
    const start = await send(server.url, '/api/v1/configmaps');
    const rv0 = (JSON.parse(start.text) as { metadata: { resourceVersion: string } }).metadata.resourceVersion;

    const specs: WatcherSpec[] = [];
    for (let i = 0; i < 20; i++) specs.push({ path: `/api/v1/configmaps?watch=true&resourceVersion=${rv0}` });
    for (let i = 0; i < 120; i++) {
      const namespace = NAMESPACES[i % NAMESPACES.length]!;
      specs.push({ path: `/api/v1/namespaces/${namespace}/configmaps?watch=true&resourceVersion=${rv0}`, namespace });
    }
    for (let i = 0; i < 60; i++) {
      const namespace = i % 2 === 0 ? NAMESPACES[(i / 2) % NAMESPACES.length]! : undefined;
      const base = namespace ? `/api/v1/namespaces/${namespace}/configmaps` : '/api/v1/configmaps';
      specs.push({ path: `${base}?watch=true&labelSelector=team%3Da&resourceVersion=${rv0}`, namespace, team: 'a' });
    }
    const watches: FetchWatch[] = await Promise.all(specs.map((s) => openWatch(server.url, s.path)));
    expect(cluster.activeWatchers).toBe(specs.length);
    let endedEarly = 0;
    for (const w of watches) void w.ended.then(() => endedEarly++);

    const history: History = new Map();
    const statuses: number[] = [];
    const started = performance.now();
    await Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(i, history, statuses)));
    const wrote = performance.now() - started;
    expect(statuses).toHaveLength(WRITERS * WRITES_PER_WRITER);
    expect(statuses.filter((s) => s < 200 || s >= 300)).toEqual([]);

    // What each watcher must receive, then wait (a turn at a time) until each has that many.
    const expected = specs.map((spec) => {
      const perObject = new Map<string, ReturnType<typeof expectedFor>>();
      let total = 0;
      for (const [key, states] of history) {
        const events = expectedFor(spec, key, states);
        if (events.length) perObject.set(key, events);
        total += events.length;
      }
      return { perObject, total };
    });
    const until = async (condition: () => boolean) => {
      while (!condition()) {
        if (endedEarly) throw new Error(`${endedEarly} watch streams ended before the test closed them`);
        await turn();
      }
    };
    await until(() => watches.every((w, i) => w.count() >= expected[i]!.total));
    // A sentinel per namespace, written last: once a watcher has it, any duplicate or stray event
    // before it has arrived too (a stream is in order), so the counts below are final.
    for (const namespace of NAMESPACES) {
      const res = await sendJson(server.url, `/api/v1/namespaces/${namespace}/configmaps`, 'POST', { metadata: { name: 'sentinel', labels: { team: 'a' } } });
      expect(res.status).toBe(201);
    }
    const sentinels = specs.map((spec) => (spec.namespace === undefined ? NAMESPACES.length : 1));
    await until(() => watches.every((w, i) => w.count() >= expected[i]!.total + sentinels[i]!));
    const delivered = performance.now() - started;

    // Exactly the expected events, in resourceVersion order, each once; deletions agree across watchers.
    const deletionRv = new Map<string, string>();
    const writeRvs = new Set<string>();
    for (const states of history.values()) for (const s of states) if (s.rv) writeRvs.add(s.rv);
    watches.forEach((w, i) => {
      const { perObject, total } = expected[i]!;
      expect(w.count(), specs[i]!.path).toBe(total + sentinels[i]!);
      const tail = w.events.slice(total);
      expect(tail.map((e) => `${e.type} ${e.object.metadata?.name}`)).toEqual(tail.map(() => 'ADDED sentinel'));
      let last = Number(rv0);
      const seen = new Map<string, { type: string; rv: string; count?: string }[]>();
      for (const e of w.events.slice(0, total)) {
        const rv = Number(e.object.metadata!.resourceVersion);
        if (!(rv > last)) throw new Error(`${specs[i]!.path}: resourceVersion ${rv} after ${last}`);
        last = rv;
        const key = `${e.object.metadata!.namespace}/${e.object.metadata!.name}`;
        (seen.get(key) ?? seen.set(key, []).get(key)!).push({ type: e.type, rv: e.object.metadata!.resourceVersion!, count: e.object.data?.count });
      }
      expect([...seen.keys()].sort(), specs[i]!.path).toEqual([...perObject.keys()].sort());
      for (const [key, want] of perObject) {
        const got = seen.get(key)!;
        // Plain comparisons first (hundreds of thousands of events); expect() only for the diff.
        const show = (list: readonly { type: string; rv?: string; count?: string }[]) => list.map((e) => `${e.type} ${e.rv ?? '(deletion)'} ${e.count ?? ''}`);
        const same =
          got.length === want.length &&
          got.every((g, j) => g.type === want[j]!.type && (want[j]!.rv === undefined || (g.rv === want[j]!.rv && g.count === want[j]!.count)));
        if (!same) expect(show(got), `${specs[i]!.path} ${key}`).toEqual(show(want));
        got.forEach((g, j) => {
          const x = want[j]!;
          if (x.rv !== undefined) return;
          // A deletion: its revision is no write's, and the same for every watcher that saw it.
          const id = `${key}#${x.deletion}`;
          const agreed = deletionRv.get(id) ?? deletionRv.set(id, g.rv).get(id)!;
          if (writeRvs.has(g.rv) || g.rv !== agreed)
            throw new Error(`${specs[i]!.path}: deletion ${id} at resourceVersion ${g.rv} (a write's: ${writeRvs.has(g.rv)}; others saw ${agreed})`);
        });
      }
    });
    const totalEvents = expected.reduce((a, e) => a + e.total, 0);
    console.log(
      `watch integrity: ${specs.length} watchers, ${statuses.length} writes in ${(wrote / 1000).toFixed(1)} s, ${totalEvents} events delivered and checked (all in ${(delivered / 1000).toFixed(1)} s)`,
    );

    for (const w of watches) w.abort();
    for (const w of watches) expect(await w.ended).toBeUndefined();
    await eventually(() => cluster.activeWatchers === 0, 'the hub holds no watcher once every client left');
    expect(cluster.activeWatchers).toBe(0);
  }, 150_000);
});
