/**
 * The default storage: everything in memory. A get is a map lookup; a list walks a sorted key
 * index of one bucket (and of one namespace when asked), never the whole store.
 */
import { deepFreeze } from './freeze.js';
import { SortedKeys } from './sorted-keys.js';
import {
  StorageConflictError,
  StorageKeyError,
  type ObjectKey,
  type Storage,
  type StorageEvent,
  type StorageListOptions,
  type StorageListResult,
  type StoredObject,
  type StoredValue,
} from './storage.js';

interface Bucket {
  readonly objects: Map<string, StoredObject>;
  readonly order: SortedKeys;
}

function indexKey(namespace: string, name: string): string {
  return namespace ? `${namespace}/${name}` : name;
}

/** Writes `resourceVersion` into a copy of the object's metadata and freezes the result. */
function stamp(value: Record<string, unknown>, revision: number): StoredValue {
  const metadata = { ...((value.metadata as Record<string, unknown> | undefined) ?? {}), resourceVersion: String(revision) };
  return deepFreeze({ ...value, metadata });
}

/** In-memory {@link Storage}. */
export class MemoryStorage implements Storage {
  private revision = 0;
  private readonly buckets = new Map<string, Bucket>();
  private readonly listeners = new Set<(event: StorageEvent) => void>();

  async currentRevision(): Promise<number> {
    return this.revision;
  }

  async get(key: ObjectKey): Promise<StoredObject | undefined> {
    return this.buckets.get(key.bucket)?.objects.get(indexKey(key.namespace, key.name));
  }

  async list(bucket: string, options: StorageListOptions = {}): Promise<StorageListResult> {
    const b = this.buckets.get(bucket);
    if (!b) return { items: [], revision: this.revision };
    const prefix = options.namespace ? `${options.namespace}/` : '';
    const items: StoredObject[] = [];
    for (const k of b.order.range(prefix)) items.push(b.objects.get(k)!);
    return { items, revision: this.revision };
  }

  async create(key: ObjectKey, value: Record<string, unknown>): Promise<StoredObject> {
    const b = this.bucket(key.bucket);
    const k = indexKey(key.namespace, key.name);
    if (b.objects.has(k)) throw new StorageKeyError('exists', key);
    const revision = ++this.revision;
    const stored: StoredObject = { namespace: key.namespace, name: key.name, revision, value: stamp(value, revision) };
    b.objects.set(k, stored);
    b.order.insert(k);
    this.emit({ type: 'ADDED', bucket: key.bucket, namespace: key.namespace, name: key.name, revision, object: stored.value });
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
    this.emit({
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
    this.emit({
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
      b = { objects: new Map(), order: new SortedKeys() };
      this.buckets.set(name, b);
    }
    return b;
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
