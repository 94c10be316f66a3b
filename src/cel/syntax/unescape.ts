/**
 * The values of string and bytes literals (cel-go parser/unescape.go): quotes and prefixes
 * removed, escapes decoded. Strings decode to text; bytes keep `\x`, octal and raw characters as
 * bytes and UTF-8-encode the rest.
 */

/** The decoded literal, or an error message. */
export type Unescaped<T> = { ok: true; value: T } | { ok: false; message: string };

interface Piece {
  /** A code point, or a raw byte when `byte` is set. */
  readonly cp: number;
  readonly byte: boolean;
}

function pieces(body: string, raw: boolean, isBytes: boolean): Piece[] | string {
  const out: Piece[] = [];
  for (let i = 0; i < body.length;) {
    const cp = body.codePointAt(i)!;
    const width = cp > 0xffff ? 2 : 1;
    if (raw || cp !== 0x5c) {
      out.push({ cp, byte: false });
      i += width;
      continue;
    }
    const c = body[i + 1]!;
    const simple: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, "'": 39, '"': 34, '`': 96, '?': 63 };
    if (c in simple) {
      out.push({ cp: simple[c]!, byte: false });
      i += 2;
    } else if (c >= '0' && c <= '3') {
      out.push({ cp: parseInt(body.slice(i + 1, i + 4), 8), byte: true });
      i += 4;
    } else if (c === 'x' || c === 'X') {
      out.push({ cp: parseInt(body.slice(i + 2, i + 4), 16), byte: true });
      i += 4;
    } else {
      const len = c === 'u' ? 4 : 8;
      if (isBytes) return 'invalid unicode code point';
      const v = parseInt(body.slice(i + 2, i + 2 + len), 16);
      if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 'invalid unicode code point';
      out.push({ cp: v, byte: false });
      i += 2 + len;
    }
  }
  return out;
}

function splitLiteral(text: string): { body: string; raw: boolean } {
  const prefix = /^[rRbB]*/.exec(text)![0];
  const raw = /[rR]/.test(prefix);
  const rest = text.slice(prefix.length);
  const q = rest.startsWith('"""') || rest.startsWith("'''") ? 3 : 1;
  return { body: rest.slice(q, rest.length - q), raw };
}

/** Decodes a string literal token. */
export function unescapeString(text: string): Unescaped<string> {
  const { body, raw } = splitLiteral(text);
  const ps = pieces(body, raw, false);
  if (typeof ps === 'string') return { ok: false, message: ps };
  // In a string, \x and octal escapes name code points, as in cel-go.
  return { ok: true, value: ps.map((p) => String.fromCodePoint(p.cp)).join('') };
}

/** Decodes a bytes literal token. */
export function unescapeBytes(text: string): Unescaped<Uint8Array> {
  const { body, raw } = splitLiteral(text);
  const ps = pieces(body, raw, true);
  if (typeof ps === 'string') return { ok: false, message: ps };
  const out: number[] = [];
  for (const p of ps) {
    if (p.byte) out.push(p.cp);
    else out.push(...Buffer.from(String.fromCodePoint(p.cp), 'utf8'));
  }
  return { ok: true, value: Uint8Array.from(out) };
}
