/**
 * A cluster's stored state as a value: every object under its storage key and the revision
 * counter, what a new cluster needs to resume where the old one was. In memory it shares the
 * storage's frozen objects and maps; serialized (`toJSON`) it is a plain JSON document that
 * {@link loadSnapshot} reads back after checking every part of it.
 */
import { freezeFresh } from './freeze.js';
import { memoryStateOf, type MemoryState } from './memory.js';
import type { StoredObject, StoredValue } from './storage.js';
import { nestingExceeds } from '../util/json-nesting.js';
import { hasOwn } from '../util/own.js';

/**
 * The `apiVersion` and `kind` a serialized snapshot carries, so that another file is not taken for one.
 * @category Testing
 */
export const SNAPSHOT_API_VERSION = 'memkube.io/v1';
/**
 * The `kind` a serialized snapshot carries, beside {@link SNAPSHOT_API_VERSION}.
 * @category Testing
 */
export const SNAPSHOT_KIND = 'ClusterSnapshot';

/**
 * One stored object of a serialized snapshot: its storage bucket (`group/resource`, `core/...` for the core group) and the object as stored.
 * @category Testing
 */
export interface SnapshotEntry {
  readonly bucket: string;
  readonly object: StoredValue;
}

/**
 * A snapshot as JSON: what {@link ClusterSnapshot.toJSON} answers and {@link loadSnapshot} reads.
 * @category Testing
 */
export interface SnapshotDocument {
  readonly apiVersion: typeof SNAPSHOT_API_VERSION;
  readonly kind: typeof SNAPSHOT_KIND;
  /** The storage revision (the newest resourceVersion) when the snapshot was taken. */
  readonly revision: number;
  readonly objects: readonly SnapshotEntry[];
}

/**
 * Thrown by {@link loadSnapshot} for a text or value that is not a valid snapshot; `path` says where.
 * @category Testing
 */
export class SnapshotFormatError extends Error {
  constructor(
    readonly path: string,
    readonly detail: string,
  ) {
    super(`invalid cluster snapshot: ${path ? `${path}: ` : ''}${detail}`);
    this.name = 'SnapshotFormatError';
  }
}

const state = new WeakMap<ClusterSnapshot, MemoryState>();

/**
 * An immutable value of a cluster's whole stored state, from `cluster.snapshot()` or
 * {@link loadSnapshot}. Start a cluster from it with `createCluster({ from })`, go back to it with
 * `cluster.reset(snapshot)`, write it to a file with `JSON.stringify(snapshot)`.
 * @category Testing
 */
export class ClusterSnapshot {
  /** The storage revision when it was taken: the newest resourceVersion of its objects or older. */
  readonly revision: number;
  /** How many objects it holds. */
  readonly size: number;

  /** @internal Made by `cluster.snapshot()` and {@link loadSnapshot}. */
  constructor(memory: MemoryState) {
    this.revision = memory.revision;
    let size = 0;
    for (const b of memory.buckets.values()) size += b.objects.size;
    this.size = size;
    state.set(this, memory);
    Object.freeze(this);
  }

  /** Every object, by bucket name then in Kubernetes key order (namespace, then name). */
  *entries(): IterableIterator<SnapshotEntry> {
    const memory = state.get(this)!;
    for (const bucket of [...memory.buckets.keys()].sort()) {
      const b = memory.buckets.get(bucket)!;
      for (let i = 0; i < b.order.size; i++) yield { bucket, object: b.objects.get(b.order.at(i)!)!.value };
    }
  }

  /** The serialized form, which {@link loadSnapshot} reads back (`JSON.stringify(snapshot)` calls it). */
  toJSON(): SnapshotDocument {
    return { apiVersion: SNAPSHOT_API_VERSION, kind: SNAPSHOT_KIND, revision: this.revision, objects: [...this.entries()] };
  }
}

/** @internal The storage state of a snapshot, for the cluster. */
export function snapshotState(snapshot: ClusterSnapshot): MemoryState {
  const memory = state.get(snapshot);
  if (!memory) throw new TypeError('not a ClusterSnapshot (make one with cluster.snapshot() or loadSnapshot())');
  return memory;
}

