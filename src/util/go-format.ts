/**
 * How Go prints things, for messages that must match the Kubernetes API server byte for byte:
 * `%q` quoting, `encoding/json` string escaping, byte lengths and byte order of strings, floats.
 */

const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]$/u;

function hex(n: number, width: number): string {
  return n.toString(16).padStart(width, '0');
}

/**
 * Go's `strconv.Quote` (`%q`): escapes `"` and `\`, the usual C escapes, other control and
 * non-printable characters as `\xHH` / `\uHHHH` / `\UHHHHHHHH`. Lone UTF-16 surrogates (which
 * cannot reach Go from an HTTP request) are rendered as U+FFFD, like an UTF-8 encoder would.
 */
export function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    let cp = ch.codePointAt(0)!;
    if (cp >= 0xd800 && cp <= 0xdfff) cp = 0xfffd;
    if (cp === 0x22 || cp === 0x5c) {
      out += '\\' + String.fromCodePoint(cp);
    } else if (cp === 0x20 || printable.test(String.fromCodePoint(cp))) {
      out += String.fromCodePoint(cp);
    } else {
      switch (cp) {
        case 0x07:
          out += '\\a';
          break;
        case 0x08:
          out += '\\b';
          break;
        case 0x0c:
          out += '\\f';
          break;
        case 0x0a:
          out += '\\n';
          break;
        case 0x0d:
          out += '\\r';
          break;
        case 0x09:
          out += '\\t';
          break;
        case 0x0b:
          out += '\\v';
          break;
        default:
          if (cp < 0x20 || cp === 0x7f) out += '\\x' + hex(cp, 2);
          else if (cp < 0x10000) out += '\\u' + hex(cp, 4);
          else out += '\\U' + hex(cp, 8);
      }
    }
  }
  return out + '"';
}

/** Go's `encoding/json` rendering of a string (HTML-safe: `<`, `>`, `&`, U+2028/9 escaped). */
export function goJsonString(s: string): string {
  return JSON.stringify(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd')).replace(
    /[<>&\u2028\u2029]/g,
    (c) => '\\u' + hex(c.charCodeAt(0), 4),
  );
}

/**
 * Length of a string in UTF-8 bytes, as Go's `len()` sees it after JSON decoding
 * (a lone surrogate becomes U+FFFD, 3 bytes).
 */
export function utf8ByteLength(s: string): number {
  // Node encodes a lone surrogate as U+FFFD (3 bytes), exactly as Go's decoder would have.
  return Buffer.byteLength(s, 'utf8');
}

/** Byte-wise (UTF-8) string order, as Go's `<` on strings; equals Unicode code point order. */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Surrogates (supplementary code points) sort after every BMP code unit in UTF-8 order.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys) return xs ? 1 : -1;
    return x < y ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

/** Go's `json.Marshal` of a JSON value (HTML-safe escaping of `<`, `>`, `&`, U+2028, U+2029). */
export function goJson(value: unknown): string {
  return (JSON.stringify(value) ?? 'null').replace(/[<>&\u2028\u2029]/g, (c) => '\\u' + hex(c.charCodeAt(0), 4));
}

/**
 * `strconv.FormatFloat(f, 'g', -1, 64)`, which is what `%v` prints for a float64: the shortest
 * digits that read back as `f`, in `%e` form when the exponent is < -4 or >= 6.
 */
export function goFormatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant = '0', e = '0'] = f.toExponential().split('e');
  const exp = Number(e);
  if (exp < -4 || exp >= 6) {
    const digits = String(Math.abs(exp)).padStart(2, '0');
    return `${mant}e${exp < 0 ? '-' : '+'}${digits}`;
  }
  // Between those exponents JavaScript writes the same shortest digits without an exponent.
  return String(f);
}
