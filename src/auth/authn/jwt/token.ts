/**
 * Reading a compact JWT the way the OIDC authenticator does before trusting it: the unverified
 * issuer that picks an authenticator (oidc.go `untrustedIssuer`), the JWS parts (go-jose's
 * `ParseSigned`), and the registered claims go-oidc's `IDTokenVerifier.Verify` reads, with the
 * errors Go's decoders give for values of the wrong type.
 */
import { goJsonKind, goParseJson } from './go-json.js';

/** Go's `base64.RawURLEncoding.DecodeString`: no padding, URL alphabet; `\r` and `\n` skipped. */
export function rawUrlDecode(text: string): Buffer | { readonly error: string } {
  const s = text.includes('\r') || text.includes('\n') ? text.replace(/[\r\n]/g, '') : text;
  const bad = /[^A-Za-z0-9_-]/.exec(s);
  if (bad) return { error: `illegal base64 data at input byte ${bad.index}` };
  if (s.length % 4 === 1) return { error: `illegal base64 data at input byte ${s.length - 1}` };
  return Buffer.from(s, 'base64url');
}

/** The issuer a token claims, before any check; undefined when the token is not a compact JWT with a JSON payload. */
export function untrustedIssuer(token: string): string | undefined {
  if (token.trim().startsWith('{')) return undefined;
  const parts = token.split('.');
  if (parts.length !== 3) return undefined;
  const payload = rawUrlDecode(parts[1]!);
  if ('error' in payload) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
  if (claims === null) return '';
  if (typeof claims !== 'object' || Array.isArray(claims)) return undefined;
  const iss = (claims as Record<string, unknown>).iss;
  if (iss !== undefined && iss !== null && typeof iss !== 'string') return undefined;
  const issuer = typeof iss === 'string' ? iss : '';
  return issuer === 'accounts.google.com' ? 'https://accounts.google.com' : issuer;
}

/** A compact JWS split and decoded. */
export interface ParsedJws {
  readonly header: Readonly<Record<string, unknown>>;
  /** The payload's JSON object. */
  readonly claims: Readonly<Record<string, unknown>>;
  /** The payload's text, which tells `1` from `1.0` where the parsed claims cannot. */
  readonly payloadText: string;
}

/** Splits and decodes a compact JWS (go-jose `ParseSigned`); a string is the error text. */
export function parseCompactJws(token: string): ParsedJws | string {
  const parts = token.split('.');
  if (parts.length !== 3) return 'square/go-jose: compact JWS format must have three parts';
  const header = rawUrlDecode(parts[0]!.replace(/=+$/, ''));
  if ('error' in header) return header.error;
  const payload = rawUrlDecode(parts[1]!.replace(/=+$/, ''));
  if ('error' in payload) return payload.error;
  const signature = rawUrlDecode(parts[2]!.replace(/=+$/, ''));
  if ('error' in signature) return signature.error;
  let h: unknown;
  try {
    h = goParseJson(header.toString('utf8'));
  } catch (e) {
    return (e as Error).message;
  }
  if (h === null || typeof h !== 'object' || Array.isArray(h)) return `json: cannot unmarshal ${goJsonKind(h)} into Go value of type jose.rawHeader`;
  const payloadText = payload.toString('utf8');
  const claims = JSON.parse(payloadText) as unknown;
  if (claims === null || typeof claims !== 'object' || Array.isArray(claims))
    return `json: cannot unmarshal ${goJsonKind(claims)} into Go value of type map[string]interface {}`;
  return { header: h as Record<string, unknown>, claims: claims as Record<string, unknown>, payloadText };
}

/** The registered claims go-oidc reads (`idToken`). Times are whole Unix seconds; undefined when absent. */
export interface IdTokenClaims {
  readonly issuer: string;
  readonly audience: readonly string[];
  /** Seconds; a missing `exp` is Go's zero time. */
  readonly expiry: number | undefined;
  readonly notBefore: number | undefined;
  readonly claimNames: Readonly<Record<string, string>>;
  readonly claimSources: Readonly<Record<string, unknown>>;
}

