/**
 * The node:http adapter: a few lines that forward to the Fetch-standard handler, streaming
 * responses (watch) with headers sent at once and a flush per chunk.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { stringify } from 'yaml';
import type { FetchHandler } from './handler.js';

/** Options of `cluster.listen()`. */
export interface ListenOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** `127.0.0.1` by default. */
  host?: string;
}

/** A running server. */
export interface Listening {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  readonly port: number;
  /** Stops accepting, ends open connections (watches included) and resolves once closed. */
  close(): Promise<void>;
  /** A kubeconfig YAML pointing at this server, with its context current. */
  kubeconfig(options?: { name?: string; namespace?: string }): string;
}

function toRequest(req: IncomingMessage, base: string): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (hasBody) {
    init.body = Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
    init.duplex = 'half';
  }
  return new Request(new URL(req.url ?? '/', base), init);
}

async function sendResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => {
    if (!res.writableFinished) void reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
      if (res.destroyed) break;
    }
  } catch {
    /* the client went away, or the stream failed after the headers were sent */
  }
  res.end();
}

/** A kubeconfig for an http server. */
export function kubeconfigFor(url: string, name = 'memkube', namespace?: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster: { server: url, 'insecure-skip-tls-verify': true } }],
    users: [{ name, user: {} }],
    contexts: [{ name, context: { cluster: name, user: name, ...(namespace ? { namespace } : {}) } }],
    'current-context': name,
    preferences: {},
  });
}

/** Serves a Fetch handler on node:http. */
export async function listen(handler: FetchHandler, options: ListenOptions = {}): Promise<Listening> {
  const host = options.host ?? '127.0.0.1';
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  let base = `http://${hostForUrl}`;
  const server = createServer((req, res) => {
    let request: Request;
    try {
      request = toRequest(req, base);
    } catch {
      res.writeHead(400).end();
      return;
    }
    handler(request)
      .then((response) => sendResponse(response, res))
      .catch(() => {
        if (!res.headersSent) res.writeHead(500);
        res.end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${hostForUrl}:${port}`;
  base = url;
  return {
    url,
    port,
    kubeconfig: (o) => kubeconfigFor(url, o?.name, o?.namespace),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
