/**
 * A small HTTPS client for calling webhooks the way kube-apiserver calls them
 * (k8s.io/apiserver/pkg/util/webhook `ClientManager.HookClient` over client-go's REST client): one
 * JSON POST with a deadline (30 s by default, also sent as `?timeout=30s`), the server verified
 * against the webhook's CA bundle (or the default roots), a client certificate and a bearer token
 * when the caller has them (the kubeconfig of an authorization webhook), and every failure
 * to talk to the server reported in Go's words (`Post "https://host/path?timeout=30s": dial tcp
 * 127.0.0.1:9443: connect: connection refused`). It knows nothing of kinds or review types: what
 * the answer means is the caller's business (src/webhook/result.ts has the REST client's rules).
 */
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { goParseURL } from '../util/go-url.js';
import type { EgressDialer } from './egress-dialer.js';
import { goConnectionError } from './go-errors.js';
import { certificateProblem } from './tls-verify.js';

/** Where a webhook is and whom to trust. */
export interface WebhookEndpoint {
  /** `https://host[:port][/path]`: the request line, the Host header and the errors name it. */
  readonly url: string;
  /**
   * The address to connect to, resolved when the call dials (a Service reference resolves to an
   * endpoint then); the URL's host and port by default. A rejection is the call's failure, its
   * message in Go's words after `Post "<url>": `.
   */
  readonly dial?: () => Promise<{ readonly host: string; readonly port: number }>;
  /** The name the server's certificate must be valid for (and the SNI); the URL's host by default. */
  readonly serverName?: string;
  /** PEM certificates of the authorities to trust; the default roots when absent. */
  readonly ca?: readonly string[];
  /** A client certificate and its private key (PEM) for mutual TLS (kubeconfig `client-certificate`, `client-key`). */
  readonly clientCertificate?: { readonly cert: string; readonly key: string };
  /** Accept any server certificate (kubeconfig `insecure-skip-tls-verify`). */
  readonly insecureSkipTLSVerify?: boolean;
  /**
   * How to reach the address: through an egress proxy (egress-dialer.ts; kube-apiserver's egress
   * selector); a direct TCP connection when absent. Its failure is the call's, after `Post "<url>": `.
   */
  readonly egress?: EgressDialer;
}

/** One call of a webhook. */
export interface WebhookCall {
  readonly endpoint: WebhookEndpoint;
  /** The JSON request body. */
  readonly body: string;
  /** The deadline of the whole call; Kubernetes' webhook clients allow 30 s. */
  readonly timeoutMs?: number;
  /** A bearer token sent as `Authorization: Bearer <token>` (kubeconfig `token`, `token-file`). */
  readonly bearerToken?: string;
}

/** What the server answered, whatever its status. */
export interface WebhookResponse {
  readonly status: number;
  /** The `Content-Type` header, `''` when absent. */
  readonly contentType: string;
  readonly body: Buffer;
  /** The `Retry-After` header, when the server sent one. */
  readonly retryAfter?: string;
}

/** A failure to talk to the webhook (no HTTP answer), with Go's `url.Error` text as its message. */
export class WebhookCallError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookCallError';
  }
}

/** The deadline of a webhook call when none is given (`setGlobalDefaults` in webhook/authentication.go). */
export const DEFAULT_WEBHOOK_TIMEOUT_MS = 30_000;

/** The User-Agent kube-apiserver's webhook clients send. */
export const WEBHOOK_USER_AGENT = 'kube-apiserver-admission';

/** memkube's own bound on an answer's size: a webhook cannot make the server hold more. */
export const MAX_WEBHOOK_RESPONSE_BYTES = 64 * 1024 * 1024;

/** Go's `time.Duration.String()` of a whole number of milliseconds (`30s`, `1m30s`, `500ms`). */
export function goDuration(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1000) return `${ms}ms`;
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = (ms % 60_000) / 1000;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}

