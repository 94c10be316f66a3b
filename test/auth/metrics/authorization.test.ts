/**
 * The authorizer chain's metrics, from real requests through a cluster: the decisions of RBAC,
 * Node, AlwaysAllow and AlwaysDeny by type and name, what is not counted (no opinion, the
 * system:masters shortcut), and the hash of the AuthorizationConfiguration in use.
 */
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createCluster, type Cluster } from '../../../src/index.js';
import { apiserverIdentity } from '../../../src/tracing/index.js';
import { authorizationConfigFromFlags, loadAuthorizationConfiguration } from '../../../src/config/authorization/index.js';
import { rmSync } from 'node:fs';
import { answer, startWebhook, tempDir, writeKubeconfig } from '../webhook/webhook-server.js';

const DECISIONS = 'apiserver_authorization_decisions_total';
const CONFIG_INFO = 'apiserver_authorization_config_controller_last_config_info';
const sha = (s: string) => `sha256:${createHash('sha256').update(s).digest('hex')}`;

const NODE = { username: 'system:node:n1', groups: ['system:nodes'] };
const ALICE = { username: 'alice', groups: ['devs'] };
const ROOT = { username: 'root', groups: ['system:masters'] };

let clusters: Cluster[] = [];
afterEach(async () => {
  await Promise.all(clusters.map((c) => c.close()));
  clusters = [];
});

async function cluster(options: Parameters<typeof createCluster>[0]): Promise<Cluster> {
  const c = await createCluster({
    ...options,
    authentication: {
      tokens: [
        { token: 'node-token', user: NODE },
        { token: 'alice-token', user: ALICE },
        { token: 'root-token', user: ROOT },
      ],
      ...options?.authentication,
    },
  });
  clusters.push(c);
  return c;
}

