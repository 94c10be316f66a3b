/**
 * Where each AuthorizationConfig came from: the text of an `--authorization-config` file (which
 * kube-apiserver's `last_config_info` metric hashes), or the legacy flags (which it does not report).
 */
import type { AuthorizationConfig } from './types.js';

const texts = new WeakMap<AuthorizationConfig, string>();
const fromFlags = new WeakSet<AuthorizationConfig>();

/** Remembers that `config` was loaded from `text`. */
export function rememberAuthorizationConfigurationText(config: AuthorizationConfig, text: string): void {
  texts.set(config, text);
}

/** Remembers that `config` was made from `--authorization-mode` and the webhook flags. */
export function rememberAuthorizationConfigFromFlags(config: AuthorizationConfig): void {
  fromFlags.add(config);
}

/** Where `config` came from: its text, `flags`, or `code` (built by the caller). */
export function authorizationConfigSource(config: AuthorizationConfig): { readonly text: string } | 'flags' | 'code' {
  const text = texts.get(config);
  if (text !== undefined) return { text };
  return fromFlags.has(config) ? 'flags' : 'code';
}
