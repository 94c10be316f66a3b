/**
 * Kubernetes' IP and CIDR libraries (apiserver/pkg/cel/library/ip.go, cidr.go): addresses parsed
 * as Go's net/netip does, with Kubernetes' refusal of IPv4-mapped IPv6 addresses and zones.
 */
import { CelError, OpaqueValue, type Result, type Value } from '../values/values.js';
import { fn, overload, type FunctionDecl } from '../functions/declarations.js';

/** An address: 4 or 16 bytes. */
type Bytes = number[];

function parseV4(s: string): Bytes | string {
  const parts = s.split('.');
  if (parts.length !== 4) return 'IPv4 address too short';
  const out: number[] = [];
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return 'unexpected character';
    if (p.length > 1 && p.startsWith('0')) return 'IPv4 field has octet with leading zero';
    const v = Number(p);
    if (v > 255) return 'IPv4 field has value >255';
    out.push(v);
  }
  return out;
}

function parseV6(s: string): Bytes | string {
  if (s.includes('%')) return 'zone';
  let tail: number[] = [];
  let text = s;
  const lastColon = s.lastIndexOf(':');
  if (s.slice(lastColon + 1).includes('.')) {
    const v4 = parseV4(s.slice(lastColon + 1));
    if (typeof v4 === 'string') return v4;
    tail = v4;
    text = s.slice(0, lastColon + 1);
    if (!text.endsWith('::')) text = text.slice(0, -1);
  }
  const groupsNeeded = tail.length ? 6 : 8;
  const halves = text.split('::');
  if (halves.length > 2) return 'multiple :: in address';
  const parseGroups = (h: string): number[] | string => {
    if (h === '') return [];
    const out: number[] = [];
    for (const g of h.split(':')) {
      if (!/^[0-9a-fA-F]{1,4}$/.test(g)) return 'each colon-separated field must have at least one digit';
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const left = parseGroups(halves[0]!);
  if (typeof left === 'string') return left;
  let groups: number[];
  if (halves.length === 2) {
    const right = parseGroups(halves[1]!);
    if (typeof right === 'string') return right;
    if (left.length + right.length >= groupsNeeded) return 'address too long';
    groups = [...left, ...new Array<number>(groupsNeeded - left.length - right.length).fill(0), ...right];
  } else {
    groups = left;
    if (groups.length !== groupsNeeded) return 'address too short';
  }
  const out: number[] = [];
  for (const g of groups) out.push(g >> 8, g & 0xff);
  return [...out, ...tail];
}

/** Parses an address as netip.ParseAddr and Kubernetes' checks; bytes, or the error text. */
export function parseAddr(s: string): Bytes | string {
  let r: Bytes | string;
  if (s.includes(':')) {
    r = parseV6(s);
    if (r === 'zone') return 'IP address with zone value is not allowed';
    if (typeof r !== 'string' && r.slice(0, 10).every((b) => b === 0) && r[10] === 0xff && r[11] === 0xff) return 'IPv4-mapped IPv6 address is not allowed';
  } else r = parseV4(s);
  return r;
}

/** netip.Addr.String(): dotted IPv4, RFC 5952 IPv6. */
export function formatAddr(b: Bytes): string {
  if (b.length === 4) return b.join('.');
  const groups: number[] = [];
  for (let i = 0; i < 16; i += 2) groups.push((b[i]! << 8) | b[i + 1]!);
  let bestStart = -1;
  let bestLen = 0;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen && j - i >= 2) {
      bestStart = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLen).join(':')}`;
}

/** A net.IP value. */
export class IPValue extends OpaqueValue {
  readonly typeName = 'net.IP';
  constructor(readonly bytes: Bytes) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof IPValue && other.bytes.length === this.bytes.length && other.bytes.every((b, i) => b === this.bytes[i]);
  }
}

/** A net.CIDR value: an address and a prefix length, as written. */
export class CIDRValue extends OpaqueValue {
  readonly typeName = 'net.CIDR';
  constructor(
    readonly addr: Bytes,
    readonly bits: number,
  ) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof CIDRValue && other.bits === this.bits && new IPValue(this.addr).equals(new IPValue(other.addr));
  }
}

function ipOrError(s: string): Result {
  const r = parseAddr(s);
  return typeof r === 'string' ? new CelError(`IP Address "${s}" parse error during conversion from string: ${r}`) : new IPValue(r);
}

function parsePrefix(s: string): CIDRValue | string {
  const slash = s.lastIndexOf('/');
  if (slash < 0) return `netip.ParsePrefix("${s}"): no '/'`;
  const addr = parseAddr(s.slice(0, slash));
  if (typeof addr === 'string') return addr;
  const bitsText = s.slice(slash + 1);
  if (!/^(0|[1-9]\d{0,2})$/.test(bitsText)) return `netip.ParsePrefix("${s}"): bad bits after slash: "${bitsText}"`;
  const bits = Number(bitsText);
  if (bits > addr.length * 8) return `netip.ParsePrefix("${s}"): prefix length out of range`;
  return new CIDRValue(addr, bits);
}

function cidrOrError(s: string): Result {
  const r = parsePrefix(s);
  return typeof r === 'string' ? new CelError(`network address "${s}" parse error during conversion from string: ${r}`) : r;
}

function mask(addr: Bytes, bits: number): Bytes {
  return addr.map((b, i) => {
    const keep = Math.max(0, Math.min(8, bits - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
}

function containsAddr(c: CIDRValue, addr: Bytes): boolean {
  if (addr.length !== c.addr.length) return false;
  const a = mask(addr, c.bits);
  const n = mask(c.addr, c.bits);
  return a.every((b, i) => b === n[i]);
}

const ip = (v: Value): Bytes => (v as IPValue).bytes;
const cidr = (v: Value): CIDRValue => v as CIDRValue;

function startsWith(b: Bytes, prefix: number[], bits: number): boolean {
  return containsAddr(new CIDRValue([...prefix, ...new Array<number>(b.length - prefix.length).fill(0)], bits), b);
}

/** The declarations of the IP library. */
export function ipFunctions(): FunctionDecl[] {
  return [
    fn(
      'ip',
      overload('string_to_ip', '(string) -> net.IP', (a) => ipOrError(a[0] as string)),
      overload('cidr_ip', 'net.CIDR.() -> net.IP', (a) => new IPValue(cidr(a[0]!).addr)),
    ),
    fn(
      'isIP',
      overload('is_ip', '(string) -> bool', (a) => typeof parseAddr(a[0] as string) !== 'string'),
    ),
    fn(
      'ip.isCanonical',
      overload('ip_is_canonical', '(string) -> bool', (a) => {
        const r = parseAddr(a[0] as string);
        if (typeof r === 'string') return new CelError(`IP Address "${a[0] as string}" parse error during conversion from string: ${r}`);
        return formatAddr(r) === a[0];
      }),
    ),
    fn(
      'family',
      overload('ip_family', 'net.IP.() -> int', (a) => (ip(a[0]!).length === 4 ? 4n : 6n)),
    ),
    fn(
      'isUnspecified',
      overload('ip_is_unspecified', 'net.IP.() -> bool', (a) => ip(a[0]!).every((b) => b === 0)),
    ),
    fn(
      'isLoopback',
      overload('ip_is_loopback', 'net.IP.() -> bool', (a) => {
        const b = ip(a[0]!);
        return b.length === 4 ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
      }),
    ),
    fn(
      'isLinkLocalMulticast',
      overload('ip_is_link_local_multicast', 'net.IP.() -> bool', (a) => {
        const b = ip(a[0]!);
        return b.length === 4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && (b[1]! & 0x0f) === 0x02;
      }),
    ),
    fn(
      'isLinkLocalUnicast',
      overload('ip_is_link_local_unicast', 'net.IP.() -> bool', (a) => {
        const b = ip(a[0]!);
        return b.length === 4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1]! & 0xc0) === 0x80;
      }),
    ),
    fn(
      'isGlobalUnicast',
      overload('ip_is_global_unicast', 'net.IP.() -> bool', (a) => {
        const b = ip(a[0]!);
        if (b.every((x) => x === 0)) return false;
        if (b.length === 4) {
          if (b.every((x) => x === 255)) return false;
          return b[0] !== 127 && !(b[0]! >= 224 && b[0]! <= 239) && !(b[0] === 169 && b[1] === 254);
        }
        return !(b.slice(0, 15).every((x) => x === 0) && b[15] === 1) && b[0] !== 0xff && !startsWith(b, [0xfe, 0x80], 10);
      }),
    ),
    fn(
      'string',
      overload('ip_to_string', '(net.IP) -> string', (a) => formatAddr(ip(a[0]!))),
      overload('cidr_to_string', '(net.CIDR) -> string', (a) => `${formatAddr(cidr(a[0]!).addr)}/${cidr(a[0]!).bits}`),
    ),
    fn(
      'cidr',
      overload('string_to_cidr', '(string) -> net.CIDR', (a) => cidrOrError(a[0] as string)),
    ),
    fn(
      'isCIDR',
      overload('is_cidr', '(string) -> bool', (a) => typeof parsePrefix(a[0] as string) !== 'string'),
    ),
    fn(
      'containsIP',
      overload('cidr_contains_ip_string', 'net.CIDR.(string) -> bool', (a) => {
        const r = ipOrError(a[1] as string);
        return r instanceof CelError ? r : containsAddr(cidr(a[0]!), (r as IPValue).bytes);
      }),
      overload('cidr_contains_ip_ip', 'net.CIDR.(net.IP) -> bool', (a) => containsAddr(cidr(a[0]!), ip(a[1]!))),
    ),
    fn(
      'containsCIDR',
      overload('cidr_contains_cidr_string', 'net.CIDR.(string) -> bool', (a) => {
        const r = cidrOrError(a[1] as string);
        if (r instanceof CelError) return r;
        const o = r as CIDRValue;
        return o.bits >= cidr(a[0]!).bits && containsAddr(cidr(a[0]!), o.addr);
      }),
      overload('cidr_contains_cidr', 'net.CIDR.(net.CIDR) -> bool', (a) => {
        const o = cidr(a[1]!);
        return o.bits >= cidr(a[0]!).bits && containsAddr(cidr(a[0]!), o.addr);
      }),
    ),
    fn(
      'masked',
      overload('cidr_masked', 'net.CIDR.() -> net.CIDR', (a) => new CIDRValue(mask(cidr(a[0]!).addr, cidr(a[0]!).bits), cidr(a[0]!).bits)),
    ),
    fn(
      'prefixLength',
      overload('cidr_prefix_length', 'net.CIDR.() -> int', (a) => BigInt(cidr(a[0]!).bits)),
    ),
  ];
}
