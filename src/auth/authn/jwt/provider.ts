/**
 * OIDC discovery and the issuer's key set, as go-oidc (v2, which k8s.io/apiserver vendors) does
 * them: `NewProvider` reads `{issuer}/.well-known/openid-configuration` (or the configured
 * discoveryURL in its place) and insists the document names the same issuer; the remote key set
 * fetches `jwks_uri`, keeps the keys for as long as Cache-Control allows, and fetches again when
 * a token's signature matches no cached key. Unlike upstream, a fetch triggered by an unknown key
 * happens at most once per `minRefreshIntervalMs`, so a stream of forged tokens cannot make the
 * server hammer the issuer; concurrent verifications share one fetch, as upstream's do.
 */
import { compactVerify, importJWK, type JWK } from 'jose';
import { goParseJson } from './go-json.js';
import type { HttpGet, HttpGetResponse } from './http-get.js';

/** go-oidc's `keysExpiryDelta`: keys that expire within 30 s are fetched again. */
const KEYS_EXPIRY_DELTA_MS = 30_000;

/** `unmarshalResp`: a body that is not JSON, named by its Content-Type. */
function unmarshalResp(res: HttpGetResponse): unknown {
  try {
    return goParseJson(res.body.toString('utf8'));
  } catch (e) {
    const reason = (e as Error).message;
    const mediaType = res.contentType.split(';')[0]!.trim().toLowerCase();
    if (mediaType === 'application/json') throw new Error(`got Content-Type = application/json, but could not unmarshal as JSON: ${reason}`);
    throw new Error(`expected Content-Type = application/json, got ${JSON.stringify(res.contentType)}: ${reason}`);
  }
}

/** A discovered provider: the parts the authenticator uses. */
export interface DiscoveredProvider {
  readonly issuer: string;
  readonly jwksURL: string;
}

/**
 * `oidc.NewProvider`, plus the JWKS URL check kube-apiserver makes: rejects with go-oidc's
 * messages (`500 Internal Server Error: <body>`, `oidc: issuer did not match the issuer returned
 * by provider, expected "a" got "b"`, `provider did not return JWKS URL`).
 */
