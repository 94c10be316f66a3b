/**
 * A small node:http client for the reliability suite: keep-alive connections from an Agent, raw
 * bytes in (so bodies can be malformed on purpose), status and text out. node:http rather than
 * fetch so the number of sockets and their reuse are under the test's control.
 */
import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';

/** One answer: status, headers and the body as text. */
export interface HttpAnswer {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

/** Options of {@link send}. */
export interface SendOptions {
  readonly method?: string;
  /** A string is sent as UTF-8; bytes as they are. */
  readonly body?: string | Uint8Array;
  readonly headers?: Record<string, string>;
  readonly agent?: Agent;
  /** Fails the request after this many milliseconds (default 20 s): a hung server fails the test. */
  readonly timeoutMs?: number;
}

/** A keep-alive agent holding up to `sockets` connections. */
export function keepAliveAgent(sockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: sockets, maxFreeSockets: sockets });
}

/** Sends one request to `base` + `path` (the path goes on the wire as given, unnormalized). */
export function send(base: string, path: string, options: SendOptions = {}): Promise<HttpAnswer> {
  const url = new URL(base);
  const body = typeof options.body === 'string' ? Buffer.from(options.body, 'utf8') : options.body;
  return new Promise<HttpAnswer>((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: options.method ?? 'GET',
        path,
        agent: options.agent,
        headers: { ...(body ? { 'content-length': String(body.byteLength) } : {}), ...options.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 20_000, () => req.destroy(new Error(`${options.method ?? 'GET'} ${path}: no answer in time`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** {@link send} with a JSON body (`application/json` unless `headers` says otherwise). */
export function sendJson(base: string, path: string, method: string, value: unknown, options: SendOptions = {}): Promise<HttpAnswer> {
  return send(base, path, { ...options, method, body: JSON.stringify(value), headers: { 'content-type': 'application/json', ...options.headers } });
}
