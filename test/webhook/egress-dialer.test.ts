/**
 * The egress dialer against a real HTTP CONNECT proxy this test runs (node:http's 'connect'
 * event), in front of a real HTTPS server: the webhook client and node:https through the tunnel,
 * over TCP, TLS and a Unix socket, and the selector's words for each way the proxy fails.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server as HttpServer } from 'node:http';
import { createServer as createHttpsServer, get as httpsGet, type Server as HttpsServer } from 'node:https';
import { connect as netConnect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generateServingCertificate, type ServingCertificate } from '../../src/pki/self-signed.js';
import { callWebhook, WebhookCallError } from '../../src/webhook/client.js';
import { directDialer, egressHttpsAgent, EgressDialError, httpConnectDialer, type EgressDialer } from '../../src/webhook/egress-dialer.js';

let certs: ServingCertificate;
let otherCerts: ServingCertificate;
let dir: string;
beforeAll(async () => {
  certs = await generateServingCertificate({ hosts: ['127.0.0.1', 'localhost'], commonName: 'egress-test' });
  otherCerts = await generateServingCertificate({ hosts: ['127.0.0.1'], commonName: 'egress-other' });
  dir = mkdtempSync(join(tmpdir(), 'memkube-egress-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const servers: (HttpServer | HttpsServer)[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** An HTTPS server answering every POST or GET with what it saw. */
async function startTarget(): Promise<number> {
  const server = createHttpsServer({ cert: certs.serving.cert, key: certs.serving.key }, (req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ method: req.method, url: req.url, body }));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** What the proxy does with a CONNECT. */
type ProxyBehaviour =
  | { readonly answer: 'tunnel' }
  | { readonly answer: 'raw'; readonly text: string; readonly close?: boolean }
  | { readonly answer: 'close' }
  | { readonly answer: 'silent' };

interface ProxyRecord {
  /** One entry per CONNECT: its target and Host header. */
  readonly connects: { target: string; host: string | undefined }[];
  /** The client certificates presented on TLS connections (their fingerprints). */
  readonly clientCerts: string[];
  /** How many proxy connections the client closed. */
  closed: number;
}

/** An HTTP CONNECT proxy (plain, TLS with a required client certificate, or on a Unix socket). */
async function startProxy(behaviour: ProxyBehaviour, listenOn: { tls?: boolean; uds?: string } = {}): Promise<{ address: string; record: ProxyRecord }> {
  const record: ProxyRecord = { connects: [], clientCerts: [], closed: 0 };
  const server = listenOn.tls
    ? createHttpsServer({ cert: otherCerts.serving.cert, key: otherCerts.serving.key, requestCert: true, rejectUnauthorized: false })
    : createHttpServer();
  server.on('connect', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    sockets.push(socket);
    // The client's side closing (the server allows half-open connections: the end is the signal).
    socket.once('end', () => {
      record.closed++;
      socket.end();
    });
    record.connects.push({ target: req.url ?? '', host: req.headers.host });
    if (listenOn.tls) {
      const peer = (socket as TLSSocket).getPeerCertificate();
      record.clientCerts.push(peer.fingerprint256 ?? '');
    }
    switch (behaviour.answer) {
      case 'raw':
        if (behaviour.close) socket.end(behaviour.text);
        else socket.write(behaviour.text);
        return;
      case 'close':
        socket.destroy();
        return;
      case 'silent':
        return;
      case 'tunnel': {
        const [host, port] = (req.url ?? '').split(':');
        const upstream = netConnect({ host, port: Number(port) }, () => {
          socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          if (head.length) upstream.write(head);
          upstream.pipe(socket);
          socket.pipe(upstream);
        });
        sockets.push(upstream);
        upstream.on('error', () => socket.destroy());
        socket.on('error', () => upstream.destroy());
      }
    }
  });
  servers.push(server);
  if (listenOn.uds) {
    await new Promise<void>((resolve) => server.listen(listenOn.uds, resolve));
    return { address: listenOn.uds, record };
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { address: `127.0.0.1:${(server.address() as AddressInfo).port}`, record };
}

