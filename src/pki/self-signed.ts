/**
 * Self-signed certificates made in process (pkijs + asn1js over WebCrypto, no openssl): a CA and
 * a serving certificate it signs, ECDSA P-256 with SHA-256, as kube-apiserver makes for itself
 * when it has no `--tls-cert-file` (client-go's `GenerateSelfSignedCertKey`).
 */
import { createHash, createPrivateKey, webcrypto, X509Certificate, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { fromPem, toPem } from './pem.js';
import { basicConstraints, parseCertificate } from './x509.js';

/**
 * A certificate and its private key, both PEM (the key PKCS#8).
 * @category Certificates
 */
export interface CertificateAndKey {
  readonly cert: string;
  readonly key: string;
}

/**
 * A CA and a serving certificate it issued.
 * @category Certificates
 */
export interface ServingCertificate {
  /** The self-signed CA: what clients trust (`certificate-authority-data`). */
  readonly ca: CertificateAndKey;
  /** The server's certificate (issued by `ca`) and key. */
  readonly serving: CertificateAndKey;
}

/**
 * Options of {@link generateServingCertificate}.
 * @category Certificates
 */
export interface ServingCertificateOptions {
  /** Host names and IP addresses the serving certificate is for (SAN DNS and IP entries). */
  hosts: readonly string[];
  /** The time the validity windows are around; `Date.now()` by default. */
  now?: number | Date;
  /** How long before `now` the certificates are valid already (clock skew); 1 hour by default. */
  backdateMs?: number;
  /** How long after `now` the serving certificate stays valid; 1 year by default. */
  validityMs?: number;
  /** How long after `now` the CA stays valid; 10 years by default. */
  caValidityMs?: number;
  /** Prefix of the subjects' common names; `memkube` by default. */
  commonName?: string;
}

const HOUR = 3_600_000;
const YEAR = 365 * 24 * HOUR;
const OID_COMMON_NAME = '2.5.4.3';
const OID_ORGANIZATION = '2.5.4.10';
const OID_SERVER_AUTH = '1.3.6.1.5.5.7.3.1';
const OID_CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
/** KeyUsage bits (RFC 5280 4.2.1.3), numbered from the most significant bit of the first byte. */
const KEY_USAGE = { digitalSignature: 0, keyEncipherment: 2, keyCertSign: 5 } as const;

let engineOnce: pkijs.CryptoEngine | undefined;

/**
 * The pkijs engine over Node's WebCrypto, made on first use: making it at the module's top would
 * load pkijs (and asn1js) into every process that imports this module, certificates or not.
 */
export function pkiEngine(): pkijs.CryptoEngine {
  return (engineOnce ??= new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as pkijs.CryptoEngineParameters['crypto'] }));
}

/** The 4 or 16 bytes of an IPv4 or IPv6 address (a zone such as `%eth0` is dropped); undefined for a name. */
export function ipAddressBytes(host: string): Uint8Array | undefined {
  const ip = host.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(ip);
  if (family === 4) return new Uint8Array(ip.split('.').map(Number));
  if (family !== 6) return undefined;
  // An embedded IPv4 tail (`::ffff:1.2.3.4`) becomes its two 16-bit groups.
  const text = ip.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_, a: string, b: string, c: string, d: string) => `${((+a << 8) | +b).toString(16)}:${((+c << 8) | +d).toString(16)}`,
  );
  const groups = (s: string) => (s === '' ? [] : s.split(':').map((g) => parseInt(g, 16)));
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const words = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = new Uint8Array(16);
  words.forEach((w, i) => {
    bytes[2 * i] = w >> 8;
    bytes[2 * i + 1] = w & 0xff;
  });
  return bytes;
}

/**
 * A subject of organizations and a common name as Go's `pkix.Name` writes it: one RDN holding every
 * organization, then one for the common name (pkijs would put every attribute in a single RDN, so
 * the sequence is built here and parsed back, which keeps its encoding).
 */
function name(commonName: string, organizations: readonly string[] = []): pkijs.RelativeDistinguishedNames {
  const attribute = (type: string, value: string) => new pkijs.AttributeTypeAndValue({ type, value: new asn1js.Utf8String({ value }) }).toSchema();
  const rdns = [...(organizations.length ? [organizations.map((o) => attribute(OID_ORGANIZATION, o))] : []), [attribute(OID_COMMON_NAME, commonName)]];
  const der = new asn1js.Sequence({ value: rdns.map((set) => new asn1js.Set({ value: set })) }).toBER(false);
  return new pkijs.RelativeDistinguishedNames({ schema: asn1js.fromBER(der).result });
}

