/**
 * Which texts Go's address parsers accept, for format checks that must agree with Kubernetes:
 * `net.ParseIP` (today's, built on `netip.ParseAddr`: no leading zeros in IPv4 octets, no zone),
 * k8s.io/utils/net's `ParseIPSloppy` and `ParseCIDRSloppy` (Go 1.16's parsers, which accept
 * leading zeros), and `net.ParseMAC`. They answer whether the text parses, not the address.
 * Byte-oriented like Go: a non-ASCII character is never a digit or a separator.
 */

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;

function hexDigit(c: number | undefined): number {
  if (c === undefined) return -1;
  if (c >= 0x30 && c <= 0x39) return c - 0x30;
  if (c >= 0x61 && c <= 0x66) return c - 0x61 + 10;
  if (c >= 0x41 && c <= 0x46) return c - 0x41 + 10;
  return -1;
}

/** Go 1.16's `dtoi`: a decimal prefix (leading zeros allowed), failing at 0xFFFFFF. */
function dtoi(s: string, from: number): { n: number; end: number } | undefined {
  let n = 0;
  let i = from;
  for (; i < s.length && isDigit(s.charCodeAt(i)); i++) {
    n = n * 10 + (s.charCodeAt(i) - 0x30);
    if (n >= 0xffffff) return undefined;
  }
  return i === from ? undefined : { n, end: i };
}

/** Go 1.16's IPv4 parser (leading zeros allowed): the index after the address, or -1. */
function sloppyIPv4(s: string, from: number): boolean {
  let i = from;
  for (let field = 0; field < 4; field++) {
    if (i >= s.length) return false;
    if (field > 0) {
      if (s.charCodeAt(i) !== 0x2e) return false;
      i++;
    }
    const d = dtoi(s, i);
    if (!d || d.n > 0xff) return false;
    i = d.end;
  }
  return i === s.length;
}

/** Go 1.16's IPv6 parser (groups of any length up to 0xFFFF, a sloppy trailing IPv4). */
function sloppyIPv6(s: string): boolean {
  let i = 0; // bytes of the address filled
  let p = 0;
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    p = 2;
    if (p === s.length) return true;
  }
  while (i < 16) {
    let n = 0;
    let c = p;
    for (; c < s.length; c++) {
      const h = hexDigit(s.charCodeAt(c));
      if (h < 0) break;
      n = n * 16 + h;
      if (n >= 0xffffff) return false;
    }
    if (c === p || n > 0xffff) return false;
    if (c < s.length && s.charCodeAt(c) === 0x2e) {
      if (ellipsis < 0 && i !== 12) return false;
      if (i + 4 > 16) return false;
      if (!sloppyIPv4(s, p)) return false;
      p = s.length;
      i += 4;
      break;
    }
    i += 2;
    p = c;
    if (p === s.length) break;
    if (s.charCodeAt(p) !== 0x3a || p + 1 === s.length) return false;
    p++;
    if (s.charCodeAt(p) === 0x3a) {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      p++;
      if (p === s.length) break;
    }
  }
  if (p !== s.length) return false;
  if (i < 16) return ellipsis >= 0;
  return ellipsis < 0;
}

/** k8s.io/utils/net `ParseIPSloppy(s) != nil`. */
export function isSloppyIP(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2e) return sloppyIPv4(s, 0);
    if (c === 0x3a) return sloppyIPv6(s);
  }
  return false;
}

/** k8s.io/utils/net `ParseCIDRSloppy(s)` succeeds. */
export function isSloppyCIDR(s: string): boolean {
  const slash = s.indexOf('/');
  if (slash < 0) return false;
  const addr = s.slice(0, slash);
  const mask = s.slice(slash + 1);
  let bits: number;
  if (sloppyIPv4(addr, 0)) bits = 32;
  else if (sloppyIPv6(addr)) bits = 128;
  else return false;
  const d = dtoi(mask, 0);
  return d !== undefined && d.end === mask.length && d.n <= bits;
}

/** netip's IPv4 fields: four decimal octets, no leading zeros. */
function strictIPv4(s: string, from: number, to: number): boolean {
  let fields = 0;
  let val = 0;
  let digits = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (isDigit(c)) {
      if (digits === 1 && val === 0) return false; // leading zero
      val = val * 10 + (c - 0x30);
      digits++;
      if (val > 255) return false;
    } else if (c === 0x2e) {
      if (digits === 0 || fields === 3) return false;
      fields++;
      val = 0;
      digits = 0;
    } else return false;
  }
  return fields === 3 && digits > 0;
}

/** netip's IPv6 parser, without a zone (which `net.ParseIP` refuses). */
function strictIPv6(s: string): boolean {
  if (s.includes('%')) return false;
  let i = 0;
  let p = 0;
  let ellipsis = -1;
  if (s.startsWith('::')) {
    ellipsis = 0;
    p = 2;
    if (p === s.length) return true;
  }
  while (i < 16) {
    let off = 0;
    for (; p + off < s.length; off++) {
      if (hexDigit(s.charCodeAt(p + off)) < 0) break;
      if (off > 3) return false;
    }
    if (off === 0) return false;
    if (p + off < s.length && s.charCodeAt(p + off) === 0x2e) {
      if (ellipsis < 0 && i !== 12) return false;
      if (i + 4 > 16) return false;
      if (!strictIPv4(s, p, s.length)) return false;
      p = s.length;
      i += 4;
      break;
    }
    i += 2;
    p += off;
    if (p === s.length) break;
    if (s.charCodeAt(p) !== 0x3a || p + 1 === s.length) return false;
    p++;
    if (s.charCodeAt(p) === 0x3a) {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      p++;
      if (p === s.length) break;
    }
  }
  if (p !== s.length) return false;
  if (i < 16) return ellipsis >= 0;
  return ellipsis < 0;
}

/** Go's `net.ParseIP(s) != nil`. */
export function isGoIP(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2e) return strictIPv4(s, 0, s.length);
    if (c === 0x3a) return strictIPv6(s);
    if (c === 0x25) return false;
  }
  return false;
}

/** Go's `xtoi2`: two hex digits, followed by `sep` (or the end). */
function xtoi2(s: string, at: number, sep: number): boolean {
  if (at + 2 < s.length && s.charCodeAt(at + 2) !== sep) return false;
  return hexDigit(s.charCodeAt(at)) >= 0 && hexDigit(s.charCodeAt(at + 1)) >= 0 && at + 2 <= s.length;
}

/** Go's `net.ParseMAC` succeeds: 6, 8 or 20 octets as `xx:xx...`, `xx-xx...` or `xxxx.xxxx...`. */
export function isGoMAC(s: string): boolean {
  const bytes = Buffer.from(s, 'utf8').toString('latin1');
  if (bytes.length < 14) return false;
  const sep2 = bytes.charCodeAt(2);
  if (sep2 === 0x3a || sep2 === 0x2d) {
    if ((bytes.length + 1) % 3 !== 0) return false;
    const n = (bytes.length + 1) / 3;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    for (let i = 0, x = 0; i < n; i++, x += 3) if (!xtoi2(bytes, x, sep2)) return false;
    return true;
  }
  if (bytes.charCodeAt(4) === 0x2e) {
    if ((bytes.length + 1) % 5 !== 0) return false;
    const n = (2 * (bytes.length + 1)) / 5;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    for (let i = 0, x = 0; i < n; i += 2, x += 5) {
      if (!xtoi2(bytes.slice(x, x + 2), 0, 0)) return false;
      if (!xtoi2(bytes, x + 2, 0x2e)) return false;
    }
    return true;
  }
  return false;
}
