/**
 * The Webhook authorizer against a real HTTPS webhook on 127.0.0.1: the review it sends in each
 * version, what each answer means, the cache on an injected clock, match conditions, and every
 * way a webhook can fail, decided by the failure policy and never thrown.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { WebhookAuthorizerConfig } from '../../../src/config/authorization/index.js';
import { createWebhookAuthorizer, RULES_NOT_SUPPORTED, type RetryTiming } from '../../../src/auth/webhook/index.js';
import type { AuthorizationAttributes, Authorizer } from '../../../src/machinery/auth.js';
import { answer, startWebhook, tempDir, testCertificates, writeKubeconfig, type TestWebhook } from './webhook-server.js';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeAll(async () => {
  await testCertificates();
});

let webhook: TestWebhook;
afterEach(async () => {
  await webhook?.close();
});

let clock = 1_000_000;
const sleeps: number[] = [];
const timing: RetryTiming = {
  sleep: async (ms) => {
    sleeps.push(ms);
  },
  random: () => 0,
};

function settings(overrides: Partial<WebhookAuthorizerConfig> & { kubeConfigFile: string }): WebhookAuthorizerConfig {
  const { kubeConfigFile, ...rest } = overrides;
  return {
    timeoutMs: 3000,
    authorizedTTLMs: 300_000,
    cacheAuthorizedRequests: true,
    unauthorizedTTLMs: 30_000,
    cacheUnauthorizedRequests: true,
    subjectAccessReviewVersion: 'v1',
    matchConditionSubjectAccessReviewVersion: '',
    failurePolicy: 'NoOpinion',
    connectionInfo: { type: 'KubeConfigFile', kubeConfigFile },
    matchConditions: [],
    ...rest,
  };
}

async function authorizerFor(
  overrides: Partial<WebhookAuthorizerConfig> = {},
  kubeconfigOptions: Parameters<typeof writeKubeconfig>[2] = {},
): Promise<Authorizer> {
  const kubeConfigFile = await writeKubeconfig(dir, webhook.url, kubeconfigOptions);
  sleeps.length = 0;
  return createWebhookAuthorizer({ type: 'Webhook', name: 'test', webhook: settings({ kubeConfigFile, ...overrides }) }, { now: () => clock, timing });
}

const jane = { username: 'jane', uid: 'u-1', groups: ['dev', 'system:authenticated'], extra: { scopes: ['b', 'a'], 'acme.com/team': ['x'] } };
const getPodLog: AuthorizationAttributes = {
  user: jane,
  verb: 'get',
  resourceRequest: true,
  namespace: 'default',
  apiGroup: '',
  apiVersion: 'v1',
  resource: 'pods',
  subresource: 'log',
  name: 'web-0',
};
const listDeployments: AuthorizationAttributes = {
  user: { username: 'bob', groups: [] },
  verb: 'list',
  resourceRequest: true,
  apiGroup: 'apps',
  apiVersion: 'v1',
  resource: 'deployments',
};
const healthz: AuthorizationAttributes = {
  user: { username: 'probe', groups: ['system:unauthenticated'] },
  verb: 'get',
  resourceRequest: false,
  path: '/healthz',
};

describe('the review sent', () => {
  it('posts a v1 SubjectAccessReview as Go encodes it, to the kubeconfig server with ?timeout=', async () => {
    webhook = await startWebhook();
    const authorizer = await authorizerFor();
    expect(await authorizer.authorize(getPodLog)).toEqual({ decision: 'Allow', reason: '' });
    expect(webhook.received).toHaveLength(1);
    const r = webhook.received[0]!;
    expect(r.url).toBe('/authorize?timeout=3s');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.body).toBe(
      '{"kind":"SubjectAccessReview","apiVersion":"authorization.k8s.io/v1","metadata":{},' +
        '"spec":{"resourceAttributes":{"namespace":"default","verb":"get","version":"v1","resource":"pods","subresource":"log","name":"web-0"},' +
        '"user":"jane","groups":["dev","system:authenticated"],"extra":{"acme.com/team":["x"],"scopes":["b","a"]},"uid":"u-1"},"status":{"allowed":false}}\n',
    );
  });

  it('names the groups `group` in v1beta1, and reads the v1beta1 answer', async () => {
    webhook = await startWebhook();
    webhook.handler = answer({ allowed: false, denied: true, reason: 'no pods for you' });
    const authorizer = await authorizerFor({ subjectAccessReviewVersion: 'v1beta1' });
    expect(await authorizer.authorize(getPodLog)).toEqual({ decision: 'Deny', reason: 'no pods for you' });
    const sent = JSON.parse(webhook.received[0]!.body) as { apiVersion: string; spec: Record<string, unknown> };
    expect(sent.apiVersion).toBe('authorization.k8s.io/v1beta1');
    expect(sent.spec['group']).toEqual(['dev', 'system:authenticated']);
    expect(sent.spec['groups']).toBeUndefined();
  });

  it('sends non-resource requests with their path and verb, and cluster-wide lists without namespace', async () => {
    webhook = await startWebhook();
    const authorizer = await authorizerFor();
    await authorizer.authorize(healthz);
    await authorizer.authorize(listDeployments);
    expect(JSON.parse(webhook.received[0]!.body).spec).toEqual({
      nonResourceAttributes: { path: '/healthz', verb: 'get' },
      user: 'probe',
      groups: ['system:unauthenticated'],
    });
    expect(JSON.parse(webhook.received[1]!.body).spec).toEqual({
      resourceAttributes: { verb: 'list', group: 'apps', version: 'v1', resource: 'deployments' },
      user: 'bob',
    });
  });
});

describe('the selectors of a list (AuthorizeWithSelectors)', () => {
  const listPods: AuthorizationAttributes = {
    user: { username: 'bob', groups: [] },
    verb: 'list',
    resourceRequest: true,
    namespace: 'default',
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'pods',
    fieldSelector: 'status.phase!=Failed,spec.nodeName==n1',
    labelSelector: 'tier in (web,api),!legacy,env,version>3,app=x',
  };

  it('are sent as requirements, never as raw text, in v1 and v1beta1', async () => {
    webhook = await startWebhook();
    for (const version of ['v1', 'v1beta1'] as const) {
      const authorizer = await authorizerFor({ subjectAccessReviewVersion: version });
      await authorizer.authorize(listPods);
    }
    const expected =
      '{"resourceAttributes":{"namespace":"default","verb":"list","version":"v1","resource":"pods",' +
      '"fieldSelector":{"requirements":[{"key":"spec.nodeName","operator":"In","values":["n1"]},{"key":"status.phase","operator":"NotIn","values":["Failed"]}]},' +
      '"labelSelector":{"requirements":[{"key":"app","operator":"In","values":["x"]},{"key":"env","operator":"Exists"},{"key":"legacy","operator":"DoesNotExist"},' +
      '{"key":"tier","operator":"In","values":["api","web"]}]}},"user":"bob"}';
    for (const sent of webhook.received) {
      const body = sent.body;
      expect(body.slice(body.indexOf('"spec":') + 7, body.indexOf(',"status":'))).toBe(expected);
    }
  });

  it('are left out when they do not parse or hold only operators the API cannot express', async () => {
    webhook = await startWebhook();
    const authorizer = await authorizerFor();
    await authorizer.authorize({ ...listPods, fieldSelector: 'no-operator', labelSelector: 'version>3' });
    expect(JSON.parse(webhook.received[0]!.body).spec.resourceAttributes).toEqual({ namespace: 'default', verb: 'list', version: 'v1', resource: 'pods' });
  });

  it('are part of the cache key, and seen by match conditions', async () => {
    webhook = await startWebhook();
    webhook.handler = answer({ allowed: true });
    const authorizer = await authorizerFor({
      matchConditionSubjectAccessReviewVersion: 'v1',
      matchConditions: [
        {
          expression:
            "!has(request.resourceAttributes.fieldSelector) || request.resourceAttributes.fieldSelector.requirements.exists(r, r.key == 'spec.nodeName' && r.operator == 'In' && r.values == ['n1'])",
        },
      ],
    });
    expect((await authorizer.authorize(listPods)).decision).toBe('Allow');
    expect((await authorizer.authorize({ ...listPods, labelSelector: 'app=y' })).decision).toBe('Allow');
    expect(webhook.received).toHaveLength(2);
    expect(await authorizer.authorize({ ...listPods, fieldSelector: 'spec.nodeName=n2' })).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(webhook.received).toHaveLength(2);
  });
});

describe('what an answer means', () => {
  it('allowed is Allow, denied is Deny, neither is no opinion, each with the reason', async () => {
    webhook = await startWebhook();
    const authorizer = await authorizerFor({ cacheAuthorizedRequests: false, cacheUnauthorizedRequests: false });
    webhook.handler = answer({ allowed: true, reason: 'team dev may read logs' });
    expect(await authorizer.authorize(getPodLog)).toEqual({ decision: 'Allow', reason: 'team dev may read logs' });
    webhook.handler = answer({ allowed: false, denied: true, reason: 'frozen namespace' });
    expect(await authorizer.authorize(getPodLog)).toEqual({ decision: 'Deny', reason: 'frozen namespace' });
    webhook.handler = answer({ allowed: false, reason: 'not mine to say' });
    expect(await authorizer.authorize(getPodLog)).toEqual({ decision: 'NoOpinion', reason: 'not mine to say' });
    webhook.handler = answer({});
    expect(await authorizer.authorize(getPodLog)).toEqual({ decision: 'NoOpinion', reason: '' });
  });

  it('denies an answer that both allows and denies, saying so', async () => {
    webhook = await startWebhook();
    webhook.handler = answer({ allowed: true, denied: true, reason: 'confused' });
    const authorizer = await authorizerFor();
    expect(await authorizer.authorize(getPodLog)).toEqual({
      decision: 'Deny',
      reason: 'confused',
      evaluationError: 'webhook subject access review returned both allow and deny response',
    });
  });

  it('cannot list rules', async () => {
    webhook = await startWebhook();
    const authorizer = await authorizerFor();
    expect(await authorizer.rulesFor(jane, 'default')).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: true,
      evaluationError: RULES_NOT_SUPPORTED,
    });
    expect(RULES_NOT_SUPPORTED).toBe('webhook authorizer does not support user rule resolution');
    expect(webhook.received).toHaveLength(0);
  });
});

describe('the cache', () => {
  it('keeps allowed answers for authorizedTTL and others for unauthorizedTTL, on the injected clock', async () => {
    webhook = await startWebhook();
    const authorizer = await authorizerFor({ authorizedTTLMs: 60_000, unauthorizedTTLMs: 10_000 });
    webhook.handler = answer({ allowed: true });
    expect((await authorizer.authorize(getPodLog)).decision).toBe('Allow');
    webhook.handler = answer({ allowed: false, reason: 'later' });
    clock += 60_000;
    // Still valid at the very instant it expires.
    expect((await authorizer.authorize(getPodLog)).decision).toBe('Allow');
    expect(webhook.received).toHaveLength(1);
    clock += 1;
    expect(await authorizer.authorize(getPodLog)).toEqual({ decision: 'NoOpinion', reason: 'later' });
    expect(webhook.received).toHaveLength(2);
    webhook.handler = answer({ allowed: true });
    clock += 10_000;
    expect((await authorizer.authorize(getPodLog)).decision).toBe('NoOpinion');
    clock += 1;
    expect((await authorizer.authorize(getPodLog)).decision).toBe('Allow');
    expect(webhook.received).toHaveLength(3);
  });

  it('keys on the whole review: another user, verb or group is another call', async () => {
    webhook = await startWebhook();
    const authorizer = await authorizerFor();
    await authorizer.authorize(getPodLog);
    await authorizer.authorize({ ...getPodLog, verb: 'list' });
    await authorizer.authorize({ ...getPodLog, user: { ...jane, groups: ['dev'] } });
    await authorizer.authorize(getPodLog);
    await authorizer.authorize({ ...getPodLog, verb: 'list' });
    expect(webhook.received).toHaveLength(3);
  });

  it('caches nothing when a cache is switched off', async () => {
    webhook = await startWebhook();
    const authorizer = await authorizerFor({ cacheAuthorizedRequests: false, cacheUnauthorizedRequests: false });
    await authorizer.authorize(getPodLog);
    await authorizer.authorize(getPodLog);
    webhook.handler = answer({ allowed: false });
    await authorizer.authorize(getPodLog);
    await authorizer.authorize(getPodLog);
    expect(webhook.received).toHaveLength(4);
  });

  it('never caches on attributes of 10,000 bytes or more', async () => {
    webhook = await startWebhook();
    const authorizer = await authorizerFor();
    const huge = { ...getPodLog, name: 'n'.repeat(10_000) };
    await authorizer.authorize(huge);
    await authorizer.authorize(huge);
    expect(webhook.received).toHaveLength(2);
    const large = { ...getPodLog, name: 'n'.repeat(9_900) };
    await authorizer.authorize(large);
    await authorizer.authorize(large);
    expect(webhook.received).toHaveLength(3);
  });

  it('does not cache failures', async () => {
    webhook = await startWebhook();
    webhook.handler = (_req, res) => res.writeHead(400).end('bad');
    const authorizer = await authorizerFor();
    await authorizer.authorize(getPodLog);
    webhook.handler = answer({ allowed: true });
    expect((await authorizer.authorize(getPodLog)).decision).toBe('Allow');
    expect(webhook.received).toHaveLength(2);
  });
});

describe('match conditions', () => {
  it('skip the webhook unless every condition is true', async () => {
    webhook = await startWebhook();
    const authorizer = await authorizerFor({
      matchConditionSubjectAccessReviewVersion: 'v1',
      matchConditions: [{ expression: 'has(request.resourceAttributes)' }, { expression: "request.resourceAttributes.namespace != 'kube-system'" }],
    });
    expect(await authorizer.authorize(healthz)).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(await authorizer.authorize({ ...getPodLog, namespace: 'kube-system' })).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(webhook.received).toHaveLength(0);
    expect((await authorizer.authorize(getPodLog)).decision).toBe('Allow');
    expect(webhook.received).toHaveLength(1);
  });

  it('give the failure policy when one fails to evaluate', async () => {
    webhook = await startWebhook();
    const conditions = { matchConditionSubjectAccessReviewVersion: 'v1', matchConditions: [{ expression: "request.extra['team'][0] == 'dev'" }] };
    const deny = await authorizerFor({ ...conditions, failurePolicy: 'Deny' });
    expect(await deny.authorize(getPodLog)).toEqual({
      decision: 'Deny',
      reason: '',
      evaluationError: "cel evaluation error: expression 'request.extra['team'][0] == 'dev'' resulted in error: no such key: team",
    });
    const noOpinion = await authorizerFor({ ...conditions, failurePolicy: 'NoOpinion' });
    expect((await noOpinion.authorize(getPodLog)).decision).toBe('NoOpinion');
    expect(webhook.received).toHaveLength(0);
  });

  it('refuse to start with a condition that does not compile', async () => {
    webhook = await startWebhook();
    await expect(authorizerFor({ matchConditionSubjectAccessReviewVersion: 'v1', matchConditions: [{ expression: 'request.user' }] })).rejects.toThrow(
      'matchConditions[0].expression: Invalid value: "request.user": must evaluate to bool but got string',
    );
  });
});

describe('a hostile or broken webhook', () => {
  const failing = async (policy: 'NoOpinion' | 'Deny', overrides: Partial<WebhookAuthorizerConfig> = {}) => {
    const authorizer = await authorizerFor({ failurePolicy: policy, ...overrides });
    return authorizer.authorize(getPodLog);
  };

  it('that is too slow: the timeout, then the failure policy', async () => {
    webhook = await startWebhook();
    webhook.handler = () => undefined;
    const started = Date.now();
    expect(await failing('NoOpinion', { timeoutMs: 200 })).toEqual({
      decision: 'NoOpinion',
      reason: '',
      evaluationError: `Post "https://127.0.0.1:${webhook.port}/authorize?timeout=200ms": context deadline exceeded`,
    });
    expect((await failing('Deny', { timeoutMs: 200 })).decision).toBe('Deny');
    expect(Date.now() - started).toBeLessThan(5000);
    // A timeout is not retried.
    expect(webhook.received).toHaveLength(2);
  });

  it('that answers 500: retried with backoff five times, then the failure policy', async () => {
    webhook = await startWebhook();
    webhook.handler = (_req, res) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom');
    expect(await failing('Deny')).toEqual({
      decision: 'Deny',
      reason: '',
      evaluationError: 'an error on the server ("boom") has prevented the request from succeeding',
    });
    expect(webhook.received).toHaveLength(5);
    expect(sleeps).toEqual([500, 750, 1125, 1687.5]);
  });

  it('that recovers while retried', async () => {
    webhook = await startWebhook();
    let calls = 0;
    webhook.handler = (req, res, body) => {
      if (++calls < 3) res.writeHead(429).end();
      else answer({ allowed: true })(req, res, body);
    };
    expect((await failing('Deny')).decision).toBe('Allow');
    expect(webhook.received).toHaveLength(3);
  });

  it('that refuses with a 4xx: no retry', async () => {
    webhook = await startWebhook();
    webhook.handler = (_req, res) =>
      res.writeHead(403, { 'Content-Type': 'application/json' }).end('{"kind":"Status","apiVersion":"v1","status":"Failure","message":"go away"}');
    expect(await failing('NoOpinion')).toEqual({ decision: 'NoOpinion', reason: '', evaluationError: 'go away' });
    expect(webhook.received).toHaveLength(1);
  });

  it('that answers garbage', async () => {
    webhook = await startWebhook();
    webhook.handler = (_req, res) => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"allowed": tru');
    expect(await failing('Deny')).toEqual({
      decision: 'Deny',
      reason: '',
      evaluationError: "couldn't get version/kind; json parse error: unexpected end of JSON input",
    });
    webhook.handler = (_req, res) => res.writeHead(200).end('just text');
    expect((await failing('Deny')).evaluationError).toBe(
      'couldn\'t get version/kind; json parse error: json: cannot unmarshal string into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }',
    );
    webhook.handler = (_req, res) => res.writeHead(200).end();
    expect((await failing('Deny')).evaluationError).toBe('0-length response with status code: 200 and content type: application/json');
    webhook.handler = (_req, res) =>
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end('{"apiVersion":"authorization.k8s.io/v1","kind":"SubjectAccessReview","status":{"allowed":"yes"}}');
    expect((await failing('Deny')).evaluationError).toBe(
      'json: cannot unmarshal string into Go struct field SubjectAccessReviewStatus.status.allowed of type bool',
    );
    expect(webhook.received.length).toBe(4);
  });

  it('that answers another kind or version', async () => {
    webhook = await startWebhook();
    webhook.handler = (_req, res) => res.writeHead(200).end('{"apiVersion":"v1","kind":"Pod","status":{"allowed":true}}');
    expect(await failing('NoOpinion')).toEqual({
      decision: 'NoOpinion',
      reason: '',
      evaluationError: 'no kind "Pod" is registered for version "v1" in scheme "k8s.io/client-go/kubernetes/scheme/register.go:84"',
    });
    webhook.handler = (_req, res) =>
      res.writeHead(200).end('{"apiVersion":"authorization.k8s.io/v1beta1","kind":"SubjectAccessReview","status":{"allowed":true}}');
    expect((await failing('NoOpinion')).evaluationError).toBe('converting (v1beta1.SubjectAccessReview) to (v1.SubjectAccessReview): unknown conversion');
    // An answer without apiVersion and kind is read as the version sent.
    webhook.handler = (_req, res) => res.writeHead(200).end('{"status":{"allowed":true}}');
    expect((await failing('NoOpinion')).decision).toBe('Allow');
  });

  it('that is not listening', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    webhook = await startWebhook();
    const kubeConfigFile = await writeKubeconfig(dir, `https://127.0.0.1:${port}/authorize`, { name: 'refused.yaml' });
    const authorizer = createWebhookAuthorizer(
      { type: 'Webhook', name: 'gone', webhook: settings({ kubeConfigFile, failurePolicy: 'Deny' }) },
      { now: () => clock, timing },
    );
    sleeps.length = 0;
    expect(await authorizer.authorize(getPodLog)).toEqual({
      decision: 'Deny',
      reason: '',
      evaluationError: `Post "https://127.0.0.1:${port}/authorize?timeout=3s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    });
    expect(sleeps).toEqual([]);
  });

  it('whose certificate the CA did not sign', async () => {
    webhook = await startWebhook();
    const other = await import('../../../src/pki/self-signed.js').then((m) => m.generateServingCertificate({ hosts: ['127.0.0.1'] }));
    const kubeConfigFile = await writeKubeconfig(dir, webhook.url, { name: 'wrong-ca.yaml' });
    writeFileSync(join(dir, 'other-ca.crt'), other.ca.cert);
    writeFileSync(kubeConfigFile, (await import('node:fs')).readFileSync(kubeConfigFile, 'utf8').replace('ca.crt', 'other-ca.crt'));
    const authorizer = createWebhookAuthorizer({ type: 'Webhook', name: 'w', webhook: settings({ kubeConfigFile }) }, { now: () => clock, timing });
    expect(await authorizer.authorize(getPodLog)).toEqual({
      decision: 'NoOpinion',
      reason: '',
      evaluationError: `Post "https://127.0.0.1:${webhook.port}/authorize?timeout=3s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    });
    expect(webhook.received).toHaveLength(0);
  });
});

describe('credentials', () => {
  it('presents the client certificate of the kubeconfig (mutual TLS)', async () => {
    webhook = await startWebhook({ requireClientCert: true });
    const withCert = await authorizerFor({}, { clientCert: true });
    expect((await withCert.authorize(getPodLog)).decision).toBe('Allow');
    expect(webhook.received[0]!.clientCN).toBe('kube-apiserver');
    const without = await authorizerFor({ failurePolicy: 'Deny' }, { name: 'no-cert.yaml' });
    const refused = await without.authorize(getPodLog);
    expect(refused.decision).toBe('Deny');
    expect(refused.evaluationError).toMatch(new RegExp(`^Post "https://127\\.0\\.0\\.1:${webhook.port}/authorize\\?timeout=3s": `));
    expect(webhook.received).toHaveLength(1);
  });

  it('sends the token, and reads a token file again for each call', async () => {
    webhook = await startWebhook();
    const fixed = await authorizerFor({ cacheAuthorizedRequests: false }, { token: 's3cret' });
    await fixed.authorize(getPodLog);
    expect(webhook.received[0]!.headers.authorization).toBe('Bearer s3cret');
    writeFileSync(join(dir, 'token'), 'first\n');
    const fromFile = await authorizerFor({ cacheAuthorizedRequests: false }, { tokenFile: 'token', name: 'token.yaml' });
    await fromFile.authorize(getPodLog);
    writeFileSync(join(dir, 'token'), 'second');
    await fromFile.authorize(getPodLog);
    expect(webhook.received.slice(1).map((r) => r.headers.authorization)).toEqual(['Bearer first', 'Bearer second']);
  });
});
