/**
 * Encryption at rest, as kube-apiserver's `--encryption-provider-config` does it: a {@link Storage}
 * over another that keeps the objects of the configured resources as encrypted bytes (the
 * object's JSON through the resource's first provider, with kube-apiserver's prefix such as
 * `k8s:enc:aescbc:v1:key1:`) and answers every read with the decrypted object.
 *
 * What the inner storage holds for an encrypted object is an envelope: `{ metadata:
 * { resourceVersion }, "$storedBytes": <the stored bytes, one character per byte> }`. Its revision
 * is the inner storage's, so compare-and-swap, history, `changesSince` and events work unchanged;
 * the decrypted object gets its `resourceVersion` from the envelope, as kube-apiserver sets it
 * from etcd's revision (the encrypted object carries an empty one, holding its place). Label hints cannot
 * use the inner storage's index (an envelope has no labels), so lists of encrypted resources read
 * every object; resources the plan does not cover go straight through at no cost.
 *
 * Decrypted objects are cached per envelope (a WeakMap: an entry lives as long as the stored
 * envelope), so repeated reads decrypt once and answer the same frozen object, whose JSON text
 * the HTTP layer caches in turn (`json-text.ts`).
 */
import { internalError } from '../machinery/errors.js';
import { CompiledPlan, type EncryptionPlan, type ResourceCodec } from './encryption/plan.js';
import { identityTransformer } from './encryption/identity.js';
import { TransformError } from './encryption/transformer.js';
import { etcdKey } from './etcd-key.js';
import { deepFreeze, freezeFresh } from './freeze.js';
import type {
  ObjectKey,
  Storage,
  StorageChangesOptions,
  StorageEvent,
  StorageGetOptions,
  StorageListOptions,
  StorageListResult,
  StoredObject,
  StoredValue,
} from './storage.js';

/** The envelope field holding the stored bytes (a binary string: one character per byte). */
export const STORED_BYTES_FIELD = '$storedBytes';

/**
 * Options of {@link EncryptingStorage}.
 * @category Storage and encryption
 */
export interface EncryptingStorageOptions {
  /**
   * The storage key of an object, bound into AES-GCM ciphertexts as authenticated data;
   * kube-apiserver's etcd key (`/registry/secrets/<namespace>/<name>`) by default.
   */
  storageKey?: (key: ObjectKey) => string;
}

/** Identifies the object whose stored bytes {@link EncryptingStorage.storedBytes} shows. */
export type StoredBytesKey = ObjectKey;

interface Envelope {
  readonly metadata?: { readonly resourceVersion?: string; readonly name?: unknown };
  readonly [STORED_BYTES_FIELD]: string;
}

/** An envelope has the stored bytes and, unlike every stored object, no `metadata.name`. */
function isEnvelope(value: StoredValue): value is StoredValue & Envelope {
  return typeof value[STORED_BYTES_FIELD] === 'string' && (value.metadata as { name?: unknown } | undefined)?.name === undefined;
}

/** The object without `metadata.resourceVersion`, as an unencrypting storage would keep it. */
function withoutRevision(value: Record<string, unknown>): Record<string, unknown> {
  const metadata = value.metadata as Record<string, unknown> | undefined;
  if (!metadata || !('resourceVersion' in metadata)) return value;
  const { resourceVersion: _, ...rest } = metadata;
  return { ...value, metadata: rest };
}

/**
 * What is encrypted: the object with an empty `metadata.resourceVersion` (the revision is the
 * storage's), kept in its place so the decrypted object lists its metadata in the order written.
 */
function blankRevision(value: Record<string, unknown>): Record<string, unknown> {
  const metadata = value.metadata as Record<string, unknown> | undefined;
  if (!metadata || !('resourceVersion' in metadata)) return value;
  return { ...value, metadata: { ...metadata, resourceVersion: '' } };
}

/** The object with `metadata.resourceVersion`, frozen. */
function withRevision(value: Record<string, unknown>, resourceVersion: string | undefined): StoredValue {
  const metadata = { ...((value.metadata as Record<string, unknown> | undefined) ?? {}) };
  if (resourceVersion !== undefined) metadata.resourceVersion = resourceVersion;
  return freezeFresh({ ...value, metadata });
}

const utf8 = new TextEncoder();
const utf8Decoder = new TextDecoder('utf-8', { fatal: true });

function toBinaryString(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

function fromBinaryString(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'latin1'));
}

/**
 * The bytes a stored value stands for: an envelope's stored bytes, else the object's JSON
 * without `resourceVersion` (what an unencrypting storage keeps).
 */
export function storedBytesOf(value: StoredValue): Uint8Array {
  if (isEnvelope(value)) return fromBinaryString(value[STORED_BYTES_FIELD]);
  return utf8.encode(JSON.stringify(withoutRevision(value as Record<string, unknown>)));
}

/** The codec of a resource a plan covered once and covers no more: kube-apiserver's identity. */
const IDENTITY_CHECK: ResourceCodec = { transformer: identityTransformer, writesPlain: true, readsPlain: true };

