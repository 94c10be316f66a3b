/**
 * The AuthorizationConfiguration kind and kube-apiserver's authorization flags: decoding,
 * defaults, validation, the loader of `--authorization-config`, and the configuration the legacy
 * `--authorization-mode` / `--authorization-webhook-*` flags stand for.
 */
export * from './types.js';
export { defaultAuthorizationConfiguration, DEFAULT_AUTHORIZED_TTL, DEFAULT_UNAUTHORIZED_TTL } from './defaults.js';
export type { AuthorizationConfigurationDocument, AuthorizerConfigurationDocument, WebhookConfigurationDocument } from './defaults.js';
export { goDurationString, parseGoDuration } from './duration.js';
export {
  compileMatchCondition,
  compileMatchConditions,
  evaluateMatchConditions,
  MAX_MATCH_CONDITIONS,
  SUBJECT_ACCESS_REVIEW_SPEC_TYPE,
  type CompiledMatchCondition,
  type MatchRequest,
} from './match-conditions.js';
export {
  statWithGoErrors,
  validateAuthorizationConfiguration,
  validateWebhookConfiguration,
  type AuthorizationValidationOptions,
  type FileStat,
} from './validation.js';
export {
  AuthorizationConfigError,
  loadAuthorizationConfiguration,
  loadAuthorizationConfigurationFile,
  nameForAuthorizerMode,
  type LoadAuthorizationFileOptions,
  type LoadAuthorizationOptions,
} from './load.js';
export {
  authorizationConfigFromFlags,
  legacyAuthorizationFlagsSet,
  LEGACY_WEBHOOK_NAME,
  parseModes,
  resolveAuthorizationConfig,
  validateAuthorizationFlags,
  type AuthorizationFlags,
  type LegacyAuthorizationFlags,
} from './flags.js';
export { authorizationConfigSource, rememberAuthorizationConfigFromFlags, rememberAuthorizationConfigurationText } from './source.js';
