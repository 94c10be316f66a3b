/**
 * The Webhook authorizer (k8s.io/apiserver `plugin/pkg/authorizer/webhook/webhook.go`): asks a
 * remote service with a SubjectAccessReview and caches its answers.
 *
 * One decision: the match conditions first (one false: no opinion, the webhook is not called; an
 * error: the failure policy's decision), then the cache (keyed by the review's spec), then the
 * webhook, retried with backoff on transient errors. An allowed answer is cached for
 * `authorizedTTL`, any other for `unauthorizedTTL` (unless that cache is off, or the request's
 * own attributes are 10,000 bytes or more). `denied` means Deny, `allowed` Allow, neither no
 * opinion, with the webhook's reason. A call that fails, times out or is answered badly gives the
 * failure policy's decision (`NoOpinion` or `Deny`) with an empty reason and the error as the
 * evaluation error; it never throws.
 */
import type { EgressDialer } from '../../webhook/egress-dialer.js';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { WebhookAuthorizerMetrics, WebhookCallResult } from '../metrics/authorization.js';
import { compileMatchConditions, evaluateMatchConditions, type CompiledMatchCondition } from '../../config/authorization/match-conditions.js';
import type { AuthorizerConfig, WebhookAuthorizerConfig } from '../../config/authorization/types.js';
import type { AuthorizationAttributes, AuthorizationResult, Authorizer, RulesForResult } from '../../machinery/auth.js';
import { aggregateMessage } from '../../machinery/field-errors.js';
import { callWebhook, WebhookCallError } from '../../webhook/client.js';
import { ExpiringLruCache } from './cache.js';
import { goOpenError, loadWebhookKubeconfig, type ReadFile, type WebhookKubeconfig } from './kubeconfig.js';
import { DEFAULT_RETRY_BACKOFF, REAL_TIMING, withExponentialBackoff, type RetryBackoff, type RetryTiming } from './retry.js';
import {
  cacheKey,
  SubjectAccessReviewError,
  subjectAccessReviewBody,
  subjectAccessReviewSpec,
  subjectAccessReviewStatus,
  type SubjectAccessReviewStatus,
} from './subject-access-review.js';

/** How many answers are cached (`cache.NewLRUExpireCache(8192)`). */
export const WEBHOOK_CACHE_SIZE = 8192;
/** Requests whose own attributes are this long or longer are never cached (`maxControlledAttrCacheSize`). */
export const MAX_CONTROLLED_ATTR_CACHE_SIZE = 10_000;
/** What `rulesFor` reports: a webhook cannot list rules. */
export const RULES_NOT_SUPPORTED = 'webhook authorizer does not support user rule resolution';
/** The error of an answer both allowing and denying. */
export const BOTH_ALLOWED_AND_DENIED = 'webhook subject access review returned both allow and deny response';

/** Thrown by {@link createWebhookAuthorizer} for a configuration it cannot run (a bad kubeconfig, a match condition that does not compile). */
export class WebhookAuthorizerConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookAuthorizerConfigError';
  }
}

/** Options of {@link createWebhookAuthorizer}. */
export interface WebhookAuthorizerOptions {
  /** The clock the cache expires by, in milliseconds. */
  readonly now: () => number;
  /** Reads the kubeconfig and the files it names; the real file system by default. */
  readonly readFile?: ReadFile;
  /** Retry parameters; `DefaultRetryBackoff` (500 ms, ×1.5, 20% jitter, 5 calls) by default. */
  readonly retryBackoff?: RetryBackoff;
  /** Waits between retries and their jitter; real timers by default. */
  readonly timing?: RetryTiming;
  /** How to reach the webhook (the `controlplane` egress selection); directly when absent. */
  readonly egress?: EgressDialer;
  /** Where the round trips, fail-opens and match conditions are counted; nowhere by default. */
  readonly metrics?: WebhookAuthorizerMetrics;
}

/** A webhook authorizer entry of an AuthorizationConfig. */
export type WebhookAuthorizerEntry = Extract<AuthorizerConfig, { type: 'Webhook' }>;

/** `shouldCache`: the requester-controlled attributes are short enough to cache on. */
function shouldCache(a: AuthorizationAttributes): boolean {
  const size =
    (a.namespace ?? '').length +
    a.verb.length +
    (a.apiGroup ?? '').length +
    (a.apiVersion ?? '').length +
    (a.resource ?? '').length +
    (a.subresource ?? '').length +
    (a.name ?? '').length +
    (a.path ?? '').length;
  return size < MAX_CONTROLLED_ATTR_CACHE_SIZE;
}

/** A failure `DefaultShouldRetry` calls transient: a connection reset, or a transient HTTP answer. */
function transient(e: unknown): boolean {
  if (e instanceof SubjectAccessReviewError) return e.retriable;
  if (e instanceof WebhookCallError) return /connection reset by peer|http2: client connection lost/.test(e.message);
  return false;
}

/**
 * How a failed round trip ended, as the evaluation metrics label it: `timeout` for a call past
 * its deadline or a 504 answer, `error` for any other failure (no answer, an error status, an
 * answer that does not decode).
 */
function failedCallResult(e: unknown, status: number | undefined): Exclude<WebhookCallResult, 'success'> {
  if (status === 504) return 'timeout';
  if (e instanceof WebhookCallError && /context deadline exceeded|i\/o timeout/.test(e.message)) return 'timeout';
  return 'error';
}

function decisionOf(status: SubjectAccessReviewStatus): AuthorizationResult {
  if (status.denied && status.allowed) return { decision: 'Deny', reason: status.reason, evaluationError: BOTH_ALLOWED_AND_DENIED };
  if (status.denied) return { decision: 'Deny', reason: status.reason };
  if (status.allowed) return { decision: 'Allow', reason: status.reason };
  return { decision: 'NoOpinion', reason: status.reason };
}

