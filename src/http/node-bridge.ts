/**
 * node:http ↔ Fetch: an IncomingMessage as a Fetch `Request` (its body streamed, not buffered) and a
 * Fetch `Response` written to a ServerResponse with the headers sent at once and a flush per chunk
 * (watch), its body cancelled when the client goes. `listen()` and the framework adapters
 * (`adapters/`) share it.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { ClientCertificate } from '../auth/authn/request-authenticator.js';
import { endInBatch } from './answer-batch.js';
import { entityTooLarge } from './decode.js';
import { isEncodedAnswer, type EncodedAnswer } from './encode.js';
import { httpRequestHandlerOf, type FetchHandler, type HttpAnswer, type HttpRequestHandler, type HttpRequest } from './handler.js';

/**
 * The Fetch `Request` of a node request. `path` (the request target, `req.url` by default) is read
 * against `base`'s origin; `body`, when given, stands for a body a framework already read.
 */
export function toFetchRequest(req: IncomingMessage, base: string | URL, path = req.url ?? '/', body?: Uint8Array): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') {
    if (body) {
      headers.delete('content-length');
      init.body = body;
    } else {
      init.body = bodyStream(req);
      init.duplex = 'half';
    }
  }
  // `//x/api` is a path, not a protocol-relative URL naming host x.
  const url = path.startsWith('/') ? new URL(new URL(base).origin + path) : new URL(path, base);
  return new Request(url, init);
}

/**
 * A node request's body as a byte stream read on demand: a body the handler never reads is left
 * to node:http, which discards it once the response is sent; one it stops reading (413 on a
 * chunked body) is drained and discarded. Either way the connection stays usable for the next
 * request (`Readable.toWeb` reads ahead and, once cancelled, leaves the rest of the body unread,
 * so a keep-alive client's next request on that connection hangs until the socket times out).
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const onData = (chunk: Buffer) => {
    controller?.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    req.pause();
  };
  const onEnd = () => {
    controller?.close();
    detach();
  };
  const onError = (e: Error) => {
    controller?.error(e);
    detach();
  };
  function detach() {
    req.off('data', onData).off('end', onEnd).off('error', onError);
    controller = undefined;
  }
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (!started) {
          started = true;
          controller = c;
          req.on('data', onData).on('end', onEnd).on('error', onError);
        }
        req.resume();
      },
      cancel() {
        detach();
        req.resume();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Writes a Fetch `Response` to a node response; resolves once it is written or the client left. */
export async function sendFetchResponse(response: Response, res: ServerResponse): Promise<void> {
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
  // A body that fails while the socket does not drain (a watch closed because its client stopped
  // reading) cannot be ended cleanly behind the unsent bytes: the connection is dropped instead.
  let failed = false;
  let wake: (() => void) | undefined;
  reader.closed.catch(() => {
    failed = true;
    wake?.();
  });
  const drained = () =>
    new Promise<void>((resolve) => {
      const done = () => {
        res.off('drain', done).off('close', done);
        wake = undefined;
        resolve();
      };
      wake = done;
      res.on('drain', done).on('close', done);
    });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await drained();
      if (failed && res.writableNeedDrain) {
        res.destroy();
        return;
      }
      if (res.destroyed) break;
    }
  } catch {
    /* the client went away, or the stream failed after the headers were sent */
  }
  res.end();
}

/**
 * The TLS client certificate of a node request, as the x509 authenticator reads it (undefined over
 * plain HTTP or when the client sent none). The server asks for certificates and verifies them
 * against its client CAs without refusing the handshake (`requestCert`, `rejectUnauthorized: false`).
 */
export function clientCertificateOf(req: IncomingMessage): ClientCertificate | undefined {
  const socket = req.socket as Partial<TLSSocket>;
  if (!socket.encrypted || typeof socket.getPeerCertificate !== 'function') return undefined;
  const cert = socket.getPeerCertificate();
  if (!cert || Object.keys(cert).length === 0) return undefined;
  const field = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const subject = cert.subject as unknown as Record<string, string | string[] | undefined> | undefined;
  const usage = (cert as { ext_key_usage?: string[] }).ext_key_usage;
  return {
    verified: socket.authorized === true,
    error: socket.authorizationError === undefined ? undefined : goCertificateError(String(socket.authorizationError)),
    commonName: field(subject?.CN)[0] ?? '',
    organizations: field(subject?.O),
    ...(usage ? { extendedKeyUsage: usage } : {}),
    ...(cert.raw ? { sha256: createHash('sha256').update(cert.raw).digest('hex') } : {}),
    uids: field(subject?.[X509_UID_OID]),
    ...(cert.valid_to ? { notAfter: Date.parse(cert.valid_to) } : {}),
  };
}

