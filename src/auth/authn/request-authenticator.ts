/**
 * Who sent a request (kubernetes `pkg/kubeapiserver/authenticator` and k8s.io/apiserver
 * `pkg/authentication/request`): a client certificate signed by the client CA, else a bearer
 * token one of the token authenticators accepts, else — when anonymous requests are enabled for the
 * path — `system:anonymous`. Credentials that are presented but not accepted fail the request
 * (401) even when anonymous requests are enabled, as kube-apiserver's FailOnError union does.
 */
import { ALL_AUTHENTICATED, ALL_UNAUTHENTICATED, ANONYMOUS_USER, type TokenAuthenticator } from '../../machinery/auth.js';
import type { UserInfo } from '../../machinery/request.js';
import { CREDENTIAL_ID_KEY } from './jwt/user-mapping.js';

/**
 * A client certificate the TLS layer received, and whether it verified against the client CA.
 * @category Authentication and authorization
 */
export interface ClientCertificate {
  /** Whether the chain verified against the client CA (and the certificate is within its validity). */
  readonly verified: boolean;
  /** Why it did not verify (`x509: certificate signed by unknown authority`). */
  readonly error?: string;
  readonly commonName: string;
  readonly organizations: readonly string[];
  /** The extended key usage OIDs, when the certificate restricts them. */
  readonly extendedKeyUsage?: readonly string[];
  /** The lowercase hex SHA-256 of the certificate's DER: its credential id. */
  readonly sha256?: string;
  /** The values of the subject's user UID attribute (OID 1.3.6.1.4.1.57683.2), in order. */
  readonly uids?: readonly string[];
  /** When the leaf certificate expires, in ms since the epoch (what the expiration metric observes). */
  readonly notAfter?: number;
}

/**
 * The parts of a request authentication reads.
 * @category Authentication and authorization
 */
export interface AuthenticationRequest {
  /** The value of the header `name`, or null when the request has none. */
  header(name: string): string | null;
  /** The request path, for anonymous conditions. */
  readonly path: string;
  /** The TLS client certificate, when the connection presented one. */
  readonly clientCertificate?: ClientCertificate;
}

/**
 * Whether and where anonymous requests are allowed (`--anonymous-auth`, AuthenticationConfiguration `anonymous`).
 * @category Authentication and authorization
 */
export interface AnonymousPolicy {
  readonly enabled: boolean;
  /** When given, anonymous requests are allowed only for these exact paths. */
  readonly conditions?: readonly { readonly path: string }[];
}

/** What the request authenticator uses. */
export interface RequestAuthenticatorOptions {
  readonly anonymous: AnonymousPolicy;
  /** Bearer token authenticators (static tokens, service account tokens, JWT), as one. */
  readonly tokens?: TokenAuthenticator;
  /** `--api-audiences`: the audiences a token must be for. */
  readonly apiAudiences?: readonly string[];
}

/**
 * Why a request could not be authenticated (always answered as kube-apiserver's bare 401).
 * @category Authentication and authorization
 */
export class AuthenticationError extends Error {
  /**
   * @param noCredentials true when nothing refused the request's credentials: it had none an
   * authenticator knew what to do with, and anonymous requests were not allowed (the filter's
   * `failure`, where refused credentials are an `error`).
   */
  constructor(
    message: string,
    readonly noCredentials = false,
  ) {
    super(message);
    this.name = 'AuthenticationError';
  }
}

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_EXTENDED_KEY_USAGE = '2.5.29.37.0';

/**
 * The user of a verified client certificate (`x509.CommonNameUserConversion`): the CommonName, the
 * Organizations as groups, the credential id `X509SHA256=<hex>` as an extra, and the uid of the
 * subject's UID attribute (`parseUIDFromCert`, on by default since AllowParsingUserUIDFromCertAuth
 * went beta in 1.33), which must be one non-empty string.
 */
