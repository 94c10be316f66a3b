/**
 * The watch hub: receives every committed change from storage and hands it to the watchers that
 * can match it. Watchers are indexed by bucket, then by namespace and by object name, so an event
 * costs O(watchers of its bucket that watch everything, its namespace, or its object), never
 * O(all watchers). Time-driven work (bookmarks, timeouts) runs when the cluster clock moves.
 */
import type { Storage, StorageEvent } from '../../storage/storage.js';

/** What the hub needs from one watcher. */
export interface HubWatcher {
  readonly bucket: string;
  /** Only this namespace (undefined: every namespace). */
  readonly namespace?: string;
  /** Only this object name (a single-object watch). */
  readonly name?: string;
  onEvent(event: StorageEvent): void;
  /** Called after the cluster clock moved, for watchers registered as timed. */
  onClock?(now: number): void;
  /** Called when the hub closes (the cluster is closing): the watcher ends and unregisters. */
  onClose?(): void;
}

/**
 * A set of watchers and the array an event is handed out from. An event goes to the watchers
 * registered when it was dispatched, whoever registers or leaves while it is handed out; the
 * array is that snapshot, made again only after the set changed, so an event to 1,000 watchers
 * does not copy 1,000 entries first.
 */
class WatcherSet {
  private readonly members = new Set<HubWatcher>();
  private snapshot: readonly HubWatcher[] | undefined;

  get size(): number {
    return this.members.size;
  }

  add(w: HubWatcher): void {
    if (this.members.has(w)) return;
    this.members.add(w);
    this.snapshot = undefined;
  }

  delete(w: HubWatcher): boolean {
    if (!this.members.delete(w)) return false;
    this.snapshot = undefined;
    return true;
  }

  /** The members as they are now; never changed afterwards (a change makes a new array). */
  list(): readonly HubWatcher[] {
    return (this.snapshot ??= [...this.members]);
  }
}

interface BucketWatchers {
  readonly all: WatcherSet;
  readonly byNamespace: Map<string, WatcherSet>;
  readonly byName: Map<string, WatcherSet>;
}

function nameKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

function addTo<K>(map: Map<K, WatcherSet>, key: K, w: HubWatcher): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new WatcherSet()));
  set.add(w);
}

function removeFrom<K>(map: Map<K, WatcherSet>, key: K, w: HubWatcher): void {
  const set = map.get(key);
  if (set?.delete(w) && set.size === 0) map.delete(key);
}

/** Hands `event` to each watcher of `set` (as it was when the event came). */
function deliver(set: WatcherSet | undefined, event: StorageEvent): void {
  if (!set) return;
  const watchers = set.list();
  for (let i = 0; i < watchers.length; i++) {
    try {
      watchers[i]!.onEvent(event);
    } catch {
      // One faulty watcher must not keep the event from the others.
    }
  }
}

/** Fans storage events out to watchers. */
export class WatchHub {
  private readonly buckets = new Map<string, BucketWatchers>();
  private readonly timed = new Set<HubWatcher>();
  /** Every registered watcher, for closing them all. */
  private readonly watchers = new Set<HubWatcher>();
  private revision = 0;
  private closed = false;
  private readonly unsubscribe: () => void;

  constructor(storage: Storage) {
    this.unsubscribe = storage.subscribe((event) => this.dispatch(event));
  }

  /** How many watchers are registered (0 once every watch has ended). */
  get activeWatchers(): number {
    return this.watchers.size;
  }

  /** The newest revision the hub has seen. */
  get lastRevision(): number {
    return this.revision;
  }

  /** Takes `revision` as seen: the storage moved there without events (a cluster starting from a snapshot). */
  skipTo(revision: number): void {
    if (revision > this.revision) this.revision = revision;
  }

  /**
   * Registers a watcher; returns the function that removes it (idempotent). On a closed hub the
   * watcher is closed at once (`onClose`) and never registered.
   */
  register(w: HubWatcher, timed = false): () => void {
    if (this.closed) {
      w.onClose?.();
      return () => undefined;
    }
    let b = this.buckets.get(w.bucket);
    if (!b) this.buckets.set(w.bucket, (b = { all: new WatcherSet(), byNamespace: new Map(), byName: new Map() }));
    const bucket = b;
    if (w.name !== undefined) addTo(bucket.byName, nameKey(w.namespace ?? '', w.name), w);
    else if (w.namespace !== undefined) addTo(bucket.byNamespace, w.namespace, w);
    else bucket.all.add(w);
    if (timed) this.timed.add(w);
    this.watchers.add(w);
    let registered = true;
    return () => {
      if (!registered) return;
      registered = false;
      this.watchers.delete(w);
      this.timed.delete(w);
      if (w.name !== undefined) removeFrom(bucket.byName, nameKey(w.namespace ?? '', w.name), w);
      else if (w.namespace !== undefined) removeFrom(bucket.byNamespace, w.namespace, w);
      else bucket.all.delete(w);
      if (!bucket.all.size && !bucket.byNamespace.size && !bucket.byName.size) this.buckets.delete(w.bucket);
    };
  }

  /**
   * Ends every watch of one bucket (its resource stopped being served: a custom resource whose
   * definition went or changed), as if the cluster closed for them.
   */
  closeBucket(bucket: string): void {
    const b = this.buckets.get(bucket);
    if (!b) return;
    const watchers = [...b.all.list(), ...[...b.byNamespace.values()].flatMap((set) => set.list()), ...[...b.byName.values()].flatMap((set) => set.list())];
    for (const w of watchers) {
      try {
        w.onClose?.();
      } catch {
        // One faulty watcher must not keep the others open.
      }
    }
  }

  /** Ends every open watch, as {@link closeBucket} does, but keeps serving new ones (the store was restored). */
  closeAll(): void {
    for (const bucket of [...this.buckets.keys()]) this.closeBucket(bucket);
  }

  /** Lets timed watchers react to the clock (bookmarks, timeouts). */
  clockMoved(now: number): void {
    for (const w of [...this.timed]) w.onClock?.(now);
  }

  /**
   * Stops receiving events and ends every watch (the cluster is closing); watches registered
   * afterwards end at once.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.unsubscribe();
    for (const w of [...this.watchers]) {
      try {
        w.onClose?.();
      } catch {
        // One faulty watcher must not keep the others open.
      }
    }
    // Whatever did not unregister itself on close is let go of all the same.
    this.watchers.clear();
    this.timed.clear();
    this.buckets.clear();
  }

  private dispatch(event: StorageEvent): void {
    if (event.revision > this.revision) this.revision = event.revision;
    const b = this.buckets.get(event.bucket);
    if (!b) return;
    deliver(b.all, event);
    deliver(b.byNamespace.get(event.namespace), event);
    if (b.byName.size) {
      // A cluster-wide single-object watch of a namespaced kind is indexed under namespace ''.
      deliver(b.byName.get(nameKey(event.namespace, event.name)), event);
      if (event.namespace) deliver(b.byName.get(nameKey('', event.name)), event);
    }
  }
}
