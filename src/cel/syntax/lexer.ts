/**
 * The CEL lexer (the token rules of cel-spec's grammar, CEL.g4). Characters that start no token
 * are reported the way ANTLR reports them (`token recognition error at: '$'`) and skipped.
 */

/** Token kinds. `op` covers punctuation and operators; `kw` the words true, false, null and in. */
export type TokenKind = 'int' | 'uint' | 'float' | 'string' | 'bytes' | 'ident' | 'escident' | 'op' | 'kw' | 'eof';

/** One token: its kind, its text as written, and its UTF-16 offset. */
export interface Token {
  readonly kind: TokenKind;
  readonly text: string;
  readonly offset: number;
}

/** What the lexer produced: the tokens (ending with `eof`) and the characters it skipped. */
export interface LexResult {
  readonly tokens: Token[];
  readonly errors: { offset: number; message: string }[];
}

const OPS3 = new Set<string>([]);
const OPS2 = new Set(['==', '!=', '<=', '>=', '&&', '||']);
const OPS1 = new Set(['<', '>', '[', ']', '{', '}', '(', ')', '.', ',', '-', '!', '?', ':', '+', '*', '/', '%']);
const KEYWORDS = new Set(['true', 'false', 'null', 'in']);

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';
const isHex = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);
const isIdentStart = (c: string | undefined): boolean => c !== undefined && /^[_a-zA-Z]$/.test(c);
const isIdentPart = (c: string | undefined): boolean => c !== undefined && /^[_a-zA-Z0-9]$/.test(c);
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\n' || c === '\r' || c === '\f';

/** Scans an escape sequence at `i` (the backslash); the index after it, or -1 when it is not one. */
function scanEscape(s: string, i: number): number {
  const c = s[i + 1];
  if (c === undefined) return -1;
  if ('abfnrtv\\\'"`?'.includes(c)) return i + 2;
  if (c >= '0' && c <= '3') return /^[0-7]{2}$/.test(s.slice(i + 2, i + 4)) ? i + 4 : -1;
  if (c === 'x' || c === 'X') return isHex(s[i + 2]) && isHex(s[i + 3]) ? i + 4 : -1;
  if (c === 'u') return /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6)) ? i + 6 : -1;
  if (c === 'U') return /^[0-9a-fA-F]{8}$/.test(s.slice(i + 2, i + 10)) ? i + 10 : -1;
  return -1;
}

/**
 * Scans a string body starting at the opening quote `q` (at `i`); returns the index after the
 * closing quote, or -1 with the index where scanning failed.
 */
function scanString(s: string, i: number, raw: boolean): { end: number; failedAt: number } {
  const triple = s.startsWith(s[i]!.repeat(3), i);
  const quote = triple ? s[i]!.repeat(3) : s[i]!;
  let j = i + quote.length;
  while (j < s.length) {
    if (s.startsWith(quote, j)) return { end: j + quote.length, failedAt: -1 };
    const c = s[j]!;
    if (!triple && (c === '\n' || c === '\r')) return { end: -1, failedAt: j };
    if (c === '\\' && !raw) {
      const next = scanEscape(s, j);
      if (next < 0) return { end: -1, failedAt: j };
      j = next;
      continue;
    }
    if (c === '\\' && raw && triple && s[j + 1] !== undefined) {
      j += 1;
    }
    j++;
  }
  return { end: -1, failedAt: s.length };
}

/** Splits `source` into tokens. */
export function lex(source: string): LexResult {
  const tokens: Token[] = [];
  const errors: { offset: number; message: string }[] = [];
  const s = source;
  let i = 0;
  while (i < s.length) {
    const c = s[i]!;
    if (isSpace(c)) {
      i++;
      continue;
    }
    if (c === '/' && s[i + 1] === '/') {
      while (i < s.length && s[i] !== '\n') i++;
      continue;
    }
    const start = i;
    // String and bytes literals, with their r/b prefixes in either order and case.
    const prefix = /^(?:[rR][bB]?|[bB][rR]?)?(?=['"])/.exec(s.slice(i, i + 3));
    if (prefix && (c === '"' || c === "'" || prefix[0].length > 0)) {
      const p = prefix[0].toLowerCase();
      const raw = p.includes('r');
      const bytes = p.includes('b');
      const q = i + prefix[0].length;
      const { end, failedAt } = scanString(s, q, raw);
      if (end < 0) {
        // ANTLR reports the text it consumed before giving up, then restarts after the first character.
        let stop = failedAt;
        if (stop < s.length && (s[stop] === '\n' || s[stop] === '\r')) stop++;
        else if (stop < s.length && s[stop] === '\\') stop = Math.min(s.length, stop + 2);
        errors.push({ offset: start, message: `Syntax error: token recognition error at: '${s.slice(start, stop)}'` });
        i = start + 1;
        continue;
      }
      tokens.push({ kind: bytes ? 'bytes' : 'string', text: s.slice(start, end), offset: start });
      i = end;
      continue;
    }
    if (isIdentStart(c)) {
      let j = i + 1;
      while (isIdentPart(s[j])) j++;
      const text = s.slice(i, j);
      tokens.push({ kind: KEYWORDS.has(text) ? 'kw' : 'ident', text, offset: start });
      i = j;
      continue;
    }
    if (c === '`') {
      let j = i + 1;
      while (j < s.length && /^[_a-zA-Z0-9.\-/ ]$/.test(s[j]!)) j++;
      if (s[j] === '`' && j > i + 1) {
        tokens.push({ kind: 'escident', text: s.slice(i, j + 1), offset: start });
        i = j + 1;
        continue;
      }
      errors.push({ offset: start, message: `Syntax error: token recognition error at: '${s.slice(i, j + 1)}'` });
      i = j + 1 > i + 1 && s[j] !== '`' ? j : i + 1;
      continue;
    }
    if (isDigit(c) || (c === '.' && isDigit(s[i + 1]))) {
      const m =
        /^0[xX][0-9a-fA-F]+[uU]?/.exec(s.slice(i)) ??
        /^(?:\d+\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+|\.\d+(?:[eE][+-]?\d+)?)/.exec(s.slice(i)) ??
        /^\d+[uU]?/.exec(s.slice(i));
      const text = m![0];
      const kind: TokenKind = /[uU]$/.test(text) ? 'uint' : /^0[xX]/.test(text) || /^\d+$/.test(text) ? 'int' : 'float';
      tokens.push({ kind, text, offset: start });
      i += text.length;
      continue;
    }
    const three = s.slice(i, i + 3);
    const two = s.slice(i, i + 2);
    if (OPS3.has(three)) {
      tokens.push({ kind: 'op', text: three, offset: start });
      i += 3;
      continue;
    }
    if (OPS2.has(two)) {
      tokens.push({ kind: 'op', text: two, offset: start });
      i += 2;
      continue;
    }
    if (OPS1.has(c)) {
      tokens.push({ kind: 'op', text: c, offset: start });
      i++;
      continue;
    }
    // `&` and `|` alone: ANTLR consumed the character and the one after it looking for `&&`/`||`.
    const cp = s.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    const shown = c === '&' || c === '|' ? s.slice(i, i + 2) : s.slice(i, i + width);
    errors.push({ offset: start, message: `Syntax error: token recognition error at: '${shown}'` });
    i += width;
  }
  tokens.push({ kind: 'eof', text: '<EOF>', offset: s.length });
  return { tokens, errors };
}
