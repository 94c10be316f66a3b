/**
 * CIDR parsing as Go's `netutils.ParseCIDRSloppy` and `netip.ParsePrefix` see it, and
 * Kubernetes' strict `IsValidCIDR` (canonical form required).
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { formatIPv6Groups } from './formats.js';

interface ParsedCIDR {
  family: 'IPv4' | 'IPv6';
  /** Address bits. */
  addr: bigint;
  bits: number;
  /** Whether netip would refuse it for leading zeros. */
  leadingZeros: boolean;
}

function parseIPv4(s: string): { value: bigint; leadingZeros: boolean } | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  let v = 0n;
  let leadingZeros = false;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    if (p.length > 1 && p.startsWith('0')) leadingZeros = true;
    v = (v << 8n) | BigInt(Number(p));
  }
  return { value: v, leadingZeros };
}

function parseIPv6(s: string): { value: bigint; leadingZeros: boolean } | undefined {
  if (s.includes('%')) return undefined;
  let leadingZeros = false;
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groupsOf = (part: string, allowV4: boolean): number[] | undefined => {
    if (part === '') return [];
    const out: number[] = [];
    const items = part.split(':');
    for (let i = 0; i < items.length; i++) {
      const g = items[i]!;
      if (allowV4 && i === items.length - 1 && g.includes('.')) {
        const v4 = parseIPv4(g);
        if (!v4) return undefined;
        leadingZeros ||= v4.leadingZeros;
        out.push(Number(v4.value >> 16n), Number(v4.value & 0xffffn));
      } else {
        if (!/^[0-9A-Fa-f]{1,4}$/.test(g)) return undefined;
        out.push(parseInt(g, 16));
      }
    }
    return out;
  };
  const head = groupsOf(halves[0]!, halves.length === 1);
  const tail = halves.length === 2 ? groupsOf(halves[1]!, true) : [];
  if (!head || !tail) return undefined;
  let groups: number[];
  if (halves.length === 2) {
    const fill = 8 - head.length - tail.length;
    if (fill < 1) return undefined;
    groups = [...head, ...Array<number>(fill).fill(0), ...tail];
  } else {
    groups = head;
  }
  if (groups.length !== 8) return undefined;
  return { value: groups.reduce((acc, g) => (acc << 16n) | BigInt(g), 0n), leadingZeros };
}

/** `ParseCIDRSloppy`: the CIDR, or undefined when Go refuses it. */
export function parseCIDR(value: string): ParsedCIDR | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const ip = value.slice(0, slash);
  const len = value.slice(slash + 1);
  if (!/^\d+$/.test(len) || len.length > 8) return undefined;
  const bits = Number(len);
  const lenZeros = len.length > 1 && len.startsWith('0');
  if (!ip.includes(':')) {
    const v4 = parseIPv4(ip);
    if (!v4 || bits > 32) return undefined;
    return { family: 'IPv4', addr: v4.value, bits, leadingZeros: v4.leadingZeros || lenZeros };
  }
  const v6 = parseIPv6(ip);
  if (!v6 || bits > 128) return undefined;
  return { family: 'IPv6', addr: v6.value, bits, leadingZeros: v6.leadingZeros || lenZeros };
}

function formatIPv6(v: bigint): string {
  return formatIPv6Groups(Array.from({ length: 8 }, (_, i) => Number((v >> BigInt(16 * (7 - i))) & 0xffffn)));
}

/** The network (`ipnet.String()`) of a parsed CIDR. */
export function canonicalCIDR(c: ParsedCIDR): string {
  const width = c.family === 'IPv4' ? 32 : 128;
  const hostBits = BigInt(width - c.bits);
  const network = (c.addr >> hostBits) << hostBits;
  const ip = c.family === 'IPv4' ? [24n, 16n, 8n, 0n].map((s) => String((network >> s) & 0xffn)).join('.') : formatIPv6(network);
  return `${ip}/${c.bits}`;
}

/** Kubernetes' `IsValidCIDR` (strict, canonical). */
export function validateCIDR(path: string, value: string): FieldError[] {
  const c = parseCIDR(value);
  if (!c) return [fieldError.invalid(path, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')];
  if (c.leadingZeros) return [fieldError.invalid(path, value, 'must not have leading 0s in IP or prefix length')];
  if (c.family === 'IPv6' && c.addr >> 32n === 0xffffn) return [fieldError.invalid(path, value, 'must not have an IPv4-mapped IPv6 address')];
  const canonical = canonicalCIDR(c);
  const width = c.family === 'IPv4' ? 32 : 128;
  const hostMask = (1n << BigInt(width - c.bits)) - 1n;
  if ((c.addr & hostMask) !== 0n) return [fieldError.invalid(path, value, 'must not have bits set beyond the prefix length')];
  if (value !== canonical) return [fieldError.invalid(path, value, `must be in canonical form (${JSON.stringify(canonical)})`)];
  return [];
}

/** The family Go assigns a CIDR (an IPv4-mapped IPv6 network counts as IPv4), or undefined. */
export function cidrFamily(value: string): 'IPv4' | 'IPv6' | undefined {
  const c = parseCIDR(value);
  if (!c) return undefined;
  if (c.family === 'IPv6' && c.addr >> 32n === 0xffffn) return 'IPv4';
  return c.family;
}
