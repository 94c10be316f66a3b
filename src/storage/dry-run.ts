/**
 * Dry run wraps storage instead of branching in every handler: reads go through, writes are checked
 * exactly as the real storage would check them (existence, compare-and-swap) and answered with the
 * object that would have been stored, but nothing is kept and no event is sent.
 */
import { deepFreeze } from './freeze.js';
import {
  StorageConflictError,
  StorageKeyError,
  type ObjectKey,
  type Storage,
  type StorageChangesOptions,
  type StorageEvent,
  type StorageGetOptions,
  type StorageListOptions,
  type StorageListResult,
  type StoredObject,
} from './storage.js';

/** A view of `inner` whose writes are checked but not persisted. */
export class DryRunStorage implements Storage {
  constructor(private readonly inner: Storage) {}

  currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }

  compactedRevision(): Promise<number> {
    return this.inner.compactedRevision();
  }

  get(key: ObjectKey, options?: StorageGetOptions): Promise<StoredObject | undefined> {
    return this.inner.get(key, options);
  }

  changesSince(bucket: string, revision: number, options?: StorageChangesOptions): Promise<StorageEvent[]> {
    return this.inner.changesSince(bucket, revision, options);
  }

  list(bucket: string, options?: StorageListOptions): Promise<StorageListResult> {
    return this.inner.list(bucket, options);
  }

  async create(key: ObjectKey, value: Record<string, unknown>): Promise<StoredObject> {
    if (await this.inner.get(key)) throw new StorageKeyError('exists', key);
    // Kubernetes answers a dry-run create without a resourceVersion: nothing was written.
    const metadata = { ...((value.metadata as Record<string, unknown> | undefined) ?? {}) };
    delete metadata.resourceVersion;
    return { namespace: key.namespace, name: key.name, revision: 0, value: deepFreeze({ ...value, metadata }) };
  }

  async update(key: ObjectKey, value: Record<string, unknown>, expectedRevision: number): Promise<StoredObject> {
    const current = await this.checked(key, expectedRevision);
    const metadata = { ...((value.metadata as Record<string, unknown> | undefined) ?? {}), resourceVersion: String(current.revision) };
    return { namespace: key.namespace, name: key.name, revision: current.revision, value: deepFreeze({ ...value, metadata }) };
  }

  async delete(key: ObjectKey, expectedRevision: number): Promise<StoredObject> {
    return this.checked(key, expectedRevision);
  }

  subscribe(_listener: (event: StorageEvent) => void): () => void {
    return () => undefined;
  }

  async close(): Promise<void> {
    // The wrapped storage is owned by the cluster, not by this view.
  }

  private async checked(key: ObjectKey, expectedRevision: number): Promise<StoredObject> {
    const current = await this.inner.get(key);
    if (!current) throw new StorageKeyError('not-found', key);
    if (current.revision !== expectedRevision) throw new StorageConflictError(key, expectedRevision, current.revision);
    return current;
  }
}
