/**
 * Dialing out through an egress proxy as kube-apiserver's egress selector does
 * (k8s.io/apiserver/pkg/server/egressselector/egress_selector.go): for `HTTPConnect`, a connection
 * to the proxy (TCP, with TLS when the proxy's URL is `https://`, or a Unix socket), then
 * `CONNECT host:port HTTP/1.1` and, once the proxy answers 200, the connection itself is the tunnel
 * the caller's TLS runs over. Failures are reported in the selector's words (`proxy error from
 * 127.0.0.1:8131 while dialing 10.0.0.1:443, code 403: 403 Forbidden`).
 *
 * It takes plain options (addresses and PEM texts, no configuration kinds): src/config/egress/
 * turns an EgressSelectorConfiguration into dialers. The webhook client (client.ts) takes a dialer
 * per endpoint, and {@link egressHttpsAgent} plugs one into anything built on node:https.
 */
import { Agent as HttpsAgent, type AgentOptions, type RequestOptions } from 'node:https';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { connect as tlsConnect, type ConnectionOptions, type TLSSocket } from 'node:tls';
import { goQuote } from '../util/go-format.js';
import { goConnectionError, joinHostPort } from './go-errors.js';
import { certificateProblem } from './tls-verify.js';

/**
 * Where a caller wants to go.
 * @category Configuration files
 */
export interface DialTarget {
  readonly host: string;
  readonly port: number;
}

/**
 * Opens a connection to `target` (a raw byte stream the caller runs TLS over). Rejects with an
 * {@link EgressDialError} whose message is Go's. `signal` aborts a dial under way.
 * @category Configuration files
 */
export type EgressDialer = (target: DialTarget, signal?: AbortSignal) => Promise<Socket>;

/**
 * A failure to reach a target through the egress path; the message is kube-apiserver's.
 * @category Configuration files
 */
export class EgressDialError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'EgressDialError';
  }
}

/** TLS to the proxy itself: the client certificate it requires, and whom to trust. */
export interface ProxyTls {
  /** PEM certificates of the authorities to trust; the default roots when absent. */
  readonly ca?: readonly string[];
  /** The client certificate (PEM) and its key (PEM). */
  readonly cert: string;
  readonly key: string;
  /** The name the proxy's certificate must be valid for; the proxy's host when empty. */
  readonly serverName?: string;
}

/** An HTTP CONNECT proxy reached over TCP (`address` is the `host:port` of its URL) or a Unix socket. */
export type HttpConnectProxy = { readonly tcp: { readonly address: string; readonly tls?: ProxyTls } } | { readonly uds: string };

/** Options of {@link httpConnectDialer}. */
export interface HttpConnectDialerOptions {
  readonly proxy: HttpConnectProxy;
  /** The most bytes of the proxy's answer read; Go's `http.DefaultMaxHeaderBytes` (1 MiB) by default. */
  readonly maxHeaderBytes?: number;
}

/** Go's `http.DefaultMaxHeaderBytes`: the CONNECT answer is read through a reader of this size. */
export const DEFAULT_MAX_PROXY_HEADER_BYTES = 1 << 20;

/** Connects straight to the target (the `Direct` protocol). */
export const directDialer: EgressDialer = (target, signal) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = netConnect({ host: target.host, port: target.port });
    const onAbort = () => socket.destroy(new Error('context canceled'));
    signal?.addEventListener('abort', onAbort, { once: true });
    socket.once('error', (e) => {
      signal?.removeEventListener('abort', onAbort);
      reject(new EgressDialError(goConnectionError(e)));
    });
    socket.once('connect', () => {
      signal?.removeEventListener('abort', onAbort);
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });

/**
 * A dialer that tunnels every connection through an HTTP CONNECT proxy, one proxy connection per
 * tunnel (as kube-apiserver's `httpConnectProxier`).
 */
export function httpConnectDialer(options: HttpConnectDialerOptions): EgressDialer {
  const maxHeaderBytes = options.maxHeaderBytes ?? DEFAULT_MAX_PROXY_HEADER_BYTES;
  const proxy = options.proxy;
  const proxyAddress = 'uds' in proxy ? proxy.uds : proxy.tcp.address;
  return async (target, signal) => {
    const addr = joinHostPort(target.host, target.port);
    const conn = 'uds' in proxy ? await connectUnix(proxy.uds, signal) : await connectTcp(proxy.tcp.address, proxy.tcp.tls, signal);
    return tunnel(conn, proxyAddress, addr, maxHeaderBytes, signal);
  };
}

/** Calls `onAbort` when `signal` fires, until the returned function is called. */
function whileAborted(signal: AbortSignal | undefined, onAbort: () => void): () => void {
  if (!signal) return () => undefined;
  if (signal.aborted) {
    queueMicrotask(onAbort);
    return () => undefined;
  }
  signal.addEventListener('abort', onAbort, { once: true });
  return () => signal.removeEventListener('abort', onAbort);
}

