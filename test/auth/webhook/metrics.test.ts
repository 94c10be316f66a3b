/**
 * The webhook authorizer's metrics against a real HTTPS webhook on 127.0.0.1: each round trip by
 * result (success, error, timeout; retries included), the answers its failure policy turns into no
 * opinion, its terminal decisions, and the evaluation, errors and exclusions of its match conditions.
 */
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { WebhookAuthorizerConfig } from '../../../src/config/authorization/index.js';
import { createWebhookAuthorizer, type RetryTiming } from '../../../src/auth/webhook/index.js';
import { authorizationMetrics, instrumentedAuthorizer, type AuthorizationMetrics } from '../../../src/auth/metrics/index.js';
import { MetricsRegistry } from '../../../src/metrics/registry.js';
import type { AuthorizationAttributes, Authorizer } from '../../../src/machinery/auth.js';
import { answer, startWebhook, tempDir, testCertificates, writeKubeconfig, type TestWebhook } from './webhook-server.js';

const EVALUATIONS = 'apiserver_authorization_webhook_evaluations_total';
const DURATION = 'apiserver_authorization_webhook_duration_seconds';
const FAIL_OPEN = 'apiserver_authorization_webhook_evaluations_fail_open_total';
const DECISIONS = 'apiserver_authorization_decisions_total';
const MATCH_SECONDS = 'apiserver_authorization_match_condition_evaluation_seconds';
const MATCH_ERRORS = 'apiserver_authorization_match_condition_evaluation_errors_total';
const MATCH_EXCLUSIONS = 'apiserver_authorization_match_condition_exclusions_total';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await testCertificates();
});

let webhook: TestWebhook;
let registry: MetricsRegistry;
let metrics: AuthorizationMetrics;
beforeEach(async () => {
  webhook = await startWebhook();
  registry = new MetricsRegistry();
  metrics = authorizationMetrics(registry, 'apiserver-test');
});
afterEach(async () => {
  await webhook.close();
});

const timing: RetryTiming = { sleep: async () => undefined, random: () => 0 };

async function authorizerFor(overrides: Partial<WebhookAuthorizerConfig> = {}): Promise<Authorizer> {
  const kubeConfigFile = await writeKubeconfig(dir, webhook.url);
  const webhookConfig: WebhookAuthorizerConfig = {
    timeoutMs: 3000,
    authorizedTTLMs: 300_000,
    cacheAuthorizedRequests: true,
    unauthorizedTTLMs: 30_000,
    cacheUnauthorizedRequests: true,
    subjectAccessReviewVersion: 'v1',
    matchConditionSubjectAccessReviewVersion: 'v1',
    failurePolicy: 'NoOpinion',
    connectionInfo: { type: 'KubeConfigFile', kubeConfigFile },
    matchConditions: [],
    ...overrides,
  };
  const authorizer = createWebhookAuthorizer({ type: 'Webhook', name: 'policy', webhook: webhookConfig }, { now: () => 0, timing, metrics });
  return instrumentedAuthorizer('Webhook', 'policy', authorizer, metrics);
}

const getPod: AuthorizationAttributes = {
  user: { username: 'jane', groups: ['dev'] },
  verb: 'get',
  resourceRequest: true,
  namespace: 'default',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  name: 'web-0',
};

