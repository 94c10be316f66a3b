/**
 * Go's `net/url.Parse`, as far as its answer shows in Kubernetes' messages: which URLs it refuses
 * and with which error text (`parse "<url>": <reason>`), and the parts it splits a URL into (scheme,
 * user information, host, query, fragment). Works over UTF-8 bytes, as Go does.
 *
 * Not reproduced: the check some Go releases make that a bracketed host (`[...]`) holds an IPv6
 * address.
 */
import { goQuote } from './go-format.js';

/**
 * The parts of a parsed URL that Kubernetes' rules look at.
 * @category Utilities
 */
export interface GoURL {
  /** Lower-cased, `''` when the URL has none. */
  readonly scheme: string;
  /** The rootless path of `scheme:opaque` (`https:example.com`). */
  readonly opaque: string;
  /** The user information before `@` in the authority, decoded; undefined when absent. */
  readonly user?: { readonly username: string; readonly password?: string };
  /** Host and port, decoded. */
  readonly host: string;
  readonly path: string;
  readonly rawQuery: string;
  readonly fragment: string;
}

/** What Go's `url.Parse` answers: the URL or the text of its error. */
export type GoURLResult = { readonly ok: true; readonly url: GoURL } | { readonly ok: false; readonly error: string };

type Mode = 'path' | 'host' | 'zone' | 'userPassword' | 'fragment';

class ParseError extends Error {}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

const isAlnum = (c: number) => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);
const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const unhex = (c: number) => (c <= 0x39 ? c - 0x30 : c <= 0x46 ? c - 0x41 + 10 : c - 0x61 + 10);

/** Go's `strconv.Quote` of a byte string that may not be valid UTF-8 (invalid bytes as `\xHH`). */
function quoteBytes(bytes: Uint8Array): string {
  let out = '';
  let run: number[] = [];
  const flush = () => {
    if (run.length) out += goQuote(decoder.decode(Uint8Array.from(run))).slice(1, -1);
    run = [];
  };
  for (let i = 0; i < bytes.length;) {
    const b = bytes[i]!;
    const len = b < 0x80 ? 1 : b >= 0xc2 && b <= 0xdf ? 2 : b >= 0xe0 && b <= 0xef ? 3 : b >= 0xf0 && b <= 0xf4 ? 4 : 0;
    const seq = len ? bytes.subarray(i, i + len) : undefined;
    if (seq && seq.length === len && validSequence(seq)) {
      run.push(...seq);
      i += len;
    } else {
      flush();
      out += '\\x' + b.toString(16).padStart(2, '0');
      i += 1;
    }
  }
  flush();
  return `"${out}"`;
}

function validSequence(seq: Uint8Array): boolean {
  for (let k = 1; k < seq.length; k++) if ((seq[k]! & 0xc0) !== 0x80) return false;
  if (seq.length === 3) {
    const [a, b] = [seq[0]!, seq[1]!];
    if (a === 0xe0 && b < 0xa0) return false; // overlong
    if (a === 0xed && b >= 0xa0) return false; // surrogate
  }
  if (seq.length === 4) {
    const [a, b] = [seq[0]!, seq[1]!];
    if (a === 0xf0 && b < 0x90) return false;
    if (a === 0xf4 && b >= 0x90) return false;
  }
  return true;
}

/** Go's `shouldEscape` for the modes parsing uses. */
function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  if (mode === 'host' || mode === 'zone') {
    // Sub-delimiters, ':' and the brackets of IP literals, and the characters some hosts use.
    if ('!$&\'()*+,;=:[]<>"'.includes(String.fromCharCode(c))) return false;
  }
  if ('-_.~'.includes(String.fromCharCode(c))) return false;
  if ('$&+,/:;=?@'.includes(String.fromCharCode(c))) {
    switch (mode) {
      case 'path':
        return c === 0x3f;
      case 'userPassword':
        return c === 0x40 || c === 0x2f || c === 0x3f || c === 0x3a;
      case 'fragment':
        return false;
      default:
        break;
    }
  }
  if (mode === 'fragment' && '!()*'.includes(String.fromCharCode(c))) return false;
  return true;
}

