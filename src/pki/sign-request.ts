/**
 * Signing a certificate request with a CA, as kube-controller-manager's local signer does
 * (`pkg/controller/certificates/authority`: `CertificateAuthority.Sign` with the
 * `PermissiveSigningPolicy`): the request's subject, public key and SANs are kept, its other
 * extensions dropped; the usages become KeyUsage and ExtKeyUsage; the certificate is not a CA;
 * it is backdated and ends no later than the CA.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { toPem } from './pem.js';
import type { CertificateRequestInfo } from './certificate-request.js';
import { pkiEngine, extension, keyUsage, serialNumber, time, type SigningCa } from './self-signed.js';

/** The KeyUsage bit of each usage that is one (Go's `x509.KeyUsage`, bit 0 digitalSignature). */
const KEY_USAGE_BITS: Readonly<Record<string, number>> = {
  signing: 0,
  'digital signature': 0,
  'content commitment': 1,
  'key encipherment': 2,
  'key agreement': 4,
  'data encipherment': 3,
  'cert sign': 5,
  'crl sign': 6,
  'encipher only': 7,
  'decipher only': 8,
};

/** The ExtKeyUsage of each usage that is one, in the order of Go's `x509.ExtKeyUsage` constants. */
const EXT_KEY_USAGES: Readonly<Record<string, { order: number; oid: string }>> = {
  any: { order: 0, oid: '2.5.29.37.0' },
  'server auth': { order: 1, oid: '1.3.6.1.5.5.7.3.1' },
  'client auth': { order: 2, oid: '1.3.6.1.5.5.7.3.2' },
  'code signing': { order: 3, oid: '1.3.6.1.5.5.7.3.3' },
  'email protection': { order: 4, oid: '1.3.6.1.5.5.7.3.4' },
  's/mime': { order: 4, oid: '1.3.6.1.5.5.7.3.4' },
  'ipsec end system': { order: 5, oid: '1.3.6.1.5.5.7.3.5' },
  'ipsec tunnel': { order: 6, oid: '1.3.6.1.5.5.7.3.6' },
  'ipsec user': { order: 7, oid: '1.3.6.1.5.5.7.3.7' },
  timestamping: { order: 8, oid: '1.3.6.1.5.5.7.3.8' },
  'ocsp signing': { order: 9, oid: '1.3.6.1.5.5.7.3.9' },
  'microsoft sgc': { order: 10, oid: '1.3.6.1.4.1.311.10.3.3' },
  'netscape sgc': { order: 11, oid: '2.16.840.1.113730.4.1' },
};

/** A signing the policy refuses, with the local signer's message. */
export class SigningPolicyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningPolicyError';
  }
}

/** `keyUsagesFromStrings`: the KeyUsage bits and the sorted ExtKeyUsage OIDs of usages. */
export function keyUsagesFromStrings(usages: readonly string[]): { bits: number[]; extKeyUsages: string[] } {
  const bits = new Set<number>();
  const ext = new Map<number, string>();
  const unrecognized: string[] = [];
  for (const u of usages) {
    if (u in KEY_USAGE_BITS) bits.add(KEY_USAGE_BITS[u]!);
    else if (u in EXT_KEY_USAGES) ext.set(EXT_KEY_USAGES[u]!.order, EXT_KEY_USAGES[u]!.oid);
    else unrecognized.push(u);
  }
  // Go's %q of a []KeyUsage: ["a" "b"].
  if (unrecognized.length) throw new SigningPolicyError(`unrecognized usage values: [${unrecognized.map((u) => JSON.stringify(u)).join(' ')}]`);
  return { bits: [...bits].sort((a, b) => a - b), extKeyUsages: [...ext.keys()].sort((a, b) => a - b).map((k) => ext.get(k)!) };
}

/** The policy of one signing (`PermissiveSigningPolicy`). */
export interface SigningPolicy {
  /** How long the certificate is valid. */
  ttlMs: number;
  usages: readonly string[];
  /** How far `notBefore` lies before now (5 minutes in kube-controller-manager). */
  backdateMs: number;
  /** Below this TTL the end is not backdated (8 hours in kube-controller-manager). */
  shortMs: number;
  /** Now, epoch milliseconds. */
  now: number;
}

/** Go's `time.Time` `%v`: `2026-12-01 10:00:00 +0000 UTC`. */
function goTime(ms: number): string {
  return `${new Date(ms)
    .toISOString()
    .replace('T', ' ')
    .replace(/\.\d+Z$/, '')} +0000 UTC`;
}

/** The validity window the policy gives, or the signer's refusal. */
export function validityWindow(policy: SigningPolicy, caNotAfter: number): { notBefore: number; notAfter: number } {
  const notBefore = policy.now - policy.backdateMs;
  let notAfter = policy.ttlMs < policy.shortMs ? policy.now + policy.ttlMs : policy.now + policy.ttlMs - policy.backdateMs;
  if (!(notAfter < caNotAfter)) notAfter = caNotAfter;
  if (!(notBefore < caNotAfter)) throw new SigningPolicyError(`the signer has expired: NotAfter=${goTime(caNotAfter)}`);
  if (!(policy.now < caNotAfter)) throw new SigningPolicyError(`refusing to sign a certificate that expired in the past: NotAfter=${goTime(caNotAfter)}`);
  return { notBefore, notAfter };
}

/** A PEM certificate for the request, issued by `ca` under `policy`. */
export async function signCertificateRequest(ca: SigningCa, request: CertificateRequestInfo, policy: SigningPolicy): Promise<string> {
  const { bits, extKeyUsages } = keyUsagesFromStrings(policy.usages);
  const { notBefore, notAfter } = validityWindow(policy, ca.notAfter);
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = serialNumber();
  cert.issuer = ca.certificate.subject;
  cert.subject = request.request.subject;
  cert.notBefore = time(notBefore);
  cert.notAfter = time(notAfter);
  cert.subjectPublicKeyInfo = request.request.subjectPublicKeyInfo;
  const extensions: pkijs.Extension[] = [];
  if (bits.length) extensions.push(extension(pkijs.id_KeyUsage, true, keyUsage(...bits)));
  if (extKeyUsages.length) extensions.push(extension(pkijs.id_ExtKeyUsage, false, new pkijs.ExtKeyUsage({ keyPurposes: extKeyUsages })));
  extensions.push(extension(pkijs.id_BasicConstraints, true, new pkijs.BasicConstraints({ cA: false })));
  extensions.push(
    extension(
      pkijs.id_AuthorityKeyIdentifier,
      false,
      new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: ca.authorityKeyId }) }),
    ),
  );
  if (request.subjectAltName) {
    extensions.push(
      new pkijs.Extension({
        extnID: request.subjectAltName.extnID,
        critical: request.subjectAltName.critical,
        extnValue: new Uint8Array(request.subjectAltName.extnValue.valueBlock.valueHexView).slice().buffer,
      }),
    );
  }
  cert.extensions = extensions;
  await cert.sign(ca.signing.key, ca.signing.hash, pkiEngine());
  return toPem('CERTIFICATE', cert.toSchema(true).toBER(false));
}
