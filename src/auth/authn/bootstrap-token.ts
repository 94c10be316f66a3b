/**
 * Bootstrap tokens (kube-apiserver's `--enable-bootstrap-token-auth`,
 * `plugin/pkg/auth/authenticator/token/bootstrap`): a bearer token `<token-id>.<token-secret>`
 * authenticates as `system:bootstrap:<token-id>` when the Secret `bootstrap-token-<token-id>` in
 * `kube-system`, of type `bootstrap.kubernetes.io/token`, holds that id and secret, has not
 * expired, and is marked `usage-bootstrap-authentication: "true"`. Its groups are
 * `system:bootstrappers` and those of `auth-extra-groups`. A token matching no good Secret is not
 * this authenticator's: it passes it on, as upstream does, so other authenticators may know it.
 */
import { timingSafeEqual } from 'node:crypto';
import type { AuthenticationResult, TokenAuthenticator } from '../../machinery/auth.js';

/** The namespace of bootstrap token Secrets. */
export const BOOTSTRAP_TOKEN_NAMESPACE = 'kube-system';
/** The Secret type of a bootstrap token. */
export const BOOTSTRAP_TOKEN_SECRET_TYPE = 'bootstrap.kubernetes.io/token';
/** The group every bootstrap token user is in. */
export const BOOTSTRAPPERS_GROUP = 'system:bootstrappers';

const TOKEN = /^([a-z0-9]{6})\.([a-z0-9]{16})$/;
const EXTRA_GROUP = /^system:bootstrappers:[a-z0-9:-]{0,255}[a-z0-9]$/;
/** Go's RFC 3339 layout as `time.Parse` accepts it. */
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * The Secret fields the authenticator reads.
 * @category Authentication and authorization
 */
export interface BootstrapTokenSecret {
  type?: string;
  metadata?: { deletionTimestamp?: string };
  data?: Record<string, string>;
}

/**
 * Options of {@link bootstrapTokenAuthenticator}.
 * @category Authentication and authorization
 */
export interface BootstrapTokenOptions {
  /** Reads a Secret of `kube-system` by name. */
  readSecret(name: string): Promise<BootstrapTokenSecret | undefined>;
  /** Now, epoch milliseconds (expiration). */
  now(): number;
}

const dataOf = (secret: BootstrapTokenSecret, key: string) => Buffer.from(secret.data?.[key] ?? '', 'base64').toString('utf8');

/** `bootstrapsecretutil.HasExpired`: an unparsable expiration counts as expired. */
function hasExpired(secret: BootstrapTokenSecret, now: number): boolean {
  const expiration = dataOf(secret, 'expiration');
  if (!expiration) return false;
  const at = RFC3339.test(expiration) ? Date.parse(expiration) : Number.NaN;
  if (Number.isNaN(at)) return true;
  return at - now <= 0;
}

/** `bootstrapsecretutil.GetGroups`: the default group and the extra groups, sorted and unique; undefined when one is not allowed. */
function groupsOf(secret: BootstrapTokenSecret): string[] | undefined {
  const groups = new Set([BOOTSTRAPPERS_GROUP]);
  const extra = dataOf(secret, 'auth-extra-groups');
  if (extra) {
    for (const group of extra.split(',')) {
      if (!EXTRA_GROUP.test(group)) return undefined;
      groups.add(group);
    }
  }
  return [...groups].sort();
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The bootstrap token authenticator.
 * @category Authentication and authorization
 */
export function bootstrapTokenAuthenticator(options: BootstrapTokenOptions): TokenAuthenticator {
  return {
    async authenticateToken(token): Promise<AuthenticationResult | undefined> {
      const m = TOKEN.exec(token);
      if (!m) return undefined;
      const [, id, tokenSecret] = m as unknown as [string, string, string];
      const secret = await options.readSecret(`bootstrap-token-${id}`);
      if (!secret || secret.metadata?.deletionTimestamp) return undefined;
      if (secret.type !== BOOTSTRAP_TOKEN_SECRET_TYPE || !secret.data) return undefined;
      if (!sameSecret(dataOf(secret, 'token-secret'), tokenSecret)) return undefined;
      if (dataOf(secret, 'token-id') !== id) return undefined;
      if (hasExpired(secret, options.now())) return undefined;
      if (dataOf(secret, 'usage-bootstrap-authentication') !== 'true') return undefined;
      const groups = groupsOf(secret);
      if (!groups) return undefined;
      return { user: { username: `system:bootstrap:${id}`, groups } };
    },
  };
}
