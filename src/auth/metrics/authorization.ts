/**
 * The authorization metrics of kube-apiserver, declared on a cluster's registry:
 *
 * - `apiserver_authorization_decisions_total{decision,name,type}`: the terminal decisions of each
 *   configured authorizer (k8s.io/apiserver `pkg/authorization/metrics/metrics.go`);
 * - the webhook authorizers' round trips, their latency and the failures answered with no opinion
 *   (`plugin/pkg/authorizer/webhook/metrics/metrics.go`);
 * - the match conditions' evaluation time, errors and exclusions (`pkg/authorization/cel/metrics.go`);
 * - `apiserver_authorization_config_controller_last_config_info`, the hash of the
 *   AuthorizationConfiguration in use (`pkg/server/options/authorizationconfig/metrics`).
 *
 * Authorizer names come from the configuration, never from a request.
 */
import type { CounterSeries, MetricsRegistry } from '../../metrics/registry.js';
import { metricHash } from './hash.js';

/** How one webhook round trip ended (`canceled` never happens in memkube: nothing cancels an authorization). */
export type WebhookCallResult = 'success' | 'timeout' | 'error' | 'canceled';

/** What a webhook authorizer reports. */
export interface WebhookAuthorizerMetrics {
  /** One round trip to the webhook `name`, ended as `result` after `seconds`. */
  call(name: string, result: WebhookCallResult, seconds: number): void;
  /** The webhook `name` could not be asked (the last round trip ended as `result`) and its failure policy answered no opinion. */
  failOpen(name: string, result: WebhookCallResult): void;
  /**
   * The match conditions of the authorizer `type`/`name` were evaluated in `seconds`; `errored`
   * when any failed to evaluate, `excluded` when one was false (the webhook was not called).
   */
  matchConditions(type: string, name: string, seconds: number, outcome: { readonly errored: boolean; readonly excluded: boolean }): void;
}

/** What the authorizer chain reports. */
export interface AuthorizationMetrics extends WebhookAuthorizerMetrics {
  /**
   * The counters of the authorizer `type`/`name`'s allows and denies (no opinion is not terminal,
   * not counted), found once for an authorizer that counts every request.
   */
  decisionsOf(type: string, name: string): Readonly<Record<'allowed' | 'denied', CounterSeries>>;
  /** The AuthorizationConfiguration in use is `data` (the text of its file). */
  configLoaded(data: string): void;
}

/** client_golang's `DefBuckets`. */
const DEFAULT_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const MATCH_CONDITION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.1, 0.2, 0.25];

/** Declares the authorization metrics on `registry` for the API server `apiServerId`. */
export function authorizationMetrics(registry: MetricsRegistry, apiServerId: string): AuthorizationMetrics {
  const decisions = registry.counter({
    name: 'apiserver_authorization_decisions_total',
    help: 'Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.',
    labelNames: ['decision', 'name', 'type'],
  });
  const evaluations = registry.counter({
    name: 'apiserver_authorization_webhook_evaluations_total',
    help: 'Round-trips to authorization webhooks.',
    labelNames: ['name', 'result'],
  });
  const duration = registry.histogram({
    name: 'apiserver_authorization_webhook_duration_seconds',
    help: 'Request latency in seconds.',
    labelNames: ['name', 'result'],
    buckets: DEFAULT_BUCKETS,
  });
  const failOpen = registry.counter({
    name: 'apiserver_authorization_webhook_evaluations_fail_open_total',
    help: 'NoOpinion results due to webhook timeout or error.',
    labelNames: ['name', 'result'],
  });
  const matchErrors = registry.counter({
    name: 'apiserver_authorization_match_condition_evaluation_errors_total',
    help: 'Total number of errors when an authorization webhook encounters a match condition error split by authorizer type and name.',
    labelNames: ['name', 'type'],
  });
  const matchExclusions = registry.counter({
    name: 'apiserver_authorization_match_condition_exclusions_total',
    help: 'Total number of exclusions when an authorization webhook is skipped because match conditions exclude it.',
    labelNames: ['name', 'type'],
  });
  const matchSeconds = registry.histogram({
    name: 'apiserver_authorization_match_condition_evaluation_seconds',
    help: 'Authorization match condition evaluation time in seconds, split by authorizer type and name.',
    labelNames: ['name', 'type'],
    buckets: MATCH_CONDITION_BUCKETS,
  });
  const configInfo = registry.gauge({
    name: 'apiserver_authorization_config_controller_last_config_info',
    help: 'Information about the last applied authorization configuration with hash as label, split by apiserver identity.',
    labelNames: ['apiserver_id_hash', 'hash'],
  });
  const idHash = metricHash(apiServerId);
  return {
    decisionsOf(type, name) {
      return { allowed: decisions.with({ decision: 'allowed', name, type }), denied: decisions.with({ decision: 'denied', name, type }) };
    },
    call(name, result, seconds) {
      evaluations.inc({ name, result });
      duration.observe({ name, result }, seconds);
    },
    failOpen(name, result) {
      failOpen.inc({ name, result });
    },
    matchConditions(type, name, seconds, outcome) {
      matchSeconds.observe({ name, type }, seconds);
      if (outcome.errored) matchErrors.inc({ name, type });
      if (outcome.excluded) matchExclusions.inc({ name, type });
    },
    configLoaded(data) {
      configInfo.reset();
      configInfo.set({ apiserver_id_hash: idHash, hash: metricHash(data) }, 1);
    },
  };
}