/** A connection to the proxy's Unix socket (`net.Dialer` on `unix`). */
function connectUnix(path: string, signal: AbortSignal | undefined): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    const socket = netConnect({ path });
    const release = whileAborted(signal, () => {
      socket.destroy();
      reject(new EgressDialError(`dial unix ${path}: context canceled`));
    });
    socket.once('error', (e: NodeJS.ErrnoException) => {
      release();
      reject(new EgressDialError(`dial unix ${path}: connect: ${unixErrorText(e)}`));
    });
    socket.once('connect', () => {
      release();
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });
}

/** Go's `syscall.Errno` texts for the failures of connecting to a Unix socket. */
function unixErrorText(e: NodeJS.ErrnoException): string {
  switch (e.code) {
    case 'ENOENT':
      return 'no such file or directory';
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'EACCES':
      return 'permission denied';
    case 'ENOTSOCK':
      return 'socket operation on non-socket';
    default:
      return e.message;
  }
}

/** The host and port of a `host:port` address (brackets of an IPv6 literal removed). */
function splitHostPort(address: string): { host: string; port: number } | undefined {
  const m = /^\[([^\]]*)\]:(\d+)$/.exec(address) ?? /^([^:]*):(\d+)$/.exec(address);
  if (!m || Number(m[2]) > 65535) return undefined;
  return { host: m[1]!, port: Number(m[2]) };
}

