/**
 * client-go's `UnquoteExtend`: Go's `strconv.Unquote` for a `"..."` or `'...'` literal of a
 * template, where single quotes delimit strings too. Works on the UTF-8 bytes, as Go does: `\x`
 * and octal escapes write single bytes, so `"\xc3\xa9"` is `é`. A byte sequence that is not UTF-8
 * (which Go would keep as is) becomes U+FFFD, as nothing downstream can hold it.
 */

const BACKSLASH = 0x5c;

/** Why Go's strconv fails: `strconv.ErrSyntax`. */
export const INVALID_SYNTAX = 'invalid syntax';

const simpleEscapes: Record<number, number> = {
  0x61: 0x07, // \a
  0x62: 0x08, // \b
  0x66: 0x0c, // \f
  0x6e: 0x0a, // \n
  0x72: 0x0d, // \r
  0x74: 0x09, // \t
  0x76: 0x0b, // \v
  0x5c: 0x5c, // \\
};

function unhex(b: number): number {
  if (b >= 0x30 && b <= 0x39) return b - 0x30;
  if (b >= 0x61 && b <= 0x66) return b - 0x61 + 10;
  if (b >= 0x41 && b <= 0x46) return b - 0x41 + 10;
  return -1;
}

function pushRune(out: number[], cp: number): void {
  out.push(...Buffer.from(String.fromCodePoint(cp), 'utf8'));
}

const decoder = new TextDecoder('utf-8', { fatal: false });

/**
 * The string a quoted literal (quotes included) stands for, or `undefined` where Go's
 * `UnquoteExtend` fails with `invalid syntax`.
 */
export function unquoteExtend(literal: string): string | undefined {
  const s = Buffer.from(literal, 'utf8');
  const n = s.length;
  if (n < 2) return undefined;
  const quote = s[0]!;
  if (quote !== s[n - 1] || (quote !== 0x22 && quote !== 0x27)) return undefined;
  const body = s.subarray(1, n - 1);
  if (!body.includes(BACKSLASH) && !body.includes(quote)) return literal.slice(1, -1);

  const out: number[] = [];
  let i = 0;
  while (i < body.length) {
    const c = body[i]!;
    if (c === quote) return undefined;
    if (c !== BACKSLASH) {
      // A multi-byte rune is copied whole; its bytes never contain a quote or a backslash.
      out.push(c);
      i++;
      continue;
    }
    if (i + 1 >= body.length) return undefined;
    const e = body[i + 1]!;
    i += 2;
    const simple = simpleEscapes[e];
    if (simple !== undefined) {
      out.push(simple);
      continue;
    }
    if (e === 0x78 || e === 0x75 || e === 0x55) {
      const digits = e === 0x78 ? 2 : e === 0x75 ? 4 : 8;
      if (body.length - i < digits) return undefined;
      let v = 0;
      for (let j = 0; j < digits; j++) {
        const x = unhex(body[i + j]!);
        if (x < 0) return undefined;
        v = v * 16 + x;
      }
      i += digits;
      if (e === 0x78) {
        out.push(v);
      } else {
        // utf8.ValidRune: no surrogates, nothing past U+10FFFF.
        if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return undefined;
        pushRune(out, v);
      }
      continue;
    }
    if (e >= 0x30 && e <= 0x37) {
      if (body.length - i < 2) return undefined;
      let v = e - 0x30;
      for (let j = 0; j < 2; j++) {
        const x = body[i + j]! - 0x30;
        if (x < 0 || x > 7) return undefined;
        v = v * 8 + x;
      }
      i += 2;
      if (v > 255) return undefined;
      out.push(v);
      continue;
    }
    if ((e === 0x27 || e === 0x22) && e === quote) {
      out.push(e);
      continue;
    }
    return undefined;
  }
  return decoder.decode(Uint8Array.from(out));
}
