/**
 * The node:http adapter: a few lines that forward to the Fetch-standard handler, streaming
 * responses (watch) with headers sent at once and a flush per chunk. With `tls`, node:https and a
 * self-signed serving certificate made at startup (`src/pki/`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { stringify } from 'yaml';
import { logHttpRequest, requestVerb } from '../log/httplog.js';
import type { Logger } from '../log/index.js';
import { signClientCertificate, generateServingCertificate, type ServingCertificate, type ServingCertificateOptions } from '../pki/self-signed.js';
import { httpRequestHandlerOf, type CorsOptions, type FetchHandler } from './handler.js';
import { sendFetchResponse as sendResponse, serveNodeRequestWithCore, toFetchRequest as toRequest } from './node-bridge.js';

/**
 * Options of `cluster.listen()`.
 * @category HTTP and adapters
 */
export interface ListenOptions {
  /** 0 (the default) picks a free port. */
  port?: number;
  /** `127.0.0.1` by default. */
  host?: string;
  /**
   * Serve HTTPS with a self-signed serving certificate made at startup: a fresh CA and a
   * certificate it signs for `127.0.0.1`, `localhost` and `host`, valid from an hour before the
   * cluster clock's now for a year. The kubeconfig then trusts that CA.
   */
  tls?: boolean;
  /**
   * PEM certificates of the CAs whose client certificates authenticate users (kube-apiserver's
   * `--client-ca-file`): the CommonName is the user, the Organizations its groups. With `tls` only.
   * The CA `tls` makes is trusted as well: it signs the admin certificate of the kubeconfig.
   */
  clientCA?: string;
  /**
   * Serve browser apps of other origins (kube-apiserver's `--cors-allowed-origins`), e.g.
   * `{ allowedOrigins: ['^http://localhost(:|$)'] }`; see {@link CorsOptions}. None by default;
   * an invalid pattern rejects.
   */
  cors?: CorsOptions;
}

/**
 * The administrator a kubeconfig from {@link Cluster.listen} authenticates as.
 * @category HTTP and adapters
 */
export interface AdminCredential {
  /** Its bearer token, carried by the kubeconfig of a plain HTTP server. */
  readonly token: string;
  /** The user and groups of the client certificate made for a TLS server. */
  readonly commonName: string;
  readonly organizations: readonly string[];
}

/** Options of {@link listen}: {@link ListenOptions} and the time the certificates are valid around. */
export interface ListenAdapterOptions extends Omit<ListenOptions, 'cors'> {
  /** Epoch milliseconds the serving certificate's validity is around (`tls`); `Date.now()` by default. */
  now?: number;
  /** The administrator the kubeconfig authenticates as; without it the kubeconfig has no credential. */
  admin?: AdminCredential;
  /** Writes kube-apiserver's `"HTTP"` line of each request at verbosity 3 (`memkube serve -v 3`). */
  logger?: Logger;
  /**
   * The CA and serving certificate to use with `tls`, made beforehand so the cluster can know its CA
   * (the token controller's `ca.crt`); made here when absent.
   */
  certificates?: ServingCertificate;
}

/**
 * A running server.
 * @category HTTP and adapters
 */
export interface Listening {
  /** `http://127.0.0.1:<port>`, or `https://...` with `tls`. */
  readonly url: string;
  readonly port: number;
  /** With `tls`: the PEM of the CA that signed the serving certificate (what clients trust). */
  readonly certificateAuthority?: string;
  /** Stops accepting, ends open connections (watches included) and resolves once closed. */
  close(): Promise<void>;
  /** A kubeconfig YAML pointing at this server, with its context current. */
  kubeconfig(options?: { name?: string; namespace?: string }): string;
}

/**
 * The credential of a kubeconfig's user: a bearer token, or a client certificate and key (PEM).
 * @category HTTP and adapters
 */
export type KubeconfigCredential = { readonly token: string } | { readonly clientCertificate: string; readonly clientKey: string };

/**
 * A kubeconfig for a server: with `certificateAuthority` (PEM) it carries it as
 * `certificate-authority-data`, without it `insecure-skip-tls-verify`; its user has `credential`
 * (a token, or a client certificate and key as `client-certificate-data` and `client-key-data`).
 * @category HTTP and adapters
 */
