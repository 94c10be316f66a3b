/**
 * kube-apiserver's authorization flags (kubernetes/kubernetes `pkg/kubeapiserver/options/authorization.go`):
 * `--authorization-mode` and the `--authorization-webhook-*` flags, or `--authorization-config`
 * instead of all of them. `Validate()`'s rules and messages, and the AuthorizationConfiguration the
 * legacy flags stand for (`buildAuthorizationConfiguration`).
 */
import { goQuote } from '../../util/go-format.js';
import { durationMs, parseGoDuration } from './duration.js';
import { rememberAuthorizationConfigFromFlags } from './source.js';
import { AuthorizationConfigError, loadAuthorizationConfigurationFile, nameForAuthorizerMode, type LoadAuthorizationFileOptions } from './load.js';
import { AUTHORIZATION_MODES, type AuthorizationConfig, type AuthorizationMode, type AuthorizerConfig } from './types.js';

/** The legacy flags as given on the command line; a flag left out is undefined (pflag's "not changed"). */
export interface LegacyAuthorizationFlags {
  /** `--authorization-mode`: a comma-separated list of modes. */
  readonly authorizationMode?: string;
  /** `--authorization-policy-file` (ABAC's policy; memkube has no ABAC). */
  readonly authorizationPolicyFile?: string;
  /** `--authorization-webhook-config-file`: the webhook's kubeconfig file. */
  readonly authorizationWebhookConfigFile?: string;
  /** `--authorization-webhook-version`: `v1beta1` by default. */
  readonly authorizationWebhookVersion?: string;
  /** `--authorization-webhook-cache-authorized-ttl`: a Go duration, `5m0s` by default. */
  readonly authorizationWebhookCacheAuthorizedTtl?: string;
  /** `--authorization-webhook-cache-unauthorized-ttl`: a Go duration, `30s` by default. */
  readonly authorizationWebhookCacheUnauthorizedTtl?: string;
}

/** Every authorization flag. */
export interface AuthorizationFlags extends LegacyAuthorizationFlags {
  /** `--authorization-config`: an AuthorizationConfiguration file, exclusive with the other flags. */
  readonly authorizationConfig?: string;
}

/** The name the legacy flags give their webhook (`defaultWebhookName`). */
export const LEGACY_WEBHOOK_NAME = 'default';
/** The legacy webhook's deadline: 30 s, as the flags cannot set one. */
const LEGACY_WEBHOOK_TIMEOUT_MS = 30_000;

/** pflag's `StringSlice` reading of `--authorization-mode` (comma-separated; empty is no mode). */
export function parseModes(value: string | undefined): string[] {
  if (value === undefined || value === '') return [];
  return value.split(',');
}

/** A duration flag's value in milliseconds, or pflag's error for it. */
function durationFlag(value: string | undefined, flag: string, fallbackMs: number): number | string {
  if (value === undefined) return fallbackMs;
  const d = parseGoDuration(value);
  if (d === undefined) return `invalid argument ${goQuote(value)} for "--${flag}" flag: time: invalid duration ${goQuote(value)}`;
  return d < 0n ? -durationMs(-d) : durationMs(d);
}

/** Go's `%q` of a `[]string`: `["RBAC" "RBAC"]`. */
function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

/** Whether any flag `--authorization-config` excludes was given (`AreLegacyFlagsSet`). */
export function legacyAuthorizationFlagsSet(flags: LegacyAuthorizationFlags): boolean {
  return (
    flags.authorizationMode !== undefined ||
    flags.authorizationWebhookConfigFile !== undefined ||
    flags.authorizationWebhookVersion !== undefined ||
    flags.authorizationWebhookCacheAuthorizedTtl !== undefined ||
    flags.authorizationWebhookCacheUnauthorizedTtl !== undefined
  );
}

/**
 * The errors `Validate()` reports for the flags, in its order (the file `--authorization-config`
 * names is not read here: {@link resolveAuthorizationConfig} loads it). Without any mode the
 * default is `AlwaysAllow` (`Complete()`). memkube adds one refusal: ABAC.
 */