/** A URL as Go's `url.Parse` reads it (the REST client keeps the host as written: `:443` stays). */
function parseUrl(url: string): { scheme: string; host: string; path: string } {
  const parsed = goParseURL(url);
  if (!parsed.ok) throw new WebhookCallError(`Unparsable URL: ${parsed.error}`);
  return parsed.url;
}

/** The URL the REST client requests: the path cleaned as `path.Join` does, `?timeout=` added. */
export function requestUrl(url: string, timeoutMs: number): string {
  const { scheme, host, path } = parseUrl(url);
  const segments: string[] = [];
  for (const s of path.split('/')) {
    if (s === '..') segments.pop();
    else if (s !== '' && s !== '.') segments.push(s);
  }
  return `${scheme}://${host}/${segments.join('/')}?timeout=${goDuration(timeoutMs)}`;
}

/** The host and port of a URL's `host[:port]` (443 by default), brackets of an IPv6 literal removed. */
function hostAndPort(host: string): { host: string; port: number } {
  const m = /^\[([^\]]*)\](?::(\d*))?$/.exec(host) ?? /^([^:]*)(?::(\d*))?$/.exec(host);
  return { host: m?.[1] ?? host, port: m?.[2] ? Number(m[2]) : 443 };
}

/** Posts `call.body` and answers the server's response; fails with a {@link WebhookCallError}. */
export async function callWebhook(call: WebhookCall): Promise<WebhookResponse> {
  const timeoutMs = call.timeoutMs ?? DEFAULT_WEBHOOK_TIMEOUT_MS;
  const target = requestUrl(call.endpoint.url, timeoutMs);
  const state: CallState = { headersReceived: false, dialAbort: call.endpoint.egress ? new AbortController() : undefined };
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      state.timedOut = true;
      state.dialAbort?.abort();
      state.socket?.destroy();
      // Go's REST client reads the body under the same context as the request.
      reject(
        new WebhookCallError(state.headersReceived ? readFailure('context deadline exceeded') : `Post ${JSON.stringify(target)}: context deadline exceeded`),
      );
    }, timeoutMs);
    timer.unref?.();
  });
  try {
    return await Promise.race([exchange(call, target, state), deadline]);
  } finally {
    clearTimeout(timer);
    state.socket?.destroy();
  }
}

/** What one call has done so far (for the deadline to cut it short). */
interface CallState {
  socket?: TLSSocket;
  /** Aborts an egress dial under way when the deadline passes. */
  readonly dialAbort?: AbortController;
  headersReceived: boolean;
  timedOut?: boolean;
}

/** client-go's text for a body that could not be read. */
function readFailure(reason: string): string {
  return `unexpected error when reading response body. Please retry. Original error: ${reason}`;
}

/** Connects, posts and reads, every failure as a {@link WebhookCallError}. */
async function exchange(call: WebhookCall, target: string, state: CallState): Promise<WebhookResponse> {
  const fail = (reason: string) => new WebhookCallError(`Post ${JSON.stringify(target)}: ${reason}`);
  let socket: TLSSocket;
  try {
    socket = await connect(call.endpoint, state);
  } catch (e) {
    throw e instanceof GoReason ? fail(e.message) : fail(goConnectionError(e));
  }
  try {
    return await post(socket, call, target, state);
  } catch (e) {
    if (e instanceof WebhookCallError) throw e;
    throw fail(goConnectionError(e, socket));
  }
}

/** A failure already in Go's words (what `dial` or the certificate checks say). */
class GoReason extends Error {}

