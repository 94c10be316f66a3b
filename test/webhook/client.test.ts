/**
 * The webhook client against real servers on 127.0.0.1: what it sends, its deadline, and Go's
 * words for each way a call fails.
 */
import { createServer, type Server } from 'node:https';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateServingCertificate, type ServingCertificate } from '../../src/pki/self-signed.js';
import { callWebhook, goDuration, MAX_WEBHOOK_RESPONSE_BYTES, requestUrl, WebhookCallError } from '../../src/webhook/client.js';

let certs: ServingCertificate;
beforeAll(async () => {
  certs = await generateServingCertificate({ hosts: ['127.0.0.1'], commonName: 'client-test' });
});

const servers: (Server | TcpServer)[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    (s as Server).closeAllConnections?.();
    await new Promise((resolve) => s.close(resolve));
  }
});

async function listen<S extends Server | TcpServer>(server: S): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function failure(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(WebhookCallError);
    return (e as Error).message;
  }
  throw new Error('the call succeeded');
}

describe('callWebhook', () => {
  it('posts the body as JSON with the headers kube-apiserver sends, and answers status, type and body', async () => {
    let seen: { method?: string; url?: string; headers?: Record<string, unknown>; body?: string } = {};
    const port = await listen(
      createServer({ cert: certs.serving.cert, key: certs.serving.key }, (req, res) => {
        let body = '';
        req.on('data', (d: Buffer) => (body += d.toString()));
        req.on('end', () => {
          seen = { method: req.method, url: req.url, headers: req.headers, body };
          res.writeHead(201, { 'Content-Type': 'application/json; charset=utf-8' });
          res.end('{"ok":true}');
        });
      }),
    );
    const res = await callWebhook({ endpoint: { url: `https://127.0.0.1:${port}/a//b/./c/`, ca: [certs.ca.cert] }, body: '{"x":1}' });
    expect(res.status).toBe(201);
    expect(res.contentType).toBe('application/json; charset=utf-8');
    expect(res.body.toString()).toBe('{"ok":true}');
    expect(seen).toMatchObject({
      method: 'POST',
      url: '/a/b/c?timeout=30s',
      body: '{"x":1}',
      headers: { host: `127.0.0.1:${port}`, 'content-type': 'application/json', accept: 'application/json, */*', 'user-agent': 'kube-apiserver-admission' },
    });
  });

  it('gives up at its deadline: context deadline exceeded, before or after the answer began', async () => {
    const port = await listen(
      createServer({ cert: certs.serving.cert, key: certs.serving.key }, (req, res) => {
        if (req.url?.startsWith('/headers')) {
          res.writeHead(200, { 'Content-Type': 'application/json' });
          res.write('{');
        }
      }),
    );
    const started = Date.now();
    expect(await failure(callWebhook({ endpoint: { url: `https://127.0.0.1:${port}/slow`, ca: [certs.ca.cert] }, body: '{}', timeoutMs: 150 }))).toBe(
      `Post "https://127.0.0.1:${port}/slow?timeout=150ms": context deadline exceeded`,
    );
    expect(Date.now() - started).toBeLessThan(5000);
    expect(await failure(callWebhook({ endpoint: { url: `https://127.0.0.1:${port}/headers`, ca: [certs.ca.cert] }, body: '{}', timeoutMs: 150 }))).toBe(
      'unexpected error when reading response body. Please retry. Original error: context deadline exceeded',
    );
  });

  it('reports a server that hangs up without answering as EOF', async () => {
    const port = await listen(createServer({ cert: certs.serving.cert, key: certs.serving.key }, (req) => req.socket.destroy()));
    expect(await failure(callWebhook({ endpoint: { url: `https://127.0.0.1:${port}/`, ca: [certs.ca.cert] }, body: '{}' }))).toBe(
      `Post "https://127.0.0.1:${port}/?timeout=30s": EOF`,
    );
  });

  it('stops reading an answer larger than memkube holds, and says so', async () => {
    const port = await listen(
      createServer({ cert: certs.serving.cert, key: certs.serving.key }, (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        const chunk = Buffer.alloc(1 << 20, 0x20);
        let sent = 0;
        const write = (): void => {
          while (sent <= MAX_WEBHOOK_RESPONSE_BYTES) {
            sent += chunk.length;
            if (!res.write(chunk)) {
              res.once('drain', write);
              return;
            }
          }
          res.end();
        };
        res.on('error', () => undefined);
        write();
      }),
    );
    expect(await failure(callWebhook({ endpoint: { url: `https://127.0.0.1:${port}/`, ca: [certs.ca.cert] }, body: '{}' }))).toBe(
      `unexpected error when reading response body. Please retry. Original error: memkube reads at most ${MAX_WEBHOOK_RESPONSE_BYTES} bytes of a webhook's answer`,
    );
  });

  it('trusts the default roots without a CA bundle: a private CA is unknown', async () => {
    const port = await listen(createServer({ cert: certs.serving.cert, key: certs.serving.key }, (_req, res) => res.end('{}')));
    expect(await failure(callWebhook({ endpoint: { url: `https://127.0.0.1:${port}/x` }, body: '{}' }))).toBe(
      `Post "https://127.0.0.1:${port}/x?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
  });

  it('refuses an expired certificate before it looks at the name or the chain', async () => {
    const old = await generateServingCertificate({ hosts: ['elsewhere.example'], now: Date.UTC(2020, 0, 1), validityMs: 3_600_000, commonName: 'old' });
    const port = await listen(createServer({ cert: old.serving.cert, key: old.serving.key }, (_req, res) => res.end('{}')));
    const message = await failure(callWebhook({ endpoint: { url: `https://127.0.0.1:${port}/x`, ca: [old.ca.cert] }, body: '{}' }));
    expect(message).toMatch(
      new RegExp(
        `^Post "https://127\\.0\\.0\\.1:${port}/x\\?timeout=30s": tls: failed to verify certificate: x509: certificate has expired or is not yet valid: current time \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ is after 2020-01-01T01:00:00Z$`,
      ),
    );
  });

  it('checks the name of the server given apart from the address dialed', async () => {
    const svc = await generateServingCertificate({ hosts: ['hook.ns.svc'], commonName: 'svc' });
    const port = await listen(createServer({ cert: svc.serving.cert, key: svc.serving.key }, (_req, res) => res.end('{}')));
    const endpoint = { url: 'https://hook.ns.svc:443/convert', ca: [svc.ca.cert], dial: async () => ({ host: '127.0.0.1', port }) };
    expect((await callWebhook({ endpoint: { ...endpoint, serverName: 'hook.ns.svc' }, body: '{}' })).status).toBe(200);
    expect(await failure(callWebhook({ endpoint: { ...endpoint, serverName: 'other.ns.svc' }, body: '{}' }))).toBe(
      'Post "https://hook.ns.svc:443/convert?timeout=30s": tls: failed to verify certificate: x509: certificate is valid for hook.ns.svc, not other.ns.svc',
    );
    expect(
      await failure(
        callWebhook({
          endpoint: {
            ...endpoint,
            dial: () => Promise.reject(new Error('no endpoints available for service "hook"')),
          },
          body: '{}',
        }),
      ),
    ).toBe('Post "https://hook.ns.svc:443/convert?timeout=30s": no endpoints available for service "hook"');
  });

  it('reports a refused connection and an unknown host in Go words', async () => {
    const port = await listen(createTcpServer());
    await new Promise((resolve) => servers.pop()!.close(resolve));
    expect(await failure(callWebhook({ endpoint: { url: `https://127.0.0.1:${port}` }, body: '{}' }))).toBe(
      `Post "https://127.0.0.1:${port}/?timeout=30s": dial tcp 127.0.0.1:${port}: connect: connection refused`,
    );
    expect(await failure(callWebhook({ endpoint: { url: 'https://no-such-host.invalid/x' }, body: '{}' }))).toBe(
      'Post "https://no-such-host.invalid/x?timeout=30s": dial tcp: lookup no-such-host.invalid: no such host',
    );
  });

  it('answers a server that talks garbage instead of TLS with a Go TLS error, never a crash', async () => {
    const port = await listen(createTcpServer((socket) => socket.end(Buffer.alloc(64, 0x16), () => socket.destroy())));
    const message = await failure(callWebhook({ endpoint: { url: `https://127.0.0.1:${port}/x`, ca: [certs.ca.cert] }, body: '{}' }));
    expect(message).toMatch(new RegExp(`^Post "https://127\\.0\\.0\\.1:${port}/x\\?timeout=30s": .+`));
  });
});

describe('goDuration and requestUrl', () => {
  it('print durations as Go does', () => {
    expect([30_000, 500, 1500, 90_000, 3_600_000, 0].map(goDuration)).toEqual(['30s', '500ms', '1.5s', '1m30s', '1h0m0s', '0s']);
  });

  it('clean the path as path.Join does and keep the host as written', () => {
    expect(requestUrl('https://hook.ns.svc:443', 30_000)).toBe('https://hook.ns.svc:443/?timeout=30s');
    expect(requestUrl('https://[::1]:8443/a/../b/', 1000)).toBe('https://[::1]:8443/b?timeout=1s');
  });
});
