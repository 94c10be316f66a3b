/**
 * OIDC discovery and the issuer's key set, as go-oidc (v2, which k8s.io/apiserver vendors) does
 * them: `NewProvider` reads `{issuer}/.well-known/openid-configuration` (or the configured
 * discoveryURL in its place) and insists the document names the same issuer; the remote key set
 * fetches `jwks_uri`, keeps the keys for as long as Cache-Control allows, and fetches again when
 * a token's signature matches no cached key. Unlike upstream, a fetch triggered by an unknown key
 * happens at most once per `minRefreshIntervalMs`, so a stream of forged tokens cannot make the
 * server hammer the issuer; concurrent verifications share one fetch, as upstream's do.
 */
import { goQuote } from '../../../util/go-format.js';
import type { JWK } from 'jose';

type Jose = typeof import('jose');
let joseModule: Promise<Jose> | undefined;
/** jose, loaded the first time a token is checked: it is ESM only, and CommonJS users of memkube must be able to require it. */
function jose(): Promise<Jose> {
  return (joseModule ??= import('jose'));
}
import { goJsonKind, goParseJson } from './go-json.js';
import type { HttpGet, HttpGetResponse } from './http-get.js';

/** go-oidc's `keysExpiryDelta`: keys that expire within 30 s are fetched again. */
const KEYS_EXPIRY_DELTA_MS = 30_000;

/**
 * `unmarshalResp`: the body decoded by `decode` (which throws Go's type errors); a body that does
 * not decode is named by its Content-Type.
 */
function unmarshalResp<T>(res: HttpGetResponse, decode: (doc: unknown) => T): T {
  try {
    return decode(goParseJson(res.body.toString('utf8')));
  } catch (e) {
    const reason = (e as Error).message;
    const mediaType = res.contentType.split(';')[0]!.trim().toLowerCase();
    if (mediaType === 'application/json') throw new Error(`got Content-Type = application/json, but could not unmarshal as JSON: ${reason}`);
    throw new Error(`expected Content-Type = application/json, got ${goQuote(res.contentType)}: ${reason}`);
  }
}

/** Go's `json.Unmarshal` into a struct: an object (null leaves it empty), each listed field a string or null. */
function decodeStruct(doc: unknown, goType: string, stringFields: readonly string[], stringListFields: readonly string[] = []): Record<string, unknown> {
  if (doc === null) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new Error(`json: cannot unmarshal ${goJsonKind(doc)} into Go value of type ${goType}`);
  const fields = doc as Record<string, unknown>;
  const structName = goType.slice(goType.indexOf('.') + 1);
  for (const [name, v] of Object.entries(fields)) {
    if (stringFields.includes(name) && v !== null && typeof v !== 'string') {
      throw new Error(`json: cannot unmarshal ${goJsonKind(v)} into Go struct field ${structName}.${name} of type string`);
    }
    if (stringListFields.includes(name) && v !== null) {
      if (!Array.isArray(v)) throw new Error(`json: cannot unmarshal ${goJsonKind(v)} into Go struct field ${structName}.${name} of type []string`);
      const wrong = v.find((x) => x !== null && typeof x !== 'string');
      if (wrong !== undefined) throw new Error(`json: cannot unmarshal ${goJsonKind(wrong)} into Go struct field ${structName}.${name} of type string`);
    }
  }
  return fields;
}

const PROVIDER_STRING_FIELDS = ['issuer', 'authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint'];

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
    throw new Error(options.discoveryURL ? message.replace(goQuote(options.discoveryURL), goQuote(wellKnown)) : message);
  }
  if (res.status !== 200) throw new Error(`${res.statusText}: ${res.body.toString('utf8')}`);
  let fields: Record<string, unknown>;
  try {
    fields = unmarshalResp(res, (doc) => decodeStruct(doc, 'oidc.providerJSON', PROVIDER_STRING_FIELDS, ['id_token_signing_alg_values_supported']));
  } catch (e) {
    throw new Error(`oidc: failed to decode provider discovery object: ${(e as Error).message}`);
  }
  const discovered = (fields.issuer as string | null | undefined) ?? '';
  if (discovered !== issuer)
    throw new Error(`oidc: issuer did not match the issuer returned by provider, expected ${goQuote(issuer)} got ${goQuote(discovered)}`);
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
  /** The key imported for each algorithm tried with it (undefined: the key cannot serve that algorithm). */
  readonly imported: Map<string, Promise<Parameters<Jose['compactVerify']>[1] | undefined>>;
}

/** Options of a {@link RemoteKeySet}. */
export interface RemoteKeySetOptions {
  readonly get: HttpGet;
  readonly ca?: string;
  readonly timeoutMs: number;
  readonly now: () => number;
  /** The shortest time between fetches an unknown key can trigger. */
  readonly minRefreshIntervalMs: number;
  /** Told of every fetch of the key set: the document fetched, or undefined when the fetch failed. */
  readonly onFetch?: (keySet: string | undefined) => void;
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
      let imported = key.imported.get(alg);
      if (!imported) {
        imported = jose().then((j) =>
          j.importJWK({ ...key.jwk, alg }, alg).then(
            (k) => k,
            () => undefined,
          ),
        );
        key.imported.set(alg, imported);
      }
      const publicKey = await imported;
      if (!publicKey) continue;
      try {
        const { payload } = await (await jose()).compactVerify(token, publicKey, { algorithms: [alg] });
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
    let keySet: string | undefined;
    try {
      const keys = await this.fetchAndDecode();
      keySet = keys.document;
      return keys.keys;
    } finally {
      this.options.onFetch?.(keySet);
    }
  }

  private async fetchAndDecode(): Promise<{ keys: CachedKey[]; document: string }> {
    this.lastFetch = this.options.now();
    let res: HttpGetResponse;
    try {
      res = await this.options.get({ url: this.jwksURL, ca: this.options.ca, timeoutMs: this.options.timeoutMs });
    } catch (e) {
      throw new Error(`oidc: get keys failed ${(e as Error).message}`);
    }
    const body = res.body.toString('utf8');
    if (res.status !== 200) throw new Error(`oidc: get keys failed: ${res.statusText} ${body}`);
    let list: unknown;
    try {
      list = unmarshalResp(res, (doc) => {
        const set = decodeStruct(doc, 'jose.JSONWebKeySet', []);
        const keys = set.keys;
        if (keys !== undefined && keys !== null && !Array.isArray(keys)) {
          throw new Error(`json: cannot unmarshal ${goJsonKind(keys)} into Go struct field JSONWebKeySet.keys of type []jose.JSONWebKey`);
        }
        return keys;
      });
    } catch (e) {
      throw new Error(`oidc: failed to decode keys: ${(e as Error).message} ${body}`);
    }
    const keys: CachedKey[] = [];
    if (Array.isArray(list)) {
      for (const k of list) {
        if (k === null || typeof k !== 'object' || Array.isArray(k)) continue;
        const jwk = k as JWK;
        // Private parts are never needed to verify; dropping them keeps a leaked key from being used as one.
        const { d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, k: _k, ...pub } = jwk;
        if (jwk.kty === 'oct') continue;
        keys.push({ jwk: pub, kid: typeof jwk.kid === 'string' ? jwk.kid : '', imported: new Map() });
      }
    }
    const now = this.options.now();
    this.keys = keys;
    this.expiry = Math.max(now, now + maxAgeMs(res.cacheControl));
    return { keys, document: body };
  }
}