export async function discoverProvider(
  issuer: string,
  options: { readonly discoveryURL?: string; readonly get: HttpGet; readonly ca?: string; readonly timeoutMs: number },
): Promise<DiscoveredProvider> {
  const wellKnown = `${issuer.replace(/\/$/, '')}/.well-known/openid-configuration`;
  let res: HttpGetResponse;
  try {
    res = await options.get({ url: options.discoveryURL || wellKnown, ca: options.ca, timeoutMs: options.timeoutMs });
  } catch (e) {
    // The client names the URL it was asked for: the well-known one, even when rewritten to the discovery URL.
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(options.discoveryURL ? message.replace(JSON.stringify(options.discoveryURL), JSON.stringify(wellKnown)) : message);
  }
  if (res.status !== 200) throw new Error(`${res.statusText}: ${res.body.toString('utf8')}`);
  let doc: unknown;
  try {
    doc = unmarshalResp(res);
  } catch (e) {
    throw new Error(`oidc: failed to decode provider discovery object: ${(e as Error).message}`);
  }
  const fields = doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as Record<string, unknown>) : {};
  if (doc !== null && (typeof doc !== 'object' || Array.isArray(doc))) {
    throw new Error(
      `oidc: failed to decode provider discovery object: json: cannot unmarshal ${Array.isArray(doc) ? 'array' : typeof doc} into Go value of type oidc.providerJSON`,
    );
  }
  for (const key of ['issuer', 'jwks_uri']) {
    const v = fields[key];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      throw new Error(
        `oidc: failed to decode provider discovery object: json: cannot unmarshal ${typeof v === 'object' ? (Array.isArray(v) ? 'array' : 'object') : typeof v} into Go struct field providerJSON.${key} of type string`,
      );
    }
  }
  const discovered = (fields.issuer as string | null | undefined) ?? '';
  if (discovered !== issuer)
    throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${JSON.stringify(issuer)} got ${JSON.stringify(discovered)}`);
  const jwksURL = (fields.jwks_uri as string | null | undefined) ?? '';
  if (!jwksURL) throw new Error('provider did not return JWKS URL');
  return { issuer, jwksURL };
}

/** The `max-age` of a Cache-Control header, in ms; 0 when the response may not be kept. */
function maxAgeMs(cacheControl: string): number {
  const directives = cacheControl
    .toLowerCase()
    .split(',')
    .map((d) => d.trim());
  if (directives.some((d) => d === 'no-store' || d === 'no-cache' || d === 'private')) return 0;
  for (const d of directives) {
    const m = /^(?:s-)?max-age=(\d+)$/.exec(d);
    if (m) return Math.min(Number(m[1]), 365 * 24 * 3600) * 1000;
  }
  return 0;
}

interface CachedKey {
  readonly jwk: JWK;
  readonly kid: string;
}

/** Options of a {@link RemoteKeySet}. */
export interface RemoteKeySetOptions {
  readonly get: HttpGet;
  readonly ca?: string;
  readonly timeoutMs: number;
  readonly now: () => number;
  /** The shortest time between fetches an unknown key can trigger. */
  readonly minRefreshIntervalMs: number;
}

/** The issuer's keys (go-oidc `remoteKeySet`). */
export class RemoteKeySet {
  private keys: CachedKey[] = [];
  private expiry = -Infinity;
  private lastFetch = -Infinity;
  private inflight: Promise<CachedKey[]> | undefined;

  constructor(
    readonly jwksURL: string,
    private readonly options: RemoteKeySetOptions,
  ) {}

  /**
   * The verified payload of `token`, signed with `alg` by the key `kid` (any key when the token
   * names none). Rejects with `failed to verify id token signature` or `fetching keys <reason>`.
   */
  async verify(token: string, kid: string, alg: string): Promise<Uint8Array> {
    const cached = await this.tryKeys(this.keys, token, kid, alg);
    if (cached) return cached;
    const now = this.options.now();
    if (!(now + KEYS_EXPIRY_DELTA_MS > this.expiry) || now < this.lastFetch + this.options.minRefreshIntervalMs) {
      throw new Error('failed to verify id token signature');
    }
    let keys: CachedKey[];
    try {
      keys = await this.fetchKeys();
    } catch (e) {
      throw new Error(`fetching keys ${(e as Error).message}`);
    }
    const fetched = await this.tryKeys(keys, token, kid, alg);
    if (fetched) return fetched;
    throw new Error('failed to verify id token signature');
  }

  private async tryKeys(keys: readonly CachedKey[], token: string, kid: string, alg: string): Promise<Uint8Array | undefined> {
    for (const key of keys) {
      if (kid !== '' && key.kid !== kid) continue;
      try {
        const publicKey = await importJWK({ ...key.jwk, alg }, alg);
        const { payload } = await compactVerify(token, publicKey, { algorithms: [alg] });
        return payload;
      } catch {
        // Not this key (wrong type, wrong signature): try the next, as go-jose does.
      }
    }
    return undefined;
  }

  /** One fetch at a time; every caller waiting meanwhile shares its answer. */
  private fetchKeys(): Promise<CachedKey[]> {
    this.inflight ??= this.updateKeys().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async updateKeys(): Promise<CachedKey[]> {
    this.lastFetch = this.options.now();
    let res: HttpGetResponse;
    try {
      res = await this.options.get({ url: this.jwksURL, ca: this.options.ca, timeoutMs: this.options.timeoutMs });
    } catch (e) {
      throw new Error(`oidc: get keys failed ${(e as Error).message}`);
    }
    const body = res.body.toString('utf8');
    if (res.status !== 200) throw new Error(`oidc: get keys failed: ${res.statusText} ${body}`);
    let doc: unknown;
    try {
      doc = unmarshalResp(res);
    } catch (e) {
      throw new Error(`oidc: failed to decode keys: ${(e as Error).message} ${body}`);
    }
    const list = doc !== null && typeof doc === 'object' && !Array.isArray(doc) ? (doc as { keys?: unknown }).keys : undefined;
    const keys: CachedKey[] = [];
    if (Array.isArray(list)) {
      for (const k of list) {
        if (k === null || typeof k !== 'object' || Array.isArray(k)) continue;
        const jwk = k as JWK;
        // Private parts are never needed to verify; dropping them keeps a leaked key from being used as one.
        const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, k: _k, ...pub } = jwk;
        if (jwk.kty === 'oct') continue;
        keys.push({ jwk: pub, kid: typeof jwk.kid === 'string' ? jwk.kid : '' });
      }
    }
    const now = this.options.now();
    this.keys = keys;
    this.expiry = Math.max(now, now + maxAgeMs(res.cacheControl));
    return keys;
  }
}