export function kubeconfigFor(url: string, name = 'memkube', namespace?: string, certificateAuthority?: string, credential?: KubeconfigCredential): string {
  const cluster = certificateAuthority
    ? { server: url, 'certificate-authority-data': Buffer.from(certificateAuthority).toString('base64') }
    : { server: url, 'insecure-skip-tls-verify': true };
  const user = !credential
    ? {}
    : 'token' in credential
      ? { token: credential.token }
      : {
          'client-certificate-data': Buffer.from(credential.clientCertificate).toString('base64'),
          'client-key-data': Buffer.from(credential.clientKey).toString('base64'),
        };
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    users: [{ name, user }],
    contexts: [{ name, context: { cluster: name, user: name, ...(namespace ? { namespace } : {}) } }],
    'current-context': name,
    preferences: {},
  });
}

/** What {@link listen} makes the serving certificate for: loopback and `host`, valid around `now`. */
export function servingCertificateOptions(host: string, now?: number): ServingCertificateOptions {
  return { hosts: ['127.0.0.1', 'localhost', host], now };
}

/** Serves a Fetch handler on node:http, or node:https with `tls`. */
export async function listen(handler: FetchHandler, options: ListenAdapterOptions = {}): Promise<Listening> {
  const host = options.host ?? '127.0.0.1';
  const hostForUrl = host.includes(':') ? `[${host}]` : host;
  const scheme = options.tls ? 'https' : 'http';
  let base = `${scheme}://${hostForUrl}`;
  // A handler made by createFetchHandler is served through its core, without Fetch objects.
  const core = httpRequestHandlerOf(handler);
  const logger = options.logger;
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (logger?.V(3).enabled) logWhenDone(logger, req, res);
    if (core) {
      void serveNodeRequestWithCore(core, req, res, base, { batched: true });
      return;
    }
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
  };
  const pki = options.tls ? (options.certificates ?? (await generateServingCertificate(servingCertificateOptions(host, options.now)))) : undefined;
  // Client certificates are asked for and checked, never required: a request without one (or with
  // one that does not verify) is still served, and authentication decides (x509 authenticator).
  const server = pki
    ? createHttpsServer(
        {
          cert: pki.serving.cert,
          key: pki.serving.key,
          requestCert: true,
          rejectUnauthorized: false,
          ca: [pki.ca.cert, ...(options.clientCA ? [options.clientCA] : [])],
        },
        onRequest,
      )
    : createServer(onRequest);
  let credential: KubeconfigCredential | undefined;
  if (options.admin) {
    if (pki) {
      const admin = await signClientCertificate({
        ca: pki.ca,
        commonName: options.admin.commonName,
        organizations: options.admin.organizations,
        now: options.now ?? Date.now(),
        validityMs: 365 * 24 * 3_600_000,
      });
      credential = { clientCertificate: admin.cert, clientKey: admin.key };
    } else {
      credential = { token: options.admin.token };
    }
  }
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `${scheme}://${hostForUrl}:${port}`;
  base = url;
  return {
    url,
    port,
    ...(pki ? { certificateAuthority: pki.ca.cert } : {}),
    kubeconfig: (o) => kubeconfigFor(url, o?.name, o?.namespace, pki?.ca.cert, credential),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Logs a request's `"HTTP"` line once its answer is sent (or its connection closed), as k8s.io/apiserver's httplog does. */
function logWhenDone(logger: Logger, req: IncomingMessage, res: ServerResponse): void {
  const start = performance.now();
  let logged = false;
  const done = () => {
    if (logged) return;
    logged = true;
    const contentType = res.getHeader('content-type');
    const uri = req.url ?? '';
    logHttpRequest(logger, {
      verb: requestVerb(req.method ?? '', uri, req.headers['content-type'] ?? ''),
      uri,
      latencyMs: performance.now() - start,
      userAgent: req.headers['user-agent'] ?? '',
      contentType: typeof contentType === 'string' ? contentType : '',
      auditId: '',
      srcIP: `${req.socket.remoteAddress ?? ''}:${req.socket.remotePort ?? ''}`,
      status: res.statusCode,
    });
  };
  res.once('finish', done);
  res.once('close', done);
}
