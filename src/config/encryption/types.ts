/**
 * EncryptionConfiguration (`apiserver.config.k8s.io/v1`, k8s.io/apiserver
 * pkg/apis/apiserver/v1/types_encryption.go): which resources kube-apiserver encrypts at rest
 * and with which providers, read from `--encryption-provider-config`.
 */
import { z } from 'zod';
import { lazyConfigVersion, type ConfigKind } from '../decode.js';
import { lazySchema } from '../../util/lazy-schema.js';

/** The Go package of these types, so type errors name them as kube-apiserver's decoder does (`v1.Key`). */
const GO_PACKAGE = 'io.k8s.apiserver.pkg.apis.apiserver.v1';

/** One named key: `secret` is the base64 of the key bytes. */
export const EncryptionKeySchema = lazySchema(() => z.object({ name: z.string(), secret: z.string() }).meta({ id: `${GO_PACKAGE}.Key` }));

/** The keys of `aescbc`, `aesgcm` and `secretbox`: the first encrypts, all decrypt. */
export const KeysConfigurationSchema = lazySchema(() => z.object({ keys: z.array(EncryptionKeySchema()) }).meta({ id: `${GO_PACKAGE}.AESConfiguration` }));

/** The keys of `secretbox`. */
export const SecretboxConfigurationSchema = lazySchema(() =>
  z.object({ keys: z.array(EncryptionKeySchema()) }).meta({ id: `${GO_PACKAGE}.SecretboxConfiguration` }),
);

/** A KMS plugin (decoded and validated; memkube cannot call one). */
export const KMSConfigurationSchema = lazySchema(() =>
  z
    .object({
      apiVersion: z.string().optional(),
      name: z.string(),
      cachesize: z.number().int().min(-2147483648).max(2147483647).optional(),
      endpoint: z.string(),
      timeout: z.string().optional(),
    })
    .meta({ id: `${GO_PACKAGE}.KMSConfiguration` }),
);

/** One provider: exactly one of its fields is set. */
export const ProviderConfigurationSchema = lazySchema(() =>
  z
    .object({
      aesgcm: KeysConfigurationSchema().optional(),
      aescbc: KeysConfigurationSchema().optional(),
      secretbox: SecretboxConfigurationSchema().optional(),
      identity: z.object({}).optional(),
      kms: KMSConfigurationSchema().optional(),
    })
    .meta({ id: `${GO_PACKAGE}.ProviderConfiguration` }),
);

/** Resources (`secrets`, `deployments.apps`, `*.apps`, `*.`, `*.*`) and their providers. */
export const ResourceConfigurationSchema = lazySchema(() =>
  z
    .object({
      resources: z.array(z.string()),
      providers: z.array(ProviderConfigurationSchema()),
    })
    .meta({ id: `${GO_PACKAGE}.ResourceConfiguration` }),
);

/**
 * The whole file.
 * @category Storage and encryption
 */
export const EncryptionConfigurationSchema = lazySchema(() =>
  z
    .object({
      apiVersion: z.literal('apiserver.config.k8s.io/v1'),
      kind: z.literal('EncryptionConfiguration'),
      resources: z.array(ResourceConfigurationSchema()),
    })
    .meta({ id: `${GO_PACKAGE}.EncryptionConfiguration` }),
);

export type EncryptionKeyConfiguration = z.infer<ReturnType<typeof EncryptionKeySchema>>;
export type KeysConfiguration = z.infer<ReturnType<typeof KeysConfigurationSchema>>;
export type KMSConfiguration = z.infer<ReturnType<typeof KMSConfigurationSchema>>;
export type ProviderConfiguration = z.infer<ReturnType<typeof ProviderConfigurationSchema>>;
export type ResourceConfiguration = z.infer<ReturnType<typeof ResourceConfigurationSchema>>;
/**
 * An EncryptionConfiguration as written (`apiserver.config.k8s.io/v1`).
 * @category Storage and encryption
 */
export type EncryptionConfiguration = z.infer<ReturnType<typeof EncryptionConfigurationSchema>>;

/** The configuration kind, for `decodeConfig`. */
export const EncryptionConfigurationKind: ConfigKind = {
  kind: 'EncryptionConfiguration',
  versions: [lazyConfigVersion('apiserver.config.k8s.io/v1', EncryptionConfigurationSchema)],
};
