/** `nodes/{name}/proxy/{path}` through the HTTP door, against a fake node agent over HTTPS. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../../src/cluster.js';
import type { AuthorizationAttributes, Authorizer } from '../../../../src/machinery/auth.js';
import { proxiedPath, splitSchemeNamePort } from '../../../../src/kinds/core/node/proxy.js';
import type { StreamedBody } from '../../../../src/machinery/request.js';
import { readStreamedBody } from '../../../../src/machinery/streamed-body.js';
import { nodeFor, startFakeKubelet, type FakeKubelet } from '../../../support/fake-kubelet.js';
import { testCluster } from '../../../support/cluster.js';

let kubelet: FakeKubelet;
let cluster: Cluster;

beforeAll(async () => {
  kubelet = await startFakeKubelet();
  cluster = await testCluster({ kubeletClient: { ca: kubelet.servingCA, cert: kubelet.client.cert, key: kubelet.client.key } });
  const nodes = cluster.client.resource({ version: 'v1', resource: 'nodes' });
  await nodes.create(nodeFor('n1', kubelet.port));
  await nodes.create(nodeFor('local', kubelet.port, [{ type: 'InternalIP', address: '127.0.0.1' }]));
});
afterAll(async () => {
  await cluster.close();
  await kubelet.close();
});
beforeEach(() => {
  kubelet.requests.length = 0;
  kubelet.handle = (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'x-agent': 'fake' });
    res.end('ok');
  };
});

const base = 'http://memkube.test';
const get = (path: string, init?: RequestInit) => cluster.fetch(new Request(`${base}${path}`, init));

describe('nodes/proxy', () => {
  it("passes a GET to the agent's path with the API server's client certificate, and its answer back as it is", async () => {
    const res = await get('/api/v1/nodes/n1/proxy/healthz?verbose=1&x=a%20b');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('x-agent')).toBe('fake');
    expect(await res.text()).toBe('ok');
    expect(kubelet.requests[0]).toMatchObject({
      method: 'GET',
      url: '/healthz?verbose=1&x=a%20b',
      clientCN: 'kube-apiserver-kubelet-client',
      clientAuthorized: true,
    });
  });

  it('passes a POST with its body and method (a checkpoint), and the status of any answer', async () => {
    kubelet.handle = (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('checkpointing is not enabled');
    };
    const res = await get('/api/v1/nodes/n1/proxy/checkpoint/default/web/app?timeout=30', {
      method: 'POST',
      body: 'x',
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.status).toBe(500);
    expect(await res.text()).toBe('checkpointing is not enabled');
    expect(kubelet.requests[0]).toMatchObject({ method: 'POST', url: '/checkpoint/default/web/app?timeout=30', body: 'x' });
    expect(kubelet.requests[0]!.headers['content-type']).toBe('text/plain');
  });

  it("passes the caller's headers on, the Host being the agent's", async () => {
    await get('/api/v1/nodes/n1/proxy/pods', { headers: { accept: 'application/json', 'x-trace': 't1' } });
    const headers = kubelet.requests[0]!.headers;
    expect(headers).toMatchObject({ accept: 'application/json', 'x-trace': 't1', host: `127.0.0.1:${kubelet.port}` });
  });

  it('keeps hostile paths under the agent root: dot segments and encoded slashes are resolved, never above /', async () => {
    await get('/api/v1/nodes/n1/proxy/..%2F..%2F..%2Fetc%2Fpasswd');
    await get('/api/v1/nodes/n1/proxy/logs%2F..%2F..%2Fmetrics/');
    await get('/api/v1/nodes/n1/proxy/');
    await get('/api/v1/nodes/n1/proxy');
    await get('/api/v1/nodes/n1/proxy/a%20b/%3F');
    expect(kubelet.requests.map((r) => r.url)).toEqual(['/etc/passwd', '/metrics/', '/', '/', '/a%20b/%3F']);
  });

  it('answers 404 for a missing node, 400 for a malformed name, 405 for a method not proxied', async () => {
    const missing = await get('/api/v1/nodes/ghost/proxy/healthz');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { message: string }).message).toBe('nodes "ghost" not found');
    const malformed = await get('/api/v1/nodes/a:b:c:d/proxy/healthz');
    expect(malformed.status).toBe(400);
    expect(((await malformed.json()) as { message: string }).message).toBe('invalid node request "a:b:c:d"');
    const ftp = await get('/api/v1/nodes/ftp:n1:21/proxy/');
    expect(ftp.status).toBe(400);
    expect((await get('/api/v1/nodes/n1/proxy/x', { method: 'PURGE' })).status).toBe(405);
    expect(kubelet.requests).toHaveLength(0);
  });

  it("refuses another port of a node at a loopback address, and lets the agent's own port through", async () => {
    const other = await get('/api/v1/nodes/local:9999/proxy/metrics');
    expect(other.status).toBe(400);
    expect(((await other.json()) as { message: string }).message).toBe('address not allowed');
    expect((await get(`/api/v1/nodes/local:${kubelet.port}/proxy/metrics`)).status).toBe(200);
    expect(kubelet.requests.map((r) => r.url)).toEqual(['/metrics']);
  });

  it('answers 500 with the transport error when the agent does not listen', async () => {
    await cluster.client.resource({ version: 'v1', resource: 'nodes' }).create(nodeFor('down', 1));
    const res = await get('/api/v1/nodes/down/proxy/healthz');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'dial tcp 127.0.0.1:1: connect: connection refused',
      code: 500,
    });
  });

  it('takes a request in process, its query made from the parameters', async () => {
    const res = await cluster.request({
      verb: 'get',
      resource: { group: '', version: 'v1', resource: 'nodes' },
      subresource: 'proxy',
      name: 'n1',
      user: { username: 'system:admin', groups: ['system:masters'] },
      connect: { method: 'GET', path: 'stats/summary', params: { only_cpu_and_memory: ['true'] } },
    });
    expect(res.code).toBe(200);
    expect(Buffer.from(await readStreamedBody(res.body as StreamedBody)).toString()).toBe('ok');
    expect(kubelet.requests.map((r) => r.url)).toEqual(['/stats/summary?only_cpu_and_memory=true']);
  });

  it('is listed by discovery with the verbs of its methods', async () => {
    const list = (await (await get('/api/v1')).json()) as { resources: { name: string; kind: string; verbs: string[] }[] };
    expect(list.resources.find((r) => r.name === 'nodes/proxy')).toMatchObject({
      kind: 'NodeProxyOptions',
      verbs: ['create', 'delete', 'get', 'patch', 'update'],
    });
    expect(list.resources.find((r) => r.name === 'pods/log')).toMatchObject({ kind: 'Pod', verbs: ['get'] });
  });

  it('takes no path after a subresource that is not a proxy', async () => {
    expect((await get('/api/v1/namespaces/default/pods/p/log/extra')).status).toBe(404);
    expect((await get('/api/v1/namespaces/default/pods/p/status/extra')).status).toBe(404);
  });
});

describe('splitSchemeNamePort', () => {
  it('reads name, name:port and scheme:name:port', () => {
    expect(splitSchemeNamePort('n1')).toEqual({ scheme: '', name: 'n1', port: '' });
    expect(splitSchemeNamePort('n1:10255')).toEqual({ scheme: '', name: 'n1', port: '10255' });
    expect(splitSchemeNamePort('https:n1:443')).toEqual({ scheme: 'https', name: 'n1', port: '443' });
    expect(splitSchemeNamePort(':80')).toBeUndefined();
    expect(splitSchemeNamePort('gopher:n1:70')).toBeUndefined();
  });
});

describe('proxiedPath', () => {
  it('cleans and escapes, keeping a trailing slash', () => {
    expect(proxiedPath(undefined)).toBe('/');
    expect(proxiedPath('../../x/./y/')).toBe('/x/y/');
    expect(proxiedPath('stats/summary')).toBe('/stats/summary');
    expect(proxiedPath('a b/c?d#e/@:')).toBe('/a%20b/c%3Fd%23e/@:');
  });
});

describe('nodes/proxy authorization over HTTP', () => {
  it('asks for the verb of the method on nodes/proxy, and refuses before the agent is reached', async () => {
    const asked: AuthorizationAttributes[] = [];
    const onlyGet: Authorizer = {
      authorize: (a) => {
        asked.push(a);
        return a.resource === 'nodes' && a.subresource === 'proxy' && a.verb === 'get'
          ? { decision: 'Allow', reason: '' }
          : { decision: 'NoOpinion', reason: '' };
      },
      rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true }),
    };
    const guarded = await testCluster({
      authorization: { modes: ['AlwaysDeny'], authorizers: [onlyGet] },
      kubeletClient: { ca: kubelet.servingCA, cert: kubelet.client.cert, key: kubelet.client.key },
    });
    try {
      await guarded.client.resource({ version: 'v1', resource: 'nodes' }).create(nodeFor('n1', kubelet.port));
      const at = (init?: RequestInit) => guarded.fetch(new Request(`${base}/api/v1/nodes/n1/proxy/checkpoint/default/web/app`, init));
      const post = await at({ method: 'POST' });
      expect(post.status).toBe(403);
      expect(((await post.json()) as { message: string }).message).toMatch(
        /^nodes "n1" is forbidden: User "system:anonymous" cannot create resource "nodes\/proxy"/,
      );
      expect(kubelet.requests).toHaveLength(0);
      expect((await at()).status).toBe(200);
      expect(asked.filter((a) => a.resource === 'nodes').map((a) => [a.verb, a.subresource, a.name])).toEqual([
        ['create', 'proxy', 'n1'],
        ['get', 'proxy', 'n1'],
      ]);
    } finally {
      await guarded.close();
    }
  });
});
