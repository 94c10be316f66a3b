/**
 * Asks a cluster for a service account token: `POST .../serviceaccounts/<name>/token` with an
 * `authentication.k8s.io/v1` TokenRequest, as `kubectl create token` does.
 */
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { KubeconfigTarget } from './kubeconfig.js';

/** What to ask for. */
export interface TokenRequestOptions {
  readonly namespace: string;
  readonly name: string;
  readonly audiences?: readonly string[];
  /** `spec.expirationSeconds`; the server's default (one hour) when absent. */
  readonly expirationSeconds?: number;
  /** The whole call's deadline; 30 s by default. */
  readonly timeoutMs?: number;
}

/** The token and when it expires (RFC 3339), as the server answered. */
export interface IssuedToken {
  readonly token: string;
  readonly expirationTimestamp: string;
}

/** The largest answer read. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

/** Requests a token; throws with the server's Status message (or the connection error) when it fails. */
export async function requestServiceAccountToken(target: KubeconfigTarget, options: TokenRequestOptions): Promise<IssuedToken> {
  const base = new URL(target.server);
  const path = `${base.pathname.replace(/\/$/, '')}/api/v1/namespaces/${encodeURIComponent(options.namespace)}/serviceaccounts/${encodeURIComponent(options.name)}/token`;
  const url = new URL(path, base);
  const body = JSON.stringify({
    apiVersion: 'authentication.k8s.io/v1',
    kind: 'TokenRequest',
    metadata: { name: options.name, namespace: options.namespace },
    spec: {
      audiences: options.audiences?.length ? [...options.audiences] : null,
      ...(options.expirationSeconds !== undefined ? { expirationSeconds: options.expirationSeconds } : {}),
    },
  });
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'Content-Length': String(Buffer.byteLength(body)),
    'User-Agent': 'memkube-credential',
  };
  if (target.token) headers.Authorization = `Bearer ${target.token}`;
  const tls = url.protocol === 'https:';
  const send = tls ? httpsRequest : httpRequest;
  const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
    const req = send(
      url,
      {
        method: 'POST',
        headers,
        timeout: options.timeoutMs ?? 30_000,
        ...(tls
          ? {
              ...(target.ca ? { ca: target.ca } : {}),
              rejectUnauthorized: !target.insecureSkipTlsVerify,
              ...(target.tlsServerName ? { servername: target.tlsServerName } : {}),
              ...(target.clientCertificate && target.clientKey ? { cert: target.clientCertificate, key: target.clientKey } : {}),
            }
          : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_RESPONSE_BYTES) {
            req.destroy(new Error(`the answer of ${url.href} is larger than ${MAX_RESPONSE_BYTES} bytes`));
            return;
          }
          chunks.push(chunk);
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`Post "${url.href}": context deadline exceeded`)));
    req.on('error', (e) => reject(e.message.startsWith('Post ') ? e : new Error(`Post "${url.href}": ${e.message}`)));
    req.end(body);
  });
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    answer = undefined;
  }
  const obj = (answer ?? {}) as { kind?: unknown; message?: unknown; status?: { token?: unknown; expirationTimestamp?: unknown } };
  if (status < 200 || status > 299) {
    const message = typeof obj.message === 'string' ? obj.message : `the server answered ${status}${text ? `: ${text.slice(0, 200)}` : ''}`;
    throw new Error(`requesting a token for service account ${options.namespace}/${options.name}: ${message}`);
  }
  const token = obj.status?.token;
  const expirationTimestamp = obj.status?.expirationTimestamp;
  if (typeof token !== 'string' || token === '' || typeof expirationTimestamp !== 'string') {
    throw new Error(
      `requesting a token for service account ${options.namespace}/${options.name}: the answer has no status.token and status.expirationTimestamp`,
    );
  }
  return { token, expirationTimestamp };
}
