/**
 * The watch hub: receives every committed change from storage and hands it to the watchers that
 * can match it. Watchers are indexed by bucket, then by object name, by the value of a field their
 * selector pins (a kubelet's `spec.nodeName=<node>`), or by namespace, so an event costs
 * O(watchers of its bucket that watch everything, its namespace, its object or its field values),
 * never O(all watchers). Time-driven work (bookmarks, timeouts) runs when the cluster clock moves.
 */
import type { Storage, StorageEvent, StoredValue } from '../../storage/storage.js';

/**
 * A field whose value a watcher's selector requires: only an event whose object has that value
 * now or had it before the change can matter to the watcher.
 */
export interface WatchedField {
  /** The field's name in the selector (`spec.nodeName`). */
  readonly field: string;
  readonly value: string;
  /**
   * The field's value on an object of the bucket, as the selector reads it (`''` when unset). The
   * same function for every watcher that selects the same field the same way: the hub indexes by it.
   */
  readonly read: (object: StoredValue) => string;
}

/** What the hub needs from one watcher. */
export interface HubWatcher {
  readonly bucket: string;
  /** Only this namespace (undefined: every namespace). */
  readonly namespace?: string;
  /** Only this object name (a single-object watch). */
  readonly name?: string;
  /** Only objects with this field value (when no name is given). */
  readonly field?: WatchedField;
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

/** The watchers of one selected field, by the value they require. */
type FieldWatchers = Map<string, WatcherSet>;

interface BucketWatchers {
  readonly all: WatcherSet;
  readonly byNamespace: Map<string, WatcherSet>;
  readonly byName: Map<string, WatcherSet>;
  /** By how the field is read (a kind's versions may read a field name differently). */
  readonly byField: Map<(object: StoredValue) => string, FieldWatchers>;
}

function isEmpty(b: BucketWatchers): boolean {
  return !b.all.size && !b.byNamespace.size && !b.byName.size && !b.byField.size;
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
    if (!b) this.buckets.set(w.bucket, (b = { all: new WatcherSet(), byNamespace: new Map(), byName: new Map(), byField: new Map() }));
    const bucket = b;
    const field = w.name === undefined ? w.field : undefined;
    if (w.name !== undefined) addTo(bucket.byName, nameKey(w.namespace ?? '', w.name), w);
    else if (field) {
      let f = bucket.byField.get(field.read);
      if (!f) bucket.byField.set(field.read, (f = new Map()));
      addTo(f, field.value, w);
    } else if (w.namespace !== undefined) addTo(bucket.byNamespace, w.namespace, w);
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
      else if (field) {
        const f = bucket.byField.get(field.read);
        if (f) {
          removeFrom(f, field.value, w);
          if (f.size === 0) bucket.byField.delete(field.read);
        }
      } else if (w.namespace !== undefined) removeFrom(bucket.byNamespace, w.namespace, w);
      else bucket.all.delete(w);
      if (isEmpty(bucket)) this.buckets.delete(w.bucket);
    };
  }

  /**
   * Ends every watch of one bucket (its resource stopped being served: a custom resource whose
   * definition went or changed), as if the cluster closed for them.
   */
  closeBucket(bucket: string): void {
    const b = this.buckets.get(bucket);
    if (!b) return;
    const watchers = [
      ...b.all.list(),
      ...[...b.byNamespace.values()].flatMap((set) => set.list()),
      ...[...b.byName.values()].flatMap((set) => set.list()),
      ...[...b.byField.values()].flatMap((f) => [...f.values()].flatMap((set) => set.list())),
    ];
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
    if (b.byField.size) {
      for (const [read, byValue] of b.byField) {
        // The watchers of the value it has now, and of the one it had: those see it leave (DELETED).
        const now = read(event.object);
        deliver(byValue.get(now), event);
        if (event.previous !== undefined) {
          const before = read(event.previous);
          if (before !== now) deliver(byValue.get(before), event);
        }
      }
    }
  }
}