/** Opens the TLS connection and checks the server as Go's `tls` and `x509` do, before a byte of the request is sent. */
async function connect(endpoint: WebhookEndpoint, state: CallState): Promise<TLSSocket> {
  const named = hostAndPort(parseUrl(endpoint.url).host);
  let address: { host: string; port: number };
  if (endpoint.dial) {
    try {
      address = await endpoint.dial();
    } catch (e) {
      throw new GoReason(e instanceof Error ? e.message : String(e));
    }
  } else {
    address = named;
  }
  const serverName = endpoint.serverName ?? named.host;
  let tunnel: Socket | undefined;
  if (endpoint.egress) {
    try {
      tunnel = await endpoint.egress(address, state.dialAbort?.signal);
    } catch (e) {
      throw new GoReason(e instanceof Error ? e.message : String(e));
    }
  }
  return new Promise<TLSSocket>((resolve, reject) => {
    if (state.timedOut) {
      tunnel?.destroy();
      return reject(new GoReason('context deadline exceeded'));
    }
    const socket = tlsConnect({
      ...(tunnel ? { socket: tunnel } : {}),
      host: address.host,
      port: address.port,
      // SNI carries a name, never an IP address (Go's `hostnameInSNI`).
      ...(isIP(serverName) ? {} : { servername: serverName }),
      ...(endpoint.ca ? { ca: [...endpoint.ca] } : {}),
      ...(endpoint.clientCertificate ? { cert: endpoint.clientCertificate.cert, key: endpoint.clientCertificate.key } : {}),
      ALPNProtocols: ['http/1.1'],
      // The chain, validity and name are checked below, to answer Go's messages.
      rejectUnauthorized: false,
    });
    state.socket = socket;
    // The request reports the socket's errors; none may go unheard between the handshake and it.
    socket.on('error', () => undefined);
    socket.once('error', reject);
    socket.once('secureConnect', () => {
      socket.removeListener('error', reject);
      const problem = endpoint.insecureSkipTLSVerify ? undefined : certificateProblem(socket, serverName);
      if (problem) {
        socket.destroy();
        reject(new GoReason(`tls: failed to verify certificate: ${problem}`));
        return;
      }
      resolve(socket);
    });
  });
}

/** Sends the request over the connected socket and reads the whole answer. */
function post(socket: TLSSocket, call: WebhookCall, target: string, state: CallState): Promise<WebhookResponse> {
  const { host, path } = parseUrl(target);
  return new Promise<WebhookResponse>((resolve, reject) => {
    const req = httpRequest(
      {
        method: 'POST',
        path: `${path}${target.slice(target.indexOf('?'))}`,
        headers: {
          Host: host,
          'User-Agent': WEBHOOK_USER_AGENT,
          Accept: 'application/json, */*',
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(call.body),
          ...(call.bearerToken !== undefined ? { Authorization: `Bearer ${call.bearerToken}` } : {}),
        },
        createConnection: () => socket,
      },
      (res) => {
        state.headersReceived = true;
        readAll(res).then(resolve, reject);
      },
    );
    req.once('error', reject);
    req.end(call.body);
  });
}

/** The whole body of an answer, up to {@link MAX_WEBHOOK_RESPONSE_BYTES}. */
function readAll(res: IncomingMessage): Promise<WebhookResponse> {
  return new Promise<WebhookResponse>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    res.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_WEBHOOK_RESPONSE_BYTES) {
        // Rejected before the destroy: destroying emits `aborted` at once, whose EOF would win.
        reject(new WebhookCallError(readFailure(`memkube reads at most ${MAX_WEBHOOK_RESPONSE_BYTES} bytes of a webhook's answer`)));
        res.destroy();
        return;
      }
      chunks.push(chunk);
    });
    res.once('aborted', () => reject(new WebhookCallError(readFailure('unexpected EOF'))));
    res.once('error', () => reject(new WebhookCallError(readFailure('unexpected EOF'))));
    res.once('end', () =>
      resolve({
        status: res.statusCode ?? 0,
        contentType: typeof res.headers['content-type'] === 'string' ? res.headers['content-type'] : '',
        body: Buffer.concat(chunks),
        ...(typeof res.headers['retry-after'] === 'string' ? { retryAfter: res.headers['retry-after'] } : {}),
      }),
    );
  });
}
