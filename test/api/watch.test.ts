import { describe, expect, it } from 'vitest';
import type { WatchEvent, WatchStream } from '../../src/machinery/request.js';
import { CombinedClock } from '../../src/clock.js';
import { ConfigMapKind, EventKind, NamespaceKind } from '../../src/kinds/index.js';
import { MemoryStorage } from '../../src/storage/memory.js';
import type { StorageChangesOptions, StorageEvent } from '../../src/storage/storage.js';
import { statusOf, T0, testCluster, useTestCluster } from '../support/cluster.js';

const cluster = useTestCluster();
const cms = () => cluster.client.resource(ConfigMapKind);

const readers = new WeakMap<object, { it: AsyncIterator<WatchEvent<unknown>>; pending?: Promise<IteratorResult<WatchEvent<unknown>>> }>();

/** Reads what the stream has buffered now (after letting pending work run), without blocking or losing events. */
async function drain<T>(stream: WatchStream<T>): Promise<WatchEvent<T>[]> {
  await cluster.settle();
  let r = readers.get(stream);
  if (!r) readers.set(stream, (r = { it: stream[Symbol.asyncIterator]() as AsyncIterator<WatchEvent<unknown>> }));
  const out: WatchEvent<T>[] = [];
  for (;;) {
    r.pending ??= r.it.next();
    const next = await Promise.race([r.pending, new Promise<'idle'>((res) => setImmediate(() => res('idle')))]);
    if (next === 'idle') return out;
    r.pending = undefined;
    if (next.done) return out;
    out.push(next.value as WatchEvent<T>);
  }
}

const summary = (events: WatchEvent<unknown>[]) =>
  events.map(
    (e) =>
      `${e.type} ${(e.object as { metadata?: { name?: string } }).metadata?.name ?? (e.object as { metadata?: { resourceVersion?: string } }).metadata?.resourceVersion}`,
  );

describe('watch start points', () => {
  it('unset and 0: synthetic ADDED for current objects, then changes; objects carry apiVersion and kind', async () => {
    await cms().create({ metadata: { name: 'a' } });
    for (const resourceVersion of [undefined, '0']) {
      const w = await cms().watch({ namespace: 'default', resourceVersion });
      await cms().update({ ...(await cms().get('a')), data: { x: String(resourceVersion) } });
      const events = await drain(w);
      expect(summary(events)).toEqual(['ADDED a', 'MODIFIED a']);
      expect(events[0]!.object).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
      w.close();
    }
    expect(cluster.activeWatchers).toBe(0);
  });

  it('a specific resourceVersion: the changes after it, then live changes', async () => {
    const a = await cms().create({ metadata: { name: 'a' } });
    await cms().create({ metadata: { name: 'b' } });
    await cms().delete('a');
    const w = await cms().watch({ namespace: 'default', resourceVersion: a.metadata!.resourceVersion });
    await cms().create({ metadata: { name: 'c' } });
    expect(summary(await drain(w))).toEqual(['ADDED b', 'DELETED a', 'ADDED c']);
    w.close();
  });

  it('older than the history: one ERROR event with 410 Expired, then the end', async () => {
    const a = await cms().create({ metadata: { name: 'a' } });
    await cms().create({ metadata: { name: 'b' } });
    cluster.clock.advance(5 * 60 * 1000);
    await cms().create({ metadata: { name: 'c' } });
    const w = await cms().watch({ namespace: 'default', resourceVersion: a.metadata!.resourceVersion });
    const events = [];
    for await (const e of w) events.push(e);
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe('ERROR');
    const rv = Number(a.metadata!.resourceVersion);
    expect(events[0]!.object).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: 410,
      reason: 'Expired',
      message: `too old resource version: ${rv} (${rv + 1})`,
    });
    expect(cluster.activeWatchers).toBe(0);
  });

  it('newer than current: an ERROR event with 504 Too large resource version', async () => {
    const w = await cms().watch({ namespace: 'default', resourceVersion: '999999' });
    const events = [];
    for await (const e of w) events.push(e);
    expect(events.map((e) => e.type)).toEqual(['ERROR']);
    expect(events[0]!.object).toMatchObject({ code: 504, reason: 'Timeout' });
  });

  it('sendInitialEvents: initial ADDED, the initial-events-end BOOKMARK (cluster api domain), then changes', async () => {
    await cms().create({ metadata: { name: 'a' } });
    const w = await cms().watch({ namespace: 'default', sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true });
    await cms().create({ metadata: { name: 'b' } });
    const events = await drain(w);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK', 'ADDED']);
    const rv = (await cms().list({ namespace: 'default' })).metadata.resourceVersion;
    expect(events[1]!.object).toEqual({
      kind: 'ConfigMap',
      apiVersion: 'v1',
      metadata: { resourceVersion: String(Number(rv) - 1), annotations: { 'k8s.io/initial-events-end': 'true' } },
    });
    w.close();
    const other = await testCluster({ apiDomain: 'example.com' });
    const w2 = await other.client.resource(ConfigMapKind).watch({ sendInitialEvents: true, resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true });
    const it = w2[Symbol.asyncIterator]();
    let e = await it.next();
    while (e.value?.type !== 'BOOKMARK') e = await it.next();
    expect((e.value.object as { metadata: { annotations: Record<string, string> } }).metadata.annotations).toEqual({
      'example.com/initial-events-end': 'true',
    });
    w2.close();
    await other.close();
  });

  it('rejects invalid option combinations as Kubernetes does', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [
        { sendInitialEvents: true },
        422,
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan',
      ],
      [
        { resourceVersionMatch: 'NotOlderThan' },
        422,
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided',
      ],
      [
        { sendInitialEvents: true, resourceVersionMatch: 'Exact' },
        422,
        'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: sendInitialEvents requires setting resourceVersionMatch to NotOlderThan, resourceVersionMatch: Unsupported value: "Exact": supported values: "NotOlderThan"]',
      ],
      [{ continue: 'abc' }, 400, 'a continue token is not allowed for watch: continue is only supported on list'],
      [
        { resourceVersion: 'garbage' },
        400,
        'invalid resource version: resourceVersion: Invalid value: "garbage": strconv.ParseUint: parsing "garbage": invalid syntax',
      ],
      [{ labelSelector: 'a in (' }, 400, ''],
      [{ shardSelector: 'shardRange(x)' }, 400, ''],
    ];
    for (const [options, code, message] of cases) {
      const s = await statusOf(() => cms().watch({ namespace: 'default', ...options }));
      expect(s.code).toBe(code);
      if (message) expect(s.message).toBe(message);
    }
    expect(cluster.activeWatchers).toBe(0);
  });
});

