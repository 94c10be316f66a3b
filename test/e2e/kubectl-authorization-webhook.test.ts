/**
 * `memkube serve --authorization-config` with a real HTTPS authorization webhook (then RBAC): the
 * webhook's answers decide for kubectl 1.33's requests as on a real cluster, match conditions keep
 * administrators away from it, and a failing webhook gives kube-apiserver's answers.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebhook, writeKubeconfig, type TestWebhook } from '../auth/webhook/webhook-server.js';
import { kubeconfigAs, kubectlRunner } from '../support/kubectl.js';
import { startServe, type ServeProcess } from '../support/serve.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

describe.skipIf(!existsSync(KUBECTL))('kubectl against memkube serve authorized by a real HTTPS webhook', () => {
  let dir: string;
  let server: ServeProcess | undefined;
  let webhook: TestWebhook;
  const admin = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  ).kubectl;
  /** kubectl as a token user of the static token file (a kubeconfig of its own: the admin's has a client certificate). */
  const as = (token: string, ...args: string[]) =>
    kubectlRunner(
      KUBECTL,
      () => kubeconfigAs(join(dir, 'kubeconfig'), join(dir, `${token}.kubeconfig`), { token }),
      () => dir,
    ).kubectl(...args);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-authz-webhook-'));
    webhook = await startWebhook();
    webhook.handler = (_req, res, body) => {
      const review = JSON.parse(body) as { apiVersion: string; spec: { user: string; resourceAttributes?: { verb: string; resource: string } } };
      const { user, resourceAttributes: r } = review.spec;
      if (user === 'fragile') {
        res.writeHead(500).end('boom');
        return;
      }
      const status =
        user === 'mallory' && r
          ? { allowed: false, denied: true, reason: 'mallory is banned' }
          : user === 'alice' && r?.resource === 'configmaps' && r.verb !== 'delete'
            ? { allowed: true, reason: 'alice reads config' }
            : { allowed: false };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ apiVersion: review.apiVersion, kind: 'SubjectAccessReview', status }));
    };
    const hookConfig = await writeKubeconfig(dir, webhook.url);
    await writeFile(join(dir, 'tokens.csv'), 'alice-token,alice,a1\nmallory-token,mallory,m1\nbob-token,bob,b1\nfragile-token,fragile,f1\n');
    await writeFile(
      join(dir, 'authz.yaml'),
      `apiVersion: apiserver.config.k8s.io/v1
kind: AuthorizationConfiguration
authorizers:
- type: Webhook
  name: policy.example.com
  webhook:
    timeout: 3s
    subjectAccessReviewVersion: v1
    matchConditionSubjectAccessReviewVersion: v1
    failurePolicy: NoOpinion
    authorizedTTL: 1m
    unauthorizedTTL: 1s
    connectionInfo: {type: KubeConfigFile, kubeConfigFile: ${hookConfig}}
    matchConditions:
    - expression: "!('system:masters' in request.groups)"
- type: RBAC
  name: rbac
`,
    );
    server = await startServe(join(dir, 'kubeconfig'), [
      '--tls',
      '--token-auth-file',
      join(dir, 'tokens.csv'),
      '--authorization-config',
      join(dir, 'authz.yaml'),
    ]);
  }, 60_000);

  afterAll(async () => {
    await server?.stop();
    await webhook?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('allows what the webhook allows, and never asks it about the administrator', async () => {
    const before = webhook.received.length;
    expect((await admin('create', 'configmap', 'settings', '--from-literal=a=b')).code).toBe(0);
    expect(webhook.received.length).toBe(before);
    const r = await as('alice-token', 'get', 'configmap', 'settings', '-o', 'name');
    expect([r.stdout, r.code]).toEqual(['configmap/settings\n', 0]);
    const sent = JSON.parse(webhook.received.at(-1)!.body) as Record<string, unknown>;
    expect(sent).toMatchObject({
      apiVersion: 'authorization.k8s.io/v1',
      kind: 'SubjectAccessReview',
      spec: {
        user: 'alice',
        uid: 'a1',
        groups: ['system:authenticated'],
        resourceAttributes: { namespace: 'default', verb: 'get', version: 'v1', resource: 'configmaps', name: 'settings' },
      },
    });
  });

  it("refuses with the webhook's reason when it denies, and falls through to RBAC when it has no opinion", async () => {
    const mallory = await as('mallory-token', 'get', 'configmaps');
    expect(mallory.stderr).toContain(
      'Error from server (Forbidden): configmaps is forbidden: User "mallory" cannot list resource "configmaps" in API group "" in the namespace "default": mallory is banned',
    );
    const bob = await as('bob-token', 'get', 'configmaps');
    expect(bob.stderr).toContain('configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"\n');
    expect((await as('alice-token', 'auth', 'can-i', 'delete', 'configmaps')).stdout).toBe('no\n');
  });

  it('answers as kube-apiserver does when the webhook fails: no opinion, then an internal error naming the failure', async () => {
    const r = await as('fragile-token', 'get', 'configmaps');
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('Error from server (InternalError): Internal error occurred:');
    // The failing webhook was retried, as kube-apiserver's webhook client retries a 500.
    expect(webhook.received.filter((x) => x.body.includes('"fragile"')).length).toBeGreaterThan(1);
  }, 30_000);
});