/** X.509 time: UTCTime for 1950 to 2049, GeneralizedTime otherwise (RFC 5280 4.1.2.5). */
export function time(ms: number): pkijs.Time {
  const value = new Date(Math.floor(ms / 1000) * 1000);
  const year = value.getUTCFullYear();
  return new pkijs.Time({ type: year >= 1950 && year < 2050 ? pkijs.TimeType.UTCTime : pkijs.TimeType.GeneralizedTime, value });
}

/** A KeyUsage BIT STRING with these bits set (bit 0 is digitalSignature), DER-minimal. */
export function keyUsage(...bits: number[]): asn1js.BitString {
  const bytes = new Uint8Array(Math.floor(Math.max(...bits) / 8) + 1);
  for (const bit of bits) bytes[bit >> 3]! |= 0x80 >> (bit & 7);
  const last = bytes[bytes.length - 1]!;
  let unusedBits = 0;
  while (unusedBits < 7 && !(last & (1 << unusedBits))) unusedBits++;
  return new asn1js.BitString({ valueHex: bytes, unusedBits });
}

/** An X.509 extension holding the DER of `value`. */
export function extension(extnID: string, critical: boolean, value: { toSchema(): asn1js.BaseBlock } | asn1js.BaseBlock): pkijs.Extension {
  const block = 'toSchema' in value ? value.toSchema() : value;
  return new pkijs.Extension({ extnID, critical, extnValue: block.toBER(false) });
}

/** A random positive 128-bit serial number. */
export function serialNumber(): asn1js.Integer {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x40; // positive, and no leading zero byte
  return new asn1js.Integer({ valueHex: bytes });
}

/** A fresh ECDSA P-256 key pair (extractable). */
export async function generateKeyPair(): Promise<webcrypto.CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

interface IssueOptions {
  subject: string | pkijs.RelativeDistinguishedNames;
  issuer: string | pkijs.RelativeDistinguishedNames;
  publicKey: webcrypto.CryptoKey;
  signingKey: webcrypto.CryptoKey;
  /** The issuer's subject key identifier; none for a self-signed certificate. */
  authorityKeyId?: Uint8Array;
  notBefore: number;
  notAfter: number;
  isCA: boolean;
  hosts?: readonly string[];
  /** The extended key usage of a leaf certificate; server authentication by default. */
  extKeyUsage?: readonly string[];
  /** The signature's hash; SHA-256 by default. */
  hash?: string;
}

async function issue(o: IssueOptions): Promise<{ der: ArrayBuffer; keyId: Uint8Array }> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = serialNumber();
  cert.issuer = typeof o.issuer === 'string' ? name(o.issuer) : o.issuer;
  cert.subject = typeof o.subject === 'string' ? name(o.subject) : o.subject;
  cert.notBefore = time(o.notBefore);
  cert.notAfter = time(o.notAfter);
  await cert.subjectPublicKeyInfo.importKey(o.publicKey, pkiEngine());
  const keyId = new Uint8Array(createHash('sha1').update(cert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).digest());

  const extensions = [
    extension(pkijs.id_BasicConstraints, true, new pkijs.BasicConstraints({ cA: o.isCA })),
    extension(
      pkijs.id_KeyUsage,
      true,
      o.isCA
        ? keyUsage(KEY_USAGE.digitalSignature, KEY_USAGE.keyEncipherment, KEY_USAGE.keyCertSign)
        : keyUsage(KEY_USAGE.digitalSignature, KEY_USAGE.keyEncipherment),
    ),
    extension(pkijs.id_SubjectKeyIdentifier, false, new asn1js.OctetString({ valueHex: keyId })),
  ];
  if (o.authorityKeyId) {
    extensions.push(
      extension(
        pkijs.id_AuthorityKeyIdentifier,
        false,
        new pkijs.AuthorityKeyIdentifier({ keyIdentifier: new asn1js.OctetString({ valueHex: o.authorityKeyId }) }),
      ),
    );
  }
  if (!o.isCA) extensions.push(extension(pkijs.id_ExtKeyUsage, false, new pkijs.ExtKeyUsage({ keyPurposes: [...(o.extKeyUsage ?? [OID_SERVER_AUTH])] })));
  if (o.hosts?.length) {
    const names = [...new Set(o.hosts)].map((host) => {
      const ip = ipAddressBytes(host);
      return ip ? new pkijs.GeneralName({ type: 7, value: new asn1js.OctetString({ valueHex: ip }) }) : new pkijs.GeneralName({ type: 2, value: host });
    });
    extensions.push(extension(pkijs.id_SubjectAltName, false, new pkijs.GeneralNames({ names })));
  }
  cert.extensions = extensions;
  await cert.sign(o.signingKey, o.hash ?? 'SHA-256', pkiEngine());
  return { der: cert.toSchema(true).toBER(false), keyId };
}