describe('watch filtering', () => {
  it('sends transitions: an object that stops matching is DELETED (new state), one that starts matching is ADDED', async () => {
    const w = await cms().watch({ namespace: 'default', labelSelector: 'app=web', resourceVersion: String((await cms().list()).metadata.resourceVersion) });
    const a = await cms().create({ metadata: { name: 'a', labels: { app: 'web' } } });
    const a2 = await cms().update({ ...a, metadata: { ...a.metadata, labels: { app: 'db' } } });
    const a3 = await cms().update({ ...a2, metadata: { ...a2.metadata, labels: { app: 'web' } } });
    await cms().update({ ...a3, data: { k: 'v' } });
    await cms().create({ metadata: { name: 'b', labels: { app: 'db' } } });
    await cms().delete('b');
    await cms().delete('a');
    const events = await drain(w);
    expect(summary(events)).toEqual(['ADDED a', 'DELETED a', 'ADDED a', 'MODIFIED a', 'DELETED a']);
    expect((events[1]!.object as { metadata: { labels: Record<string, string> } }).metadata.labels).toEqual({ app: 'db' });
    w.close();
  });

  it('watches one namespace, all namespaces, or one object', async () => {
    await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'other' } });
    const ns = await cms().watch({ namespace: 'default', resourceVersion: '0' });
    const all = await cms().watch({ resourceVersion: '0' });
    const one = await cms().watch({ namespace: 'default', fieldSelector: 'metadata.name=x', resourceVersion: '0' });
    await drain(ns);
    await drain(all);
    await cms().create({ metadata: { name: 'x' } });
    await cms().create({ metadata: { name: 'y' } });
    await cms().create({ metadata: { name: 'x' } }, { namespace: 'other' });
    expect(summary(await drain(ns))).toEqual(['ADDED x', 'ADDED y']);
    expect(
      (await drain(all)).map(
        (e) =>
          `${(e.object as { metadata: { namespace: string; name: string } }).metadata.namespace}/${(e.object as { metadata: { name: string } }).metadata.name}`,
      ),
    ).toEqual(['default/x', 'default/y', 'other/x']);
    expect(summary(await drain(one))).toEqual(['ADDED x']);
    for (const w of [ns, all, one]) w.close();
    expect(cluster.activeWatchers).toBe(0);
  });

  it('filters by shard selector', async () => {
    const half = "shardRange(object.metadata.uid, '0x0', '0x8000000000000000')";
    const w = await cms().watch({ namespace: 'default', shardSelector: half });
    const created = [];
    for (let i = 0; i < 8; i++) created.push(await cms().create({ metadata: { name: `c${i}` } }));
    const listed = await cms().list({ namespace: 'default', shardSelector: half });
    expect(summary(await drain(w))).toEqual(listed.items.map((i) => `ADDED ${i.metadata?.name}`));
    w.close();
  });

  it('sends no events for dry-run writes', async () => {
    const w = await cms().watch({ namespace: 'default' });
    await cms().create({ metadata: { name: 'dry' } }, { dryRun: true });
    expect(await drain(w)).toEqual([]);
    w.close();
  });
});

