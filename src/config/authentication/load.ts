/**
 * Reading `--authentication-config` as kube-apiserver does (pkg/kubeapiserver/options/
 * authentication.go `ToAuthenticationConfig`, `loadAuthenticationConfigFromData`): decode strictly,
 * refuse an `anonymous` section when `--anonymous-auth` was given too, then validate; every failure
 * is one error with kube-apiserver's message.
 */
import { goQuote } from '../../util/go-format.js';
import { aggregateMessage, fieldError, fieldErrorMessage } from '../../machinery/field-errors.js';
import { ConfigDecodeError, decodeConfig } from '../decode.js';
import { toInternalAuthenticationConfiguration } from './internal.js';
import { rememberAuthenticationConfigurationText } from './source.js';
import { AuthenticationConfigurationKind, type AuthenticationConfiguration, type AuthenticationConfigurationInput } from './types.js';
import { validateAuthenticationConfiguration, type AuthenticationValidationOptions } from './validation.js';

/** Options of {@link loadAuthenticationConfiguration}. */
export interface LoadAuthenticationOptions extends AuthenticationValidationOptions {
  /** True when `--anonymous-auth` was given on the command line. */
  readonly anonymousFlagSet?: boolean;
  /** The file's path, named in decoding errors as kube-apiserver names it. */
  readonly file?: string;
}

/** A configuration file kube-apiserver would refuse; the message is kube-apiserver's. */
export class AuthenticationConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AuthenticationConfigurationError';
  }
}

/** The text of the anonymous conflict (a `field.Forbidden` on `anonymous`). */
export const ANONYMOUS_FLAG_CONFLICT = fieldErrorMessage(
  fieldError.forbidden('anonymous', '--anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file'),
);

/**
 * Decodes, converts and validates an AuthenticationConfiguration file's text. Throws
 * {@link AuthenticationConfigurationError}: `failed to load authentication configuration from file
 * "<file>": ...` for text that does not decode, the anonymous conflict, or `invalid authentication
 * configuration: ...` with every validation error.
 */
export function loadAuthenticationConfiguration(text: string, options: LoadAuthenticationOptions = {}): AuthenticationConfiguration {
  const failedToLoad = (reason: string) =>
    new AuthenticationConfigurationError(
      options.file === undefined ? reason : `failed to load authentication configuration from file ${goQuote(options.file)}: ${reason}`,
    );
  if (text.length === 0) throw failedToLoad('empty config data');
  let decoded;
  try {
    decoded = decodeConfig<AuthenticationConfigurationInput>(text, AuthenticationConfigurationKind);
  } catch (e) {
    if (e instanceof ConfigDecodeError) throw failedToLoad(e.message);
    throw e;
  }
  const config = toInternalAuthenticationConfiguration(decoded.value);
  if (config.anonymous && options.anonymousFlagSet) throw new AuthenticationConfigurationError(ANONYMOUS_FLAG_CONFLICT);
  const errors = validateAuthenticationConfiguration(config, options);
  if (errors.length > 0) throw new AuthenticationConfigurationError(`invalid authentication configuration: ${aggregateMessage(errors)}`);
  rememberAuthenticationConfigurationText(config, text);
  return config;
}
