/**
 * The default storage: everything in memory. A get is a map lookup; a list walks a sorted key
 * index of one bucket (and of one namespace when asked), never the whole store.
 *
 * History: every committed change is kept in a log for a retention window measured on the
 * cluster clock (5 minutes by default), like etcd before compaction. Reading the past never
 * copies the store: a snapshot at revision R is the current state with the changes made after R
 * undone on the fly (each log entry remembers the object before the change), so a page costs
 * O(limit + changes since R + log n).
 */
import { deepFreeze } from './freeze.js';
import { SortedKeys } from './sorted-keys.js';
import {
  StorageCompactedError,
  StorageConflictError,
  StorageFutureRevisionError,
  StorageKeyError,
  type ObjectKey,
  type Storage,
  type StorageChangesOptions,
  type StorageEvent,
  type StorageGetOptions,
  type StorageListOptions,
  type StorageListResult,
  type StoredObject,
  type StoredValue,
} from './storage.js';
import { extended } from '../util/extended.js';

/** One committed change, as the history keeps it. */
interface LogEntry {
  readonly revision: number;
  readonly time: number;
  readonly bucket: string;
  readonly key: string;
  readonly event: StorageEvent;
  /** The object before this change (undefined for a create). */
  readonly before: StoredObject | undefined;
  /** The previous retained change of the same key (cut when that one is compacted). */
  prior: LogEntry | undefined;
}

interface Bucket {
  objects: Map<string, StoredObject>;
  order: SortedKeys;
  /** This bucket's changes in revision order; entries before `head` are compacted. */
  log: LogEntry[];
  head: number;
  /** The newest retained change of each key. */
  readonly latest: Map<string, LogEntry>;
  /** The keys of the current objects carrying each label (`labelEntry(key, value)`): lists with a label selector skip the others unread. */
  byLabel: Map<string, Set<string>>;
  /**
   * True while `objects`, `order` and `byLabel` are shared with a {@link MemoryState} (a snapshot):
   * the first write copies them (copy-on-write), so a snapshot costs nothing until a bucket changes.
   */
  shared: boolean;
}

