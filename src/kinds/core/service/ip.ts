/**
 * IP address parsing and the fixed address ranges of the built-in Service allocators: the service
 * CIDR `10.96.0.0/12` (kubeadm's default) and the node port range `30000-32767`.
 */
import { isIPv6 } from 'node:net';

/** The cluster's Service CIDR. */
export const SERVICE_CIDR = '10.96.0.0/12';
/** The node port range (`--service-node-port-range`). */
export const NODE_PORT_RANGE = { first: 30000, last: 32767 } as const;

/** Parses IPv4 like Go's `ParseIPSloppy` (leading zeros allowed); the address as a number, or undefined. */
export function parseIPv4Sloppy(value: string): number | undefined {
  const parts = value.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p)) return undefined;
    const octet = Number(p);
    if (octet > 255) return undefined;
    n = n * 256 + octet;
  }
  return n;
}

/** Dotted form of an IPv4 number. */
export function formatIPv4(n: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(n / 2 ** shift) % 256).join('.');
}

/** The family of a valid (sloppily parsed) IP, or undefined when it is not an IP. */
export function ipFamilyOf(value: string): 'IPv4' | 'IPv6' | undefined {
  if (parseIPv4Sloppy(value) !== undefined) return 'IPv4';
  if (isIPv6(value) && !value.includes('%')) return 'IPv6';
  return undefined;
}

/**
 * `IsValidIPForLegacyField` with strict validation: the detail messages for a bad IP string
 * (empty when it is a valid address).
 */
export function ipErrors(value: string): string[] {
  const family = ipFamilyOf(value);
  if (!family) return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
  const errors: string[] = [];
  if (family === 'IPv4' && value.split('.').some((p) => p.length > 1 && p.startsWith('0'))) errors.push('must not have leading 0s');
  if (family === 'IPv6' && /^::ffff:\d+\.\d+\.\d+\.\d+$/i.test(value)) errors.push('must not be an IPv4-mapped IPv6 address');
  return errors;
}

/** `IsValidCIDRForLegacyField` with strict validation (IPv4 in detail, IPv6 loosely). */
export function cidrErrors(value: string): string[] {
  const slash = value.indexOf('/');
  const ip = slash < 0 ? '' : value.slice(0, slash);
  const bits = slash < 0 ? '' : value.slice(slash + 1);
  const family = ipFamilyOf(ip);
  const max = family === 'IPv6' ? 128 : 32;
  if (!family || !/^\d{1,3}$/.test(bits) || Number(bits) > max) return ['must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'];
  if ((bits.length > 1 && bits.startsWith('0')) || ipErrors(ip).length) return ['must not have leading 0s in IP or prefix length'];
  if (family === 'IPv4') {
    const n = parseIPv4Sloppy(ip)!;
    const size = 2 ** (32 - Number(bits));
    if (n % size !== 0) return ['must not have bits set beyond the prefix length'];
  }
  return [];
}

/** An IPv4 range for allocation, as Kubernetes' IP allocator divides it (KEP-3070). */
export interface IPv4Range {
  readonly cidr: string;
  /** Network address and prefix. */
  readonly network: number;
  readonly size: number;
  /** First and last allocatable addresses (network and broadcast excluded). */
  readonly first: number;
  readonly last: number;
  /** Size of the lower, static band that dynamic allocation uses only when the upper one is full. */
  readonly staticBand: number;
}

/** The allocation range of an IPv4 CIDR. */
export function ipv4Range(cidr: string): IPv4Range {
  const [ip, bits] = cidr.split('/') as [string, string];
  const network = parseIPv4Sloppy(ip)!;
  const size = 2 ** (32 - Number(bits));
  // Kubernetes' calculateRangeOffset: size/16, at least 16 and at most 256 (0 for tiny ranges).
  const staticBand = size < 16 ? 0 : Math.min(256, Math.max(16, Math.floor(size / 16)));
  return { cidr, network, size, first: network + 1, last: network + size - 2, staticBand };
}
