/**
 * The encryption plan: which providers protect which resources, as plain data the storage turns
 * into transformers. `config/encryption` builds it from an EncryptionConfiguration; the storage
 * knows nothing of that file.
 */
import { aesCbcTransformer, aesGcmTransformer } from './aes.js';
import { identityTransformer } from './identity.js';
import { secretboxTransformer } from './secretbox.js';
import { PrefixTransformers, type PrefixedTransformer, type ValueTransformer } from './transformer.js';

/**
 * One named key of a provider.
 * @category Storage and encryption
 */
export interface EncryptionKey {
  /** Written into every value it encrypts (`k8s:enc:aescbc:v1:<name>:`). */
  readonly name: string;
  /** The raw key bytes (16, 24 or 32 for AES; 32 for secretbox). */
  readonly secret: Uint8Array;
}

/**
 * One provider: the first key of a keyed provider encrypts, every key decrypts.
 * @category Storage and encryption
 */
export type EncryptionProvider = { readonly type: 'aescbc' | 'aesgcm' | 'secretbox'; readonly keys: readonly EncryptionKey[] } | { readonly type: 'identity' };

/**
 * The providers of one group resource: `group` is `''` for the core group and `'*'` for every
 * group; `resource` is `'*'` for every resource of the group.
 * @category Storage and encryption
 */
export interface EncryptionRule {
  readonly group: string;
  readonly resource: string;
  /** The first provider writes; all of them read, in order. */
  readonly providers: readonly EncryptionProvider[];
}

/**
 * Which resources are encrypted and how. A resource takes the rule of its exact group resource,
 * else its group's `*`, else `*.*`; resources no rule covers are stored as they are.
 * @category Storage and encryption
 */
export interface EncryptionPlan {
  readonly rules: readonly EncryptionRule[];
}

/** The stored prefix of each keyed provider (k8s.io/apiserver encryptionconfig/config.go). */
export const PROVIDER_PREFIXES = {
  aescbc: 'k8s:enc:aescbc:v1:',
  aesgcm: 'k8s:enc:aesgcm:v1:',
  secretbox: 'k8s:enc:secretbox:v1:',
} as const;

const NO_MATCHING_KEY = {
  aescbc: 'no matching key was found for the provided AES transformer',
  aesgcm: 'no matching key was found for the provided AES transformer',
  secretbox: 'no matching key was found for the provided Secretbox transformer',
} as const;

/** The error of a resource's transformers when no provider's prefix matches. */
export const NO_MATCHING_PREFIX = 'no matching prefix found';

const encoder = new TextEncoder();

function keyed(type: 'aescbc' | 'aesgcm' | 'secretbox', key: Uint8Array): ValueTransformer {
  if (type === 'aescbc') return aesCbcTransformer(key);
  if (type === 'aesgcm') return aesGcmTransformer(key);
  return secretboxTransformer(key);
}

/** One provider as a prefixed transformer: its prefix, then each key's name and `:`. */
export function providerTransformer(provider: EncryptionProvider): PrefixedTransformer {
  if (provider.type === 'identity') return { prefix: new Uint8Array(0), transformer: identityTransformer };
  if (provider.keys.length === 0) throw new Error(`${provider.type} provider has no keys`);
  const keys = provider.keys.map((k) => ({ prefix: encoder.encode(`${k.name}:`), transformer: keyed(provider.type, k.secret) }));
  return { prefix: encoder.encode(PROVIDER_PREFIXES[provider.type]), transformer: new PrefixTransformers(keys, NO_MATCHING_KEY[provider.type]) };
}

/** How one resource's objects are stored. */
export interface ResourceCodec {
  readonly transformer: ValueTransformer;
  /** The first provider is identity: objects are written as they are. */
  readonly writesPlain: boolean;
  /** Some provider is identity: unencrypted objects are read as they are. */
  readonly readsPlain: boolean;
}

/** The codec of each rule, and the lookup by group resource (exact, group's `*`, `*.*`). */
export class CompiledPlan {
  private readonly byResource = new Map<string, ResourceCodec>();

  constructor(plan: EncryptionPlan) {
    for (const rule of plan.rules) {
      if (rule.providers.length === 0) throw new Error(`no providers for ${rule.resource}.${rule.group}`);
      const id = `${rule.group}/${rule.resource}`;
      if (this.byResource.has(id)) throw new Error(`two rules for ${rule.resource}.${rule.group}`);
      this.byResource.set(id, {
        transformer: new PrefixTransformers(rule.providers.map(providerTransformer), NO_MATCHING_PREFIX),
        writesPlain: rule.providers[0]!.type === 'identity',
        readsPlain: rule.providers.some((p) => p.type === 'identity'),
      });
    }
  }

  /** The codec of a group resource, undefined when no rule covers it. */
  codecFor(group: string, resource: string): ResourceCodec | undefined {
    return this.byResource.get(`${group}/${resource}`) ?? this.byResource.get(`${group}/*`) ?? this.byResource.get('*/*');
  }
}
