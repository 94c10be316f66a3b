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

interface BucketWatchers {
  readonly all: Set<HubWatcher>;
  readonly byNamespace: Map<string, Set<HubWatcher>>;
  readonly byName: Map<string, Set<HubWatcher>>;
}

function nameKey(namespace: string, name: string): string {
  return `${namespace}/${name}`;
}

function addTo<K>(map: Map<K, Set<HubWatcher>>, key: K, w: HubWatcher): void {
  let set = map.get(key);
  if (!set) map.set(key, (set = new Set()));
  set.add(w);
}

function removeFrom<K>(map: Map<K, Set<HubWatcher>>, key: K, w: HubWatcher): void {
  const set = map.get(key);
  if (set?.delete(w) && set.size === 0) map.delete(key);
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
    if (!b) this.buckets.set(w.bucket, (b = { all: new Set(), byNamespace: new Map(), byName: new Map() }));
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
    const watchers = [...b.all, ...[...b.byNamespace.values()].flatMap((set) => [...set]), ...[...b.byName.values()].flatMap((set) => [...set])];
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
    const deliver = (set: Set<HubWatcher> | undefined) => {
      if (!set) return;
      for (const w of [...set]) {
        try {
          w.onEvent(event);
        } catch {
          // One faulty watcher must not keep the event from the others.
        }
      }
    };
    deliver(b.all);
    deliver(b.byNamespace.get(event.namespace));
    if (b.byName.size) {
      // A cluster-wide single-object watch of a namespaced kind is indexed under namespace ''.
      deliver(b.byName.get(nameKey(event.namespace, event.name)));
      if (event.namespace) deliver(b.byName.get(nameKey('', event.name)));
    }
  }
}
