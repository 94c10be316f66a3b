/** EncryptionConfiguration: types, schemas, validation and the loader (`--encryption-provider-config`). */
export * from './types.js';
export { validateEncryptionConfiguration, withDefaults, parseGroupResource, decodeStdBase64, type GroupResource } from './validation.js';
export {
  EncryptionConfigError,
  decodeEncryptionConfig,
  encryptionPlanOf,
  loadEncryptionConfig,
  readEncryptionConfigFile,
  type LoadEncryptionOptions,
} from './load.js';
export { encryptionAtRest, type ClusterEncryption, type StoredObjectRef } from './at-rest.js';