/** A bucket's objects and indexes as a {@link MemoryState} holds them: never changed once taken. */
interface FrozenBucket {
  readonly objects: ReadonlyMap<string, StoredObject>;
  readonly order: SortedKeys;
  readonly byLabel: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * The whole content of a {@link MemoryStorage} at one revision, without its history. It shares its
 * maps with the storage it came from (which copies a bucket before its next write to it), so taking
 * one or starting from one costs O(buckets), not O(objects).
 * @category Storage and encryption
 */
export interface MemoryState {
  readonly revision: number;
  /** @internal The buckets, by name; only MemoryStorage reads them. */
  readonly buckets: ReadonlyMap<string, FrozenBucket>;
}

/** A {@link MemoryState} made from a list of objects (as a snapshot file holds them). */
export function memoryStateOf(revision: number, objects: Iterable<{ bucket: string; object: StoredObject }>): MemoryState {
  const buckets = new Map<string, Bucket>();
  for (const { bucket, object } of objects) {
    let b = buckets.get(bucket);
    if (!b) buckets.set(bucket, (b = { objects: new Map(), order: new SortedKeys(), log: [], head: 0, latest: new Map(), byLabel: new Map(), shared: false }));
    const key = indexKey(object.namespace, object.name);
    b.objects.set(key, object);
    b.order.insert(key);
    reindexLabels(b, key, undefined, object.value);
  }
  return { revision, buckets };
}

/** The index entry of one label: NUL cannot occur in a label key, so the pair is unambiguous. */
function labelEntry(key: string, value: string): string {
  return `${key}\u0000${value}`;
}

function labelsOf(value: StoredValue | undefined): Record<string, unknown> | undefined {
  const labels = (value?.metadata as { labels?: unknown } | undefined)?.labels;
  return labels !== null && typeof labels === 'object' ? (labels as Record<string, unknown>) : undefined;
}

/** Moves `key` in the label index from the labels of `before` to those of `after`. */
function reindexLabels(b: Bucket, key: string, before: StoredValue | undefined, after: StoredValue | undefined): void {
  const old = labelsOf(before);
  const now = labelsOf(after);
  if (old === now) return;
  if (old) {
    for (const [k, v] of Object.entries(old)) {
      if (typeof v !== 'string' || now?.[k] === v) continue;
      const entry = labelEntry(k, v);
      const set = b.byLabel.get(entry);
      if (set?.delete(key) && set.size === 0) b.byLabel.delete(entry);
    }
  }
  if (now) {
    for (const [k, v] of Object.entries(now)) {
      if (typeof v !== 'string' || old?.[k] === v) continue;
      const entry = labelEntry(k, v);
      let set = b.byLabel.get(entry);
      if (!set) b.byLabel.set(entry, (set = new Set()));
      set.add(key);
    }
  }
}

/**
 * Options of {@link MemoryStorage}.
 * @category Storage and encryption
 */
export interface MemoryStorageOptions {
  /** The clock history retention is measured on (epoch milliseconds); `Date.now` by default. */
  now?: () => number;
  /** How long changes are kept for reads in the past and watches from a revision (default 5 minutes). */
  historyRetentionMs?: number;
}

/** The default history retention: 5 minutes, as the API server's etcd compaction interval. */
export const DEFAULT_HISTORY_RETENTION_MS = 5 * 60 * 1000;

function indexKey(namespace: string, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/**
 * Writes `resourceVersion` into a copy of the object's top level and metadata, and freezes the
 * result. The writer hands the value over: its nested objects become the stored ones, frozen in
 * place (so nobody holding the value can believe a change would be stored), instead of being
 * copied once more.
 */
function stamp(value: Record<string, unknown>, revision: number): StoredValue {
  const metadata = extended((value.metadata as Record<string, unknown> | undefined) ?? {}, { resourceVersion: String(revision) });
  const stored = deepFreeze(extended(value, { metadata }));
  Object.freeze(value);
  return stored;
}

const EMPTY_KEYS: ReadonlySet<string> = new Set();

/** Index of the first entry of `log` (from `head`) whose revision is `> revision`. */
function firstAfter(log: readonly LogEntry[], head: number, revision: number): number {
  let lo = head;
  let hi = log.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (log[mid]!.revision <= revision) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first key after every key starting with `prefix` (`prefix` ends with `/`). */
function prefixEnd(prefix: string): string {
  return `${prefix.slice(0, -1)}0`; // '0' is the character after '/'
}

/**
 * In-memory {@link Storage}.
 * @category Storage and encryption
 */
export class MemoryStorage implements Storage {
  private revision = 0;
  private compacted = 0;
  private buckets = new Map<string, Bucket>();
  private readonly listeners = new Set<(event: StorageEvent) => void>();
  /** Every bucket's changes in revision order (for compaction); entries before `historyHead` are gone. */
  private history: LogEntry[] = [];
  private historyHead = 0;
  private readonly now: () => number;
  private readonly retentionMs: number;

  constructor(options: MemoryStorageOptions = {}) {
    this.now = options.now ?? Date.now;
    this.retentionMs = options.historyRetentionMs ?? DEFAULT_HISTORY_RETENTION_MS;
  }

  async currentRevision(): Promise<number> {
    return this.revision;
  }

  async compactedRevision(): Promise<number> {
    this.compact();
    return this.compacted;
  }

  async get(key: ObjectKey, options: StorageGetOptions = {}): Promise<StoredObject | undefined> {
    const b = this.buckets.get(key.bucket);
    const k = indexKey(key.namespace, key.name);
    const current = b?.objects.get(k);
    if (options.revision === undefined) return current;
    this.checkReadable(options.revision);
    if (!b) return undefined;
    let earliest: LogEntry | undefined;
    for (let e = b.latest.get(k); e && e.revision > options.revision; e = e.prior) earliest = e;
    return earliest ? earliest.before : current;
  }

  async list(bucket: string, options: StorageListOptions = {}): Promise<StorageListResult> {
    const revision = options.revision ?? this.revision;
    if (options.revision !== undefined) this.checkReadable(options.revision);
    const b = this.buckets.get(bucket);
    if (!b) return { items: [], revision };
    const prefix = options.namespace ? `${options.namespace}/` : '';
    const after = options.after !== undefined && options.after >= prefix ? options.after : undefined;
    const inRange = (k: string) => k.startsWith(prefix) && (after === undefined || k > after);

    // Undo the changes made after `revision`: the first change of a key after it tells its state then.
    const past = new Map<string, StoredObject | undefined>();
    for (let i = firstAfter(b.log, b.head, revision); i < b.log.length; i++) {
      const e = b.log[i]!;
      if (!past.has(e.key) && inRange(e.key)) past.set(e.key, e.before);
    }
    // Keys that existed then but are gone now are merged into the walk of the current keys.
    const gone = [...past.entries()].filter(([k, v]) => v !== undefined && !b.objects.has(k)).map(([k]) => k);
    gone.sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));

    const limit = options.limit !== undefined && options.limit > 0 ? options.limit : Infinity;
    const filter = options.filter;
    // Current objects lacking a required label are skipped by the index, without reading them.
    const required = filter && options.labels?.length ? options.labels.map((l) => b.byLabel.get(labelEntry(l.key, l.value)) ?? EMPTY_KEYS) : undefined;
    const items: StoredObject[] = [];
    let more = false;
    let i = after === undefined ? b.order.lowerBound(prefix) : b.order.upperBound(after);
    let j = 0;
    for (;;) {
      const ck = b.order.at(i);
      const current = ck !== undefined && ck.startsWith(prefix) ? ck : undefined;
      const goneKey = gone[j];
      let key: string;
      if (current !== undefined && (goneKey === undefined || current < goneKey)) {
        key = current;
        i++;
      } else if (goneKey !== undefined) {
        key = goneKey;
        j++;
      } else break;
      const inPast = past.has(key);
      if (required && !inPast && !required.every((keys) => keys.has(key))) continue;
      const obj = inPast ? past.get(key) : b.objects.get(key);
      if (!obj || (filter && !filter(obj.value))) continue;
      if (items.length >= limit) {
        more = true;
        break;
      }
      items.push(obj);
    }
    const index = required ? `l:${options.labels![0]!.key}` : undefined;
    if (!more) return { items, revision, more, ...(index ? { index } : {}) };
    if (filter) return { items, revision, more, ...(index ? { index } : {}) };
    // Unfiltered: count what follows the last item in the snapshot, in O(log n + changes).
    const last = indexKey(items[items.length - 1]!.namespace, items[items.length - 1]!.name);
    const end = prefix ? b.order.lowerBound(prefixEnd(prefix)) : b.order.size;
    let remaining = end - b.order.upperBound(last);
    for (const [k, v] of past) {
      if (k <= last) continue;
      const now = b.objects.has(k);
      if (now && v === undefined) remaining--;
      else if (!now && v !== undefined) remaining++;
    }
    return { items, revision, more, remaining };
  }

  async changesSince(bucket: string, revision: number, options: StorageChangesOptions = {}): Promise<StorageEvent[]> {
    this.checkReadable(revision);
    const b = this.buckets.get(bucket);
    if (!b) return [];
    const out: StorageEvent[] = [];
    for (let i = firstAfter(b.log, b.head, revision); i < b.log.length; i++) {
      const e = b.log[i]!.event;
      if (options.namespace === undefined || e.namespace === options.namespace) out.push(e);
    }
    return out;
  }

  /** The current content, as a value later writes leave as it is (see {@link MemoryState}). */
  state(): MemoryState {
    const buckets = new Map<string, FrozenBucket>();
    for (const [name, b] of this.buckets) {
      if (b.objects.size === 0) continue;
      b.shared = true;
      buckets.set(name, { objects: b.objects, order: b.order, byLabel: b.byLabel });
    }
    return { revision: this.revision, buckets };
  }

  /**
   * Replaces the whole content with `state`, as restoring etcd from a snapshot with
   * `--bump-revision --mark-compacted` does: the revision moves on past both the current one and
   * the state's (it never goes back), and the history before it is compacted, so a read or watch
   * at an older revision fails with {@link StorageCompactedError}. A storage that has no content
   * yet (revision 0) takes the state's revision as it is. The listeners are told what changed
   * (objects gone as DELETED, new ones as ADDED, different ones as MODIFIED), so that what they
   * derive from the events (indexes, controllers' caches) follows; unchanged buckets cost nothing.
   * With `silent`, on a storage with no content yet, nobody is told: the caller hands the state to
   * what derives from it in one piece (a new cluster's controllers), instead of an ADDED event per object.
   */
  restore(state: MemoryState, options: { silent?: boolean } = {}): void {
    const fresh = this.revision === 0 && this.buckets.size === 0;
    const old = this.buckets;
    this.buckets = new Map();
    for (const [name, f] of state.buckets) {
      this.buckets.set(name, {
        objects: f.objects as Map<string, StoredObject>,
        order: f.order,
        byLabel: f.byLabel as Map<string, Set<string>>,
        log: [],
        head: 0,
        latest: new Map(),
        shared: true,
      });
    }
    this.revision = fresh ? state.revision : Math.max(this.revision, state.revision) + 1;
    this.compacted = this.revision;
    this.history = [];
    this.historyHead = 0;
    if (options.silent && fresh) return;
    for (const event of this.differences(old)) this.emit(event);
  }

  /** What changed from the buckets `old` to the current ones, as events at the current revision. */
  private differences(old: ReadonlyMap<string, Bucket>): StorageEvent[] {
    const revision = this.revision;
    const events: StorageEvent[] = [];
    for (const name of new Set([...old.keys(), ...this.buckets.keys()])) {
      const before = old.get(name)?.objects;
      const after = this.buckets.get(name)?.objects;
      if (before === after) continue;
      for (const [k, was] of before ?? []) {
        const now = after?.get(k);
        if (now === was) continue;
        const base = { bucket: name, namespace: was.namespace, name: was.name, revision, previous: was.value };
        events.push(
          now ? { ...base, type: 'MODIFIED', object: now.value } : { ...base, type: 'DELETED', object: stamp(was.value as Record<string, unknown>, revision) },
        );
      }
      for (const [k, now] of after ?? []) {
        if (!before?.has(k)) events.push({ type: 'ADDED', bucket: name, namespace: now.namespace, name: now.name, revision, object: now.value });
      }
    }
    return events;
  }

  async create(key: ObjectKey, value: Record<string, unknown>): Promise<StoredObject> {
    const b = this.bucket(key.bucket);
    const k = indexKey(key.namespace, key.name);
    if (b.objects.has(k)) throw new StorageKeyError('exists', key);
    const revision = ++this.revision;
    const stored: StoredObject = { namespace: key.namespace, name: key.name, revision, value: stamp(value, revision) };
    b.objects.set(k, stored);
    b.order.insert(k);
    this.commit(b, k, undefined, { type: 'ADDED', bucket: key.bucket, namespace: key.namespace, name: key.name, revision, object: stored.value });
    return stored;
  }

  async update(key: ObjectKey, value: Record<string, unknown>, expectedRevision: number): Promise<StoredObject> {
    const b = this.bucket(key.bucket);
    const k = indexKey(key.namespace, key.name);
    const current = b.objects.get(k);
    if (!current) throw new StorageKeyError('not-found', key);
    if (current.revision !== expectedRevision) throw new StorageConflictError(key, expectedRevision, current.revision);
    const revision = ++this.revision;
    const stored: StoredObject = { namespace: key.namespace, name: key.name, revision, value: stamp(value, revision) };
    b.objects.set(k, stored);
    this.commit(b, k, current, {
      type: 'MODIFIED',
      bucket: key.bucket,
      namespace: key.namespace,
      name: key.name,
      revision,
      object: stored.value,
      previous: current.value,
    });
    return stored;
  }

  async delete(key: ObjectKey, expectedRevision: number): Promise<StoredObject> {
    const b = this.bucket(key.bucket);
    const k = indexKey(key.namespace, key.name);
    const current = b.objects.get(k);
    if (!current) throw new StorageKeyError('not-found', key);
    if (current.revision !== expectedRevision) throw new StorageConflictError(key, expectedRevision, current.revision);
    const revision = ++this.revision;
    b.objects.delete(k);
    b.order.remove(k);
    this.commit(b, k, current, {
      type: 'DELETED',
      bucket: key.bucket,
      namespace: key.namespace,
      name: key.name,
      revision,
      object: stamp(current.value as Record<string, unknown>, revision),
      previous: current.value,
    });
    return current;
  }

  subscribe(listener: (event: StorageEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async close(): Promise<void> {
    this.listeners.clear();
  }

  /** The bucket a write changes: made when missing, its shared content copied first (copy-on-write). */
  private bucket(name: string): Bucket {
    let b = this.buckets.get(name);
    if (!b) {
      b = { objects: new Map(), order: new SortedKeys(), log: [], head: 0, latest: new Map(), byLabel: new Map(), shared: false };
      this.buckets.set(name, b);
    } else if (b.shared) {
      b.objects = new Map(b.objects);
      b.order = b.order.clone();
      b.byLabel = new Map([...b.byLabel].map(([entry, keys]) => [entry, new Set(keys)]));
      b.shared = false;
    }
    return b;
  }

  /** Reads at `revision` need it to be neither compacted nor in the future. */
  private checkReadable(revision: number): void {
    if (revision > this.revision) throw new StorageFutureRevisionError(revision, this.revision);
    this.compact();
    if (revision < this.compacted) throw new StorageCompactedError(revision, this.compacted);
  }

  /** Records a committed change in the history, then tells the listeners. */
  private commit(b: Bucket, key: string, before: StoredObject | undefined, event: StorageEvent): void {
    reindexLabels(b, key, before?.value, event.type === 'DELETED' ? undefined : event.object);
    const entry: LogEntry = { revision: event.revision, time: this.now(), bucket: event.bucket, key, event, before, prior: b.latest.get(key) };
    b.log.push(entry);
    b.latest.set(key, entry);
    this.history.push(entry);
    this.compact();
    this.emit(event);
  }

  /** Drops changes older than the retention window (the newest dropped revision stays readable). */
  private compact(): void {
    const horizon = this.now() - this.retentionMs;
    let dropped = false;
    while (this.historyHead < this.history.length) {
      const e = this.history[this.historyHead]!;
      if (e.time > horizon) break;
      this.historyHead++;
      dropped = true;
      this.compacted = e.revision;
      const b = this.buckets.get(e.bucket)!;
      b.head++;
      e.prior = undefined;
      if (b.latest.get(e.key) === e) b.latest.delete(e.key);
      if (b.head > 1024 && b.head * 2 > b.log.length) {
        b.log = b.log.slice(b.head);
        b.head = 0;
      }
    }
    if (dropped && this.historyHead > 1024 && this.historyHead * 2 > this.history.length) {
      this.history = this.history.slice(this.historyHead);
      this.historyHead = 0;
    }
  }

  private emit(event: StorageEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch {
        // A faulty listener must never undo or block a committed write.
      }
    }
  }
}
