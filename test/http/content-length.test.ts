/** Whole answers over node:http carry their length, as kube-apiserver's (Go's net/http) do; only streams are chunked. */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/cluster.js';
import type { Listening } from '../../src/http/listen.js';
import { testCluster } from '../support/cluster.js';

let cluster: Cluster;
let server: Listening;
beforeAll(async () => {
  cluster = await testCluster();
  server = await cluster.listen();
});
afterAll(async () => {
  await cluster.close();
});

function send(method: string, path: string, body?: string): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${server.url}${path}`, { method, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('Content-Length of whole answers', () => {
  it('is the byte length of the body for an object, a list, a Status and a create', async () => {
    const created = await send('POST', '/api/v1/namespaces/default/configmaps', JSON.stringify({ metadata: { name: 'é-data' }, data: { k: 'ünïcödé' } }));
    const answers = [
      created,
      await send('GET', '/api/v1/namespaces/default/configmaps'),
      await send('GET', '/api/v1/namespaces/default/configmaps/missing'),
      await send('GET', '/version'),
    ];
    expect(answers.map((a) => a.status)).toEqual([422, 200, 404, 200]);
    for (const a of answers) {
      expect(a.headers['transfer-encoding']).toBeUndefined();
      expect(Number(a.headers['content-length'])).toBe(a.body.length);
    }
    const ok = await send('POST', '/api/v1/namespaces/default/configmaps', JSON.stringify({ metadata: { name: 'data' }, data: { k: 'ünïcödé' } }));
    expect(ok.status).toBe(201);
    expect(Number(ok.headers['content-length'])).toBe(ok.body.length);
    expect(ok.body.toString('utf8')).toContain('ünïcödé');
  });

  it('is left out of a watch, which streams', async () => {
    const events = await new Promise<IncomingHttpHeaders>((resolve, reject) => {
      const req = httpRequest(`${server.url}/api/v1/namespaces/default/configmaps?watch=true&timeoutSeconds=1`, (res) => {
        resolve(res.headers);
        req.destroy();
      });
      req.on('error', (e) => (e.message.includes('socket hang up') ? undefined : reject(e)));
      req.end();
    });
    expect(events['content-length']).toBeUndefined();
    expect(events['transfer-encoding']).toBe('chunked');
  });
});
