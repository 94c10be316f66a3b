/**
 * Snapshots, forks and resets of a cluster: what `createCluster` wires into `cluster.snapshot()`,
 * `cluster.fork()` and `cluster.reset()`. The storage shares unchanged buckets with every snapshot
 * (copy-on-write), so these cost O(buckets), plus O(objects) of the buckets a reset puts back.
 */
import type { WatchHub } from './api/watch/hub.js';
import { CombinedClock, type ManualClock } from './clock.js';
import type { MemoryStorage } from './storage/memory.js';
import { ClusterSnapshot, snapshotState } from './storage/snapshot.js';

/** Why a cluster on a storage of its own (`ClusterOptions.storage`) cannot take or restore snapshots. */
export function snapshotsNeedMemoryStorage(): Error {
  return new TypeError('snapshots need the in-memory storage: a cluster given ClusterOptions.storage cannot take, start from or reset to one');
}

/** The parts of a cluster its snapshot methods work on. */
export interface SnapshotWiring {
  /** The default storage, undefined when the cluster was given one of its own. */
  readonly memory: MemoryStorage | undefined;
  readonly watchHub: WatchHub;
  settle(): Promise<void>;
  /** Throws when the cluster is closed. */
  checkOpen(): void;
}

/** `cluster.snapshot()` and `cluster.reset()`. */
export function snapshotMethods(wiring: SnapshotWiring): { snapshot(): ClusterSnapshot; reset(snapshot: ClusterSnapshot): Promise<void> } {
  const memory = () => {
    wiring.checkOpen();
    if (!wiring.memory) throw snapshotsNeedMemoryStorage();
    return wiring.memory;
  };
  return {
    snapshot: () => new ClusterSnapshot(memory().state()),
    async reset(snapshot) {
      const storage = memory();
      const state = snapshotState(snapshot);
      // As after an etcd restore: every watch ends, and resuming one from an older
      // resourceVersion answers 410 Gone, so clients list again and see the restored state.
      wiring.watchHub.closeAll();
      storage.restore(state);
      // The controllers follow the restored objects (the restore told them what changed).
      await wiring.settle();
    },
  };
}

/** Where a fork starts from `source` in time: frozen at the same instant, or real time as far ahead. */
export function forkClock(source: ManualClock): ManualClock {
  const now = source.now();
  if (!source.realTime) return new CombinedClock({ frozenAt: now });
  const clock = new CombinedClock();
  const ahead = now - clock.now();
  if (ahead > 0) clock.advance(ahead);
  return clock;
}
