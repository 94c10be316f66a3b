/**
 * Node's network and TLS failures in the words of Go's `net`, `net/http`, `crypto/tls` and
 * `crypto/x509`, which is what kube-apiserver puts into the error of a webhook it could not call.
 */
import { isIP } from 'node:net';
import type { Socket } from 'node:net';

/** `x509.UnknownAuthorityError` without a candidate authority. */
export const UNKNOWN_AUTHORITY = 'x509: certificate signed by unknown authority';

/** Go's `time.RFC3339` of an instant, in UTC (`2026-01-01T00:00:00Z`). */
function rfc3339(d: Date): string {
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** `net.JoinHostPort`: an IPv6 address in brackets. */
export function joinHostPort(host: string, port: number | string): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/**
 * `x509.CertificateInvalidError` for the leaf's validity window (`Expired`), or undefined when
 * `now` is inside it.
 */
export function goValidityError(notBefore: Date, notAfter: Date, now: Date): string | undefined {
  const prefix = 'x509: certificate has expired or is not yet valid: ';
  if (now < notBefore) return `${prefix}current time ${rfc3339(now)} is before ${rfc3339(notBefore)}`;
  if (now > notAfter) return `${prefix}current time ${rfc3339(now)} is after ${rfc3339(notAfter)}`;
  return undefined;
}

/** Go's `matchHostnames`: a pattern's `*` stands for exactly one whole leftmost label. */
function matchHostname(pattern: string, host: string): boolean {
  const p = pattern.toLowerCase().replace(/\.$/, '');
  const h = host.toLowerCase().replace(/\.$/, '');
  if (p === '' || h === '') return false;
  const pl = p.split('.');
  const hl = h.split('.');
  if (pl.length !== hl.length) return false;
  return pl.every((label, i) => (i === 0 && label === '*' ? hl[i] !== '' : label === hl[i]));
}

/** The DNS names and IP addresses of Node's `subjectaltname` text (`DNS:a, IP Address:1.2.3.4`). */
function subjectAltNames(text: string): { dns: string[]; ips: string[] } {
  const dns: string[] = [];
  const ips: string[] = [];
  for (const part of text.split(/,\s*/)) {
    if (part.startsWith('DNS:')) dns.push(part.slice(4));
    else if (part.startsWith('IP Address:')) ips.push(part.slice(11));
  }
  return { dns, ips };
}

/** Two spellings of one IP address compare equal (`::1` and `0:0:0:0:0:0:0:1`). */
function sameIp(a: string, b: string): boolean {
  if (a === b) return true;
  const norm = (ip: string) => {
    try {
      return new URL(`http://${isIP(ip) === 6 ? `[${ip}]` : ip}/`).hostname;
    } catch {
      return ip;
    }
  };
  return norm(a) === norm(b);
}

/**
 * `x509.HostnameError` for a certificate that is not valid for `host`, or undefined when it is:
 * an IP address must be one of the IP SANs, a name must match a DNS SAN (the Common Name is never
 * used, as in Go since 1.15).
 */
export function goHostnameError(subjectAltName: string, commonName: string | string[] | undefined, host: string): string | undefined {
  const { dns, ips } = subjectAltNames(subjectAltName);
  const ip = isIP(host) !== 0;
  if (ip ? ips.some((a) => sameIp(a, host)) : dns.some((d) => matchHostname(d, host))) return undefined;
  const cn = Array.isArray(commonName) ? commonName[0] : commonName;
  if (subjectAltName === '' && cn !== undefined && matchHostname(cn, host)) {
    return 'x509: certificate relies on legacy Common Name field, use SANs instead';
  }
  let valid: string;
  if (ip) {
    if (ips.length === 0) return `x509: cannot validate certificate for ${host} because it doesn't contain any IP SANs`;
    valid = ips.join(', ');
  } else {
    valid = dns.join(', ');
  }
  if (valid === '') return `x509: certificate is not valid for any names, but wanted to match ${host}`;
  return `x509: certificate is valid for ${valid}, not ${host}`;
}

interface NodeNetError {
  code?: string;
  message?: string;
  address?: string;
  port?: number;
  hostname?: string;
}

/**
 * What Go's HTTP client says after `Post "<url>": ` for a Node failure to connect, shake hands or
 * exchange the request (`socket`: the connection it happened on, for the addresses Go names).
 */
export function goConnectionError(e: unknown, socket?: Socket): string {
  const err = (typeof e === 'object' && e !== null ? e : {}) as NodeNetError;
  const code = err.code ?? '';
  const remote = socket?.remoteAddress !== undefined && socket.remotePort !== undefined ? joinHostPort(socket.remoteAddress, socket.remotePort) : undefined;
  const local = socket?.localAddress !== undefined && socket.localPort !== undefined ? joinHostPort(socket.localAddress, socket.localPort) : undefined;
  switch (code) {
    case 'ECONNREFUSED':
      return `dial tcp ${joinHostPort(err.address ?? '', err.port ?? 0)}: connect: connection refused`;
    case 'EHOSTUNREACH':
      return `dial tcp ${joinHostPort(err.address ?? '', err.port ?? 0)}: connect: no route to host`;
    case 'ENETUNREACH':
      return `dial tcp ${joinHostPort(err.address ?? '', err.port ?? 0)}: connect: network is unreachable`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return `dial tcp: lookup ${err.hostname ?? ''}: no such host`;
    case 'ECONNRESET':
      if (/socket hang up/i.test(err.message ?? '')) return 'EOF';
      return remote && local ? `read tcp ${local}->${remote}: read: connection reset by peer` : 'EOF';
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
    case 'ERR_SSL_HTTP_REQUEST':
      // A plain HTTP server answering the TLS client hello.
      return 'http: server gave HTTP response to HTTPS client';
    case 'EPIPE':
      return remote && local ? `write tcp ${local}->${remote}: write: broken pipe` : 'EOF';
  }
  if (/socket hang up|other side closed|premature close/i.test(err.message ?? '')) return 'EOF';
  if (code.startsWith('ERR_SSL_')) return `remote error: tls: ${(err.message ?? '').replace(/^.*:SSL routines:[^:]*:/, '').replace(/:.*$/, '')}`;
  return err.message ?? String(e);
}
