/**
 * The text each loaded AuthenticationConfiguration was read from: kube-apiserver's
 * `last_config_info` metric hashes the file's bytes, not the decoded object.
 */
import type { AuthenticationConfiguration } from './types.js';

const sources = new WeakMap<AuthenticationConfiguration, string>();

/** Remembers that `config` was loaded from `text`. */
export function rememberAuthenticationConfigurationText(config: AuthenticationConfiguration, text: string): void {
  sources.set(config, text);
}

/** The text `config` was loaded from by `loadAuthenticationConfiguration`; undefined for one built in code. */
export function authenticationConfigurationText(config: AuthenticationConfiguration): string | undefined {
  return sources.get(config);
}