/** A private key as PKCS#8 PEM. */
export async function privateKeyPem(key: webcrypto.CryptoKey): Promise<string> {
  return toPem('PRIVATE KEY', await webcrypto.subtle.exportKey('pkcs8', key));
}

/**
 * A fresh CA (self-signed, `basicConstraints` CA) and a serving certificate it signs for `hosts`
 * (IP addresses as SAN IP entries, names as SAN DNS entries), valid from an hour before `now`.
 * @category Certificates
 */
export async function generateServingCertificate(options: ServingCertificateOptions): Promise<ServingCertificate> {
  const now = options.now === undefined ? Date.now() : +options.now;
  const notBefore = now - (options.backdateMs ?? HOUR);
  const cn = options.commonName ?? 'memkube';
  const stamp = Math.floor(now / 1000);
  const caKeys = await generateKeyPair();
  const caName = `${cn}-ca@${stamp}`;
  const ca = await issue({
    subject: caName,
    issuer: caName,
    publicKey: caKeys.publicKey,
    signingKey: caKeys.privateKey,
    notBefore,
    notAfter: now + (options.caValidityMs ?? 10 * YEAR),
    isCA: true,
  });
  const servingKeys = await generateKeyPair();
  const serving = await issue({
    subject: `${cn}@${stamp}`,
    issuer: caName,
    publicKey: servingKeys.publicKey,
    signingKey: caKeys.privateKey,
    authorityKeyId: ca.keyId,
    notBefore,
    notAfter: now + (options.validityMs ?? YEAR),
    isCA: false,
    hosts: options.hosts,
  });
  return {
    ca: { cert: toPem('CERTIFICATE', ca.der), key: await privateKeyPem(caKeys.privateKey) },
    serving: { cert: toPem('CERTIFICATE', serving.der), key: await privateKeyPem(servingKeys.privateKey) },
  };
}

/**
 * Options of {@link signClientCertificate}.
 * @category Certificates
 */
export interface ClientCertificateOptions {
  /** The signing CA's certificate and private key (PEM; the key PKCS#8, SEC 1 or PKCS#1, ECDSA or RSA). */
  ca: CertificateAndKey;
  /** The user: the subject's common name. */
  commonName: string;
  /** The user's groups: the subject's organizations. */
  organizations?: readonly string[];
  /** The time the validity window is around. */
  now: number;
  /** How long after `now` the certificate stays valid. */
  validityMs: number;
  /** How long before `now` it is valid already (clock skew); 5 minutes by default, as kube-controller-manager's signer backdates. */
  backdateMs?: number;
}

/**
 * A client certificate, its key, and when it stops being valid.
 * @category Certificates
 */
export interface ClientCertificate extends CertificateAndKey {
  /** `notAfter`, epoch milliseconds (whole seconds, as X.509 keeps it). */
  readonly notAfter: number;
}

/**
 * A CA that cannot sign, with the reason.
 * @category Certificates
 */
export class SigningCaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SigningCaError';
  }
}

const CURVES: Record<string, { namedCurve: string; hash: string }> = {
  prime256v1: { namedCurve: 'P-256', hash: 'SHA-256' },
  secp384r1: { namedCurve: 'P-384', hash: 'SHA-384' },
  secp521r1: { namedCurve: 'P-521', hash: 'SHA-512' },
};

