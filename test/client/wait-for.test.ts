import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { List } from '../../src/client/client.js';
import { waitFor, WaitTimeoutError, type WaitableResource } from '../../src/client/wait-for.js';
import type { ConfigMap } from '../../src/kinds/types/core-v1.js';
import type { WatchEvent, WatchStream } from '../../src/machinery/request.js';
import { useTestCluster } from '../support/cluster.js';

/** Lets every pending promise callback run, so that "still waiting" means waiting on the clock. */
const drain = async () => {
  for (let i = 0; i < 20; i++) await Promise.resolve();
  await new Promise((r) => setImmediate(r));
};

describe('waitFor', () => {
  const cluster = useTestCluster();
  const cms = () => cluster.client.configMaps('default');

  it('answers at once when the object already satisfies the predicate', async () => {
    await cms().create({ metadata: { name: 'a' }, data: { ready: 'yes' } });
    const got = await waitFor(cms(), 'a', (c) => c?.data?.ready === 'yes');
    expectTypeOf(got).toEqualTypeOf<ConfigMap | undefined>();
    expect(got?.metadata?.name).toBe('a');
    expect(cluster.activeWatchers).toBe(0);
  });

  it('watches until a change makes it hold, and releases its watch', async () => {
    await cms().create({ metadata: { name: 'a' } });
    const waiting = waitFor(cms(), 'a', (c) => c?.data?.ready === 'yes');
    await drain();
    expect(cluster.activeWatchers).toBe(1);
    await cms().patch('a', { data: { ready: 'no' } }, { type: 'merge' });
    await cms().patch('a', { data: { ready: 'yes' } }, { type: 'merge' });
    expect((await waiting)?.data).toEqual({ ready: 'yes' });
    expect(cluster.activeWatchers).toBe(0);
  });

  it('misses no change made between its list and its watch', async () => {
    await cms().create({ metadata: { name: 'a' } });
    const real = cms();
    const racing: WaitableResource<ConfigMap> = {
      clock: real.clock,
      namespace: real.namespace,
      async list(options) {
        const list = await real.list(options);
        await real.patch('a', { data: { ready: 'yes' } }, { type: 'merge' }); // after the list, before the watch
        return list;
      },
      watch: (options) => real.watch(options),
    };
    expect((await waitFor(racing, 'a', (c) => c?.data?.ready === 'yes'))?.data).toEqual({ ready: 'yes' });
  });

  it('waits for an object to appear and to go away', async () => {
    const appearing = waitFor(cms(), 'late', (c) => c !== undefined);
    await drain();
    await cms().create({ metadata: { name: 'late' } });
    expect((await appearing)?.metadata?.name).toBe('late');
    const going = waitFor(cms(), 'late', (c) => c === undefined);
    await drain();
    await cms().delete('late');
    expect(await going).toBeUndefined();
  });

  it('waits on the objects a selector picks', async () => {
    const two = waitFor(cms(), { labelSelector: 'app=web' }, (items) => items.length === 2);
    expectTypeOf(two).toEqualTypeOf<Promise<ConfigMap[]>>();
    await drain();
    await cms().create({ metadata: { name: 'a', labels: { app: 'web' } } });
    await cms().create({ metadata: { name: 'other', labels: { app: 'db' } } });
    await cms().create({ metadata: { name: 'b', labels: { app: 'web' } } });
    expect((await two).map((c) => c.metadata?.name).sort()).toEqual(['a', 'b']);
  });

  it('times out on the cluster clock: advancing the clock fires it, with a clear error and no watch left', async () => {
    await cms().create({ metadata: { name: 'a' } });
    let outcome: unknown;
    const waiting = waitFor(cms(), 'a', (c) => c?.data?.ready === 'yes', { timeout: 5_000 }).catch((e: unknown) => (outcome = e));
    await drain();
    cluster.clock.advance(4_999);
    await drain();
    expect(outcome).toBeUndefined();
    cluster.clock.advance(1);
    await waiting;
    expect(outcome).toBeInstanceOf(WaitTimeoutError);
    expect((outcome as WaitTimeoutError).message).toBe('waitFor: "a" in namespace "default": the condition did not hold within 5000 ms');
    expect((outcome as WaitTimeoutError).lastSeen.map((o) => o.metadata?.name)).toEqual(['a']);
    await drain();
    expect(cluster.activeWatchers).toBe(0);
  });

  it('rejects with what the predicate throws, and releases its watch', async () => {
    await cms().create({ metadata: { name: 'a' } });
    const waiting = waitFor(cms(), 'a', (c) => {
      if (c?.data?.broken) throw new Error('broken');
      return false;
    });
    await drain();
    await cms().patch('a', { data: { broken: 'yes' } }, { type: 'merge' });
    await expect(waiting).rejects.toThrow('broken');
    await drain();
    expect(cluster.activeWatchers).toBe(0);
  });

  it('refuses a bad timeout and an empty name', async () => {
    await expect(waitFor(cms(), 'a', () => true, { timeout: -1 })).rejects.toThrow(RangeError);
    await expect(waitFor(cms(), 'a', () => true, { timeout: Number.NaN })).rejects.toThrow(RangeError);
    await expect(waitFor(cms(), '', () => true)).rejects.toThrow('waitFor: the name to wait for is empty');
  });
});

/** A resource with no cluster behind it: an empty list, then watches that play `events` and wait. */
function stubResource(events: WatchEvent<ConfigMap>[][]): WaitableResource<ConfigMap> & { lists: number; closed: number } {
  const self = {
    lists: 0,
    closed: 0,
    async list(): Promise<List<ConfigMap>> {
      self.lists++;
      return { apiVersion: 'v1', kind: 'ConfigMapList', metadata: { resourceVersion: String(self.lists) }, items: [] };
    },
    async watch(): Promise<WatchStream<ConfigMap>> {
      const queue = events.shift() ?? [];
      let close!: () => void;
      const done = new Promise<void>((r) => (close = r));
      return {
        done,
        close: () => {
          self.closed++;
          close();
        },
        async *[Symbol.asyncIterator]() {
          yield* queue;
          await done;
        },
      };
    },
  };
  return self;
}

describe('waitFor without a cluster clock', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('times out in real time', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const resource = stubResource([]);
    let outcome: unknown;
    const waiting = waitFor(resource, 'a', (c) => c !== undefined, { timeout: 1_000 }).catch((e: unknown) => (outcome = e));
    await vi.advanceTimersByTimeAsync(999);
    expect(outcome).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    await waiting;
    expect(outcome).toBeInstanceOf(WaitTimeoutError);
    expect(resource.closed).toBe(1);
  });

  it('lists again after a 410 Gone, as an informer does', async () => {
    const gone = { type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 410, reason: 'Expired', message: 'too old' } };
    const added = { type: 'ADDED', object: { metadata: { name: 'a', namespace: 'default' } } };
    const resource = stubResource([[gone as unknown as WatchEvent<ConfigMap>], [added as WatchEvent<ConfigMap>]]);
    expect((await waitFor(resource, 'a', (c) => c !== undefined))?.metadata?.name).toBe('a');
    expect(resource.lists).toBe(2);
  });

  it('rejects with the ApiError of another ERROR event', async () => {
    const forbidden = { type: 'ERROR', object: { kind: 'Status', apiVersion: 'v1', status: 'Failure', code: 403, reason: 'Forbidden', message: 'no' } };
    const resource = stubResource([[forbidden as unknown as WatchEvent<ConfigMap>]]);
    await expect(waitFor(resource, 'a', (c) => c !== undefined)).rejects.toMatchObject({ code: 403, reason: 'Forbidden' });
  });
});
