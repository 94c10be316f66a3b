/**
 * The AuthenticationConfiguration kind (`--authentication-config`): its versions and schemas, the
 * internal form, validation with upstream's messages, the CEL it compiles, and the loader.
 */
export * from './types.js';
export { toInternalAuthenticationConfiguration } from './internal.js';
export {
  MAX_JWT_AUTHENTICATORS,
  certificateBundleProblem,
  compileJwtAuthenticator,
  validateAuthenticationConfiguration,
  type AuthenticationValidationOptions,
  type CompiledClaimValidation,
  type CompiledExtraMapping,
  type CompiledUserValidation,
  type JwtCelMapper,
} from './validation.js';
export { CLAIMS_VARIABLE, USER_VARIABLE, USER_INFO_TYPE, type CompiledExpression } from './cel.js';
export { ANONYMOUS_FLAG_CONFLICT, AuthenticationConfigurationError, loadAuthenticationConfiguration, type LoadAuthenticationOptions } from './load.js';
export { authenticationConfigurationText, rememberAuthenticationConfigurationText } from './source.js';
