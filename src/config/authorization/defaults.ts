/**
 * An AuthorizationConfiguration as decoded, its durations parsed and the defaults of every version
 * applied (`SetDefaults_WebhookConfiguration` in `pkg/apis/apiserver/{v1,v1beta1,v1alpha1}/defaults.go`:
 * authorizedTTL 5m, unauthorizedTTL 30s, both caches on). This is the shape validation checks, like
 * the internal type of k8s.io/apiserver; durations stay nanoseconds so messages print them as Go does.
 */
import { ConfigDecodeError } from '../decode.js';
import { goQuote } from '../../util/go-format.js';
import { parseGoDuration } from './duration.js';
import type { AuthorizationConfigurationInput, WebhookConfigurationInput } from './types.js';

/** A webhook's settings before validation (`apiserver.WebhookConfiguration`). */
export interface WebhookConfigurationDocument {
  readonly authorizedTTL: bigint;
  readonly cacheAuthorizedRequests: boolean;
  readonly unauthorizedTTL: bigint;
  readonly cacheUnauthorizedRequests: boolean;
  readonly timeout: bigint;
  readonly subjectAccessReviewVersion: string;
  readonly matchConditionSubjectAccessReviewVersion: string;
  readonly failurePolicy: string;
  readonly connectionInfo: { readonly type: string; readonly kubeConfigFile?: string };
  readonly matchConditions: readonly { readonly expression: string }[];
}

/** One authorizer before validation (`apiserver.AuthorizerConfiguration`). */
export interface AuthorizerConfigurationDocument {
  readonly type: string;
  readonly name: string;
  readonly webhook?: WebhookConfigurationDocument;
}

/** An AuthorizationConfiguration before validation (`apiserver.AuthorizationConfiguration`). */
export interface AuthorizationConfigurationDocument {
  readonly authorizers: readonly AuthorizerConfigurationDocument[];
}

/** The default authorizedTTL: 5 minutes. */
export const DEFAULT_AUTHORIZED_TTL = 5n * 60n * 1_000_000_000n;
/** The default unauthorizedTTL: 30 seconds. */
export const DEFAULT_UNAUTHORIZED_TTL = 30n * 1_000_000_000n;

/** A duration field: absent is zero; text Go cannot parse fails the file as metav1.Duration's decoder does. */
function duration(text: string | undefined): bigint {
  if (text === undefined) return 0n;
  const d = parseGoDuration(text);
  if (d === undefined) throw new ConfigDecodeError(`time: invalid duration ${goQuote(text)}`);
  return d;
}

function webhookDocument(w: WebhookConfigurationInput): WebhookConfigurationDocument {
  const authorizedTTL = duration(w.authorizedTTL);
  const unauthorizedTTL = duration(w.unauthorizedTTL);
  const timeout = duration(w.timeout);
  return {
    authorizedTTL: authorizedTTL === 0n ? DEFAULT_AUTHORIZED_TTL : authorizedTTL,
    cacheAuthorizedRequests: w.cacheAuthorizedRequests ?? true,
    unauthorizedTTL: unauthorizedTTL === 0n ? DEFAULT_UNAUTHORIZED_TTL : unauthorizedTTL,
    cacheUnauthorizedRequests: w.cacheUnauthorizedRequests ?? true,
    timeout,
    subjectAccessReviewVersion: w.subjectAccessReviewVersion ?? '',
    matchConditionSubjectAccessReviewVersion: w.matchConditionSubjectAccessReviewVersion ?? '',
    failurePolicy: w.failurePolicy ?? '',
    connectionInfo: {
      type: w.connectionInfo?.type ?? '',
      ...(w.connectionInfo?.kubeConfigFile !== undefined ? { kubeConfigFile: w.connectionInfo.kubeConfigFile } : {}),
    },
    matchConditions: (w.matchConditions ?? []).map((m) => ({ expression: m.expression ?? '' })),
  };
}

/**
 * The decoded object with durations parsed and defaults applied; throws a
 * {@link ConfigDecodeError} for a duration Go cannot parse (`time: invalid duration "5 minutes"`).
 */
export function defaultAuthorizationConfiguration(input: AuthorizationConfigurationInput): AuthorizationConfigurationDocument {
  return {
    authorizers: (input.authorizers ?? []).map((a) => ({
      type: a.type ?? '',
      name: a.name ?? '',
      ...(a.webhook !== undefined ? { webhook: webhookDocument(a.webhook) } : {}),
    })),
  };
}
