/**
 * A Fetch-standard function over node:https with a keep-alive agent: the node agent's transport to
 * its API server, presenting the TLS settings of a kubeconfig (CA, server name, client certificate,
 * or no verification at all). Responses stream, so a watch reads events as the server sends them.
 */
import { Agent, request as httpsRequest } from 'node:https';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { FetchLike } from '../kube-api-fetch.js';

/** The TLS settings of the connection (a kubeconfig's cluster and user). */
export interface HttpsTransportOptions {
  /** PEM certificates of the authorities to trust; Node's default roots when absent. */
  readonly ca?: readonly string[];
  /** The name the server certificate must be valid for, and the SNI (`tls-server-name`). */
  readonly serverName?: string;
  /** Accept any server certificate (`insecure-skip-tls-verify`). */
  readonly insecureSkipTLSVerify?: boolean;
  /** A client certificate and its key (PEM) for mutual TLS. */
  readonly clientCertificate?: { readonly cert: string; readonly key: string };
  /** Idle connections kept per host (client-go keeps 25 per host for a kubelet's client). */
  readonly maxSockets?: number;
  /** A bearer token read for each request (a kubeconfig's `tokenFile`, which may be rotated); it replaces any Authorization header. */
  readonly bearerToken?: () => string | undefined;
}

/** A Fetch function and the way to close its idle connections. */
export interface HttpsFetch {
  readonly fetch: FetchLike;
  /** Destroys the agent's sockets (open and idle). */
  close(): void;
}

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(res.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

/** Builds the HTTPS transport; only `https:` URLs are sent. */
export function createHttpsFetch(options: HttpsTransportOptions = {}): HttpsFetch {
  const agent = new Agent({
    keepAlive: true,
    maxSockets: options.maxSockets ?? 25,
    ...(options.ca ? { ca: [...options.ca] } : {}),
    ...(options.clientCertificate ? { cert: options.clientCertificate.cert, key: options.clientCertificate.key } : {}),
    rejectUnauthorized: !options.insecureSkipTLSVerify,
  });
  const fetch: FetchLike = async (req) => {
    const url = new URL(req.url);
    if (url.protocol !== 'https:') throw new TypeError(`unsupported protocol scheme "${url.protocol.replace(/:$/, '')}"`);
    const body = req.body ? Buffer.from(await req.arrayBuffer()) : undefined;
    const headers: Record<string, string> = {};
    req.headers.forEach((v, k) => (headers[k] = v));
    const token = options.bearerToken?.();
    if (token) headers['authorization'] = `Bearer ${token}`;
    if (body) headers['content-length'] = String(body.length);
    return new Promise<Response>((resolve, reject) => {
      const outgoing = httpsRequest(
        {
          agent,
          protocol: 'https:',
          hostname: url.hostname.replace(/^\[|\]$/g, ''),
          port: url.port || 443,
          path: `${url.pathname}${url.search}`,
          method: req.method,
          headers,
          ...(options.serverName ? { servername: options.serverName } : {}),
        },
        (res) => {
          const status = res.statusCode ?? 500;
          const nullBody = status === 204 || status === 304 || req.method === 'HEAD';
          if (nullBody) res.resume();
          resolve(
            new Response(nullBody ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>), {
              status,
              statusText: res.statusMessage ?? '',
              headers: headersOf(res),
            }),
          );
        },
      );
      const abort = () => outgoing.destroy(req.signal.reason instanceof Error ? req.signal.reason : new Error('aborted'));
      if (req.signal.aborted) {
        abort();
      } else {
        req.signal.addEventListener('abort', abort, { once: true });
        outgoing.once('close', () => req.signal.removeEventListener('abort', abort));
      }
      outgoing.once('error', reject);
      outgoing.end(body);
    });
  };
  return { fetch, close: () => agent.destroy() };
}