class WebhookAuthorizer implements Authorizer {
  private readonly cache: ExpiringLruCache<SubjectAccessReviewStatus>;
  private token: string | undefined;

  constructor(
    private readonly config: WebhookAuthorizerConfig,
    private readonly kubeconfig: WebhookKubeconfig,
    private readonly conditions: readonly CompiledMatchCondition[],
    private readonly options: WebhookAuthorizerOptions & { readonly readFile: ReadFile },
    private readonly name: string,
  ) {
    this.cache = new ExpiringLruCache(WEBHOOK_CACHE_SIZE, options.now);
    this.token = kubeconfig.token;
  }

  async authorize(attributes: AuthorizationAttributes): Promise<AuthorizationResult> {
    const onError = (message: string): AuthorizationResult => ({ decision: this.config.failurePolicy, reason: '', evaluationError: message });
    try {
      const spec = subjectAccessReviewSpec(attributes);
      if (this.conditions.length > 0) {
        const start = performance.now();
        const match = evaluateMatchConditions(this.conditions, spec);
        this.options.metrics?.matchConditions('Webhook', this.name, (performance.now() - start) / 1000, {
          errored: match.error !== undefined || match.errored === true,
          excluded: !match.matches && match.error === undefined,
        });
        if (match.error !== undefined) return onError(match.error);
        if (!match.matches) return { decision: 'NoOpinion', reason: '' };
      }
      const key = cacheKey(spec);
      const cached = this.cache.get(key);
      if (cached) return decisionOf(cached);
      const version = this.config.subjectAccessReviewVersion;
      const body = subjectAccessReviewBody(spec, version);
      let status: SubjectAccessReviewStatus;
      let last: WebhookCallResult = 'error';
      try {
        status = await withExponentialBackoff(
          this.options.retryBackoff ?? DEFAULT_RETRY_BACKOFF,
          this.options.timing ?? REAL_TIMING,
          async () => {
            // Each round trip is counted, retries included, as upstream's `Create` is.
            const start = performance.now();
            let code: number | undefined;
            try {
              const res = await this.call(body);
              code = res.status;
              const answer = subjectAccessReviewStatus(res, version);
              this.options.metrics?.call(this.name, (last = 'success'), (performance.now() - start) / 1000);
              return answer;
            } catch (e) {
              this.options.metrics?.call(this.name, (last = failedCallResult(e, code)), (performance.now() - start) / 1000);
              throw e;
            }
          },
          transient,
        );
      } catch (e) {
        if (this.config.failurePolicy === 'NoOpinion') this.options.metrics?.failOpen(this.name, last);
        if (e instanceof WebhookCallError || e instanceof SubjectAccessReviewError) return onError(e.message);
        throw e;
      }
      if (shouldCache(attributes)) {
        const ttl = status.allowed
          ? this.config.cacheAuthorizedRequests
            ? this.config.authorizedTTLMs
            : 0
          : this.config.cacheUnauthorizedRequests
            ? this.config.unauthorizedTTLMs
            : 0;
        if (ttl > 0) this.cache.add(key, status, ttl);
      }
      return decisionOf(status);
    } catch (e) {
      // Nothing a webhook answers may escape as an exception.
      return onError(e instanceof Error ? e.message : String(e));
    }
  }

  /** One POST; the token file is read again for each, as client-go's token source refreshes it. */
  private call(body: string) {
    if (this.kubeconfig.tokenFile !== undefined) {
      try {
        const token = this.options.readFile(this.kubeconfig.tokenFile).trim();
        if (token !== '') this.token = token;
      } catch (e) {
        if (this.token === undefined) throw new WebhookCallError(goOpenError(this.kubeconfig.tokenFile, e));
      }
    }
    return callWebhook({
      endpoint: this.options.egress ? { ...this.kubeconfig.endpoint, egress: this.options.egress } : this.kubeconfig.endpoint,
      body,
      timeoutMs: this.config.timeoutMs,
      ...(this.token !== undefined ? { bearerToken: this.token } : {}),
    });
  }

  rulesFor(): RulesForResult {
    return { resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: RULES_NOT_SUPPORTED };
  }
}

/**
 * A Webhook authorizer for one entry of an AuthorizationConfig (or of the legacy flags). Reads
 * and checks the kubeconfig and compiles the match conditions now; throws a
 * {@link WebhookAuthorizerConfigError} with kube-apiserver's message when it cannot.
 */
export function createWebhookAuthorizer(entry: WebhookAuthorizerEntry, options: WebhookAuthorizerOptions): Authorizer {
  const config = entry.webhook;
  if (config.connectionInfo.type !== 'KubeConfigFile') {
    throw new WebhookAuthorizerConfigError(`authorizer ${entry.name}: connectionInfo type InClusterConfig is not supported by memkube (use KubeConfigFile)`);
  }
  const readFile: ReadFile = options.readFile ?? ((path) => readFileSync(path, 'utf8'));
  let kubeconfig: WebhookKubeconfig;
  try {
    kubeconfig = loadWebhookKubeconfig(config.connectionInfo.kubeConfigFile, readFile);
  } catch (e) {
    throw new WebhookAuthorizerConfigError(e instanceof Error ? e.message : String(e));
  }
  const { compiled, errors } = compileMatchConditions(config.matchConditions, '');
  if (errors.length > 0) throw new WebhookAuthorizerConfigError(aggregateMessage(errors));
  return new WebhookAuthorizer(config, kubeconfig, compiled, { ...options, readFile }, entry.name);
}
