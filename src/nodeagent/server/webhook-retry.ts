/**
 * How the node agent's TokenReview and SubjectAccessReview calls are retried: k8s.io/apiserver's
 * `DefaultAuthWebhookRetryBackoff` (500 ms, x1.5, 20% jitter, 5 calls) for the errors its
 * `DefaultShouldRetry` calls transient (a reset connection, 500, 504, 429, or an answer with
 * `Retry-After`, which the API server's 429 and 5xx carry).
 */
import { DEFAULT_RETRY_BACKOFF, REAL_TIMING, withExponentialBackoff, type RetryBackoff, type RetryTiming } from '../../auth/webhook/retry.js';
import { KubeApiError } from '../kube-api.js';

/**
 * The retry of webhook calls; k8s.io/apiserver's defaults and real timers unless given.
 * @category Node agent
 */
export interface WebhookRetry {
  backoff?: RetryBackoff;
  /** Tests pass a `sleep` that returns at once. */
  timing?: RetryTiming;
}

function transient(e: unknown): boolean {
  if (e instanceof KubeApiError) return e.code === 500 || e.code === 504 || e.code === 429;
  return (e as NodeJS.ErrnoException | undefined)?.code === 'ECONNRESET' || /ECONNRESET|connection reset/i.test(String(e));
}

/** Calls `fn`, retrying transient failures. */
export function withWebhookRetry<T>(retry: WebhookRetry | undefined, fn: () => Promise<T>): Promise<T> {
  return withExponentialBackoff(retry?.backoff ?? DEFAULT_RETRY_BACKOFF, retry?.timing ?? REAL_TIMING, fn, transient);
}