/** Go's JSON decoder refuses deeper text; so does a snapshot. */
const MAX_DEPTH = 10_000;
const BUCKET = /^[a-z0-9]([a-z0-9.-]*[a-z0-9])?\/[a-z0-9]([a-z0-9-]*[a-z0-9])?$/;

function isRecord(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/**
 * Reads a serialized snapshot (its JSON text, or the parsed value) back into a
 * {@link ClusterSnapshot}. Everything is checked before anything is used: the document's kind,
 * the revision, each entry's bucket, name, namespace and resourceVersion (a positive integer no
 * newer than the snapshot's revision), no key twice. Anything else throws a
 * {@link SnapshotFormatError} that says where.
 * @category Testing
 */
export function loadSnapshot(input: string | unknown): ClusterSnapshot {
  let doc: unknown = input;
  if (typeof input === 'string') {
    try {
      doc = JSON.parse(input);
    } catch (e) {
      throw new SnapshotFormatError('', `not JSON (${(e as Error).message})`);
    }
  }
  if (!isRecord(doc)) throw new SnapshotFormatError('', 'expected a JSON object');
  if (doc.apiVersion !== SNAPSHOT_API_VERSION || doc.kind !== SNAPSHOT_KIND) {
    throw new SnapshotFormatError('', `expected apiVersion ${JSON.stringify(SNAPSHOT_API_VERSION)} and kind ${JSON.stringify(SNAPSHOT_KIND)}`);
  }
  const revision = doc.revision;
  if (typeof revision !== 'number' || !Number.isSafeInteger(revision) || revision < 0) {
    throw new SnapshotFormatError('revision', 'expected a non-negative integer');
  }
  if (!Array.isArray(doc.objects)) throw new SnapshotFormatError('objects', 'expected an array');
  if (nestingExceeds(doc.objects, MAX_DEPTH)) throw new SnapshotFormatError('objects', `nested deeper than ${MAX_DEPTH}`);
  const seen = new Set<string>();
  const objects: { bucket: string; object: StoredObject }[] = [];
  doc.objects.forEach((entry: unknown, i) => {
    const at = `objects[${i}]`;
    if (!isRecord(entry)) throw new SnapshotFormatError(at, 'expected an object');
    const { bucket, object } = entry;
    if (typeof bucket !== 'string' || !BUCKET.test(bucket)) throw new SnapshotFormatError(`${at}.bucket`, 'expected group/resource');
    if (!isRecord(object)) throw new SnapshotFormatError(`${at}.object`, 'expected an object');
    const meta = hasOwn(object, 'metadata') ? object.metadata : undefined;
    if (!isRecord(meta)) throw new SnapshotFormatError(`${at}.object.metadata`, 'expected an object');
    const name = hasOwn(meta, 'name') ? meta.name : undefined;
    const namespace = hasOwn(meta, 'namespace') ? meta.namespace : '';
    const rv = hasOwn(meta, 'resourceVersion') ? meta.resourceVersion : undefined;
    if (typeof name !== 'string' || name === '') throw new SnapshotFormatError(`${at}.object.metadata.name`, 'expected a non-empty string');
    if (typeof namespace !== 'string') throw new SnapshotFormatError(`${at}.object.metadata.namespace`, 'expected a string');
    const written = typeof rv === 'string' && /^[1-9][0-9]{0,15}$/.test(rv) ? Number(rv) : NaN;
    if (!(written <= revision)) {
      throw new SnapshotFormatError(`${at}.object.metadata.resourceVersion`, `expected a positive integer no newer than revision ${revision}`);
    }
    const key = `${bucket}\u0000${namespace}\u0000${name}`;
    if (seen.has(key)) throw new SnapshotFormatError(at, `${bucket} ${namespace ? `${namespace}/` : ''}${name} is there twice`);
    seen.add(key);
    objects.push({ bucket, object: { namespace, name, revision: written, value: freezeFresh(object) } });
  });
  return new ClusterSnapshot(memoryStateOf(revision, objects));
}
