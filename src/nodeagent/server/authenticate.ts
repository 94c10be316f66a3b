/**
 * Who is asking the node agent's secured port, as kubelet's `BuildAuthn`
 * (`cmd/kubelet/app/auth.go`) builds it from k8s.io/apiserver's delegating authenticator: a
 * client certificate verified against `--client-ca-file`, else a bearer token checked with a
 * TokenReview (`--authentication-token-webhook`, answers cached for the cache TTL), each success
 * joined to `system:authenticated`; a request neither method speaks for is anonymous when
 * `--anonymous-auth` allows, and a method that fails (an unverified certificate, a token the API
 * server refuses) fails the request whatever anonymous says.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { ExpiringLruCache } from '../../auth/webhook/cache.js';
import type { Clock } from '../../clock.js';
import type { UserInfo } from '../../machinery/request.js';
import type { KubeApiClient } from '../kube-api.js';
import { withWebhookRetry, type WebhookRetry } from './webhook-retry.js';

/**
 * How the secured port authenticates requests (kubelet's `authentication` settings).
 * @category Node agent
 */
export interface NodeAgentAuthenticationOptions {
  /** `--anonymous-auth`: requests no method speaks for are `system:anonymous`; true by default. */
  anonymous?: boolean;
  /** `--client-ca-file`: PEM authorities client certificates are verified against. */
  clientCAFile?: string;
  /** `--authentication-token-webhook` and its cache TTL (2 minutes by default). */
  webhook?: { enabled: boolean; cacheTTLms?: number };
}

/** The outcome of authenticating one request: a user, or a refusal (401). */
export type AuthenticationOutcome = { readonly user: UserInfo } | { readonly refused: string };

/** Authenticates one request of the secured port. */
export type RequestAuthenticator = (req: IncomingMessage) => Promise<AuthenticationOutcome>;

const ANONYMOUS: UserInfo = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
const AUTHENTICATED = 'system:authenticated';
/** k8s.io/apiserver's token cache holds this many answers before dropping the oldest. */
const TOKEN_CACHE_SIZE = 4096;
export const DEFAULT_TOKEN_CACHE_TTL_MS = 2 * 60_000;

type MethodResult = { user: UserInfo } | { error: string } | undefined;

/** The authenticator of the node agent's secured port. */
export function createRequestAuthenticator(
  options: NodeAgentAuthenticationOptions,
  deps: { kube?: KubeApiClient; clock: Clock; clientCAConfigured: boolean; retry?: WebhookRetry },
): RequestAuthenticator {
  const methods: ((req: IncomingMessage) => Promise<MethodResult> | MethodResult)[] = [];
  if (deps.clientCAConfigured) methods.push(clientCertificateUser);
  if (options.webhook?.enabled) {
    if (!deps.kube) throw new Error('no client provided, cannot use webhook authentication');
    methods.push(bearerTokenAuthenticator(deps.kube, deps.clock, options.webhook.cacheTTLms ?? DEFAULT_TOKEN_CACHE_TTL_MS, deps.retry));
  }
  const anonymous = options.anonymous ?? true;
  return async (req) => {
    const errors: string[] = [];
    for (const method of methods) {
      const result = await method(req);
      if (result && 'user' in result) return { user: withAuthenticatedGroup(result.user) };
      if (result) errors.push(result.error);
    }
    if (errors.length) return { refused: errors.join(', ') };
    return anonymous ? { user: ANONYMOUS } : { refused: 'no authenticator spoke for the request' };
  };
}

/** k8s.io/apiserver `AuthenticatedGroupAdder`: every authenticated user is in `system:authenticated`. */
function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.includes(AUTHENTICATED) || user.groups.includes('system:unauthenticated')) return user;
  return { ...user, groups: [...user.groups, AUTHENTICATED] };
}

/** The x509 authenticator: CommonName is the user, Organizations the groups. */
function clientCertificateUser(req: IncomingMessage): MethodResult {
  const socket = req.socket as Partial<TLSSocket>;
  if (!socket.encrypted || typeof socket.getPeerCertificate !== 'function') return undefined;
  const cert = socket.getPeerCertificate();
  if (!cert || Object.keys(cert).length === 0) return undefined;
  if (socket.authorized !== true) {
    const code = String(socket.authorizationError ?? '');
    const expired = code === 'CERT_HAS_EXPIRED' || code === 'CERT_NOT_YET_VALID';
    return {
      error: `verifying certificate: ${expired ? 'x509: certificate has expired or is not yet valid' : 'x509: certificate signed by unknown authority'}`,
    };
  }
  const subject = cert.subject as unknown as Record<string, string | string[] | undefined> | undefined;
  const list = (v: string | string[] | undefined): string[] => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
  const commonName = list(subject?.CN)[0] ?? '';
  return { user: { username: commonName, groups: list(subject?.O) } };
}

interface TokenReviewAnswer {
  status?: {
    authenticated?: boolean;
    error?: string;
    user?: { username?: string; uid?: string; groups?: string[]; extra?: Record<string, string[]> };
  };
}

/**
 * `Authorization: Bearer <token>` checked with a TokenReview (k8s.io/apiserver's webhook token
 * authenticator behind its cache: a yes or a plain no is remembered for `ttlMs`, a failed call or
 * a no with an error is asked again next time). kubelet sends no audiences.
 */
function bearerTokenAuthenticator(kube: KubeApiClient, clock: Clock, ttlMs: number, retry: WebhookRetry | undefined) {
  const cache = new ExpiringLruCache<UserInfo | null>(TOKEN_CACHE_SIZE, () => clock.now());
  return async (req: IncomingMessage): Promise<MethodResult> => {
    const token = bearerToken(req.headers.authorization);
    if (token === undefined) return undefined;
    const key = createHash('sha256').update(token).digest('hex');
    const cached = cache.get(key);
    if (cached !== undefined) return cached ? { user: cached } : { error: 'invalid bearer token' };
    let answer: TokenReviewAnswer;
    try {
      answer = await withWebhookRetry(retry, () =>
        kube.request<TokenReviewAnswer>('POST', '/apis/authentication.k8s.io/v1/tokenreviews', {
          body: { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenReview', metadata: { creationTimestamp: null }, spec: { token } },
        }),
      );
    } catch (err) {
      return { error: err instanceof Error ? err.message : String(err) };
    }
    const status = answer.status ?? {};
    if (!status.authenticated) {
      if (status.error) return { error: status.error };
      cache.add(key, null, ttlMs);
      return { error: 'invalid bearer token' };
    }
    const u = status.user ?? {};
    const user: UserInfo = {
      username: u.username ?? '',
      groups: [...(u.groups ?? [])],
      ...(u.uid ? { uid: u.uid } : {}),
      ...(u.extra && Object.keys(u.extra).length ? { extra: u.extra } : {}),
    };
    cache.add(key, user, ttlMs);
    return { user };
  };
}

/** k8s.io/apiserver's bearer token reader: `Bearer` in any case, then the token; anything else is no token. */
export function bearerToken(header: string | undefined): string | undefined {
  const auth = (header ?? '').trim();
  if (!auth) return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  const token = parts[1]!;
  return token.length ? token : undefined;
}