/** Go's `unescape`: decodes `%XX`, refusing bad escapes (and, in a host, characters a host may not hold). */
function unescape(s: Uint8Array, mode: Mode): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < s.length;) {
    const c = s[i]!;
    if (c === 0x25) {
      if (i + 2 >= s.length || !isHex(s[i + 1]!) || !isHex(s[i + 2]!)) {
        throw new ParseError(`invalid URL escape ${quoteBytes(s.subarray(i, i + 3))}`);
      }
      const escape = s.subarray(i, i + 3);
      const isPercent = s[i + 1] === 0x32 && s[i + 2] === 0x35;
      // In a host, %-encoding is only for non-ASCII bytes (and %25 before a zone).
      if (mode === 'host' && unhex(s[i + 1]!) < 8 && !isPercent) throw new ParseError(`invalid URL escape ${quoteBytes(escape)}`);
      const v = (unhex(s[i + 1]!) << 4) | unhex(s[i + 2]!);
      if (mode === 'zone' && !isPercent && v !== 0x20 && shouldEscape(v, 'host')) throw new ParseError(`invalid URL escape ${quoteBytes(escape)}`);
      out.push(v);
      i += 3;
      continue;
    }
    if ((mode === 'host' || mode === 'zone') && c < 0x80 && shouldEscape(c, mode)) {
      throw new ParseError(`invalid character ${quoteBytes(s.subarray(i, i + 1))} in host name`);
    }
    out.push(c);
    i += 1;
  }
  return Uint8Array.from(out);
}

const text = (b: Uint8Array) => decoder.decode(b);
const indexOf = (s: Uint8Array, c: number, from = 0) => s.indexOf(c, from);
const lastIndexOf = (s: Uint8Array, c: number) => s.lastIndexOf(c);

function validOptionalPort(port: Uint8Array): boolean {
  if (port.length === 0) return true;
  if (port[0] !== 0x3a) return false;
  for (let i = 1; i < port.length; i++) if (port[i]! < 0x30 || port[i]! > 0x39) return false;
  return true;
}

function parseHost(host: Uint8Array): string {
  if (host[0] === 0x5b) {
    const i = lastIndexOf(host, 0x5d);
    if (i < 0) throw new ParseError("missing ']' in host");
    const colonPort = host.subarray(i + 1);
    if (!validOptionalPort(colonPort)) throw new ParseError(`invalid port ${quoteBytes(colonPort)} after host`);
    const zone = text(host.subarray(0, i)).includes('%25') ? findZone(host.subarray(0, i)) : -1;
    if (zone >= 0) {
      return text(unescape(host.subarray(0, zone), 'host')) + text(unescape(host.subarray(zone, i), 'zone')) + text(unescape(host.subarray(i), 'host'));
    }
  } else {
    const i = lastIndexOf(host, 0x3a);
    if (i !== -1) {
      const colonPort = host.subarray(i);
      if (!validOptionalPort(colonPort)) throw new ParseError(`invalid port ${quoteBytes(colonPort)} after host`);
    }
  }
  return text(unescape(host, 'host'));
}

function findZone(s: Uint8Array): number {
  for (let i = 0; i + 2 < s.length; i++) if (s[i] === 0x25 && s[i + 1] === 0x32 && s[i + 2] === 0x35) return i;
  return -1;
}

/** The characters Go's `validUserinfo` accepts. */
const USERINFO_EXTRA = new Set("-._:~!$&'()*+,;=%@");

function parseAuthority(authority: Uint8Array): { user?: GoURL['user']; host: string } {
  const at = lastIndexOf(authority, 0x40);
  const host = parseHost(at < 0 ? authority : authority.subarray(at + 1));
  if (at < 0) return { host };
  const userinfo = authority.subarray(0, at);
  for (const ch of text(userinfo)) {
    if (!(ch.length === 1 && isAlnum(ch.charCodeAt(0))) && !USERINFO_EXTRA.has(ch)) throw new ParseError('net/url: invalid userinfo');
  }
  const colon = indexOf(userinfo, 0x3a);
  if (colon < 0) return { host, user: { username: text(unescape(userinfo, 'userPassword')) } };
  return {
    host,
    user: { username: text(unescape(userinfo.subarray(0, colon), 'userPassword')), password: text(unescape(userinfo.subarray(colon + 1), 'userPassword')) },
  };
}