/** Where a read failed, for kube-apiserver's wording of the error. */
type ReadPath = 'get' | 'list';

/**
 * A {@link Storage} that encrypts the resources of an {@link EncryptionPlan} in the storage it wraps.
 * @category Storage and encryption
 */
export class EncryptingStorage implements Storage {
  private plan: CompiledPlan;
  /** Each bucket's codec under the current plan (null: not covered). */
  private readonly codecs = new Map<string, ResourceCodec | null>();
  /** Buckets some plan covered: they may hold envelopes, which identity refuses to read. */
  private readonly everCovered = new Set<string>();
  private decoded = new WeakMap<StoredValue, StoredValue>();
  /** Objects (as answered) read with a provider or key that does not write: see {@link StoredObject.stale}. */
  private stale = new WeakSet<StoredValue>();
  /** Plaintexts of writes in flight, by their stored bytes: their events need no decryption. */
  private readonly writing = new Map<string, Record<string, unknown>>();
  private readonly storageKey: (key: ObjectKey) => string;

  constructor(
    private readonly inner: Storage,
    plan: EncryptionPlan,
    options: EncryptingStorageOptions = {},
  ) {
    this.plan = new CompiledPlan(plan);
    this.storageKey = options.storageKey ?? etcdKey;
  }

  /**
   * Replaces the plan, as kube-apiserver restarted with a changed configuration (or reloading it):
   * new writes use the new first providers, and reads decrypt with the new keys only. Objects
   * stay as they are stored until written again (rewrite them to rotate a key).
   */
  setPlan(plan: EncryptionPlan): void {
    this.plan = new CompiledPlan(plan);
    this.codecs.clear();
    this.decoded = new WeakMap();
    this.stale = new WeakSet();
  }

  /**
   * The bytes kept for an object, as `etcdctl get /registry/secrets/<namespace>/<name>` would
   * print its value: for an encrypted resource the provider's prefix and the ciphertext
   * (`k8s:enc:aescbc:v1:key1:...`), otherwise the object's JSON (kube-apiserver stores built-in
   * kinds as protobuf; this storage keeps JSON), without `resourceVersion` either way.
   * Undefined when the object does not exist.
   */
  async storedBytes(key: StoredBytesKey): Promise<Uint8Array | undefined> {
    const stored = await this.inner.get(key);
    return stored && storedBytesOf(stored.value);
  }

  currentRevision(): Promise<number> {
    return this.inner.currentRevision();
  }

  compactedRevision(): Promise<number> {
    return this.inner.compactedRevision();
  }

  async get(key: ObjectKey, options?: StorageGetOptions): Promise<StoredObject | undefined> {
    const stored = await this.inner.get(key, options);
    const codec = this.codecOf(key.bucket);
    if (!stored || !codec) return stored;
    return this.openObject(codec, key.bucket, stored, 'get');
  }

  async list(bucket: string, options: StorageListOptions = {}): Promise<StorageListResult> {
    const codec = this.codecOf(bucket);
    if (!codec) return this.inner.list(bucket, options);
    const { filter } = options;
    const open = (namespace: string, name: string, value: StoredValue) => this.open(codec, { bucket, namespace, name }, value, 'list');
    // The label index knows no envelope's labels: the filter decides on the decrypted object. A
    // value that cannot be read is kept here, so that reading the items fails naming its key.
    const decides =
      filter &&
      ((value: StoredValue) => {
        let opened: StoredValue;
        try {
          opened = open('', '', value);
        } catch {
          return true;
        }
        return filter(opened);
      });
    const result = await this.inner.list(bucket, { ...options, labels: undefined, filter: decides });
    return { ...result, items: result.items.map((item) => ({ ...item, value: open(item.namespace, item.name, item.value) })) };
  }

  async changesSince(bucket: string, revision: number, options?: StorageChangesOptions): Promise<StorageEvent[]> {
    const events = await this.inner.changesSince(bucket, revision, options);
    const codec = this.codecOf(bucket);
    return codec ? events.map((e) => this.openEvent(codec, e)) : events;
  }

  async create(key: ObjectKey, value: Record<string, unknown>): Promise<StoredObject> {
    const codec = this.codecOf(key.bucket);
    if (!codec || codec.writesPlain) return this.inner.create(key, value);
    return this.write(codec, key, value, (envelope) => this.inner.create(key, envelope));
  }

  async update(key: ObjectKey, value: Record<string, unknown>, expectedRevision: number): Promise<StoredObject> {
    const codec = this.codecOf(key.bucket);
    if (!codec || codec.writesPlain) return this.readable(codec, key, await this.inner.update(key, value, expectedRevision));
    return this.write(codec, key, value, (envelope) => this.inner.update(key, envelope, expectedRevision));
  }

  async delete(key: ObjectKey, expectedRevision: number): Promise<StoredObject> {
    const removed = await this.inner.delete(key, expectedRevision);
    const codec = this.codecOf(key.bucket);
    return codec ? this.openObject(codec, key.bucket, removed, 'get') : removed;
  }

