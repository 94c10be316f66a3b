/** `pods/{name}/log` through the engine, against a fake node agent over HTTPS. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../../src/cluster.js';
import type { ApiRequest, StreamedBody } from '../../../../src/machinery/request.js';
import { isStreamedBody } from '../../../../src/machinery/request.js';
import { readStreamedBody } from '../../../../src/machinery/streamed-body.js';
import { ADMIN_USER } from '../../../../src/client/client.js';
import type { AuthorizationAttributes, Authorizer } from '../../../../src/machinery/auth.js';
import { nodeFor, startFakeKubelet, type FakeKubelet } from '../../../support/fake-kubelet.js';
import { statusOf, testCluster } from '../../../support/cluster.js';

let kubelet: FakeKubelet;
let cluster: Cluster;

beforeAll(async () => {
  kubelet = await startFakeKubelet();
  cluster = await testCluster({ kubeletClient: { ca: kubelet.servingCA, cert: kubelet.client.cert, key: kubelet.client.key } });
  await cluster.client.resource({ version: 'v1', resource: 'nodes' }).create(nodeFor('n1', kubelet.port));
  await cluster.client.resource({ version: 'v1', resource: 'nodes' }).create(nodeFor('bare', kubelet.port, []));
  const pods = cluster.client.resource({ version: 'v1', resource: 'pods' });
  const pod = (name: string, nodeName: string | undefined, containers: string[], init: string[] = []) => ({
    metadata: { name, namespace: 'default' },
    spec: {
      ...(nodeName ? { nodeName } : {}),
      containers: containers.map((c) => ({ name: c, image: 'busybox' })),
      ...(init.length ? { initContainers: init.map((c) => ({ name: c, image: 'busybox' })) } : {}),
    },
  });
  await pods.create(pod('one', 'n1', ['app']));
  await pods.create(pod('two', 'n1', ['web', 'side'], ['setup']));
  await pods.create(pod('pending', undefined, ['app']));
  await pods.create(pod('lost', 'gone', ['app']));
  await pods.create(pod('unreachable', 'bare', ['app']));
});
afterAll(async () => {
  await cluster.close();
  await kubelet.close();
});
beforeEach(() => {
  kubelet.requests.length = 0;
  kubelet.handle = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    res.end('line 1\nline 2\n');
  };
});

function logRequest(name: string, params: Record<string, string[]> = {}): ApiRequest {
  return {
    verb: 'get',
    resource: { group: '', version: 'v1', resource: 'pods' },
    subresource: 'log',
    namespace: 'default',
    name,
    user: ADMIN_USER,
    connect: { method: 'GET', params },
  };
}

async function logOf(name: string, params: Record<string, string[]> = {}): Promise<{ code: number; text: string; body: StreamedBody }> {
  const res = await cluster.request(logRequest(name, params));
  if (!isStreamedBody(res.body)) throw new Error('not a stream');
  return { code: res.code, body: res.body, text: Buffer.from(await readStreamedBody(res.body)).toString('utf8') };
}

describe('pods/log', () => {
  it("streams the container's log as text/plain from the node agent's /containerLogs, with the API server's client certificate", async () => {
    const res = await cluster.request(logRequest('one'));
    expect(res.code).toBe(200);
    const body = res.body as StreamedBody;
    expect(body.contentType).toBe('text/plain');
    expect(Buffer.from(await readStreamedBody(body)).toString()).toBe('line 1\nline 2\n');
    expect(kubelet.requests).toHaveLength(1);
    expect(kubelet.requests[0]).toMatchObject({
      method: 'GET',
      url: '/containerLogs/default/one/app',
      clientCN: 'kube-apiserver-kubelet-client',
      clientAuthorized: true,
    });
  });

  it('passes the options on as kube-apiserver does: only those set, keys sorted, sinceTime in RFC 3339', async () => {
    await logOf('one', {
      follow: ['true'],
      tailLines: ['1'],
      timestamps: ['1'],
      limitBytes: ['100'],
      previous: ['true'],
      sinceTime: ['2026-01-01T01:00:00.5+01:00'],
    });
    expect(kubelet.requests[0]!.url).toBe(
      '/containerLogs/default/one/app?follow=true&limitBytes=100&previous=true&sinceTime=2026-01-01T00%3A00%3A00Z&tailLines=1&timestamps=true',
    );
    await logOf('one', { sinceSeconds: ['30'], follow: ['false'], stream: ['All'] });
    expect(kubelet.requests[1]!.url).toBe('/containerLogs/default/one/app?sinceSeconds=30&stream=All');
  });

  it('defaults the container of a pod with one, and takes any named container, init containers too', async () => {
    await logOf('two', { container: ['side'] });
    await logOf('two', { container: ['setup'] });
    expect(kubelet.requests.map((r) => r.url)).toEqual(['/containerLogs/default/two/side', '/containerLogs/default/two/setup']);
  });

  it('refuses a pod with several containers and none named, and a container the pod does not have', async () => {
    expect(await statusOf(() => logOf('two'))).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'a container name must be specified for pod two, choose one of: [setup web side]',
    });
    expect(await statusOf(() => logOf('one', { container: ['nope'] }))).toMatchObject({ code: 400, message: 'container nope is not valid for pod one' });
    expect(kubelet.requests).toHaveLength(0);
  });

  it('serves GET only, and a request in process without connect options as a plain GET', async () => {
    expect(await statusOf(() => cluster.request({ ...logRequest('one'), verb: 'create', connect: { method: 'POST', params: {} } }))).toMatchObject({
      code: 405,
      reason: 'MethodNotAllowed',
    });
    const { connect: _omitted, ...plain } = logRequest('one');
    const res = await cluster.request(plain);
    expect(Buffer.from(await readStreamedBody(res.body as StreamedBody)).toString()).toBe('line 1\nline 2\n');
    expect(kubelet.requests.map((r) => r.url)).toEqual(['/containerLogs/default/one/app']);
  });

  it('answers 404 for a missing pod and for a pod whose node is gone', async () => {
    expect(await statusOf(() => logOf('ghost'))).toMatchObject({ code: 404, reason: 'NotFound', message: 'pods "ghost" not found' });
    expect(await statusOf(() => logOf('lost'))).toMatchObject({ code: 404, reason: 'NotFound', message: 'nodes "gone" not found' });
  });

  it('answers 204 with nothing to read for a pod not yet on a node', async () => {
    const res = await logOf('pending');
    expect(res).toMatchObject({ code: 204, text: '' });
    expect(kubelet.requests).toHaveLength(0);
  });

  it('answers 500 without a reason when the node has no address of a preferred type', async () => {
    const status = await statusOf(() => logOf('unreachable'));
    expect(status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'no preferred addresses found; known addresses: []',
      code: 500,
    });
  });

  it("turns the agent's error statuses into API errors as GenericHttpResponseChecker does", async () => {
    const answer = (code: number, text: string) => {
      kubelet.handle = (_req, res) => {
        res.writeHead(code, { 'content-type': 'text/plain' });
        res.end(text);
      };
    };
    answer(404, 'container not running');
    expect(await statusOf(() => logOf('one'))).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'the server could not find the requested resource ( pods/log one)',
      reason: 'NotFound',
      details: { name: 'one', kind: 'pods/log' },
      code: 404,
    });
    answer(400, 'bad tail');
    expect(await statusOf(() => logOf('one'))).toMatchObject({ code: 400, reason: 'BadRequest', message: 'bad tail' });
    answer(500, 'runtime down');
    expect(await statusOf(() => logOf('one'))).toMatchObject({ code: 500, reason: 'InternalError', message: 'Internal error occurred: runtime down' });
    answer(403, 'Forbidden (user=x, verb=get, resource=nodes, subresource=log)');
    expect(await statusOf(() => logOf('one'))).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message: 'Forbidden (user=x, verb=get, resource=nodes, subresource=log) ( pods/log one)',
    });
    answer(502, 'upstream');
    expect(await statusOf(() => logOf('one'))).toMatchObject({
      code: 502,
      reason: 'InternalError',
      message: 'an error on the server ("upstream") has prevented the request from succeeding ( pods/log one)',
    });
  });

  it('names the URL and the dial failure when the agent does not listen', async () => {
    const down = await testCluster();
    try {
      await down.client.resource({ version: 'v1', resource: 'nodes' }).create(nodeFor('n1', 1));
      await down.client.resource({ version: 'v1', resource: 'pods' }).create({
        metadata: { name: 'p', namespace: 'default' },
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] },
      });
      const status = await statusOf(() => down.request({ ...logRequest('p'), connect: { method: 'GET', params: { tailLines: ['2'] } } }));
      expect(status).toMatchObject({
        code: 500,
        message: 'Get "https://127.0.0.1:1/containerLogs/default/p/c?tailLines=2": dial tcp 127.0.0.1:1: connect: connection refused',
      });
      expect(status.reason).toBeUndefined();
    } finally {
      await down.close();
    }
  });

  it('refuses an agent whose serving certificate does not chain to the configured authority, unless insecureSkipTLSVerifyBackend', async () => {
    const strict = await testCluster({ kubeletClient: { ca: kubelet.client.cert, cert: kubelet.client.cert, key: kubelet.client.key } });
    try {
      await strict.client.resource({ version: 'v1', resource: 'nodes' }).create(nodeFor('n1', kubelet.port));
      await strict.client.resource({ version: 'v1', resource: 'pods' }).create({
        metadata: { name: 'p', namespace: 'default' },
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] },
      });
      expect((await statusOf(() => strict.request(logRequest('p')))).message).toBe(
        `Get "https://127.0.0.1:${kubelet.port}/containerLogs/default/p/c": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
      );
      const res = await strict.request({ ...logRequest('p'), connect: { method: 'GET', params: { insecureSkipTLSVerifyBackend: ['true'] } } });
      expect(Buffer.from(await readStreamedBody(res.body as StreamedBody)).toString()).toBe('line 1\nline 2\n');
    } finally {
      await strict.close();
    }
  });

  it('does not check the agent at all when no authority is configured, as kube-apiserver', async () => {
    const lax = await testCluster({ kubeletClient: { cert: kubelet.client.cert, key: kubelet.client.key } });
    try {
      await lax.client.resource({ version: 'v1', resource: 'nodes' }).create(nodeFor('n1', kubelet.port));
      await lax.client.resource({ version: 'v1', resource: 'pods' }).create({
        metadata: { name: 'p', namespace: 'default' },
        spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] },
      });
      const res = await lax.request(logRequest('p'));
      expect(Buffer.from(await readStreamedBody(res.body as StreamedBody)).toString()).toBe('line 1\nline 2\n');
    } finally {
      await lax.close();
    }
  });

  it('streams a followed log chunk by chunk, and cancelling it aborts the request to the agent', async () => {
    let write: ((s: string) => void) | undefined;
    kubelet.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.flushHeaders();
      write = (s) => res.write(s);
      res.write('first\n');
    };
    const res = await cluster.request(logRequest('one', { follow: ['true'] }));
    const body = res.body as StreamedBody;
    const it = body[Symbol.asyncIterator]();
    expect(Buffer.from((await it.next()).value as Uint8Array).toString()).toBe('first\n');
    write!('second\n');
    expect(Buffer.from((await it.next()).value as Uint8Array).toString()).toBe('second\n');
    const closed = kubelet.closed();
    body.cancel();
    await closed;
    expect((await it.next()).done).toBe(true);
    expect(kubelet.requests[0]!.url).toBe('/containerLogs/default/one/app?follow=true');
  });

  it('is authorized as get on pods/log, before anything is read', async () => {
    const asked: AuthorizationAttributes[] = [];
    const onlyLogsOfOne: Authorizer = {
      authorize: (a) => {
        asked.push(a);
        return a.resourceRequest && a.resource === 'pods' && a.subresource === 'log' && a.name === 'one'
          ? { decision: 'Allow', reason: '' }
          : { decision: 'NoOpinion', reason: '' };
      },
      rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true }),
    };
    const guarded = await testCluster({ authorization: { modes: ['AlwaysDeny'], authorizers: [onlyLogsOfOne] } });
    try {
      const eve = { username: 'eve', groups: ['system:authenticated'] };
      expect(await statusOf(() => guarded.request({ ...logRequest('two'), user: eve }))).toMatchObject({
        code: 403,
        message: 'pods "two" is forbidden: User "eve" cannot get resource "pods/log" in API group "" in the namespace "default": Everything is forbidden.',
      });
      // Allowed: the engine goes on and finds no such pod in this cluster.
      expect(await statusOf(() => guarded.request({ ...logRequest('one'), user: eve }))).toMatchObject({ code: 404, message: 'pods "one" not found' });
      expect(asked.map((a) => [a.verb, a.resource, a.subresource])).toEqual([
        ['get', 'pods', 'log'],
        ['get', 'pods', 'log'],
      ]);
    } finally {
      await guarded.close();
    }
  });
});