describe('watch lifetime', () => {
  it('sends BOOKMARKs every minute of the cluster clock when allowed', async () => {
    const w = await cms().watch({ namespace: 'default', allowWatchBookmarks: true });
    const plain = await cms().watch({ namespace: 'default' });
    cluster.clock.advance(59_999);
    expect(await drain(w)).toEqual([]);
    cluster.clock.advance(1);
    const events = await drain(w);
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual({
      type: 'BOOKMARK',
      object: { kind: 'ConfigMap', apiVersion: 'v1', metadata: { resourceVersion: expect.stringMatching(/^\d+$/) } },
    });
    cluster.clock.advance(60_000);
    expect((await drain(w)).map((e) => e.type)).toEqual(['BOOKMARK']);
    expect(await drain(plain)).toEqual([]);
    w.close();
    plain.close();
  });

  it('ends at timeoutSeconds on the cluster clock and is released', async () => {
    const w = await cms().watch({ namespace: 'default', timeoutSeconds: 30 });
    expect(cluster.activeWatchers).toBe(1);
    cluster.clock.advance(29_000);
    expect(cluster.activeWatchers).toBe(1);
    cluster.clock.advance(1_000);
    await w.done;
    expect(cluster.activeWatchers).toBe(0);
    const events = [];
    for await (const e of w) events.push(e);
    expect(events).toEqual([]);
  });

  it('sends a last BOOKMARK 2 s before timeoutSeconds (cacher.go), then ends', async () => {
    const w = await cms().watch({ namespace: 'default', timeoutSeconds: 90, allowWatchBookmarks: true });
    cluster.clock.advance(60_000);
    expect((await drain(w)).map((e) => e.type)).toEqual(['BOOKMARK']);
    cluster.clock.advance(27_000);
    expect(await drain(w)).toEqual([]);
    cluster.clock.advance(1_000);
    expect((await drain(w)).map((e) => e.type)).toEqual(['BOOKMARK']);
    cluster.clock.advance(1_500);
    expect(await drain(w)).toEqual([]);
    expect(cluster.activeWatchers).toBe(1);
    cluster.clock.advance(500);
    await w.done;
    expect(cluster.activeWatchers).toBe(0);
  });

  it('timeoutSeconds=0 means no timeout, as in watch.go', async () => {
    const w = await cms().watch({ namespace: 'default', timeoutSeconds: 0 });
    cluster.clock.advance(3_600_000);
    await cms().create({ metadata: { name: 'late' } });
    expect(summary(await drain(w))).toEqual(['ADDED late']);
    expect(cluster.activeWatchers).toBe(1);
    w.close();
  });

  it('closes a watcher that does not keep up, with bounded memory', async () => {
    const small = await testCluster({ watchBufferSize: 5 });
    const res = small.client.resource(ConfigMapKind);
    const w = await res.watch({ namespace: 'default' });
    for (let i = 0; i < 6; i++) await res.create({ metadata: { name: `c${i}` } });
    await w.done;
    expect(small.activeWatchers).toBe(0);
    const events = [];
    for await (const e of w) events.push(e);
    expect(events).toEqual([]);
    await small.close();
  });

  it('releases the watcher when the consumer breaks out of for await or closes it', async () => {
    await cms().create({ metadata: { name: 'a' } });
    const w = await cms().watch({ namespace: 'default' });
    expect(cluster.activeWatchers).toBe(1);
    for await (const e of w) {
      expect(e.type).toBe('ADDED');
      break;
    }
    expect(cluster.activeWatchers).toBe(0);
    await w.done;
    const w2 = await cms().watch({ namespace: 'default' });
    w2.close();
    expect(cluster.activeWatchers).toBe(0);
  });
});