function certificateUser(cert: ClientCertificate): UserInfo | undefined {
  if (!cert.verified) throw new AuthenticationError(`verifying certificate: ${cert.error ?? 'x509: certificate signed by unknown authority'}`);
  const usages = cert.extendedKeyUsage;
  if (usages && !usages.includes(CLIENT_AUTH) && !usages.includes(ANY_EXTENDED_KEY_USAGE)) {
    throw new AuthenticationError('verifying certificate: x509: certificate specifies an incompatible key usage');
  }
  if (!cert.commonName) return undefined;
  const uids = cert.uids ?? [];
  if (uids.length > 1) throw new AuthenticationError(`expected 1 UID, but found multiple: [${uids.join(' ')}]`);
  if (uids.length === 1 && uids[0] === '') throw new AuthenticationError('UID cannot be an empty string');
  return {
    username: cert.commonName,
    ...(uids.length === 1 ? { uid: uids[0] } : {}),
    groups: [...cert.organizations],
    ...(cert.sha256 ? { extra: { [CREDENTIAL_ID_KEY]: [`X509SHA256=${cert.sha256}`] } } : {}),
  };
}

/** The token of an `Authorization: Bearer <token>` header (`bearertoken.Authenticator`), or undefined. */
export function bearerToken(header: string | null): string | undefined {
  const auth = (header ?? '').trim();
  if (!auth) return undefined;
  const parts = auth.split(' ');
  if (parts.length < 2 || parts[0]!.toLowerCase() !== 'bearer') return undefined;
  return parts[1] || undefined;
}

/** `group.AuthenticatedGroupAdder`: every authenticated user is in `system:authenticated`. */
function withAuthenticatedGroup(user: UserInfo): UserInfo {
  if (user.groups.some((g) => g === ALL_AUTHENTICATED || g === ALL_UNAUTHENTICATED)) return user;
  return { ...user, groups: [...user.groups, ALL_AUTHENTICATED] };
}

/** The anonymous user. */
export function anonymousUser(): UserInfo {
  return { username: ANONYMOUS_USER, groups: [ALL_UNAUTHENTICATED] };
}

/** Whether an anonymous request for `path` is allowed. */
export function anonymousAllowedFor(policy: AnonymousPolicy, path: string): boolean {
  if (!policy.enabled) return false;
  return !policy.conditions?.length || policy.conditions.some((c) => c.path === path);
}

/**
 * Who sent a request, or an {@link AuthenticationError} (the HTTP door answers 401): answered
 * (or thrown) at once unless a bearer token has to be checked, when it is a promise.
 * @category Authentication and authorization
 */
export type AuthenticateRequest = (request: AuthenticationRequest) => UserInfo | Promise<UserInfo>;

/**
 * Makes the function that authenticates a request: answers its user, or throws an
 * {@link AuthenticationError} (the HTTP door answers 401). A request without a bearer token is
 * answered synchronously: nothing it presents needs waiting for.
 */
export function createRequestAuthenticator(options: RequestAuthenticatorOptions): AuthenticateRequest {
  return (request) => {
    // kube-apiserver joins the x509 and bearer token authenticators with `union.New`, which goes on
    // to the next one when one fails: a certificate that does not verify is no reason to refuse a
    // good token sent with it. The failures are the answer only when nothing succeeds (and then
    // `union.NewFailOnError` keeps the anonymous authenticator from being asked).
    const failures: string[] = [];
    if (request.clientCertificate) {
      try {
        const user = certificateUser(request.clientCertificate);
        if (user) return withAuthenticatedGroup(user);
      } catch (e) {
        failures.push(e instanceof Error ? e.message : String(e));
      }
    }
    const token = bearerToken(request.header('authorization'));
    if (token !== undefined) return tokenUser(options, request, token, failures);
    return withoutToken(options, request, failures);
  };
}

/** The user of a bearer token, when an authenticator accepts it; otherwise as {@link withoutToken}. */
async function tokenUser(options: RequestAuthenticatorOptions, request: AuthenticationRequest, token: string, failures: string[]): Promise<UserInfo> {
  let result;
  try {
    result = await options.tokens?.authenticateToken(token, options.apiAudiences);
    // bearertoken.Authenticator's own error when no token authenticator knows the token.
    if (!result) failures.push('invalid bearer token');
  } catch (e) {
    failures.push(e instanceof Error ? e.message : String(e));
  }
  if (result) return withAuthenticatedGroup(result.user);
  return withoutToken(options, request, failures);
}

/** The failures, when credentials were refused; else the anonymous user where it is allowed. */
function withoutToken(options: RequestAuthenticatorOptions, request: AuthenticationRequest, failures: readonly string[]): UserInfo {
  if (failures.length) throw new AuthenticationError(failures.length === 1 ? failures[0]! : `[${failures.join(', ')}]`);
  if (anonymousAllowedFor(options.anonymous, request.path)) return anonymousUser();
  throw new AuthenticationError('no credentials', true);
}
