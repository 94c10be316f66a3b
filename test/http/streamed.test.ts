/** Streamed answers over HTTP: chunk by chunk over node:http, cancelled when the client goes; the headers a proxy passes on. */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/cluster.js';
import type { Listening } from '../../src/http/listen.js';
import { proxiedRequestHeaders, streamedResponse } from '../../src/http/streamed.js';
import { streamedBody } from '../../src/machinery/streamed-body.js';
import { nodeFor, startFakeKubelet, type FakeKubelet } from '../support/fake-kubelet.js';
import { testCluster } from '../support/cluster.js';

let kubelet: FakeKubelet;
let cluster: Cluster;
let server: Listening;

beforeAll(async () => {
  kubelet = await startFakeKubelet();
  cluster = await testCluster({ kubeletClient: { ca: kubelet.servingCA, cert: kubelet.client.cert, key: kubelet.client.key } });
  await cluster.client.resource({ version: 'v1', resource: 'nodes' }).create(nodeFor('n1', kubelet.port));
  await cluster.client.resource({ version: 'v1', resource: 'pods' }).create({
    metadata: { name: 'web', namespace: 'default' },
    spec: { nodeName: 'n1', containers: [{ name: 'app', image: 'busybox' }] },
  });
  server = await cluster.listen();
});
afterAll(async () => {
  await cluster.close();
  await kubelet.close();
});

/** A GET over node:http, resolved with the response once its headers arrived. */
function open(path: string): Promise<{ res: IncomingMessage; abort: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, (res) => resolve({ res, abort: () => req.destroy() }));
    req.on('error', reject);
    req.end();
  });
}

/** The next chunk a response delivers, as text. */
function nextChunk(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => res.once('data', (c: Buffer) => resolve(c.toString('utf8'))));
}

describe('a followed log over HTTP', () => {
  it('arrives chunk by chunk as text/plain, and ends when the agent ends it', async () => {
    let write: ((s: string) => void) | undefined;
    let end: (() => void) | undefined;
    kubelet.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('one\n');
      write = (s) => res.write(s);
      end = () => res.end();
    };
    const { res } = await open('/api/v1/namespaces/default/pods/web/log?follow=true');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain');
    expect(await nextChunk(res)).toBe('one\n');
    write!('two\n');
    expect(await nextChunk(res)).toBe('two\n');
    const ended = new Promise((resolve) => res.once('end', resolve));
    res.resume();
    end!();
    await ended;
  });

  it('aborts the request to the agent when the client goes away', async () => {
    kubelet.handle = (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('start\n');
    };
    const { res, abort } = await open('/api/v1/namespaces/default/pods/web/log?follow=true');
    expect(await nextChunk(res)).toBe('start\n');
    const agentClosed = kubelet.closed();
    abort();
    await agentClosed;
  });

  it('answers an API error as a JSON Status', async () => {
    const { res } = await open('/api/v1/namespaces/default/pods/web/log?tailLines=-1');
    expect(res.statusCode).toBe(422);
    const chunks: Buffer[] = [];
    for await (const c of res) chunks.push(c as Buffer);
    expect(JSON.parse(Buffer.concat(chunks).toString())).toMatchObject({
      reason: 'Invalid',
      message: 'PodLogOptions "web" is invalid: tailLines: Invalid value: -1: must be greater than or equal to 0',
      details: { name: 'web', kind: 'PodLogOptions', causes: [{ reason: 'FieldValueInvalid', field: 'tailLines' }] },
    });
  });
});

describe('streamedResponse', () => {
  it('answers application/octet-stream without a content type, and 204 with no body', async () => {
    const chunks = (async function* () {
      yield new TextEncoder().encode('x');
    })();
    const res = streamedResponse(200, streamedBody({ chunks }));
    expect(res.headers.get('content-type')).toBe('application/octet-stream');
    expect(await res.text()).toBe('x');
    let released = false;
    const empty = streamedResponse(204, streamedBody({ chunks: (async function* () {})(), release: () => (released = true) }));
    expect(empty.status).toBe(204);
    expect(empty.body).toBeNull();
    expect(released).toBe(true);
  });

  it("passes a proxied answer's headers on, but not its framing", () => {
    const body = streamedBody({
      chunks: (async function* () {})(),
      contentType: 'text/html',
      headers: { 'x-a': '1', 'transfer-encoding': 'chunked', connection: 'close', 'content-length': '9' },
    });
    const res = streamedResponse(200, body);
    expect([...res.headers]).toEqual([
      ['content-type', 'text/html'],
      ['x-a', '1'],
    ]);
  });
});

describe('proxiedRequestHeaders', () => {
  it('drops credentials, impersonation, the Host and hop-by-hop headers', () => {
    const headers: Record<string, string> = {
      authorization: 'Bearer t',
      'impersonate-user': 'bob',
      'impersonate-group': 'g',
      host: 'api',
      connection: 'keep-alive',
      'content-length': '3',
      accept: 'text/plain',
      'content-type': 'application/json',
    };
    expect(proxiedRequestHeaders(Object.keys(headers), (n) => headers[n] ?? null)).toEqual({ accept: 'text/plain', 'content-type': 'application/json' });
  });
});