/** Go's `getScheme`: the scheme before `:`, or none when the text before `:` cannot be one. */
function getScheme(raw: Uint8Array): { scheme: string; rest: Uint8Array } {
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) continue;
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
      if (i === 0) return { scheme: '', rest: raw };
      continue;
    }
    if (c === 0x3a) {
      if (i === 0) throw new ParseError('missing protocol scheme');
      return { scheme: text(raw.subarray(0, i)), rest: raw.subarray(i + 1) };
    }
    return { scheme: '', rest: raw };
  }
  return { scheme: '', rest: raw };
}

function parse(raw: Uint8Array, viaRequest = false): Omit<GoURL, 'fragment'> {
  if (raw.some((b) => b < 0x20 || b === 0x7f)) throw new ParseError('net/url: invalid control character in URL');
  if (viaRequest && raw.length === 0) throw new ParseError('empty url');
  const base = { scheme: '', opaque: '', host: '', path: '', rawQuery: '' };
  if (raw.length === 1 && raw[0] === 0x2a) return { ...base, path: '*' };
  const { scheme: rawScheme, rest: afterScheme } = getScheme(raw);
  const scheme = rawScheme.toLowerCase();
  let rest = afterScheme;
  let rawQuery = '';
  const q = indexOf(rest, 0x3f);
  if (q === rest.length - 1 && q >= 0) {
    rest = rest.subarray(0, q); // a lone trailing '?' (ForceQuery)
  } else if (q >= 0) {
    rawQuery = text(rest.subarray(q + 1));
    rest = rest.subarray(0, q);
  }
  if (rest[0] !== 0x2f) {
    if (scheme !== '') return { ...base, scheme, opaque: text(rest), rawQuery };
    if (viaRequest) throw new ParseError('invalid URI for request');
    const slash = indexOf(rest, 0x2f);
    const segment = slash < 0 ? rest : rest.subarray(0, slash);
    if (segment.includes(0x3a)) throw new ParseError('first path segment in URL cannot contain colon');
  }
  let user: GoURL['user'];
  let host = '';
  const startsWith = (s: Uint8Array, prefix: string) => text(s.subarray(0, prefix.length)) === prefix;
  if ((scheme !== '' || (!viaRequest && !startsWith(rest, '///'))) && startsWith(rest, '//')) {
    let authority = rest.subarray(2);
    rest = new Uint8Array(0);
    const slash = indexOf(authority, 0x2f);
    if (slash >= 0) {
      rest = authority.subarray(slash);
      authority = authority.subarray(0, slash);
    }
    ({ user, host } = parseAuthority(authority));
  }
  const path = text(unescape(rest, 'path'));
  return { ...base, scheme, user, host, path, rawQuery };
}

/** Go's `url.Parse(raw)`. */
export function goParseURL(raw: string): GoURLResult {
  const bytes = encoder.encode(raw);
  const hash = indexOf(bytes, 0x23);
  const main = hash < 0 ? bytes : bytes.subarray(0, hash);
  let parsed: Omit<GoURL, 'fragment'>;
  try {
    parsed = parse(main);
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, error: `parse ${quoteBytes(main)}: ${e.message}` };
    throw e;
  }
  let fragment = '';
  if (hash >= 0) {
    try {
      fragment = text(unescape(bytes.subarray(hash + 1), 'fragment'));
    } catch (e) {
      if (e instanceof ParseError) return { ok: false, error: `parse ${quoteBytes(bytes)}: ${e.message}` };
      throw e;
    }
  }
  return { ok: true, url: { ...parsed, fragment } };
}

/**
 * Go's `url.ParseRequestURI(raw)`: `raw` is taken as a request target (an absolute URI or an
 * absolute path), with no fragment (a `#` belongs to the path).
 */
export function goParseRequestURI(raw: string): GoURLResult {
  const bytes = encoder.encode(raw);
  try {
    return { ok: true, url: { ...parse(bytes, true), fragment: '' } };
  } catch (e) {
    if (e instanceof ParseError) return { ok: false, error: `parse ${quoteBytes(bytes)}: ${e.message}` };
    throw e;
  }
}

/** Go's `Userinfo.String()`: the user (and `:password`) escaped again. */
export function goUserinfoString(user: NonNullable<GoURL['user']>): string {
  const escape = (s: string) =>
    Array.from(encoder.encode(s), (c) => (shouldEscape(c, 'userPassword') ? '%' + c.toString(16).toUpperCase().padStart(2, '0') : String.fromCharCode(c))).join(
      '',
    );
  return user.password === undefined ? escape(user.username) : `${escape(user.username)}:${escape(user.password)}`;
}