/** Go's `jsonTime.UnmarshalJSON`: a number or numeric string, truncated to whole seconds. */
function jsonTime(value: unknown): number | string {
  let text: string;
  if (typeof value === 'number') text = String(value);
  else if (typeof value === 'string') {
    if (!/^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/.test(value))
      return `json: invalid number literal, trying to unmarshal ${JSON.stringify(JSON.stringify(value))} into Number`;
    text = value;
  } else if (value === null) return 'strconv.ParseFloat: parsing "": invalid syntax';
  else return `json: cannot unmarshal ${goJsonKind(value)} into Go value of type json.Number`;
  const n = Number(text);
  if (!Number.isFinite(n)) return `strconv.ParseFloat: parsing ${JSON.stringify(text)}: value out of range`;
  return Math.trunc(n);
}

/**
 * The registered claims of a payload as Go's `json.Unmarshal` into go-oidc's `idToken` reads them:
 * a custom decoder's failure stops at once; a plain field of the wrong type is remembered and the
 * first such is reported. A string is the error text.
 */
export function idTokenClaims(claims: Readonly<Record<string, unknown>>): IdTokenClaims | string {
  let saved: string | undefined;
  const save = (name: string, value: unknown, goType: string) => {
    saved ??= `json: cannot unmarshal ${goJsonKind(value)} into Go struct field idToken.${name} of type ${goType}`;
  };
  let issuer = '';
  let audience: string[] = [];
  let expiry: number | undefined;
  let notBefore: number | undefined;
  let claimNames: Record<string, string> = {};
  let claimSources: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(claims)) {
    switch (name) {
      case 'iss':
      case 'sub':
      case 'nonce':
      case 'at_hash':
        if (value !== null && typeof value !== 'string') save(name, value, 'string');
        else if (name === 'iss') issuer = value ?? '';
        break;
      case 'aud':
        if (value === null || typeof value === 'string') audience = [value ?? ''];
        else if (Array.isArray(value)) {
          const wrong = value.find((v) => v !== null && typeof v !== 'string');
          if (wrong !== undefined) return `json: cannot unmarshal ${goJsonKind(wrong)} into Go value of type string`;
          audience = value.map((v) => (v as string | null) ?? '');
        } else return `json: cannot unmarshal ${goJsonKind(value)} into Go value of type []string`;
        break;
      case 'exp':
      case 'iat':
      case 'nbf': {
        if (name === 'nbf' && value === null) {
          notBefore = undefined;
          break;
        }
        const t = jsonTime(value);
        if (typeof t === 'string') return t;
        if (name === 'exp') expiry = t;
        if (name === 'nbf') notBefore = t;
        break;
      }
      case '_claim_names':
        if (value === null) claimNames = {};
        else if (typeof value !== 'object' || Array.isArray(value)) save(name, value, 'map[string]string');
        else {
          claimNames = {};
          for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
            if (v !== null && typeof v !== 'string') save(name, v, 'string');
            else claimNames[k] = v ?? '';
          }
        }
        break;
      case '_claim_sources':
        if (value === null) claimSources = {};
        else if (typeof value !== 'object' || Array.isArray(value)) save(name, value, 'map[string]oidc.claimSource');
        else claimSources = value as Record<string, unknown>;
        break;
      default:
        break;
    }
  }
  if (saved) return saved;
  return { issuer, audience, expiry, notBefore, claimNames, claimSources };
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** Go's `time.Time.String()` of a UTC instant in milliseconds (`2026-01-02 15:04:05.5 +0000 UTC`). */
export function goTimeString(ms: number): string {
  const d = new Date(ms);
  if (Number.isNaN(d.getTime())) return `${Math.trunc(ms / 1000)}`;
  const fraction = ms % 1000 === 0 ? '' : `.${pad(((ms % 1000) + 1000) % 1000, 3)}`.replace(/0+$/, '');
  return `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${fraction} +0000 UTC`;
}

/** Go's zero time, as `String()` prints it. */
export const GO_ZERO_TIME = '0001-01-01 00:00:00 +0000 UTC';