async function post(port: number, egress?: EgressDialer, timeoutMs?: number) {
  const res = await callWebhook({
    endpoint: { url: `https://127.0.0.1:${port}/hook`, ca: [certs.ca.cert], ...(egress ? { egress } : {}) },
    body: '{"a":1}',
    timeoutMs,
  });
  return JSON.parse(res.body.toString()) as { method: string; url: string; body: string };
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

const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

describe('the webhook client through an egress dialer', () => {
  it('connects directly with the Direct dialer (and with none): no tunnel', async () => {
    const port = await startTarget();
    const { record } = await startProxy({ answer: 'tunnel' });
    expect(await post(port)).toEqual({ method: 'POST', url: '/hook?timeout=30s', body: '{"a":1}' });
    expect(await post(port, directDialer)).toEqual({ method: 'POST', url: '/hook?timeout=30s', body: '{"a":1}' });
    expect(record.connects).toEqual([]);
  });

  it('tunnels through an HTTP CONNECT proxy over TCP: one CONNECT per call, Host 127.0.0.1, TLS to the target inside', async () => {
    const port = await startTarget();
    const proxy = await startProxy({ answer: 'tunnel' });
    const dialer = httpConnectDialer({ proxy: { tcp: { address: proxy.address } } });
    expect(await post(port, dialer)).toEqual({ method: 'POST', url: '/hook?timeout=30s', body: '{"a":1}' });
    expect(await post(port, dialer)).toMatchObject({ method: 'POST' });
    expect(proxy.record.connects).toEqual([
      { target: `127.0.0.1:${port}`, host: '127.0.0.1' },
      { target: `127.0.0.1:${port}`, host: '127.0.0.1' },
    ]);
  });

  it('speaks TLS to an https:// proxy with the client certificate, trusting its CA bundle', async () => {
    const port = await startTarget();
    const proxy = await startProxy({ answer: 'tunnel' }, { tls: true });
    const dialer = httpConnectDialer({
      proxy: { tcp: { address: proxy.address, tls: { ca: [otherCerts.ca.cert], cert: certs.serving.cert, key: certs.serving.key } } },
    });
    expect(await post(port, dialer)).toMatchObject({ body: '{"a":1}' });
    expect(proxy.record.clientCerts).toEqual([fingerprint(certs.serving.cert)]);
  });

  it("refuses a TLS proxy whose certificate its CA bundle does not vouch for, or whose name does not match, in Go's words", async () => {
    const port = await startTarget();
    const proxy = await startProxy({ answer: 'tunnel' }, { tls: true });
    const untrusted = httpConnectDialer({
      proxy: { tcp: { address: proxy.address, tls: { ca: [certs.ca.cert], cert: certs.serving.cert, key: certs.serving.key } } },
    });
    expect(await failure(post(port, untrusted))).toBe(
      `Post "https://127.0.0.1:${port}/hook?timeout=30s": tls: failed to verify certificate: x509: certificate signed by unknown authority`,
    );
    const wrongName = httpConnectDialer({
      proxy: {
        tcp: { address: proxy.address, tls: { ca: [otherCerts.ca.cert], cert: certs.serving.cert, key: certs.serving.key, serverName: 'proxy.example' } },
      },
    });
    expect(await failure(post(port, wrongName))).toBe(
      `Post "https://127.0.0.1:${port}/hook?timeout=30s": tls: failed to verify certificate: x509: certificate is not valid for any names, but wanted to match proxy.example`,
    );
    expect(proxy.record.connects).toEqual([]);
  });

  it('tunnels through a proxy on a Unix socket', async () => {
    const port = await startTarget();
    const path = join(dir, 'proxy.sock');
    const proxy = await startProxy({ answer: 'tunnel' }, { uds: path });
    expect(await post(port, httpConnectDialer({ proxy: { uds: path } }))).toMatchObject({ body: '{"a":1}' });
    expect(proxy.record.connects).toEqual([{ target: `127.0.0.1:${port}`, host: '127.0.0.1' }]);
  });

  it.each([
    ['407 Proxy Authentication Required', 407],
    ['403 Forbidden', 403],
    ['502 Bad Gateway', 502],
  ])('reports a proxy refusing the CONNECT (%s) as the egress selector does, and closes the connection', async (status, code) => {
    const port = await startTarget();
    const proxy = await startProxy({ answer: 'raw', text: `HTTP/1.1 ${status}\r\nContent-Length: 0\r\n\r\n` });
    const message = await failure(post(port, httpConnectDialer({ proxy: { tcp: { address: proxy.address } } })));
    expect(message).toBe(
      `Post "https://127.0.0.1:${port}/hook?timeout=30s": proxy error from ${proxy.address} while dialing 127.0.0.1:${port}, code ${code}: ${status}`,
    );
    await expect.poll(() => proxy.record.closed).toBe(1);
  });

  it('names the Unix socket as the proxy in its errors', async () => {
    const port = await startTarget();
    const path = join(dir, 'refusing.sock');
    await startProxy({ answer: 'raw', text: 'HTTP/1.1 403 Forbidden\r\n\r\n' }, { uds: path });
    expect(await failure(post(port, httpConnectDialer({ proxy: { uds: path } })))).toBe(
      `Post "https://127.0.0.1:${port}/hook?timeout=30s": proxy error from ${path} while dialing 127.0.0.1:${port}, code 403: 403 Forbidden`,
    );
  });

  it('reports a proxy closing before or in the middle of its answer as an unexpected EOF', async () => {
    const port = await startTarget();
    for (const behaviour of [{ answer: 'close' }, { answer: 'raw', text: 'HTTP/1.1 200 Connection Established\r\nX-A: b\r\n', close: true }] as const) {
      const proxy = await startProxy(behaviour);
      expect(await failure(post(port, httpConnectDialer({ proxy: { tcp: { address: proxy.address } } })))).toBe(
        `Post "https://127.0.0.1:${port}/hook?timeout=30s": reading HTTP response from CONNECT to 127.0.0.1:${port} via proxy ${proxy.address} failed: unexpected EOF`,
      );
    }
  });

  it("refuses a malformed answer, and bytes sent past the answer, with Go's texts", async () => {
    const port = await startTarget();
    const cases: [string, string][] = [
      ['garbage\r\n\r\n', 'reading HTTP response from CONNECT to 127.0.0.1:PORT via proxy PROXY failed: malformed HTTP response "garbage"'],
      ['HTTP/1.1 2000 OK\r\n\r\n', 'reading HTTP response from CONNECT to 127.0.0.1:PORT via proxy PROXY failed: malformed HTTP status code "2000"'],
      ['HTTQ/1.1 200 OK\r\n\r\n', 'reading HTTP response from CONNECT to 127.0.0.1:PORT via proxy PROXY failed: malformed HTTP version "HTTQ/1.1"'],
      ['HTTP/1.1 200 OK\r\n\r\nhello', 'unexpected 5 bytes of buffered data from CONNECT proxy "PROXY"'],
      [
        'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n',
        'reading HTTP response from CONNECT to 127.0.0.1:PORT via proxy PROXY failed: malformed MIME header line: no colon here',
      ],
      [
        'HTTP/1.1 200 OK\r\nBad Key: v\r\n\r\n',
        'reading HTTP response from CONNECT to 127.0.0.1:PORT via proxy PROXY failed: malformed MIME header line: Bad Key: v',
      ],
      [
        'HTTP/1.1 200 OK\r\n  folded: v\r\n\r\n',
        'reading HTTP response from CONNECT to 127.0.0.1:PORT via proxy PROXY failed: malformed MIME header initial line:   folded: v',
      ],
    ];
    for (const [text, expected] of cases) {
      const proxy = await startProxy({ answer: 'raw', text });
      expect(await failure(post(port, httpConnectDialer({ proxy: { tcp: { address: proxy.address } } })))).toBe(
        `Post "https://127.0.0.1:${port}/hook?timeout=30s": ${expected.replace('PORT', String(port)).replace('PROXY', proxy.address)}`,
      );
    }
  });

  it('answers any proxy reply with a tunnel or an EgressDialError, never a crash or a hang', async () => {
    const port = await startTarget();
    let reply = '';
    const server = createHttpServer();
    server.on('connect', (_req: IncomingMessage, socket: Socket) => {
      sockets.push(socket);
      socket.end(reply);
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dialer = httpConnectDialer({ proxy: { tcp: { address: `127.0.0.1:${(server.address() as AddressInfo).port}` } } });
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ maxLength: 200 }), fc.constantFrom('HTTP/1.1 200 OK\r\n\r\n', 'HTTP/1.0 407 x\r\n\r\n')), async (text) => {
        reply = text;
        const outcome = await dialer({ host: '127.0.0.1', port }).then(
          (socket) => {
            socket.destroy();
            return 'tunnel';
          },
          (e: unknown) => {
            expect(e).toBeInstanceOf(EgressDialError);
            return 'error';
          },
        );
        if (!/^HTTP\/\d\.\d 200/.test(text)) expect(outcome).toBe('error');
      }),
      { numRuns: 40 },
    );
  });

  it('stops reading an endless answer at its header limit', async () => {
    const port = await startTarget();
    const proxy = await startProxy({ answer: 'raw', text: `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(4096)}\r\n` });
    const dialer = httpConnectDialer({ proxy: { tcp: { address: proxy.address } }, maxHeaderBytes: 1024 });
    expect(await failure(post(port, dialer))).toBe(
      `Post "https://127.0.0.1:${port}/hook?timeout=30s": reading HTTP response from CONNECT to 127.0.0.1:${port} via proxy ${proxy.address} failed: unexpected EOF`,
    );
  });

  it('reports a proxy that is not there', async () => {
    const port = await startTarget();
    const closed = await startProxy({ answer: 'tunnel' });
    const gone = closed.address;
    const s = servers.pop()!;
    await new Promise((resolve) => s.close(resolve));
    expect(await failure(post(port, httpConnectDialer({ proxy: { tcp: { address: gone } } })))).toBe(
      `Post "https://127.0.0.1:${port}/hook?timeout=30s": dial tcp ${gone}: connect: connection refused`,
    );
    const missing = join(dir, 'missing.sock');
    expect(await failure(post(port, httpConnectDialer({ proxy: { uds: missing } })))).toBe(
      `Post "https://127.0.0.1:${port}/hook?timeout=30s": dial unix ${missing}: connect: no such file or directory`,
    );
    expect(await failure(post(port, httpConnectDialer({ proxy: { tcp: { address: 'proxy.example' } } })))).toBe(
      `Post "https://127.0.0.1:${port}/hook?timeout=30s": dial tcp: address proxy.example: missing port in address`,
    );
  });

  it('gives up at the call deadline while the proxy says nothing, and closes the proxy connection', async () => {
    const port = await startTarget();
    const proxy = await startProxy({ answer: 'silent' });
    expect(await failure(post(port, httpConnectDialer({ proxy: { tcp: { address: proxy.address } } }), 200))).toBe(
      `Post "https://127.0.0.1:${port}/hook?timeout=200ms": context deadline exceeded`,
    );
    await expect.poll(() => proxy.record.closed).toBe(1);
  });
});

