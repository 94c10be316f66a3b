/**
 * The HTTPS GET the JWT authenticator fetches discovery documents and key sets with, as the OIDC
 * authenticator's `http.Client` does (plugin/pkg/authenticator/token/oidc: trusts the issuer's
 * `certificateAuthority` or the system roots, 30 s timeout). Failures read as Go's client writes
 * them (`Get "<url>": <reason>`). The dialing is injectable (`agentFor`), so a proxy (an egress
 * selector's HTTP CONNECT tunnel) can carry the connection.
 */
import { goQuote } from '../../../util/go-format.js';
import type { Agent } from 'node:https';
import { request as httpsRequest } from 'node:https';
import { STATUS_CODES, type IncomingMessage } from 'node:http';
import { goConnectionError, UNKNOWN_AUTHORITY } from '../../../webhook/go-errors.js';

/** What a server answered. */
export interface HttpGetResponse {
  readonly status: number;
  /** Go's `Response.Status`: `200 OK`, `500 Internal Server Error`. */
  readonly statusText: string;
  /** The `Content-Type` header, `''` when absent. */
  readonly contentType: string;
  /** The `Cache-Control` header, `''` when absent. */
  readonly cacheControl: string;
  readonly body: Buffer;
}

/** One GET: where, whom to trust, how long to wait. */
export interface HttpGetRequest {
  readonly url: string;
  /** PEM certificates to trust; the system roots when absent. */
  readonly ca?: string;
  readonly timeoutMs: number;
}

/** Fetches a URL; rejects with an `Error` whose message is Go's `url.Error` text. */
export type HttpGet = (request: HttpGetRequest) => Promise<HttpGetResponse>;

/** The largest discovery document or key set read (memkube's bound; upstream reads whatever comes). */
export const MAX_OIDC_RESPONSE_BYTES = 4 * 1024 * 1024;

/** The Go client's timeout text (`http.Client.Timeout`). */
const CLIENT_TIMEOUT = 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)';
const BODY_TIMEOUT = 'context deadline exceeded (Client.Timeout or context cancellation while reading body)';

/** Node's certificate errors, in Go's words. */
function tlsReason(code: string, message: string): string | undefined {
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return `tls: failed to verify certificate: x509: ${message.replace(/^Hostname\/IP does not match certificate's altnames: /, '')}`;
  if (code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID')
    return 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  if (/CERT|SELF_SIGNED|UNABLE_TO_(GET|VERIFY)/.test(code)) return `tls: failed to verify certificate: ${UNKNOWN_AUTHORITY}`;
  return undefined;
}

/** A {@link HttpGet} over `node:https`; `agentFor` picks the agent (a proxy's) for a URL. */
export function httpsGet(agentFor?: (url: URL) => Agent | undefined): HttpGet {
  return ({ url, ca, timeoutMs }) =>
    new Promise<HttpGetResponse>((resolve, reject) => {
      const fail = (reason: string) => reject(new Error(`Get ${goQuote(url)}: ${reason}`));
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        fail('invalid URL');
        return;
      }
      if (target.protocol !== 'https:') {
        fail(`unsupported protocol scheme ${goQuote(target.protocol.replace(/:$/, ''))}`);
        return;
      }
      let headersReceived = false;
      let settled = false;
      const agent = agentFor?.(target);
      const req = httpsRequest(target, {
        method: 'GET',
        headers: { Accept: 'application/json', 'User-Agent': 'kube-apiserver' },
        ...(ca ? { ca } : {}),
        ...(agent ? { agent } : {}),
      });
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        req.destroy();
        fail(headersReceived ? BODY_TIMEOUT : CLIENT_TIMEOUT);
      }, timeoutMs);
      timer.unref?.();
      const done = (f: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        f();
      };
      req.once('error', (e: NodeJS.ErrnoException) => done(() => fail(tlsReason(e.code ?? '', e.message) ?? goConnectionError(e, req.socket ?? undefined))));
      req.once('response', (res: IncomingMessage) => {
        headersReceived = true;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > MAX_OIDC_RESPONSE_BYTES) {
            res.destroy();
            done(() => reject(new Error(`unable to read response body: memkube reads at most ${MAX_OIDC_RESPONSE_BYTES} bytes`)));
            return;
          }
          chunks.push(chunk);
        });
        res.once('error', () => done(() => reject(new Error('unable to read response body: unexpected EOF'))));
        res.once('aborted', () => done(() => reject(new Error('unable to read response body: unexpected EOF'))));
        res.once('end', () => {
          const status = res.statusCode ?? 0;
          const header = (name: string) => {
            const v = res.headers[name];
            return typeof v === 'string' ? v : '';
          };
          done(() =>
            resolve({
              status,
              statusText: `${status} ${STATUS_CODES[status] ?? ''}`.trimEnd(),
              contentType: header('content-type'),
              cacheControl: header('cache-control'),
              body: Buffer.concat(chunks),
            }),
          );
        });
      });
      req.end();
    });
}
