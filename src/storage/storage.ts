/**
 * The storage contract. Storage knows nothing of kinds: it keeps JSON objects under
 * (bucket, namespace, name) keys, stamps each write with the next global revision (written into
 * `metadata.resourceVersion`, as Kubernetes' versioner does) and refuses writes whose expected
 * revision is stale (compare-and-swap). The methods are async so that a networked backend (etcd)
 * can implement the same contract.
 */

/**
 * A JSON object as stored: frozen, never changed in place.
 * @category Storage and encryption
 */
export type StoredValue = Readonly<Record<string, unknown>>;

/**
 * Identifies one object: `bucket` is the resource (e.g. `apps/statefulsets`), namespace `''` when cluster-scoped.
 * @category Storage and encryption
 */
export interface ObjectKey {
  bucket: string;
  namespace: string;
  name: string;
}

/**
 * One stored object with the revision that last wrote it.
 * @category Storage and encryption
 */
export interface StoredObject {
  readonly namespace: string;
  readonly name: string;
  readonly revision: number;
  readonly value: StoredValue;
  /**
   * True when the object was read with an encryption provider or key other than the one that
   * writes now: an update that changes nothing still writes it (that rewrite is how a key rotates).
   */
  readonly stale?: boolean;
}

/**
 * Options of {@link Storage.get}.
 * @category Storage and encryption
 */
export interface StorageGetOptions {
  /**
   * Read the object as it was at this revision (it must not be older than
   * {@link Storage.compactedRevision}, nor newer than the current one). The latest when undefined.
   */
  revision?: number;
}

/**
 * Options of {@link Storage.list}.
 * @category Storage and encryption
 */
export interface StorageListOptions {
  /** Only this namespace; all namespaces when undefined. */
  namespace?: string;
  /** Read the bucket as it was at this revision (a snapshot); the latest when undefined. */
  revision?: number;
  /** Start after this key (`namespace/name`, or `name` for cluster-scoped objects). */
  after?: string;
  /** Only objects for which this is true (applied while walking, so `limit` counts matches). */
  filter?: (value: StoredValue) => boolean;
  /**
   * Labels every object `filter` accepts carries (`key=value` requirements of a label selector): a
   * hint that lets a storage skip objects by an index instead of reading each. `filter` still
   * decides; a storage may ignore the hint.
   */
  labels?: readonly LabelPair[];
  /** At most this many items; then `more` tells whether anything (matching) is left. */
  limit?: number;
}

/**
 * One `key=value` label.
 * @category Storage and encryption
 */
export interface LabelPair {
  readonly key: string;
  readonly value: string;
}

/**
 * The result of a list: the objects in key order and the revision the list was read at.
 * @category Storage and encryption
 */
export interface StorageListResult {
  readonly items: readonly StoredObject[];
  readonly revision: number;
  /** True when `limit` cut the list short and a later key (matching `filter`) exists. */
  readonly more?: boolean;
  /** When `more` and no `filter`: how many objects follow the last item (Kubernetes' remainingItemCount). */
  readonly remaining?: number;
  /**
   * The index the storage narrowed the walk with (`l:<label key>` for the label index, as the
   * watch cache names its indexes), undefined when it walked every key in range.
   */
  readonly index?: string;
}

/**
 * Options of {@link Storage.changesSince}.
 * @category Storage and encryption
 */
export interface StorageChangesOptions {
  /** Only changes in this namespace. */
  namespace?: string;
}

/**
 * Thrown by reads at a revision older than the history kept (as etcd answers a compacted revision).
 * `compacted` is the oldest revision that can still be read.
 * @category Storage and encryption
 */
export class StorageCompactedError extends Error {
  constructor(
    readonly requested: number,
    readonly compacted: number,
  ) {
    super(`revision ${requested} has been compacted (oldest readable: ${compacted})`);
    this.name = 'StorageCompactedError';
  }
}

/**
 * Thrown by reads at a revision that has not been written yet.
 * @category Storage and encryption
 */
