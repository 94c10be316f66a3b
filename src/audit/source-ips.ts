/**
 * The `sourceIPs` of an event (k8s.io/apimachinery `util/net.SourceIPs`): the addresses of the
 * `X-Forwarded-For` chain, then `X-Real-Ip` unless already in it, then the connection's remote
 * address unless it is the last one already. Each is written as Go's `net.IP.String` writes it
 * (IPv4 in dotted form even when mapped into IPv6, IPv6 compressed); what is not an address is skipped.
 */
import { isIPv6 } from 'node:net';

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const MAPPED_IPV4 = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/;

/** Go's text of an address parsed as `netutils.ParseIPSloppy` parses it, or undefined. */
export function goIPString(text: string): string | undefined {
  const v4 = IPV4.exec(text);
  if (v4) {
    const octets = v4.slice(1).map(Number);
    return octets.every((o) => o <= 255) ? octets.join('.') : undefined;
  }
  if (!isIPv6(text) || text.includes('%')) return undefined;
  let host: string;
  try {
    host = new URL(`http://[${text}]`).hostname.slice(1, -1);
  } catch {
    return undefined;
  }
  const mapped = MAPPED_IPV4.exec(host);
  if (!mapped) return host;
  const high = parseInt(mapped[1]!, 16);
  const low = parseInt(mapped[2]!, 16);
  return `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;
}

/** The source addresses of a request, from its headers and the connection's remote address. */
export function sourceIPs(header: (name: string) => string | null, remoteAddress: string | undefined): string[] {
  const out: string[] = [];
  const forwarded = header('x-forwarded-for');
  if (forwarded) {
    for (const part of forwarded.split(',')) {
      const ip = goIPString(part.trim());
      if (ip !== undefined) out.push(ip);
    }
  }
  const realIP = header('x-real-ip');
  if (realIP) {
    const ip = goIPString(realIP);
    if (ip !== undefined && !out.includes(ip)) out.push(ip);
  }
  const remote = remoteAddress === undefined ? undefined : goIPString(remoteAddress);
  if (remote !== undefined && (out.length === 0 || out[out.length - 1] !== remote)) out.push(remote);
  return out;
}
