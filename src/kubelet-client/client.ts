/**
 * The API server's client of node agents, as kube-apiserver's kubelet client
 * (pkg/kubelet/client/kubelet_client.go): HTTPS to the agent's port with the client certificate
 * and key of `--kubelet-client-certificate`/`--kubelet-client-key`; the agent's serving
 * certificate checked against `--kubelet-certificate-authority`, or not checked at all when none
 * is set (`transportConfig` turns on `Insecure` without a CA); connecting bounded by
 * `--kubelet-timeout`. Another port of the node is reached without the client certificate, as
 * kube-apiserver uses its plain proxy transport there. Failures are worded as Go's transport's.
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import type { NodeAgentRequest, NodeAgentResponse, NodeConnections, NodeLocation } from '../machinery/node-connections.js';
import { streamedBody } from '../machinery/streamed-body.js';
import { goConnectionError, joinHostPort } from '../webhook/go-errors.js';
import { certificateProblem } from '../webhook/tls-verify.js';
import { locateAgent } from './location.js';
import { DEFAULT_KUBELET_PORT, DEFAULT_KUBELET_TIMEOUT_MS, DEFAULT_PREFERRED_ADDRESS_TYPES, type KubeletClientOptions } from './options.js';

/** The PEM texts the client presents and trusts. */
interface TlsMaterial {
  readonly cert?: string;
  readonly key?: string;
  readonly ca?: string;
}

function pemOf(text: string | undefined, file: string | undefined): string | undefined {
  return text ?? (file !== undefined ? readFileSync(file, 'utf8') : undefined);
}

/**
 * Creates the client of node agents; reads the certificate files once, now.
 * @category Node agent
 */
export function createKubeletClient(options: KubeletClientOptions = {}): NodeConnections {
  const tls: TlsMaterial = {
    cert: pemOf(options.cert, options.certFile),
    key: pemOf(options.key, options.keyFile),
    ca: pemOf(options.ca, options.caFile),
  };
  if ((tls.cert === undefined) !== (tls.key === undefined)) {
    throw new Error('the kubelet client certificate and key must be given together');
  }
  const types = options.preferredAddressTypes ?? DEFAULT_PREFERRED_ADDRESS_TYPES;
  const port = options.port ?? DEFAULT_KUBELET_PORT;
  const timeoutMs = options.timeoutMs ?? DEFAULT_KUBELET_TIMEOUT_MS;
  return {
    locate: (node) => locateAgent(node, types, port),
    send: (location, request, signal) => send(tls, timeoutMs, location, request, signal),
  };
}

/** A failure already in Go's words. */
class GoReason extends Error {}

/** Opens the connection (TLS for https) and checks the agent's certificate before a byte of the request goes out. */
function connect(tls: TlsMaterial, timeoutMs: number, location: NodeLocation, insecure: boolean, signal?: AbortSignal): Promise<Socket> {
  const hostPort = joinHostPort(location.host, location.port);
  const port = Number(location.port);
  return new Promise<Socket>((resolve, reject) => {
    let tcpConnected = false;
    let socket: Socket;
    const fail = (e: Error) => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.destroy();
      reject(e);
    };
    const onAbort = () => fail(new GoReason('context canceled'));
    const timer = setTimeout(() => fail(new GoReason(tcpConnected ? 'net/http: TLS handshake timeout' : `dial tcp ${hostPort}: i/o timeout`)), timeoutMs);
    timer.unref?.();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.removeListener('error', onError);
      resolve(socket);
    };
    const onError = (e: unknown) => fail(new GoReason(goConnectionError(e, socket)));
    if (location.scheme === 'https') {
      const verify = location.agent && tls.ca !== undefined && !insecure;
      const tlsSocket: TLSSocket = tlsConnect({
        host: location.host,
        port,
        // SNI carries a name, never an IP address (Go's `hostnameInSNI`).
        ...(isIP(location.host) ? {} : { servername: location.host }),
        ...(location.agent && tls.cert !== undefined && tls.key !== undefined ? { cert: tls.cert, key: tls.key } : {}),
        ...(verify ? { ca: tls.ca } : {}),
        ALPNProtocols: ['http/1.1'],
        // Checked below, in Go's order and words; with no authority configured nothing is checked.
        rejectUnauthorized: false,
      });
      socket = tlsSocket;
      tlsSocket.once('connect', () => (tcpConnected = true));
      tlsSocket.once('secureConnect', () => {
        const problem = verify ? certificateProblem(tlsSocket, location.host) : undefined;
        if (problem) fail(new GoReason(`tls: failed to verify certificate: ${problem}`));
        else done();
      });
    } else {
      socket = netConnect({ host: location.host, port });
      socket.once('connect', done);
    }
    socket.on('error', () => undefined);
    socket.once('error', onError);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function headersOf(raw: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Sends one request over a fresh connection; the answer's body streams until read, cancelled or aborted. */
async function send(tls: TlsMaterial, timeoutMs: number, location: NodeLocation, request: NodeAgentRequest, signal?: AbortSignal): Promise<NodeAgentResponse> {
  let socket: Socket;
  try {
    socket = await connect(tls, timeoutMs, location, request.insecureSkipTLSVerify === true, signal);
  } catch (e) {
    throw new Error(e instanceof GoReason ? e.message : goConnectionError(e));
  }
  return new Promise<NodeAgentResponse>((resolve, reject) => {
    let answered = false;
    const req = httpRequest({
      method: request.method,
      path: `${request.path}${request.query ? `?${request.query}` : ''}`,
      headers: {
        ...request.headers,
        host: joinHostPort(location.host, location.port),
        ...(request.body !== undefined ? { 'content-length': String(request.body.length) } : {}),
      },
      createConnection: () => socket,
    });
    const onAbort = () => {
      if (!answered) reject(new Error('context canceled'));
      req.destroy();
      socket.destroy();
    };
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort, { once: true });
    req.once('error', (e) => {
      if (!answered) reject(new Error(goConnectionError(e, socket)));
      signal?.removeEventListener('abort', onAbort);
    });
    req.once('response', (res: IncomingMessage) => {
      answered = true;
      const headers = headersOf(res.headers);
      const release = () => {
        signal?.removeEventListener('abort', onAbort);
        res.destroy();
        socket.destroy();
      };
      res.once('end', () => signal?.removeEventListener('abort', onAbort));
      resolve({
        status: res.statusCode ?? 0,
        headers,
        body: streamedBody({ chunks: res, release, contentType: headers['content-type'], headers }),
      });
    });
    req.end(request.body !== undefined ? Buffer.from(request.body) : undefined);
  });
}