export function validateAuthorizationFlags(flags: AuthorizationFlags): string[] {
  if (flags.authorizationConfig !== undefined && flags.authorizationConfig !== '') {
    if (legacyAuthorizationFlagsSet(flags)) {
      return ['--authorization-config can not be specified when --authorization-mode or --authorization-webhook-* flags are defined'];
    }
    return [];
  }
  const errors: string[] = [];
  for (const [value, flag] of [
    [flags.authorizationWebhookCacheAuthorizedTtl, 'authorization-webhook-cache-authorized-ttl'],
    [flags.authorizationWebhookCacheUnauthorizedTtl, 'authorization-webhook-cache-unauthorized-ttl'],
  ] as const) {
    const parsed = durationFlag(value, flag, 0);
    if (typeof parsed === 'string') return [parsed];
  }
  let modes = parseModes(flags.authorizationMode);
  if (modes.length === 0) modes = ['AlwaysAllow'];
  const policyFile = flags.authorizationPolicyFile ?? '';
  const webhookConfigFile = flags.authorizationWebhookConfigFile ?? '';
  for (const mode of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(mode)) errors.push(`authorization-mode ${goQuote(mode)} is not a valid mode`);
    if (mode === 'ABAC' && policyFile === '') errors.push("authorization-mode ABAC's authorization policy file not passed");
    if (mode === 'Webhook' && webhookConfigFile === '') errors.push("authorization-mode Webhook's authorization config file not passed");
  }
  const unique = new Set(modes);
  if (policyFile !== '' && !unique.has('ABAC')) errors.push('cannot specify --authorization-policy-file without mode ABAC');
  if (webhookConfigFile !== '' && !unique.has('Webhook')) errors.push('cannot specify --authorization-webhook-config-file without mode Webhook');
  if (unique.size !== modes.length) errors.push(`authorization-mode ${goQuoteList(modes)} has mode specified more than once`);
  if (errors.length === 0 && unique.has('ABAC')) errors.push('authorization-mode ABAC is not supported by memkube');
  return errors;
}

/** utilerrors.NewAggregate(...).Error(). */
function aggregate(messages: readonly string[]): string {
  return messages.length === 1 ? messages[0]! : `[${messages.join(', ')}]`;
}

/**
 * The AuthorizationConfiguration the legacy flags stand for, as kube-apiserver builds it: one
 * authorizer per mode in order, named as the mode in lower case (`rbac`, `node`), the webhook
 * named `default` with a 30 s timeout, failure policy `NoOpinion`, caches on when their TTL is not
 * zero, and the flag's SubjectAccessReview version. No mode means `AlwaysAllow`. Throws an
 * {@link AuthorizationConfigError} with `Validate()`'s errors (aggregated), or with the
 * webhook's `unsupported webhook authorizer version` error.
 */
export function authorizationConfigFromFlags(flags: LegacyAuthorizationFlags): AuthorizationConfig {
  const errors = validateAuthorizationFlags(flags);
  if (errors.length > 0) throw new AuthorizationConfigError(aggregate(errors));
  let modes = parseModes(flags.authorizationMode) as AuthorizationMode[];
  if (modes.length === 0) modes = ['AlwaysAllow'];
  const version = flags.authorizationWebhookVersion ?? 'v1beta1';
  const authorizedTTLMs = durationFlag(flags.authorizationWebhookCacheAuthorizedTtl, 'authorization-webhook-cache-authorized-ttl', 300_000) as number;
  const unauthorizedTTLMs = durationFlag(flags.authorizationWebhookCacheUnauthorizedTtl, 'authorization-webhook-cache-unauthorized-ttl', 30_000) as number;
  const authorizers = modes.map((mode): AuthorizerConfig => {
    if (mode !== 'Webhook') return { type: mode, name: nameForAuthorizerMode(mode) };
    if (version !== 'v1' && version !== 'v1beta1') {
      throw new AuthorizationConfigError(`unsupported webhook authorizer version ${goQuote(version)}, supported versions are "v1", "v1beta1"`);
    }
    return {
      type: 'Webhook',
      name: LEGACY_WEBHOOK_NAME,
      webhook: {
        timeoutMs: LEGACY_WEBHOOK_TIMEOUT_MS,
        authorizedTTLMs,
        cacheAuthorizedRequests: authorizedTTLMs !== 0,
        unauthorizedTTLMs,
        cacheUnauthorizedRequests: unauthorizedTTLMs !== 0,
        subjectAccessReviewVersion: version,
        matchConditionSubjectAccessReviewVersion: '',
        failurePolicy: 'NoOpinion',
        connectionInfo: { type: 'KubeConfigFile', kubeConfigFile: flags.authorizationWebhookConfigFile ?? '' },
        matchConditions: [],
      },
    };
  });
  const config: AuthorizationConfig = { authorizers };
  rememberAuthorizationConfigFromFlags(config);
  return config;
}

/**
 * The authorizer chain the flags configure: the file of `--authorization-config` loaded and
 * validated, or the legacy flags translated. Throws an {@link AuthorizationConfigError} with
 * kube-apiserver's message.
 */
export function resolveAuthorizationConfig(flags: AuthorizationFlags, options: LoadAuthorizationFileOptions = {}): AuthorizationConfig {
  if (flags.authorizationConfig !== undefined && flags.authorizationConfig !== '') {
    const errors = validateAuthorizationFlags(flags);
    if (errors.length > 0) throw new AuthorizationConfigError(aggregate(errors));
    return loadAuthorizationConfigurationFile(flags.authorizationConfig, options);
  }
  return authorizationConfigFromFlags(flags);
}