/** The CA's private key as a WebCrypto signing key, and the hash Go's x509 would sign with. */
export async function signingKeyOf(key: KeyObject): Promise<{ key: webcrypto.CryptoKey; hash: string }> {
  const der = key.export({ type: 'pkcs8', format: 'der' });
  if (key.asymmetricKeyType === 'rsa') {
    return { key: await webcrypto.subtle.importKey('pkcs8', der, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']), hash: 'SHA-256' };
  }
  const curve = key.asymmetricKeyType === 'ec' ? CURVES[key.asymmetricKeyDetails?.namedCurve ?? ''] : undefined;
  if (!curve) throw new SigningCaError(`unsupported CA key type ${key.asymmetricKeyType ?? 'unknown'}: an ECDSA (P-256, P-384, P-521) or RSA key is needed`);
  return { key: await webcrypto.subtle.importKey('pkcs8', der, { name: 'ECDSA', namedCurve: curve.namedCurve }, false, ['sign']), hash: curve.hash };
}

/**
 * A fresh client certificate signed by `ca` (ECDSA P-256 key, client authentication, the subject
 * `O=<organizations>, CN=<commonName>` Kubernetes' x509 authenticator reads as user and groups).
 * Throws {@link SigningCaError} when the CA certificate or key cannot be read, do not match, or
 * the certificate is not a CA.
 */
/** A CA read for signing: its parsed certificate, signing key and key identifier. */
export interface SigningCa {
  /** The CA certificate, parsed. */
  readonly certificate: pkijs.Certificate;
  /** The CA certificate as PEM, as given. */
  readonly pem: string;
  /** Its private key as a WebCrypto signing key, and the hash to sign with. */
  readonly signing: { readonly key: webcrypto.CryptoKey; readonly hash: string };
  /** What issued certificates carry as authority key identifier. */
  readonly authorityKeyId: Uint8Array;
  /** The CA's `notAfter`, epoch milliseconds. */
  readonly notAfter: number;
}

/**
 * Reads a CA certificate and key for signing. Throws {@link SigningCaError} when the certificate
 * or key cannot be read, do not match, or the certificate is not a CA.
 */
export async function loadSigningCa(ca: CertificateAndKey): Promise<SigningCa> {
  const [caDer] = fromPem('CERTIFICATE', ca.cert);
  const caCert = caDer ? parseCertificate(caDer) : undefined;
  if (!caDer || !caCert) throw new SigningCaError('the CA certificate is not a PEM certificate');
  if (!basicConstraints(caCert).isCA) throw new SigningCaError('the CA certificate is not a certificate authority (basicConstraints CA:FALSE)');
  let caKey: KeyObject;
  try {
    caKey = createPrivateKey(ca.key);
  } catch {
    throw new SigningCaError('the CA key is not a PEM private key');
  }
  if (!new X509Certificate(Buffer.from(caDer)).checkPrivateKey(caKey)) throw new SigningCaError('the CA key does not match the CA certificate');
  const signing = await signingKeyOf(caKey);
  const skiExtension = (caCert.extensions ?? []).find((e) => e.extnID === pkijs.id_SubjectKeyIdentifier);
  const authorityKeyId = skiExtension
    ? new Uint8Array((skiExtension.parsedValue as asn1js.OctetString).valueBlock.valueHexView)
    : new Uint8Array(createHash('sha1').update(caCert.subjectPublicKeyInfo.subjectPublicKey.valueBlock.valueHexView).digest());
  return { certificate: caCert, pem: ca.cert, signing, authorityKeyId, notAfter: caCert.notAfter.value.getTime() };
}

/**
 * A fresh client certificate signed by `ca` (ECDSA P-256 key, client authentication, the subject
 * `O=<organizations>, CN=<commonName>` Kubernetes' x509 authenticator reads as user and groups).
 * Throws {@link SigningCaError} when the CA certificate or key cannot be read, do not match, or
 * the certificate is not a CA.
 * @category Certificates
 */
export async function signClientCertificate(options: ClientCertificateOptions): Promise<ClientCertificate> {
  const ca = await loadSigningCa(options.ca);
  const keys = await generateKeyPair();
  const notAfter = Math.floor((options.now + options.validityMs) / 1000) * 1000;
  const cert = await issue({
    subject: name(options.commonName, options.organizations),
    issuer: ca.certificate.subject,
    publicKey: keys.publicKey,
    signingKey: ca.signing.key,
    authorityKeyId: ca.authorityKeyId,
    notBefore: options.now - (options.backdateMs ?? 5 * 60_000),
    notAfter,
    isCA: false,
    extKeyUsage: [OID_CLIENT_AUTH],
    hash: ca.signing.hash,
  });
  return { cert: toPem('CERTIFICATE', cert.der), key: await privateKeyPem(keys.privateKey), notAfter };
}

/**
 * Options of {@link generateCertificateAuthority}.
 * @category Certificates
 */
export interface CertificateAuthorityOptions {
  /** The CA's common name. */
  commonName: string;
  /** The time the validity window is around; `Date.now()` by default. */
  now?: number;
  /** How long before `now` it is valid already; 1 hour by default. */
  backdateMs?: number;
  /** How long after `now` it stays valid; 10 years by default. */
  validityMs?: number;
}

/**
 * A fresh self-signed CA (ECDSA P-256), as `generateServingCertificate` makes its own.
 * @category Certificates
 */
export async function generateCertificateAuthority(options: CertificateAuthorityOptions): Promise<CertificateAndKey> {
  const now = options.now ?? Date.now();
  const keys = await generateKeyPair();
  const ca = await issue({
    subject: options.commonName,
    issuer: options.commonName,
    publicKey: keys.publicKey,
    signingKey: keys.privateKey,
    notBefore: now - (options.backdateMs ?? HOUR),
    notAfter: now + (options.validityMs ?? 10 * YEAR),
    isCA: true,
  });
  return { cert: toPem('CERTIFICATE', ca.der), key: await privateKeyPem(keys.privateKey) };
}
