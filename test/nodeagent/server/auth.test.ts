import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CombinedClock } from '../../../src/clock.js';
import { createCluster, type Cluster } from '../../../src/cluster.js';
import { createFetchHandler } from '../../../src/http/handler.js';
import { kubeApiClientOverFetch } from '../../../src/nodeagent/kube-api-fetch.js';
import { KubeApiError, type KubeApiClient } from '../../../src/nodeagent/kube-api.js';
import { createNodeAgentServer, type NodeAgentServer, type NodeAgentServerOptions } from '../../../src/nodeagent/server/index.js';
import { generateServingCertificate, signClientCertificate } from '../../../src/pki/self-signed.js';
import { FakeRuntime, pod, podSource, secured, tempDir } from './fixtures.js';

/** A client of the cluster as system:masters, counting the reviews it posts. */
function countingClient(cluster: Cluster): { kube: KubeApiClient; posts: string[] } {
  const inner = kubeApiClientOverFetch(
    'http://memkube.invalid',
    createFetchHandler(cluster, { defaultUser: { username: 'admin', groups: ['system:masters'] } }),
  );
  const posts: string[] = [];
  const kube: KubeApiClient = {
    server: inner.server,
    request: (method, path, options) => {
      if (method === 'POST' && path.endsWith('reviews')) posts.push(path.split('/').pop()!);
      return inner.request(method, path, options);
    },
    watch: (path, options) => inner.watch(path, options),
    close: () => inner.close(),
  };
  return { kube, posts };
}

const ROLE = 'rbac.authorization.k8s.io/v1';

async function grant(kube: KubeApiClient, name: string, subject: { kind: 'User' | 'Group'; name: string }, resources: string[], verbs: string[]) {
  await kube.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', {
    body: { apiVersion: ROLE, kind: 'ClusterRole', metadata: { name }, rules: [{ apiGroups: [''], resources, resourceNames: ['node-a'], verbs }] },
  });
  await kube.request('POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', {
    body: {
      apiVersion: ROLE,
      kind: 'ClusterRoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name },
      subjects: [{ apiGroup: 'rbac.authorization.k8s.io', ...subject }],
    },
  });
}

async function revoke(kube: KubeApiClient, name: string) {
  await kube.request('DELETE', `/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/${name}`);
}

