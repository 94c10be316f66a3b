/**
 * Checking a TLS server's certificate the way Go's `x509.Certificate.Verify` does, in its order and
 * words, after a handshake made with `rejectUnauthorized: false`: Node's own checks answer other
 * texts, and both the webhook client and the egress dialer's TLS to a proxy must speak Go's.
 */
import type { PeerCertificate, TLSSocket } from 'node:tls';
import { goHostnameError, goValidityError, UNKNOWN_AUTHORITY } from './go-errors.js';

/**
 * Why Go refuses the server's certificate (the leaf's validity window, the host name, then the
 * chain to a trusted root), or undefined when it is accepted. `now` is the time the validity is
 * checked at.
 */
export function certificateProblem(socket: TLSSocket, serverName: string, now: Date = new Date()): string | undefined {
  const cert = socket.getPeerCertificate(false) as PeerCertificate | undefined;
  if (!cert || Object.keys(cert).length === 0) return UNKNOWN_AUTHORITY;
  const validity = goValidityError(new Date(cert.valid_from), new Date(cert.valid_to), now);
  if (validity) return validity;
  const hostname = goHostnameError(cert.subjectaltname ?? '', cert.subject?.CN, serverName);
  if (hostname) return hostname;
  return socket.authorized ? undefined : UNKNOWN_AUTHORITY;
}