describe('egressHttpsAgent', () => {
  function get(port: number, agent: import('node:https').Agent): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      httpsGet({ host: '127.0.0.1', port, path: '/.well-known/openid-configuration', ca: [certs.ca.cert], agent }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve(body));
      }).on('error', reject);
    });
  }

  it('sends node:https requests through the tunnel, verifying the target as usual', async () => {
    const port = await startTarget();
    const proxy = await startProxy({ answer: 'tunnel' });
    const agent = egressHttpsAgent(httpConnectDialer({ proxy: { tcp: { address: proxy.address } } }));
    expect(JSON.parse(await get(port, agent))).toEqual({ method: 'GET', url: '/.well-known/openid-configuration', body: '' });
    expect(proxy.record.connects).toEqual([{ target: `127.0.0.1:${port}`, host: '127.0.0.1' }]);
    agent.destroy();
  });

  it("fails the request with the dialer's message when the proxy refuses", async () => {
    const port = await startTarget();
    const proxy = await startProxy({ answer: 'raw', text: 'HTTP/1.1 403 Forbidden\r\n\r\n' });
    const agent = egressHttpsAgent(httpConnectDialer({ proxy: { tcp: { address: proxy.address } } }));
    const error = await get(port, agent).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(EgressDialError);
    expect((error as Error).message).toBe(`proxy error from ${proxy.address} while dialing 127.0.0.1:${port}, code 403: 403 Forbidden`);
    agent.destroy();
  });

  it('gives up a dial that takes longer than its dial timeout', async () => {
    const port = await startTarget();
    const proxy = await startProxy({ answer: 'silent' });
    const agent = egressHttpsAgent(httpConnectDialer({ proxy: { tcp: { address: proxy.address } } }), { dialTimeoutMs: 100 });
    const error = await get(port, agent).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toBe(`reading HTTP response from CONNECT to 127.0.0.1:${port} via proxy ${proxy.address} failed: context canceled`);
    agent.destroy();
  });
});