/** The subject attribute of a user's UID (k8s.io/apimachinery `asn1.X509UID`); Node names unknown attributes by OID. */
const X509_UID_OID = '1.3.6.1.4.1.57683.2';

/** Go's x509 words for OpenSSL's verification failures. */
function goCertificateError(code: string): string {
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID') return 'x509: certificate has expired or is not yet valid';
  return 'x509: certificate signed by unknown authority';
}

/** `http(s)://<Host header>` of a node request (`localhost` when it has none or a malformed one). */
export function originOf(req: IncomingMessage): string {
  const scheme = (req.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
  try {
    return new URL(`${scheme}://${req.headers.host ?? 'localhost'}`).origin;
  } catch {
    return `${scheme}://localhost`;
  }
}

/** Methods a Fetch `Request` refuses (`new Request` throws), answered 400 as the Fetch path answers them. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);
const NORMALIZED_METHODS = new Set(['DELETE', 'GET', 'HEAD', 'OPTIONS', 'POST', 'PUT']);

/**
 * A node request as the handler reads it, without a Fetch `Request`: headers are looked up in
 * node's raw headers, the body is read from the stream when asked for.
 */
class NodeHttpRequest implements HttpRequest {
  private byName: Map<string, string> | undefined;

  constructor(
    private readonly req: IncomingMessage,
    readonly method: string,
    readonly url: URL,
    private readonly base: string | URL,
    private readonly path: string,
    private readonly given: Uint8Array | undefined,
  ) {}

  header(name: string): string | null {
    if (!this.byName) {
      // Joined with ', ' as Fetch Headers joins repeated fields.
      const map = new Map<string, string>();
      const raw = this.req.rawHeaders;
      for (let i = 0; i < raw.length; i += 2) {
        const key = raw[i]!.toLowerCase();
        const prev = map.get(key);
        map.set(key, prev === undefined ? raw[i + 1]! : `${prev}, ${raw[i + 1]!}`);
      }
      if (this.given) map.delete('content-length');
      this.byName = map;
    }
    return this.byName.get(name) ?? null;
  }

  get impersonates(): boolean {
    const raw = this.req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.length > 12 && raw[i]!.toLowerCase().startsWith('impersonate-')) return true;
    return false;
  }

  headerValues(name: string): string[] {
    const out: string[] = [];
    const raw = this.req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) if (raw[i]!.toLowerCase() === name) out.push(raw[i + 1]!);
    return out;
  }

  headerNames(): string[] {
    const out = new Set<string>();
    const raw = this.req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) out.add(raw[i]!.toLowerCase());
    return [...out];
  }

  get remoteAddress(): string | undefined {
    return this.req.socket.remoteAddress;
  }

  get clientCertificate(): ClientCertificate | undefined {
    return clientCertificateOf(this.req);
  }

  headers(): Headers {
    const headers = new Headers();
    const raw = this.req.rawHeaders;
    for (let i = 0; i < raw.length; i += 2) headers.append(raw[i]!, raw[i + 1]!);
    if (this.given) headers.delete('content-length');
    return headers;
  }

  request(): Request {
    return toFetchRequest(this.req, this.base, this.path, this.given);
  }

  body(limit: number): Promise<Uint8Array> {
    if (this.given) return this.given.byteLength > limit ? Promise.reject(entityTooLarge(limit)) : Promise.resolve(this.given);
    const declared = Number(this.header('content-length'));
    if (Number.isFinite(declared) && declared > limit) return Promise.reject(entityTooLarge(limit));
    return readNodeBody(this.req, limit);
  }
}

/**
 * Reads a node request's body, at most `limit` bytes: past it the rest is left to flow away
 * unread (so a keep-alive connection stays usable) and the answer is 413.
 */
function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const detach = () => {
      req.off('data', onData).off('end', onEnd).off('error', onError);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > limit) {
        detach();
        req.resume();
        reject(entityTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      detach();
      const all = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      resolve(new Uint8Array(all.buffer, all.byteOffset, all.byteLength));
    };
    const onError = (e: Error) => {
      detach();
      reject(e);
    };
    req.on('data', onData).on('end', onEnd).on('error', onError);
  });
}

/**
 * Writes an encoded answer: one write with its Content-Length, no stream; `batched`, with the other
 * answers of this turn of the event loop (answer-batch.ts).
 */
