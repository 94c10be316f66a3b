/**
 * Encryption at rest for a cluster: the storage wrapped as its EncryptionConfiguration says, the
 * stored bytes of an object as `etcdctl get` would show them, and reloading the configuration.
 */
import { EncryptingStorage, storedBytesOf } from '../../storage/encrypting.js';
import { etcdKey } from '../../storage/etcd-key.js';
import type { ObjectKey, Storage } from '../../storage/storage.js';
import { EncryptionConfigError, loadEncryptionConfig } from './load.js';
import type { EncryptionConfiguration } from './types.js';
import { parseGroupResource } from './validation.js';

/**
 * One object, named as an EncryptionConfiguration names resources.
 * @category Storage and encryption
 */
export interface StoredObjectRef {
  /** `secrets`, `configmaps`, `deployments.apps`, `widgets.example.com` (`<resource>.<group>`). */
  readonly resource: string;
  /** Omitted for cluster-scoped objects. */
  readonly namespace?: string;
  readonly name: string;
}

/**
 * Encryption at rest as a cluster exposes it (`cluster.encryption`).
 * @category Storage and encryption
 */
export interface ClusterEncryption {
  /** Whether the cluster was created with an `encryption` configuration. */
  readonly enabled: boolean;
  /**
   * The bytes the cluster's storage keeps for an object, as `etcdctl get
   * /registry/secrets/<namespace>/<name>` prints its value: `k8s:enc:aescbc:v1:<key>:` and the
   * ciphertext for an encrypted resource (`k8s:enc:aesgcm:v1:`, `k8s:enc:secretbox:v1:` likewise),
   * otherwise the object's JSON (kube-apiserver keeps built-in kinds as protobuf; memkube keeps
   * JSON), without `resourceVersion`. Undefined when the object does not exist.
   *
   * @example
   * ```ts
   * const bytes = await cluster.encryption.storedBytes({ resource: 'secrets', namespace: 'default', name: 'db' });
   * Buffer.from(bytes!).subarray(0, 23).toString(); // 'k8s:enc:aescbc:v1:key1:'
   * ```
   */
  storedBytes(ref: StoredObjectRef): Promise<Uint8Array | undefined>;
  /** The etcd key kube-apiserver would keep the object under (`/registry/secrets/default/db`). */
  storageKey(ref: StoredObjectRef): string;
  /**
   * Applies a changed configuration, as kube-apiserver restarted with it (or reloading it with
   * `--encryption-provider-config-automatic-reload`): validated first (a bad one changes nothing
   * and throws {@link EncryptionConfigError}); then writes use the new first provider and reads the
   * new keys. Stored objects keep their bytes until written again: rotate a key by adding the new
   * key first, rewriting the objects (`kubectl get secrets -A -o json | kubectl replace -f -`), then
   * removing the old key. Only for a cluster created with `encryption`.
   */
  reload(config: EncryptionConfiguration | string): void;
}

/** The bucket of a resource named `<resource>.<group>` (`core/...` for the core group). */
function keyOf(ref: StoredObjectRef): ObjectKey {
  const gr = parseGroupResource(ref.resource);
  return { bucket: `${gr.group || 'core'}/${gr.resource}`, namespace: ref.namespace ?? '', name: ref.name };
}

/**
 * Wraps `inner` as `config` says (no wrapping without a configuration: nothing pays for it).
 * Throws {@link EncryptionConfigError} for a configuration kube-apiserver would refuse.
 */
export function encryptionAtRest(inner: Storage, config: EncryptionConfiguration | string | undefined): { storage: Storage; encryption: ClusterEncryption } {
  const encrypting = config === undefined ? undefined : new EncryptingStorage(inner, loadEncryptionConfig(config));
  return {
    storage: encrypting ?? inner,
    encryption: {
      enabled: encrypting !== undefined,
      async storedBytes(ref) {
        if (encrypting) return encrypting.storedBytes(keyOf(ref));
        const stored = await inner.get(keyOf(ref));
        return stored && storedBytesOf(stored.value);
      },
      storageKey: (ref) => etcdKey(keyOf(ref)),
      reload(next) {
        if (!encrypting) throw new EncryptionConfigError('encryption at rest is off: create the cluster with an encryption configuration to reload one');
        encrypting.setPlan(loadEncryptionConfig(next));
      },
    },
  };
}
