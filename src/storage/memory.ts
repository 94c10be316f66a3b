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
import { deepFreeze, freezeFresh } from './freeze.js';
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
  readonly objects: Map<string, StoredObject>;
  readonly order: SortedKeys;
  /** This bucket's changes in revision order; entries before `head` are compacted. */
  log: LogEntry[];
  head: number;
  /** The newest retained change of each key. */
  readonly latest: Map<string, LogEntry>;
  /** The keys of the current objects carrying each label (`labelEntry(key, value)`): lists with a label selector skip the others unread. */
  readonly byLabel: Map<string, Set<string>>;
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

/** Options of {@link MemoryStorage}. */
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
 * Writes `resourceVersion` into a copy of the object's metadata and freezes the result, as fresh
 * objects (see {@link freezeFresh}: they cost less memory than the working copies they come from).
 */
function stamp(value: Record<string, unknown>, revision: number): StoredValue {
  const metadata = extended((value.metadata as Record<string, unknown> | undefined) ?? {}, { resourceVersion: String(revision) });
  const stored = freezeFresh({ ...value, metadata });
  // The writer handed the value over: freezing it too keeps anyone holding it from believing a change would be stored.
  deepFreeze(value);
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

/** In-memory {@link Storage}. */
export class MemoryStorage implements Storage {
  private revision = 0;
  private compacted = 0;
  private readonly buckets = new Map<string, Bucket>();
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

  private bucket(name: string): Bucket {
    let b = this.buckets.get(name);
    if (!b) {
      b = { objects: new Map(), order: new SortedKeys(), log: [], head: 0, latest: new Map(), byLabel: new Map() };
      this.buckets.set(name, b);
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