const rvOf = (e: WatchEvent<unknown>) => (e.object as { metadata: { resourceVersion: string } }).metadata.resourceVersion;

/** Merge-patches one ConfigMap `count` times, `inFlight` patches at a time; answers the resourceVersions written, in order. */
async function patchMany(client: typeof cluster.client, namespace: string, name: string, count: number, inFlight = 20): Promise<string[]> {
  const configMaps = client.resource(ConfigMapKind);
  const written: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const n = next++;
      const patched = await configMaps.patch(name, { data: { n: String(n) } }, { namespace, type: 'merge' });
      written.push(Number(patched.metadata!.resourceVersion));
    }
  };
  await Promise.all(Array.from({ length: inFlight }, worker));
  return written.sort((a, b) => a - b).map(String);
}

describe('watch from an older resourceVersion', () => {
  it('replays every change after it, however many: 1,000, 1,100 changes back, and from resourceVersion 1', async () => {
    await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'replay' } });
    const created = await cms().create({ metadata: { name: 'c', namespace: 'replay' } });
    const patched = await patchMany(cluster.client, 'replay', 'c', 1100);
    expect(patched).toHaveLength(1100);
    const cases: [string, string[]][] = [
      [patched[patched.length - 1001]!, patched.slice(-1000)],
      [created.metadata!.resourceVersion!, patched],
      ['1', [created.metadata!.resourceVersion!, ...patched]],
    ];
    for (const [resourceVersion, expected] of cases) {
      const w = await cms().watch({ namespace: 'replay', resourceVersion });
      const events = await drain(w);
      expect(events.map(rvOf)).toEqual(expected);
      expect(events.map((e) => e.type)).toEqual(expected.map((rv) => (rv === created.metadata!.resourceVersion ? 'ADDED' : 'MODIFIED')));
      expect(cluster.activeWatchers).toBe(1);
      w.close();
    }
  });

  it('counts only live events against the buffer: a long unread replay neither closes the watch nor shields a slow consumer', async () => {
    const small = await testCluster({ watchBufferSize: 5 });
    try {
      const res = small.client.resource(ConfigMapKind);
      const first = await res.create({ metadata: { name: 'c' } });
      const patched = await patchMany(small.client, 'default', 'c', 50, 1);
      const w = await res.watch({ namespace: 'default', resourceVersion: first.metadata!.resourceVersion });
      // Five live changes on top of the 50 unread replayed ones: within the bound.
      const live = await patchMany(small.client, 'default', 'c', 5, 1);
      expect(small.activeWatchers).toBe(1);
      const it = w[Symbol.asyncIterator]();
      const read: string[] = [];
      for (let i = 0; i < 55; i++) read.push(rvOf((await it.next()).value as WatchEvent<unknown>));
      expect(read).toEqual([...patched, ...live]);
      // Six unread live changes: the consumer fell behind and the watch is closed.
      await patchMany(small.client, 'default', 'c', 6, 1);
      await w.done;
      expect(small.activeWatchers).toBe(0);
      expect(await it.next()).toEqual({ value: undefined, done: true });
    } finally {
      await small.close();
    }
  });

  it('resumes exactly at the head: nothing is replayed, then live changes follow', async () => {
    const a = await cms().create({ metadata: { name: 'a' } });
    const head = (await cms().list({ namespace: 'default' })).metadata.resourceVersion;
    const w = await cms().watch({ namespace: 'default', resourceVersion: head });
    expect(await drain(w)).toEqual([]);
    const b = await cms().update({ ...a, data: { k: 'v' } });
    const events = await drain(w);
    expect(events.map((e) => [e.type, rvOf(e)])).toEqual([['MODIFIED', b.metadata!.resourceVersion]]);
    w.close();
  });

  it('from before the first change of the kind (inside the history): replays every change of that kind and namespace', async () => {
    const before = (await cluster.client.resource(NamespaceKind).list()).metadata.resourceVersion;
    await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'other' } });
    const a = await cms().create({ metadata: { name: 'a' } });
    await cms().create({ metadata: { name: 'x' } }, { namespace: 'other' });
    const a2 = await cms().update({ ...a, data: { k: 'v' } });
    const ns = await cms().watch({ namespace: 'default', resourceVersion: before });
    expect((await drain(ns)).map((e) => [e.type, rvOf(e)])).toEqual([
      ['ADDED', a.metadata!.resourceVersion],
      ['MODIFIED', a2.metadata!.resourceVersion],
    ]);
    const all = await cms().watch({ resourceVersion: before });
    expect(summary(await drain(all))).toEqual(['ADDED a', 'ADDED x', 'MODIFIED a']);
    for (const w of [ns, all]) w.close();
  });

  it('sends the changes that commit while its start point is read once, after the replay, in order; too many of them close it', async () => {
    // A storage whose changesSince waits until the test lets it answer, so writes land meanwhile.
    class GatedStorage extends MemoryStorage {
      gate: Promise<void> | undefined;
      override async changesSince(bucket: string, revision: number, options?: StorageChangesOptions): Promise<StorageEvent[]> {
        const changes = await super.changesSince(bucket, revision, options);
        await this.gate;
        // What committed since the read is the live traffic of the watch, not part of its replay.
        return changes;
      }
    }
    const clock = new CombinedClock({ frozenAt: T0 });
    const storage = new GatedStorage({ now: () => clock.now() });
    const gated = await testCluster({ clock, storage, watchBufferSize: 3 });
    try {
      const res = gated.client.resource(ConfigMapKind);
      const a = await res.create({ metadata: { name: 'a' } });
      const a2 = await res.update({ ...a, data: { n: '1' } });
      const run = async (writes: number) => {
        let open!: () => void;
        storage.gate = new Promise<void>((r) => (open = r));
        const pending = res.watch({ namespace: 'default', resourceVersion: a.metadata!.resourceVersion });
        const written: string[] = [];
        for (let i = 0; i < writes; i++)
          written.push((await res.patch('a', { data: { n: `live-${writes}-${i}` } }, { type: 'merge' })).metadata!.resourceVersion!);
        open();
        return { w: await pending, written };
      };
      // Three changes while the start is read (the bound: they are live, the replay is not): the
      // replay, then them, once each.
      const { w, written } = await run(3);
      const events: string[] = [];
      const it = w[Symbol.asyncIterator]();
      for (let i = 0; i < 4; i++) events.push(rvOf((await it.next()).value as WatchEvent<unknown>));
      expect(events).toEqual([a2.metadata!.resourceVersion, ...written]);
      w.close();
      // Four changes while the start is read: more live events than the bound, the watch is closed.
      const { w: behind } = await run(4);
      await behind.done;
      expect(gated.activeWatchers).toBe(0);
      const dropped = [];
      for await (const e of behind) dropped.push(e);
      expect(dropped).toEqual([]);
    } finally {
      await gated.close();
    }
  });
});

describe('watch filtering on a field the selector pins', () => {
  it('sends the transitions of objects whose selected field changes, and nothing of the others', async () => {
    const events = () => cluster.client.resource(EventKind);
    const make = (name: string, reason: string) =>
      events().create({ metadata: { name }, involvedObject: { kind: 'Pod', name: 'p', namespace: 'default' }, reason, message: 'm', type: 'Normal' });
    const rv = String((await events().list({ namespace: 'default' })).metadata.resourceVersion);
    const started = await events().watch({ namespace: 'default', fieldSelector: 'reason=Started', resourceVersion: rv });
    const pulled = await events().watch({ namespace: 'default', fieldSelector: 'reason=Pulled,type=Normal', resourceVersion: rv });
    const a = await make('a', 'Pulled');
    await make('b', 'Killing');
    const a2 = await events().update({ ...a, reason: 'Started' });
    await events().update({ ...a2, message: 'again' });
    await events().delete('a');
    expect(summary(await drain(started))).toEqual(['ADDED a', 'MODIFIED a', 'DELETED a']);
    expect(summary(await drain(pulled))).toEqual(['ADDED a', 'DELETED a']);
    started.close();
    pulled.close();
    expect(cluster.activeWatchers).toBe(0);
  });
});