/** A TCP connection to the proxy, with TLS when `tls` is given (Go's `tls.Dialer`). */
function connectTcp(address: string, tls: ProxyTls | undefined, signal: AbortSignal | undefined): Promise<Socket> {
  const hp = splitHostPort(address);
  if (!hp) return Promise.reject(new EgressDialError(`dial tcp: address ${address}: missing port in address`));
  return new Promise<Socket>((resolve, reject) => {
    const serverName = tls?.serverName || hp.host;
    const socket: Socket = tls
      ? tlsConnect({
          host: hp.host,
          port: hp.port,
          ...(isIP(serverName) ? {} : { servername: serverName }),
          ...(tls.ca ? { ca: [...tls.ca] } : {}),
          cert: tls.cert,
          key: tls.key,
          // The proxy's certificate is checked below, in Go's words.
          rejectUnauthorized: false,
        })
      : netConnect({ host: hp.host, port: hp.port });
    const release = whileAborted(signal, () => {
      socket.destroy();
      reject(new EgressDialError(`dial tcp ${address}: context canceled`));
    });
    const fail = (message: string) => {
      release();
      socket.destroy();
      reject(new EgressDialError(message));
    };
    socket.once('error', (e) => fail(goConnectionError(e, socket)));
    socket.once(tls ? 'secureConnect' : 'connect', () => {
      if (tls) {
        const problem = certificateProblem(socket as TLSSocket, serverName);
        if (problem) return fail(`tls: failed to verify certificate: ${problem}`);
      }
      release();
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });
}

/** What Go's `http.ReadResponse` reads of the proxy's status line, or why it refuses it. */
function parseStatusLine(line: string): { code: number; status: string } | { error: string } {
  const sp = line.indexOf(' ');
  if (sp < 0) return { error: `malformed HTTP response ${goQuote(line)}` };
  const proto = line.slice(0, sp);
  const status = line.slice(sp + 1).replace(/^ +/, '');
  const codeText = status.split(' ', 1)[0]!;
  if (codeText.length !== 3 || !/^\d{3}$/.test(codeText)) return { error: `malformed HTTP status code ${goQuote(codeText)}` };
  if (!/^HTTP\/\d\.\d$/.test(proto)) return { error: `malformed HTTP version ${goQuote(proto)}` };
  return { code: Number(codeText), status };
}

/** Go's `textproto.ReadMIMEHeader` refusals of the answer's header lines, or undefined when they are fine. */
function malformedHeader(lines: readonly string[]): string | undefined {
  if (lines.length && /^[ \t]/.test(lines[0]!)) return `malformed MIME header initial line: ${lines[0]}`;
  for (const line of lines) {
    // A line starting with a blank continues the one before (obsolete folding, still read).
    if (/^[ \t]/.test(line)) continue;
    const colon = line.indexOf(':');
    if (colon < 0 || !/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(line.slice(0, colon))) return `malformed MIME header line: ${line}`;
  }
  return undefined;
}

/**
 * Sends `CONNECT addr` over `conn` and reads the proxy's answer (`tunnelHTTPConnect`): 200 gives the
 * connection back as the tunnel; anything else closes it with the selector's message.
 */
function tunnel(conn: Socket, proxyAddress: string, addr: string, maxHeaderBytes: number, signal: AbortSignal | undefined): Promise<Socket> {
  return new Promise<Socket>((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    let settled = false;
    const finish = (error?: string) => {
      if (settled) return;
      settled = true;
      release();
      conn.removeListener('data', onData);
      conn.removeListener('end', onEnd);
      conn.removeListener('close', onEnd);
      conn.removeListener('error', onError);
      if (error !== undefined) {
        conn.destroy();
        reject(new EgressDialError(error));
      } else {
        conn.pause();
        resolve(conn);
      }
    };
    const readFailed = (reason: string) => finish(`reading HTTP response from CONNECT to ${addr} via proxy ${proxyAddress} failed: ${reason}`);
    const onData = (chunk: Buffer) => {
      // Go reads the answer through a reader of `maxHeaderBytes`: past it, the answer ends early.
      const room = maxHeaderBytes - buffered.length;
      const overflow = chunk.length > room;
      buffered = Buffer.concat([buffered, overflow ? chunk.subarray(0, room) : chunk]);
      const text = buffered.toString('latin1');
      const end = /\r?\n\r?\n/.exec(text);
      if (!end) {
        if (overflow) readFailed('unexpected EOF');
        return;
      }
      const [statusLine, ...headerLines] = text.slice(0, end.index).split(/\r?\n/);
      const parsed = parseStatusLine(statusLine!);
      if ('error' in parsed) return readFailed(parsed.error);
      const headerProblem = malformedHeader(headerLines);
      if (headerProblem) return readFailed(headerProblem);
      if (parsed.code !== 200) {
        return finish(`proxy error from ${proxyAddress} while dialing ${addr}, code ${parsed.code}: ${parsed.status}`);
      }
      // TLS speaks first over the tunnel: the proxy may not have sent anything past its answer.
      const extra = buffered.length - (end.index + end[0].length) + (overflow ? chunk.length - room : 0);
      if (extra > 0) return finish(`unexpected ${extra} bytes of buffered data from CONNECT proxy ${goQuote(proxyAddress)}`);
      finish();
    };
    const onEnd = () => readFailed('unexpected EOF');
    const onError = (e: Error) => readFailed(goConnectionError(e, conn));
    const release = whileAborted(signal, () => readFailed('context canceled'));
    conn.on('data', onData);
    conn.once('end', onEnd);
    conn.once('close', onEnd);
    conn.once('error', onError);
    conn.write(`CONNECT ${addr} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
}

/** Options of {@link egressHttpsAgent}. */
export interface EgressAgentOptions extends AgentOptions {
  /** How long one dial through the proxy may take; 30 s (`http.DefaultTransport`'s dial timeout) by default. */
  readonly dialTimeoutMs?: number;
}

/**
 * The class of node:https' Agent whose connections are opened by an {@link EgressDialer}, TLS
 * running over them. Made on first use: a class that extends `Agent` at a module's top would load
 * node:https (and node:tls) into every process that imports this module, dialing or not.
 */
let egressHttpsAgentClass: ReturnType<typeof defineEgressHttpsAgent> | undefined;

function defineEgressHttpsAgent() {
  return class EgressHttpsAgent extends HttpsAgent {
    constructor(
      private readonly dialer: EgressDialer,
      private readonly dialTimeoutMs: number,
      options: AgentOptions,
    ) {
      super(options);
    }

    override createConnection(options: RequestOptions, callback?: (err: Error | null, stream: Duplex) => void): Duplex | null | undefined {
      const host = options.host ?? options.hostname ?? 'localhost';
      const port = Number(options.port ?? 443);
      const done = callback ?? (() => undefined);
      this.dialer({ host, port }, AbortSignal.timeout(this.dialTimeoutMs)).then(
        (raw) => {
          const servername = (options as { servername?: string }).servername || host;
          const { host: _h, port: _p, path: _path, ...tlsOptions } = options as RequestOptions & { path?: string };
          done(null, tlsConnect({ ...tlsOptions, host, socket: raw, ...(isIP(servername) ? {} : { servername }) } as ConnectionOptions));
        },
        (e: unknown) => done(e instanceof Error ? e : new Error(String(e)), undefined as unknown as Duplex),
      );
      return undefined;
    }
  };
}

/**
 * A node:https Agent whose connections go through `dialer` (TLS to the server runs inside the
 * tunnel): pass it as `agent` to `https.request`/`https.get` (an OIDC discovery fetch, ...). A dial
 * failure is the request's `error`, with the dialer's message.
 */
export function egressHttpsAgent(dialer: EgressDialer, options: EgressAgentOptions = {}): HttpsAgent {
  const { dialTimeoutMs = 30_000, ...agentOptions } = options;
  egressHttpsAgentClass ??= defineEgressHttpsAgent();
  return new egressHttpsAgentClass(dialer, dialTimeoutMs, agentOptions);
}
