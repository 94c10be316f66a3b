/**
 * Matching an image against a credential's location the way the kubelet's keyring does
 * (pkg/credentialprovider/keyring.go `URLsMatchStr`): both parsed as URLs without scheme; the
 * ports must be equal, the host must have as many dot-separated labels, each label matching the
 * glob's label with `filepath.Match` (`*.registry.io`, `registry-?.io`), and the glob's path must
 * be a prefix of the image's.
 */
import { goParseURL, type GoURL } from '../../util/go-url.js';

/** Thrown for a glob that `filepath.Match` refuses (`syntax error in pattern`). */
export class BadPatternError extends Error {
  constructor() {
    super('syntax error in pattern');
    this.name = 'BadPatternError';
  }
}

/** Parses `text` as `https://` + text, as `ParseSchemelessURL`; throws with Go's `parse "...": ...`. */
export function parseSchemelessURL(text: string): GoURL {
  const parsed = goParseURL(`https://${text}`);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.url;
}

/** Whether `target` (an image) matches the credential location `glob`; throws for a malformed glob or URL. */
export function urlsMatchStr(glob: string, target: string): boolean {
  const globURL = parseSchemelessURL(glob);
  const targetURL = parseSchemelessURL(target);
  const [globParts, globPort] = splitHostPort(globURL.host);
  const [targetParts, targetPort] = splitHostPort(targetURL.host);
  if (globPort !== targetPort) return false;
  if (globParts.length !== targetParts.length) return false;
  if (!targetURL.path.startsWith(globURL.path)) return false;
  return globParts.every((part, i) => goFilepathMatch(part, targetParts[i]!));
}

/** The host's labels and the port (`''` when the host has none, as `net.SplitHostPort` fails then). */
function splitHostPort(host: string): [string[], string] {
  const bracketed = /^\[([^\]]*)\]:([^:]*)$/.exec(host);
  if (bracketed) return [bracketed[1]!.split('.'), bracketed[2]!];
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && host.indexOf(':') === colon && !host.includes('[')) return [host.slice(0, colon).split('.'), host.slice(colon + 1)];
  return [host.split('.'), ''];
}

/**
 * Go's `path/filepath.Match` on Unix: `*` any run of non-`/` characters, `?` one, `[...]` a class
 * (`^` negates, ranges `a-z`), `\` escapes. Throws {@link BadPatternError} for a malformed pattern,
 * also when the malformation comes after the point a mismatch was found, as Go checks the rest.
 */
export function goFilepathMatch(pattern: string, name: string): boolean {
  const p = [...pattern];
  const s = [...name];
  const memo = new Map<number, boolean>();
  validatePattern(p);
  const match = (pi: number, si: number): boolean => {
    const k = pi * (s.length + 1) + si;
    const hit = memo.get(k);
    if (hit !== undefined) return hit;
    let result: boolean;
    if (pi === p.length) result = si === s.length;
    else if (p[pi] === '*') result = match(pi + 1, si) || (si < s.length && s[si] !== '/' && match(pi, si + 1));
    else if (si === s.length) result = false;
    else {
      const [ok, next] = matchOne(p, pi, s[si]!);
      result = ok && match(next, si + 1);
    }
    memo.set(k, result);
    return result;
  };
  return match(0, 0);
}

/** Matches one character at `p[pi]` (literal, `?`, escape or class); the index after the token. */
function matchOne(p: string[], pi: number, c: string): [boolean, number] {
  const t = p[pi]!;
  if (t === '?') return [c !== '/', pi + 1];
  if (t === '\\') return [p[pi + 1] === c, pi + 2];
  if (t !== '[') return [t === c, pi + 1];
  let i = pi + 1;
  let negated = false;
  if (p[i] === '^') {
    negated = true;
    i++;
  }
  let matched = false;
  let first = true;
  while (first || p[i] !== ']') {
    first = false;
    let lo = p[i]!;
    if (lo === '\\') lo = p[++i]!;
    i++;
    let hi = lo;
    if (p[i] === '-') {
      hi = p[i + 1]!;
      if (hi === '\\') hi = p[++i + 1]!;
      i += 2;
    }
    if (lo <= c && c <= hi) matched = true;
  }
  return [matched !== negated && c !== '/', i + 1];
}

/** Throws {@link BadPatternError} unless every class and escape of the pattern is complete. */
function validatePattern(p: string[]): void {
  let i = 0;
  while (i < p.length) {
    const t = p[i]!;
    if (t === '\\') {
      if (i + 1 >= p.length) throw new BadPatternError();
      i += 2;
    } else if (t === '[') {
      i++;
      if (p[i] === '^') i++;
      let first = true;
      for (;;) {
        if (i >= p.length) throw new BadPatternError();
        if (!first && p[i] === ']') break;
        if (first && p[i] === ']') throw new BadPatternError();
        first = false;
        if (p[i] === '-') throw new BadPatternError();
        if (p[i] === '\\') i++;
        if (i >= p.length) throw new BadPatternError();
        i++;
        if (p[i] === '-') {
          i++;
          if (i >= p.length || p[i] === ']') throw new BadPatternError();
          if (p[i] === '\\') i++;
          if (i >= p.length) throw new BadPatternError();
          i++;
        }
      }
      i++;
    } else i++;
  }
}
