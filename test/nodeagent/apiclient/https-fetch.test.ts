import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { generateServingCertificate } from '../../../src/pki/self-signed.js';
import { kubeApiClientFromKubeconfig } from '../../../src/nodeagent/apiclient/kubeconfig-client.js';
import { createHttpsFetch } from '../../../src/nodeagent/apiclient/https-fetch.js';

let server: Server | undefined;
let dir: string | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/** An HTTPS server answering each request with what it received, counting connections. */
async function echoServer(): Promise<{ url: string; ca: string; connections: () => number }> {
  const pki = await generateServingCertificate({ hosts: ['127.0.0.1', 'localhost'] });
  let connections = 0;
  server = createServer({ cert: pki.serving.cert, key: pki.serving.key }, (req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, url: req.url, authorization: req.headers.authorization ?? '', body }));
    });
  });
  server.on('secureConnection', () => connections++);
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
  return { url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, ca: pki.ca.cert, connections: () => connections };
}

describe('the HTTPS transport', () => {
  it('re-reads tokenFile for every request, so a rotated token is sent', async () => {
    const { url, ca } = await echoServer();
    dir = mkdtempSync(join(tmpdir(), 'memkube-token-'));
    writeFileSync(join(dir, 'ca.crt'), ca);
    writeFileSync(join(dir, 'token'), 'first\n');
    writeFileSync(
      join(dir, 'kubeconfig'),
      stringify({
        apiVersion: 'v1',
        kind: 'Config',
        clusters: [{ name: 'c', cluster: { server: url, 'certificate-authority': 'ca.crt' } }],
        users: [{ name: 'u', user: { tokenFile: 'token' } }],
        contexts: [{ name: 'x', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'x',
      }),
    );
    const client = kubeApiClientFromKubeconfig(join(dir, 'kubeconfig'));
    expect(await client.request('POST', '/api/v1/x', { body: { a: 1 }, query: { dryRun: 'All' } })).toEqual({
      method: 'POST',
      url: '/api/v1/x?dryRun=All',
      authorization: 'Bearer first',
      body: '{"a":1}',
    });
    writeFileSync(join(dir, 'token'), 'second\n');
    expect(((await client.request('GET', '/api/v1/x')) as { authorization?: string }).authorization).toBe('Bearer second');
    client.close();
  });

  it('keeps one connection alive across requests, and refuses plain http URLs', async () => {
    const { url, ca, connections } = await echoServer();
    const transport = createHttpsFetch({ ca: [ca] });
    for (let i = 0; i < 3; i++) {
      const res = await transport.fetch(new Request(`${url}/n/${i}`));
      expect(JSON.parse(await res.text())).toMatchObject({ url: `/n/${i}` });
    }
    expect(connections()).toBe(1);
    await expect(transport.fetch(new Request('http://127.0.0.1:1/'))).rejects.toThrow('unsupported protocol scheme "http"');
    transport.close();
  });
});