describe('webhook round trips', () => {
  it('counts a usable answer as success with its latency, and the allow it gives; a cached answer is no round trip', async () => {
    const authorizer = await authorizerFor();
    expect((await authorizer.authorize(getPod)).decision).toBe('Allow');
    expect((await authorizer.authorize(getPod)).decision).toBe('Allow');
    expect(webhook.received).toHaveLength(1);
    expect(await registry.value(EVALUATIONS, { name: 'policy', result: 'success' })).toBe(1);
    expect(await registry.value(DURATION, { name: 'policy', result: 'success' })).toBe(1);
    expect(await registry.value(`${DURATION}_sum`)).toBeGreaterThan(0);
    // The cached answer is still a decision of the authorizer.
    expect(await registry.value(DECISIONS, { type: 'Webhook', name: 'policy', decision: 'allowed' })).toBe(2);
    expect(await registry.value(FAIL_OPEN)).toBe(0);
  });

  it('counts a denial as a denied decision, and no opinion as no decision', async () => {
    webhook.handler = answer({ allowed: false, denied: true, reason: 'no' });
    const denying = await authorizerFor();
    expect((await denying.authorize(getPod)).decision).toBe('Deny');
    expect(await registry.value(DECISIONS, { type: 'Webhook', name: 'policy', decision: 'denied' })).toBe(1);
    webhook.handler = answer({ allowed: false });
    const silent = await authorizerFor();
    expect((await silent.authorize({ ...getPod, name: 'web-1' })).decision).toBe('NoOpinion');
    expect(await registry.value(DECISIONS)).toBe(1);
    expect(await registry.value(EVALUATIONS, { result: 'success' })).toBe(2);
  });

  it('counts every retried 500 as an error, and the no opinion its NoOpinion policy answers as a fail-open error', async () => {
    webhook.handler = (_req, res) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom');
    const authorizer = await authorizerFor({ failurePolicy: 'NoOpinion' });
    expect((await authorizer.authorize(getPod)).decision).toBe('NoOpinion');
    expect(webhook.received).toHaveLength(5);
    expect(await registry.value(EVALUATIONS, { name: 'policy', result: 'error' })).toBe(5);
    expect(await registry.value(DURATION, { name: 'policy', result: 'error' })).toBe(5);
    expect(await registry.value(FAIL_OPEN, { name: 'policy', result: 'error' })).toBe(1);
  });

  it('does not count a fail-open when the failure policy is Deny (the denial is a decision)', async () => {
    webhook.handler = (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"kind": 3');
    const authorizer = await authorizerFor({ failurePolicy: 'Deny' });
    expect((await authorizer.authorize(getPod)).decision).toBe('Deny');
    // An answer that does not decode is an error, and not retried.
    expect(await registry.value(EVALUATIONS, { name: 'policy', result: 'error' })).toBe(1);
    expect(await registry.value(FAIL_OPEN)).toBe(0);
    expect(await registry.value(DECISIONS, { type: 'Webhook', name: 'policy', decision: 'denied' })).toBe(1);
  });

  it('counts a call past its deadline as a timeout, and the fail-open of NoOpinion as a timeout', async () => {
    webhook.handler = () => undefined;
    const noOpinion = await authorizerFor({ failurePolicy: 'NoOpinion', timeoutMs: 100 });
    expect((await noOpinion.authorize(getPod)).decision).toBe('NoOpinion');
    expect(await registry.value(EVALUATIONS, { name: 'policy', result: 'timeout' })).toBe(1);
    expect(await registry.value(FAIL_OPEN, { name: 'policy', result: 'timeout' })).toBe(1);
    const deny = await authorizerFor({ failurePolicy: 'Deny', timeoutMs: 100 });
    expect((await deny.authorize(getPod)).decision).toBe('Deny');
    expect(await registry.value(EVALUATIONS, { name: 'policy', result: 'timeout' })).toBe(2);
    expect(await registry.value(FAIL_OPEN)).toBe(1);
    // A timed-out call took at least its deadline.
    expect(await registry.value(`${DURATION}_sum`, { result: 'timeout' })).toBeGreaterThanOrEqual(0.19);
  });

  it('counts a 504 Gateway Timeout answer as a timeout', async () => {
    webhook.handler = (_req, res) => res.writeHead(504, { 'Content-Type': 'text/plain' }).end('slow upstream');
    const authorizer = await authorizerFor({ failurePolicy: 'NoOpinion' });
    await authorizer.authorize(getPod);
    expect(await registry.value(EVALUATIONS, { result: 'timeout' })).toBe(webhook.received.length);
    expect(await registry.value(EVALUATIONS, { result: 'error' })).toBe(0);
    expect(await registry.value(FAIL_OPEN, { result: 'timeout' })).toBe(1);
  });
});

describe('match conditions', () => {
  const conditions = (...expressions: string[]) => ({ matchConditions: expressions.map((expression) => ({ expression })) });

  it('times every evaluation; all true calls the webhook, with no exclusion nor error', async () => {
    const authorizer = await authorizerFor(conditions("request.user == 'jane'", "'dev' in request.groups"));
    expect((await authorizer.authorize(getPod)).decision).toBe('Allow');
    expect(await registry.value(MATCH_SECONDS, { type: 'Webhook', name: 'policy' })).toBe(1);
    expect(await registry.value(MATCH_EXCLUSIONS)).toBe(0);
    expect(await registry.value(MATCH_ERRORS)).toBe(0);
    expect(webhook.received).toHaveLength(1);
  });

  it('counts an exclusion when one is false, and the webhook is not called', async () => {
    const authorizer = await authorizerFor(conditions("request.user == 'someone else'"));
    expect((await authorizer.authorize(getPod)).decision).toBe('NoOpinion');
    expect(await registry.value(MATCH_EXCLUSIONS, { type: 'Webhook', name: 'policy' })).toBe(1);
    expect(await registry.value(MATCH_SECONDS, { type: 'Webhook', name: 'policy' })).toBe(1);
    expect(await registry.value(MATCH_ERRORS)).toBe(0);
    expect(webhook.received).toHaveLength(0);
    expect(await registry.value(EVALUATIONS)).toBe(0);
  });

  it('counts an error when one fails to evaluate: the failure policy decides, without a round trip or a fail-open', async () => {
    const authorizer = await authorizerFor({ failurePolicy: 'NoOpinion', ...conditions("request.extra['missing'][0] == 'x'") });
    const result = await authorizer.authorize(getPod);
    expect(result.decision).toBe('NoOpinion');
    expect(result.evaluationError).toContain('cel evaluation error');
    expect(await registry.value(MATCH_ERRORS, { type: 'Webhook', name: 'policy' })).toBe(1);
    expect(await registry.value(MATCH_EXCLUSIONS)).toBe(0);
    expect(await registry.value(EVALUATIONS)).toBe(0);
    expect(await registry.value(FAIL_OPEN)).toBe(0);
  });

  it('counts both when an error comes before a false condition, as upstream does', async () => {
    const authorizer = await authorizerFor(conditions("request.extra['missing'][0] == 'x'", "request.user == 'someone else'"));
    expect((await authorizer.authorize(getPod)).decision).toBe('NoOpinion');
    expect(await registry.value(MATCH_ERRORS)).toBe(1);
    expect(await registry.value(MATCH_EXCLUSIONS)).toBe(1);
  });

  it('records nothing for a webhook without match conditions', async () => {
    const authorizer = await authorizerFor();
    await authorizer.authorize(getPod);
    expect(await registry.value(MATCH_SECONDS)).toBe(0);
  });
});

describe('the authorization metrics as exposed', () => {
  it('carry kube-apiserver help texts, stability and buckets', async () => {
    const authorizer = await authorizerFor(conditions("request.user == 'jane'"));
    await authorizer.authorize(getPod);
    metrics.configLoaded('x');
    const text = await registry.text();
    expect(text).toContain('# HELP apiserver_authorization_webhook_evaluations_total [ALPHA] Round-trips to authorization webhooks.');
    expect(text).toContain('# HELP apiserver_authorization_webhook_duration_seconds [ALPHA] Request latency in seconds.');
    expect(text).toContain('# HELP apiserver_authorization_webhook_evaluations_fail_open_total [ALPHA] NoOpinion results due to webhook timeout or error.');
    expect(text).toContain(
      '# HELP apiserver_authorization_decisions_total [ALPHA] Total number of terminal decisions made by an authorizer split by authorizer type, name, and decision.',
    );
    expect(text).toContain('apiserver_authorization_decisions_total{decision="allowed",name="policy",type="Webhook"} 1');
    expect(text).toContain('apiserver_authorization_webhook_duration_seconds_bucket{le="0.005",name="policy",result="success"}');
    expect(text).toContain('apiserver_authorization_webhook_duration_seconds_bucket{le="10",name="policy",result="success"}');
    expect(text).toContain('apiserver_authorization_match_condition_evaluation_seconds_bucket{le="0.2",name="policy",type="Webhook"}');
    expect(text).toContain('# TYPE apiserver_authorization_config_controller_last_config_info gauge');
    expect(text).toMatch(/apiserver_authorization_config_controller_last_config_info\{apiserver_id_hash="sha256:[0-9a-f]{64}",hash="sha256:[0-9a-f]{64}"\} 1/);
  });

  function conditions(...expressions: string[]) {
    return { matchConditions: expressions.map((expression) => ({ expression })) };
  }
});