async function get(c: Cluster, path: string, token?: string): Promise<number> {
  const res = await c.fetch(new Request(`http://memkube${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
  await res.arrayBuffer();
  return res.status;
}

describe('apiserver_authorization_decisions_total', () => {
  it('counts the allow of the authorizer that decided, by type and name, and nothing for those with no opinion', async () => {
    const c = await cluster({ authorization: { modes: ['Node', 'RBAC', 'AlwaysAllow'] } });
    // Node allows a kubelet its own Node: RBAC and AlwaysAllow are not asked.
    expect(await get(c, '/api/v1/nodes/n1', 'node-token')).toBe(404);
    expect(await c.metrics.value(DECISIONS, { type: 'Node', name: 'node', decision: 'allowed' })).toBe(1);
    // RBAC allows anyone /version (system:public-info-viewer); Node has no opinion on alice.
    expect(await get(c, '/version', 'alice-token')).toBe(200);
    expect(await c.metrics.value(DECISIONS, { type: 'RBAC', name: 'rbac', decision: 'allowed' })).toBe(1);
    // Nothing in RBAC lets alice list secrets: AlwaysAllow decides.
    expect(await get(c, '/api/v1/namespaces/default/secrets', 'alice-token')).toBe(200);
    expect(await c.metrics.value(DECISIONS, { type: 'AlwaysAllow', name: 'alwaysallow', decision: 'allowed' })).toBe(1);
    expect(await c.metrics.value(DECISIONS, { decision: 'denied' })).toBe(0);
    expect(await c.metrics.value(DECISIONS)).toBe(3);
  });

  it('counts nothing for AlwaysDeny, which forbids by having no opinion, nor for members of system:masters, allowed before any authorizer', async () => {
    const c = await cluster({ authorization: { modes: ['AlwaysDeny', 'AlwaysAllow'] } });
    // AlwaysDeny answers no opinion ("Everything is forbidden."), so AlwaysAllow decides.
    expect(await get(c, '/api/v1/namespaces', 'alice-token')).toBe(200);
    expect(await c.metrics.value(DECISIONS, { type: 'AlwaysAllow', name: 'alwaysallow', decision: 'allowed' })).toBe(1);
    expect(await get(c, '/api/v1/namespaces', 'root-token')).toBe(200);
    expect(await c.metrics.value(DECISIONS)).toBe(1);
  });

  it('counts nothing when every authorizer has no opinion (the request is forbidden all the same)', async () => {
    const c = await cluster({ authorization: { modes: ['Node', 'RBAC'] } });
    expect(await get(c, '/api/v1/namespaces/default/secrets', 'alice-token')).toBe(403);
    expect(await c.metrics.value(DECISIONS)).toBe(0);
  });

  it('names an authorizer of an AuthorizationConfiguration by its configured name', async () => {
    const text =
      'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: RBAC\n  name: rbac\n- type: AlwaysAllow\n  name: alwaysallow\n';
    const c = await cluster({ authorization: { config: loadAuthorizationConfiguration(text) } });
    expect(await get(c, '/api/v1/namespaces', 'alice-token')).toBe(200);
    expect(await get(c, '/healthz', 'alice-token')).toBe(200);
    expect(await c.metrics.value(DECISIONS, { type: 'AlwaysAllow', name: 'alwaysallow', decision: 'allowed' })).toBe(1);
    expect(await c.metrics.value(DECISIONS, { type: 'RBAC', name: 'rbac', decision: 'allowed' })).toBe(1);
  });

  it('counts the decisions SubjectAccessReviews ask of the chain', async () => {
    const c = await cluster({ authorization: { modes: ['RBAC'] } });
    const res = await c.fetch(
      new Request('http://memkube/apis/authorization.k8s.io/v1/subjectaccessreviews', {
        method: 'POST',
        headers: { authorization: 'Bearer root-token', 'content-type': 'application/json' },
        body: JSON.stringify({
          apiVersion: 'authorization.k8s.io/v1',
          kind: 'SubjectAccessReview',
          spec: { user: 'bob', groups: ['system:authenticated'], nonResourceAttributes: { path: '/version', verb: 'get' } },
        }),
      }),
    );
    expect(((await res.json()) as { status: { allowed: boolean } }).status.allowed).toBe(true);
    expect(await c.metrics.value(DECISIONS, { type: 'RBAC', name: 'rbac', decision: 'allowed' })).toBe(1);
  });

  it("counts a configured webhook's decisions, round trips and match conditions under its name", async () => {
    const webhook = await startWebhook();
    const dir = tempDir();
    try {
      webhook.handler = answer({ allowed: false, denied: true, reason: 'not on fridays' });
      const kubeconfig = await writeKubeconfig(dir, webhook.url);
      const text = [
        'apiVersion: apiserver.config.k8s.io/v1',
        'kind: AuthorizationConfiguration',
        'authorizers:',
        '- type: Webhook',
        '  name: policy',
        '  webhook:',
        '    timeout: 3s',
        '    subjectAccessReviewVersion: v1',
        '    matchConditionSubjectAccessReviewVersion: v1',
        '    failurePolicy: NoOpinion',
        '    authorizedTTL: 1m',
        '    unauthorizedTTL: 1m',
        '    connectionInfo:',
        '      type: KubeConfigFile',
        `      kubeConfigFile: ${kubeconfig}`,
        '    matchConditions:',
        '    - expression: "request.user != \'bob\'"',
        '- type: AlwaysAllow',
        '  name: alwaysallow',
        '',
      ].join('\n');
      const c = await cluster({
        authentication: {
          tokens: [
            { token: 'bob-token', user: { username: 'bob', groups: [] } },
            { token: 'alice-token', user: ALICE },
          ],
        },
        authorization: { config: loadAuthorizationConfiguration(text) },
      });
      expect(await get(c, '/api/v1/namespaces', 'alice-token')).toBe(403);
      // bob is excluded by the match condition: the webhook is skipped and AlwaysAllow decides.
      expect(await get(c, '/api/v1/namespaces', 'bob-token')).toBe(200);
      expect(await c.metrics.value(DECISIONS, { type: 'Webhook', name: 'policy', decision: 'denied' })).toBe(1);
      expect(await c.metrics.value(DECISIONS, { type: 'AlwaysAllow', name: 'alwaysallow', decision: 'allowed' })).toBe(1);
      expect(await c.metrics.value('apiserver_authorization_webhook_evaluations_total', { name: 'policy', result: 'success' })).toBe(1);
      expect(await c.metrics.value('apiserver_authorization_match_condition_exclusions_total', { type: 'Webhook', name: 'policy' })).toBe(1);
      expect(await c.metrics.value('apiserver_authorization_match_condition_evaluation_seconds', { type: 'Webhook', name: 'policy' })).toBe(2);
      expect(await c.metrics.value(CONFIG_INFO, { hash: sha(text) })).toBe(1);
    } finally {
      await webhook.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is not kept by a cluster made with metrics: false', async () => {
    const c = await cluster({ metrics: false, authorization: { modes: ['AlwaysAllow'] } });
    expect(await get(c, '/api/v1/namespaces', 'alice-token')).toBe(200);
    expect(await c.metrics.value(DECISIONS)).toBe(0);
  });
});

describe('apiserver_authorization_config_controller_last_config_info', () => {
  const idHash = sha(apiserverIdentity());

  it('is the hash of the text of a loaded AuthorizationConfiguration, with the hashed server identity', async () => {
    const text = 'apiVersion: apiserver.config.k8s.io/v1\nkind: AuthorizationConfiguration\nauthorizers:\n- type: AlwaysAllow\n  name: alwaysallow\n';
    const c = await cluster({ authorization: { config: loadAuthorizationConfiguration(text) } });
    const samples = (await c.metrics.samples()).filter((s) => s.name === CONFIG_INFO);
    expect(samples).toEqual([{ name: CONFIG_INFO, labels: { apiserver_id_hash: idHash, hash: sha(text) }, value: 1 }]);
    expect(idHash).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it('is not reported for the legacy --authorization-mode flags, as kube-apiserver reports only a configuration file', async () => {
    const c = await cluster({ authorization: { config: authorizationConfigFromFlags({ authorizationMode: 'RBAC' }) } });
    expect(await c.metrics.value(CONFIG_INFO)).toBe(0);
    const d = await cluster({ authorization: { modes: ['RBAC'] } });
    expect(await d.metrics.value(CONFIG_INFO)).toBe(0);
  });

  it('hashes the JSON of a configuration built in code', async () => {
    const config = { authorizers: [{ type: 'AlwaysAllow' as const, name: 'alwaysallow' }] };
    const c = await cluster({ authorization: { config } });
    expect(await c.metrics.value(CONFIG_INFO, { hash: sha(JSON.stringify(config)) })).toBe(1);
  });
});