  subscribe(listener: (event: StorageEvent) => void): () => void {
    return this.inner.subscribe((event) => {
      const codec = this.codecOf(event.bucket);
      if (!codec) return listener(event);
      let opened: StorageEvent;
      try {
        opened = this.openEvent(codec, event);
      } catch {
        // Only a plan changed under stored objects gets here (writes always use a readable key).
        // A deletion is still told, with what is known of the object; other changes cannot be.
        if (event.type !== 'DELETED') return;
        const metadata = { name: event.name, ...(event.namespace ? { namespace: event.namespace } : {}), resourceVersion: String(event.revision) };
        opened = { ...event, object: deepFreeze({ metadata }), previous: undefined };
      }
      listener(opened);
    });
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  /** The codec of a bucket: its plan's, identity for a bucket a plan covered once, else none. */
  private codecOf(bucket: string): ResourceCodec | undefined {
    let codec = this.codecs.get(bucket);
    if (codec === undefined) {
      const slash = bucket.indexOf('/');
      const group = bucket.slice(0, slash);
      codec = this.plan.codecFor(group === 'core' ? '' : group, bucket.slice(slash + 1)) ?? null;
      if (codec) this.everCovered.add(bucket);
      else if (this.everCovered.has(bucket)) codec = IDENTITY_CHECK;
      this.codecs.set(bucket, codec);
    }
    return codec ?? undefined;
  }

  /** A plain write's answer, checked as a read would be (identity-first providers). */
  private readable(codec: ResourceCodec | undefined, key: ObjectKey, stored: StoredObject): StoredObject {
    return codec ? this.openObject(codec, key.bucket, stored, 'get') : stored;
  }

  private async write(
    codec: ResourceCodec,
    key: ObjectKey,
    value: Record<string, unknown>,
    store: (envelope: Record<string, unknown>) => Promise<StoredObject>,
  ): Promise<StoredObject> {
    // The writer handed the value over (the Storage contract): freeze it, as the inner storage would.
    deepFreeze(value);
    const plain = blankRevision(value);
    const bytes = codec.transformer.toStorage(utf8.encode(JSON.stringify(plain)), utf8.encode(this.storageKey(key)));
    const text = toBinaryString(bytes);
    this.writing.set(text, plain);
    try {
      const stored = await store({ metadata: {}, [STORED_BYTES_FIELD]: text });
      return this.openObject(codec, key.bucket, stored, 'get');
    } finally {
      this.writing.delete(text);
    }
  }

  private openObject(codec: ResourceCodec, bucket: string, stored: StoredObject, path: ReadPath): StoredObject {
    const value = this.open(codec, { bucket, namespace: stored.namespace, name: stored.name }, stored.value, path);
    if (this.stale.has(value)) return { ...stored, value, stale: true };
    return value === stored.value ? stored : { ...stored, value };
  }

  private openEvent(codec: ResourceCodec, event: StorageEvent): StorageEvent {
    const key = { bucket: event.bucket, namespace: event.namespace, name: event.name };
    const previous = event.previous && this.open(codec, key, event.previous, 'get');
    let object: StoredValue;
    if (event.type === 'DELETED' && previous && isEnvelope(event.object) && !this.decoded.has(event.object)) {
      // The last state is the previous object at the deletion's revision: no need to decrypt it again.
      object = withRevision(previous as Record<string, unknown>, event.object.metadata?.resourceVersion);
      this.decoded.set(event.object, object);
    } else {
      object = this.open(codec, key, event.object, 'get');
    }
    return object === event.object && previous === event.previous ? event : { ...event, object, previous };
  }

  /** The object a stored value holds; throws kube-apiserver's 500 when it cannot be read. */
  private open(codec: ResourceCodec, key: ObjectKey, value: StoredValue, path: ReadPath): StoredValue {
    if (!isEnvelope(value)) {
      if (!codec.readsPlain) throw this.failure(key, path, 'no matching prefix found');
      // Plaintext where identity is not the first provider: a rewrite encrypts it.
      if (!codec.writesPlain) this.stale.add(value);
      return value;
    }
    const cached = this.decoded.get(value);
    if (cached) return cached;
    const text = value[STORED_BYTES_FIELD];
    let plain = this.writing.get(text);
    let stale = false;
    if (!plain) {
      try {
        const read = codec.transformer.fromStorage(fromBinaryString(text), utf8.encode(this.storageKey(key)));
        plain = JSON.parse(utf8Decoder.decode(read.data)) as Record<string, unknown>;
        stale = read.stale;
      } catch (e) {
        throw this.failure(key, path, e instanceof TransformError || e instanceof Error ? e.message : String(e));
      }
    }
    const opened = withRevision(plain, value.metadata?.resourceVersion);
    this.decoded.set(value, opened);
    if (stale) this.stale.add(opened);
    return opened;
  }

  /** kube-apiserver's error: `storage.NewInternalError`, a list naming the key it could not transform. */
  private failure(key: ObjectKey, path: ReadPath, message: string) {
    const text = path === 'list' ? `unable to transform key ${JSON.stringify(this.storageKey(key))}: ${message}` : message;
    return internalError(new Error(text));
  }
}