describe('the node agent server: authentication and Webhook authorization against an API server', () => {
  const tmp = tempDir();
  const clock = new CombinedClock({ frozenAt: Date.UTC(2026, 11, 1) });
  let cluster: Cluster;
  let client: { kube: KubeApiClient; posts: string[] };
  let ca: Awaited<ReturnType<typeof generateServingCertificate>>['ca'];
  let otherCa: typeof ca;
  const servers: NodeAgentServer[] = [];

  async function start(overrides: Partial<NodeAgentServerOptions> = {}): Promise<number> {
    const server = createNodeAgentServer({
      address: '127.0.0.1',
      port: 0,
      rootDir: tmp.dir,
      nodeName: 'node-a',
      pods: podSource([pod('default', 'web', ['nginx'])]),
      runtime: new FakeRuntime().asRuntime(),
      kube: client.kube,
      clock,
      authentication: { anonymous: true, clientCAFile: join(tmp.dir, 'client-ca.crt'), webhook: { enabled: true } },
      authorization: { mode: 'Webhook' },
      ...overrides,
    });
    servers.push(server);
    return (await server.listen()).port;
  }

  beforeAll(async () => {
    cluster = await createCluster({
      authentication: {
        tokens: [
          { token: 'alice-token', user: { username: 'alice', uid: 'a-1', groups: ['devs'] } },
          { token: 'bob-token', user: { username: 'bob', groups: [] } },
          { token: 'dave-token', user: { username: 'dave', groups: [] } },
        ],
      },
      authorization: { modes: ['RBAC'] },
    });
    client = countingClient(cluster);
    ca = (await generateServingCertificate({ hosts: ['x'] })).ca;
    otherCa = (await generateServingCertificate({ hosts: ['x'] })).ca;
    writeFileSync(join(tmp.dir, 'client-ca.crt'), ca.cert);
    await grant(client.kube, 'alice-healthz', { kind: 'User', name: 'alice' }, ['nodes/healthz'], ['get']);
    await grant(client.kube, 'bob-proxy', { kind: 'User', name: 'bob' }, ['nodes/proxy'], ['get']);
    await grant(client.kube, 'admins-checkpoint', { kind: 'Group', name: 'node-admins' }, ['nodes/checkpoint'], ['create']);
  });
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.close()));
    await cluster.close();
    tmp.remove();
  });

  it('authorizes a token user by the fine-grained subresource, and names every subresource tried when refusing', async () => {
    const port = await start();
    expect((await secured(port, '/healthz', { token: 'alice-token' })).status).toBe(200);
    const pods = await secured(port, '/pods', { token: 'alice-token' });
    expect([pods.status, pods.body, pods.headers['content-type']]).toEqual([
      403,
      'Forbidden (user=alice, verb=get, resource=nodes, subresource(s)=[pods proxy])\n',
      'text/plain; charset=utf-8',
    ]);
    const logs = await secured(port, '/containerLogs/default/web/nginx', { token: 'alice-token' });
    expect(logs.body).toBe('Forbidden (user=alice, verb=get, resource=nodes, subresource(s)=[proxy])\n');
    // bob may only proxy: /pods falls back to it.
    expect((await secured(port, '/pods', { token: 'bob-token' })).status).toBe(200);
  });

  it('refuses an unknown token with 401 even though anonymous requests are allowed', async () => {
    const port = await start();
    const answer = await secured(port, '/healthz', { token: 'not-a-token' });
    expect([answer.status, answer.body, answer.headers['content-type']]).toEqual([401, 'Unauthorized', 'text/plain; charset=utf-8']);
  });

  it('treats a request without credentials as system:anonymous, or refuses it when anonymous is off', async () => {
    const port = await start();
    expect((await secured(port, '/healthz')).body).toBe('Forbidden (user=system:anonymous, verb=get, resource=nodes, subresource(s)=[healthz proxy])\n');
    const closed = await start({ authentication: { anonymous: false, webhook: { enabled: true } } });
    expect([(await secured(closed, '/healthz')).status, (await secured(closed, '/healthz')).body]).toEqual([401, 'Unauthorized']);
    // Unknown paths are answered by the mux before any authentication.
    expect((await secured(closed, '/nothing')).status).toBe(404);
  });

  it('authenticates client certificates of the client CA by CommonName and Organizations, and refuses others', async () => {
    const port = await start();
    const now = Date.now();
    const carol = await signClientCertificate({ ca, commonName: 'carol', organizations: ['node-admins'], now, validityMs: 3_600_000 });
    const answer = await secured(port, '/checkpoint/default/nope/nginx', { method: 'POST', cert: carol.cert, key: carol.key });
    expect([answer.status, answer.body]).toEqual([404, 'pod does not exist']);
    const denied = await secured(port, '/pods', { cert: carol.cert, key: carol.key });
    expect(denied.body).toBe('Forbidden (user=carol, verb=get, resource=nodes, subresource(s)=[pods proxy])\n');
    const stranger = await signClientCertificate({ ca: otherCa, commonName: 'mallory', organizations: ['node-admins'], now, validityMs: 3_600_000 });
    expect((await secured(port, '/healthz', { cert: stranger.cert, key: stranger.key })).status).toBe(401);
  });

  it('caches token reviews for the cache TTL and access reviews for the authorized and unauthorized TTLs', async () => {
    const port = await start({
      authentication: { anonymous: false, webhook: { enabled: true, cacheTTLms: 60_000 } },
      authorization: { mode: 'Webhook', cacheAuthorizedTTLms: 120_000, cacheUnauthorizedTTLms: 10_000 },
    });
    client.posts.length = 0;
    expect((await secured(port, '/healthz', { token: 'alice-token' })).status).toBe(200);
    expect((await secured(port, '/healthz', { token: 'alice-token' })).status).toBe(200);
    expect(client.posts).toEqual(['tokenreviews', 'subjectaccessreviews']);

    await revoke(client.kube, 'alice-healthz');
    clock.advance(60_001);
    expect((await secured(port, '/healthz', { token: 'alice-token' })).status).toBe(200);
    expect(client.posts).toEqual(['tokenreviews', 'subjectaccessreviews', 'tokenreviews']);
    clock.advance(60_000);
    expect((await secured(port, '/healthz', { token: 'alice-token' })).status).toBe(403);

    client.posts.length = 0;
    expect((await secured(port, '/pods', { token: 'dave-token' })).status).toBe(403);
    await grant(client.kube, 'dave-pods', { kind: 'User', name: 'dave' }, ['nodes/pods'], ['get']);
    clock.advance(5_000);
    expect((await secured(port, '/pods', { token: 'dave-token' })).status).toBe(403);
    expect(client.posts).toEqual(['tokenreviews', 'subjectaccessreviews', 'subjectaccessreviews']);
    clock.advance(5_001);
    expect((await secured(port, '/pods', { token: 'dave-token' })).status).toBe(200);
  });

  it('answers 500 naming the question when an access review cannot be made', async () => {
    const failing: KubeApiClient = {
      server: 'http://unreachable.invalid',
      request: () => Promise.reject(new Error('connection refused')),
      watch: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('no')) }) }),
      close: () => undefined,
    };
    const port = await start({ kube: failing, authentication: { anonymous: true } });
    const answer = await secured(port, '/pods');
    expect([answer.status, answer.body]).toEqual([500, 'Authorization error (user=system:anonymous, verb=get, resource=nodes, subresource=pods)']);
  });
});

