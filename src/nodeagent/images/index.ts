/** Image pulls of the node agent: credential providers, pull records and the pull manager. */
export {
  CREDENTIAL_PROVIDER_API_VERSIONS,
  CredentialProviderConfigError,
  CredentialProviderConfigKind,
  decodeCredentialProviderConfig,
  readCredentialProviderConfig,
  validateCredentialProviderConfig,
  validCredentialProviders,
} from './credential-provider-config.js';
export type { CredentialProvider, CredentialProviderConfig, ValidCredentialProvider } from './credential-provider-config.js';
export { createCredentialProviders } from './credential-providers.js';
export type { CredentialProviders, CredentialProvidersOptions, ProvidedCredentials } from './credential-providers.js';
export { createDockerKeyring, DockerConfigError, parseDockerConfig } from './docker-keyring.js';
export type { DockerConfigEntry, DockerKeyring, TrackedCredential } from './docker-keyring.js';
export { CredentialPluginError, DEFAULT_PLUGIN_MAX_OUTPUT_BYTES, DEFAULT_PLUGIN_TIMEOUT_MS, execCredentialPlugin } from './exec-plugin.js';
export type { CredentialProviderResponse, ExecPluginOptions, PluginCacheKeyType } from './exec-plugin.js';
export { applyDefaultImageTag, ImageReferenceError, parseImageReference } from './image-reference.js';
export type { ImageReference } from './image-reference.js';
export { BadPatternError, goFilepathMatch, parseSchemelessURL, urlsMatchStr } from './match-image.js';
export { createImagePullManager, credentialHash, mergeCredentials } from './pull-manager.js';
export type {
  EnsureImageErrorReason,
  EnsureImageRequest,
  EnsureImageResult,
  ImagePullManager,
  ImagePullManagerOptions,
  ImagePullPolicy,
  PodPullSecret,
} from './pull-manager.js';
export { allowlistPattern, createImagePullPolicyEnforcer, ImagePullPolicyError } from './pull-policy.js';
export type { ImagePullCredentialsVerificationPolicy, ImagePullPolicyEnforcer } from './pull-policy.js';
export { createPullRecords, MAX_RECORD_BYTES, PULL_RECORDS_API_VERSION, PullRecordError, recordFileName } from './pull-records.js';
export type { ImagePullCredentials, ImagePullIntent, ImagePulledRecord, ImagePullSecret, ImagePullServiceAccount, PullRecords } from './pull-records.js';