export class StorageFutureRevisionError extends Error {
  constructor(
    readonly requested: number,
    readonly current: number,
  ) {
    super(`revision ${requested} is a future revision (current: ${current})`);
    this.name = 'StorageFutureRevisionError';
  }
}

/**
 * A change to one object, as the watch hub receives it.
 * @category Storage and encryption
 */
export interface StorageEvent {
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  readonly bucket: string;
  readonly namespace: string;
  readonly name: string;
  /** The revision of this change; a DELETED event carries the revision of the delete. */
  readonly revision: number;
  /** The object after the change; for DELETED, the last state with `resourceVersion` of the delete. */
  readonly object: StoredValue;
  /** The object before the change (MODIFIED and DELETED). */
  readonly previous?: StoredValue;
}

/**
 * Thrown by writes whose key exists (create) or does not (update, delete).
 * @category Storage and encryption
 */
export class StorageKeyError extends Error {
  constructor(
    readonly kind: 'exists' | 'not-found',
    readonly key: ObjectKey,
  ) {
    super(`${kind === 'exists' ? 'key exists' : 'key not found'}: ${key.bucket}/${key.namespace}/${key.name}`);
    this.name = 'StorageKeyError';
  }
}

/**
 * Thrown by a compare-and-swap write whose expected revision is not the stored one.
 * @category Storage and encryption
 */
export class StorageConflictError extends Error {
  constructor(
    readonly key: ObjectKey,
    readonly expected: number,
    readonly actual: number,
  ) {
    super(`revision conflict on ${key.bucket}/${key.namespace}/${key.name}: expected ${expected}, found ${actual}`);
    this.name = 'StorageConflictError';
  }
}

/**
 * What the engine needs from a storage backend.
 * @category Storage and encryption
 */
export interface Storage {
  /** The newest revision written (0 before the first write). */
  currentRevision(): Promise<number>;
  /**
   * The oldest revision that can still be read: history older than the retention window is
   * dropped (like etcd compaction); reads and `changesSince` below it fail with
   * {@link StorageCompactedError}.
   */
  compactedRevision(): Promise<number>;
  /** The object stored at `key` (at `options.revision` when given); undefined when there is none. */
  get(key: ObjectKey, options?: StorageGetOptions): Promise<StoredObject | undefined>;
  /**
   * Objects of a bucket in Kubernetes key order (namespace, then name), optionally as of a past
   * revision, after a key, filtered and limited. Costs O(limit + changes since `revision` + log n).
   */
  list(bucket: string, options?: StorageListOptions): Promise<StorageListResult>;
  /**
   * The committed changes of a bucket after `revision`, oldest first (what a watch from that
   * revision replays). Fails with {@link StorageCompactedError} when that history is gone.
   */
  changesSince(bucket: string, revision: number, options?: StorageChangesOptions): Promise<StorageEvent[]>;
  /**
   * Stores a new object; fails with {@link StorageKeyError} when the key exists. Writes take
   * ownership of `value`: it is frozen, never copied, so callers pass a copy they will not touch.
   */
  create(key: ObjectKey, value: Record<string, unknown>): Promise<StoredObject>;
  /** Replaces an object if its revision is still `expectedRevision`. */
  update(key: ObjectKey, value: Record<string, unknown>, expectedRevision: number): Promise<StoredObject>;
  /** Removes an object if its revision is still `expectedRevision`; returns the removed object. */
  delete(key: ObjectKey, expectedRevision: number): Promise<StoredObject>;
  /**
   * Resolves when the backend can serve (an etcd client reaching its cluster), throws why not: what
   * the `etcd` health checks ask. A storage in this process has nothing to check and need not have it.
   */
  check?(): Promise<void>;
  /** Registers a listener for every committed change; returns a function that removes it. */
  subscribe(listener: (event: StorageEvent) => void): () => void;
  /** Releases the storage (its listeners, and a networked backend's connection). */
  close(): Promise<void>;
}