describe('the node agent server: webhook retries', () => {
  it('asks again after transient errors with the backoff, and not after others', async () => {
    const tmp = tempDir();
    const sleeps: number[] = [];
    let failures = 2;
    let calls = 0;
    const flaky: KubeApiClient = {
      server: 'http://flaky.invalid',
      request: async <T>(_method: string, path: string) => {
        calls++;
        if (path.endsWith('subjectaccessreviews') && failures-- > 0) throw new KubeApiError(500, 'InternalError', 'try again');
        if (path.endsWith('tokenreviews')) throw new KubeApiError(403, 'Forbidden', 'no');
        return { status: { allowed: true } } as T;
      },
      watch: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('no')) }) }),
      close: () => undefined,
    };
    const server = createNodeAgentServer({
      address: '127.0.0.1',
      port: 0,
      rootDir: tmp.dir,
      nodeName: 'n',
      pods: podSource([]),
      runtime: new FakeRuntime().asRuntime(),
      kube: flaky,
      authentication: { anonymous: true, webhook: { enabled: true } },
      authorization: { mode: 'Webhook' },
      webhookRetry: { timing: { sleep: async (ms) => void sleeps.push(ms), random: () => 0 } },
    });
    try {
      const { port } = await server.listen();
      expect((await secured(port, '/pods')).status).toBe(200);
      expect([calls, sleeps]).toEqual([3, [500, 750]]);
      // A 403 from the API server is not transient: one call, then 401.
      expect((await secured(port, '/pods', { token: 't' })).status).toBe(401);
      expect(calls).toBe(4);
    } finally {
      await server.close();
      tmp.remove();
    }
  });
});

describe('the node agent server: AlwaysAllow', () => {
  it('serves anyone, anonymous included, without asking the API server', async () => {
    const tmp = tempDir();
    const server = createNodeAgentServer({
      address: '127.0.0.1',
      port: 0,
      rootDir: tmp.dir,
      nodeName: 'n',
      pods: podSource([]),
      runtime: new FakeRuntime().asRuntime(),
    });
    try {
      const { port } = await server.listen();
      expect((await secured(port, '/pods')).status).toBe(200);
      // Without the token webhook a bearer token is not read at all.
      expect((await secured(port, '/pods', { token: 'whatever' })).status).toBe(200);
    } finally {
      await server.close();
      tmp.remove();
    }
  });
});