function sendEncoded(answer: EncodedAnswer, res: ServerResponse, batched: boolean): void {
  const headers: Record<string, string> = {};
  answer.headers?.forEach((value, key) => {
    headers[key] = value;
  });
  headers['content-type'] = answer.contentType;
  // genericfilters.WithCacheControl: the default unless the handler chose (the issuer discovery documents do).
  headers['cache-control'] ??= 'no-cache, private';
  if (answer.auditID !== undefined) headers['audit-id'] = answer.auditID;
  // A whole body in hand is sent with its length, as Go's net/http does for an answer that fits its
  // buffer: node would frame it chunked otherwise (writeHead sets the head before the body is seen).
  // As bytes: node writes a string body in one piece with the head, in the body's encoding, which
  // would encode again header values that already carry UTF-8 bytes (a Warning quoting a field).
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
  headers['content-length'] = String(body.length);
  res.writeHead(answer.status, headers);
  if (batched) endInBatch(res, body);
  else res.end(body);
}

/**
 * Writes a handler's answer to a node response; resolves once it is written or the client left,
 * or, for a whole answer `batched`, once it is handed to the batch.
 */
async function sendAnswer(answer: HttpAnswer, res: ServerResponse, batched: boolean): Promise<void> {
  if (isEncodedAnswer(answer)) return sendEncoded(answer, res, batched);
  return sendFetchResponse(answer, res);
}

/** The origin of the last base URL text asked about: a server serves every request on the same one. */
let lastBase: string | undefined;
let lastOrigin = '';

/** `new URL(base).origin`, without parsing the same base text again for every request. */
function originOfBase(base: string | URL): string {
  if (typeof base !== 'string') return base.origin;
  if (base !== lastBase) {
    lastOrigin = new URL(base).origin;
    lastBase = base;
  }
  return lastOrigin;
}

/** How {@link serveNodeRequestWithCore} serves a request. */
interface CoreServeOptions {
  /** The request target to serve; `req.url` by default. */
  readonly path?: string;
  /** A body a framework already read. */
  readonly body?: Uint8Array;
  /**
   * A whole answer is written with the others of its turn of the event loop (answer-batch.ts): for
   * a server of memkube's own, not for a framework's, which may go on to act on the response once
   * this resolves.
   */
  readonly batched?: boolean;
}

/**
 * Serves one node request with a handler's core: no Fetch `Request` or `Response` is made unless
 * the path needs one (streams, OpenAPI). 400 when the request makes no URL, 500 when the handler
 * fails (it answers API errors itself, as Status).
 */
export async function serveNodeRequestWithCore(
  core: HttpRequestHandler,
  req: IncomingMessage,
  res: ServerResponse,
  base: string | URL,
  { path = req.url ?? '/', body, batched = false }: CoreServeOptions = {},
): Promise<void> {
  let request: HttpRequest;
  try {
    const raw = req.method ?? 'GET';
    const upper = raw.toUpperCase();
    if (FORBIDDEN_METHODS.has(upper)) throw new TypeError(`'${raw}' HTTP method is unsupported.`);
    // As a Fetch Request normalizes them: these six are upper-cased, any other method (PATCH) is kept as sent.
    const method = NORMALIZED_METHODS.has(upper) ? upper : raw;
    // `//x/api` is a path, not a protocol-relative URL naming host x (as in toFetchRequest).
    const url = path.startsWith('/') ? new URL(originOfBase(base) + path) : new URL(path, base);
    request = new NodeHttpRequest(req, method, url, base, path, method !== 'GET' && method !== 'HEAD' ? body : undefined);
  } catch {
    res.writeHead(400).end();
    return;
  }
  try {
    await sendAnswer(await core(request), res, batched);
  } catch {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
}

/**
 * Serves one node request with a Fetch handler: 400 when it makes no Fetch `Request`, 500 when the
 * handler fails (it answers API errors itself, as Status). `path` is the request target to serve
 * (`req.url` by default); `body` a body a framework already read. A handler made by
 * `createFetchHandler` is served through its core, without Fetch objects.
 */
export async function serveNodeRequest(
  handler: FetchHandler,
  req: IncomingMessage,
  res: ServerResponse,
  options: { base?: string; path?: string; body?: Uint8Array } = {},
): Promise<void> {
  const core = httpRequestHandlerOf(handler);
  if (core) return serveNodeRequestWithCore(core, req, res, options.base ?? originOf(req), options);
  let request: Request;
  try {
    request = toFetchRequest(req, options.base ?? originOf(req), options.path, options.body);
  } catch {
    res.writeHead(400).end();
    return;
  }
  try {
    await sendFetchResponse(await handler(request), res);
  } catch {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
}
