/**
 * Checking a token's signature and registered claims (go-oidc v2 `IDTokenVerifier.Verify` as the
 * OIDC authenticator configures it, plus k8s.io/apiserver's `idTokenVerifier.verifyAudience`), in
 * upstream's order: parse, claims' types, issuer, audience, expiry, not-before (one minute of
 * leeway), algorithm, signature, then the audience set of a multi-audience issuer. `iat` is read
 * but not checked, as upstream. Every refusal is an `Error` with go-oidc's message.
 */
import { compareGoStrings, goQuote } from '../../../util/go-format.js';
import type { RemoteKeySet } from './provider.js';
import { GO_ZERO_TIME, goTimeString, idTokenClaims, parseCompactJws } from './token.js';

/** Every algorithm the OIDC authenticator accepts with `--authentication-config` (`AllValidSigningAlgorithms`, sorted). */
export const SUPPORTED_SIGNING_ALGORITHMS: readonly string[] = ['ES256', 'ES384', 'ES512', 'PS256', 'PS384', 'PS512', 'RS256', 'RS384', 'RS512'];

/** go-oidc's leeway for `nbf`. */
const NOT_BEFORE_LEEWAY_MS = 60_000;

/** Go's `%q` of a string slice: `["a" "b"]`. */
export function goQuoteList(values: readonly string[]): string {
  return `[${values.map(goQuote).join(' ')}]`;
}

/** What a verifier needs. */
export interface VerifierSettings {
  readonly issuer: string;
  readonly audiences: readonly string[];
  readonly keySet: RemoteKeySet;
  readonly now: () => number;
}

/** A verified token: its claims and the payload text they were read from. */
export interface VerifiedToken {
  readonly claims: Readonly<Record<string, unknown>>;
  readonly payloadText: string;
}

/** Verifies `token`; answers its claims. */
export async function verifyIdToken(token: string, v: VerifierSettings): Promise<VerifiedToken> {
  const parsed = parseCompactJws(token);
  if (typeof parsed === 'string') throw new Error(`oidc: malformed jwt: ${parsed}`);
  const id = idTokenClaims(parsed.claims);
  if (typeof id === 'string') throw new Error(`oidc: failed to unmarshal claims: ${id}`);
  for (const source of Object.values(id.claimNames)) {
    if (source === '') throw new Error('oidc: failed to obtain source from claim name');
    if (!Object.prototype.hasOwnProperty.call(id.claimSources, source)) throw new Error('oidc: source does not exist');
  }
  if (id.issuer !== v.issuer && !(v.issuer === 'https://accounts.google.com' && id.issuer === 'accounts.google.com')) {
    throw new Error(`oidc: id token issued by a different provider, expected ${goQuote(v.issuer)} got ${goQuote(id.issuer)}`);
  }
  const distinct = [...new Set(v.audiences)];
  if (distinct.length === 1 && !id.audience.includes(distinct[0]!)) {
    throw new Error(`oidc: expected audience ${goQuote(distinct[0]!)} got ${goQuoteList(id.audience)}`);
  }
  const now = v.now();
  if (id.expiry === undefined || id.expiry * 1000 < now) {
    throw new Error(`oidc: token is expired (Token Expiry: ${id.expiry === undefined ? GO_ZERO_TIME : goTimeString(id.expiry * 1000)})`);
  }
  if (id.notBefore !== undefined && now + NOT_BEFORE_LEEWAY_MS < id.notBefore * 1000) {
    throw new Error(`oidc: current time ${goTimeString(now)} before the nbf (not before) time: ${goTimeString(id.notBefore * 1000)}`);
  }
  const alg = typeof parsed.header.alg === 'string' ? parsed.header.alg : '';
  if (!SUPPORTED_SIGNING_ALGORITHMS.includes(alg)) {
    throw new Error(`oidc: id token signed with unsupported algorithm, expected ${goQuoteList(SUPPORTED_SIGNING_ALGORITHMS)} got ${goQuote(alg)}`);
  }
  const kid = typeof parsed.header.kid === 'string' ? parsed.header.kid : '';
  try {
    await v.keySet.verify(token, kid, alg);
  } catch (e) {
    throw new Error(`failed to verify signature: ${(e as Error).message}`);
  }
  if (distinct.length > 1 && !id.audience.some((a) => distinct.includes(a))) {
    throw new Error(`oidc: expected audience in ${goQuoteList([...distinct].sort(compareGoStrings))} got ${goQuoteList(id.audience)}`);
  }
  return { claims: parsed.claims, payloadText: parsed.payloadText };
}
