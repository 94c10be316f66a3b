/**
 * PKCS#10 certificate requests: making one (what a kubelet sends to get its client certificate,
 * client-go's `certutil.MakeCSR`) and reading the fields of one the way Go's
 * `x509.ParseCertificateRequest` exposes them (subject common name and organizations, the SANs of
 * its extension request, its public key algorithm), which the CSR approver and signers decide on.
 */
import { createPrivateKey, webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { toPem } from './pem.js';
import { pkiEngine, ipAddressBytes } from './self-signed.js';
import { checkSignature, parseCertificateRequest, pemDecode } from './x509.js';

const OID_COMMON_NAME = '2.5.4.3';
const OID_ORGANIZATION = '2.5.4.10';
const OID_EXTENSION_REQUEST = '1.2.840.113549.1.9.14';
const OID_SUBJECT_ALT_NAME = '2.5.29.17';

/**
 * The subject and SANs of a request to make.
 * @category Certificates
 */
export interface CertificateRequestSubject {
  commonName: string;
  organizations?: readonly string[];
  dnsNames?: readonly string[];
  ipAddresses?: readonly string[];
}

/** The fields of a parsed request the certificate controllers look at (Go's `x509.CertificateRequest`). */
export interface CertificateRequestInfo {
  /** The DER of the request. */
  readonly der: Uint8Array;
  /** The parsed request (its subject and public key are copied into the certificate). */
  readonly request: pkijs.CertificationRequest;
  /** The last common name of the subject, as Go keeps it; '' when none. */
  readonly commonName: string;
  /** Every organization of the subject, in order. */
  readonly organizations: readonly string[];
  readonly dnsNames: readonly string[];
  readonly emailAddresses: readonly string[];
  /** IP addresses, as the raw 4 or 16 bytes in hex (the controllers only count them). */
  readonly ipAddresses: readonly string[];
  readonly uris: readonly string[];
  /** The subjectAltName extension of the request's extension request, copied into the certificate. */
  readonly subjectAltName?: pkijs.Extension;
  /** `rsa`, `ec`, `ed25519` or the algorithm's OID. */
  readonly publicKeyAlgorithm: string;
}

const PUBLIC_KEY_ALGORITHMS: Record<string, string> = {
  '1.2.840.113549.1.1.1': 'rsa',
  '1.2.840.10045.2.1': 'ec',
  '1.3.101.112': 'ed25519',
};

function attributeText(value: unknown): string {
  const block = value as { valueBlock?: { value?: unknown } };
  return typeof block?.valueBlock?.value === 'string' ? block.valueBlock.value : '';
}

/**
 * `ParseCSR` (pkg/apis/certificates/helpers.go) and the fields of the request: the first PEM block
 * must be a CERTIFICATE REQUEST that parses; answers Go's error text otherwise. The signature is
 * not checked here (see {@link checkRequestSignature}).
 */
export function readCertificateRequest(pem: string): CertificateRequestInfo | string {
  const [block] = pemDecode(pem);
  if (!block || block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  const request = parseCertificateRequest(block.bytes);
  if (typeof request === 'string') return request;
  let commonName = '';
  const organizations: string[] = [];
  for (const tv of request.subject.typesAndValues) {
    if (tv.type === OID_COMMON_NAME) commonName = attributeText(tv.value);
    else if (tv.type === OID_ORGANIZATION) organizations.push(attributeText(tv.value));
  }
  const dnsNames: string[] = [];
  const emailAddresses: string[] = [];
  const ipAddresses: string[] = [];
  const uris: string[] = [];
  let subjectAltName: pkijs.Extension | undefined;
  for (const attribute of request.attributes ?? []) {
    if (attribute.type !== OID_EXTENSION_REQUEST) continue;
    for (const value of attribute.values) {
      let extensions: pkijs.Extensions;
      try {
        extensions = new pkijs.Extensions({ schema: value });
      } catch {
        return 'x509: malformed extension request';
      }
      for (const ext of extensions.extensions) {
        if (ext.extnID !== OID_SUBJECT_ALT_NAME) continue;
        const names = ext.parsedValue as pkijs.AltName | undefined;
        if (!names?.altNames) return 'x509: malformed subject alternative name';
        subjectAltName = ext;
        for (const n of names.altNames) {
          if (n.type === 1) emailAddresses.push(String(n.value));
          else if (n.type === 2) dnsNames.push(String(n.value));
          else if (n.type === 6) uris.push(String(n.value));
          else if (n.type === 7) ipAddresses.push(Buffer.from((n.value as asn1js.OctetString).valueBlock.valueHexView).toString('hex'));
        }
      }
    }
  }
  const algorithm = request.subjectPublicKeyInfo.algorithm.algorithmId;
  return {
    der: block.bytes,
    request,
    commonName,
    organizations,
    dnsNames,
    emailAddresses,
    ipAddresses,
    uris,
    subjectAltName,
    publicKeyAlgorithm: PUBLIC_KEY_ALGORITHMS[algorithm] ?? algorithm,
  };
}

/** `CheckSignature`: undefined when the request's signature verifies, else Go's error text. */
export function checkRequestSignature(info: CertificateRequestInfo): string | undefined {
  return checkSignature(info.request);
}

function subjectOf(subject: CertificateRequestSubject): pkijs.RelativeDistinguishedNames {
  const attribute = (type: string, value: string) => new pkijs.AttributeTypeAndValue({ type, value: new asn1js.Utf8String({ value }) }).toSchema();
  const organizations = subject.organizations ?? [];
  // As Go's pkix.Name writes it: one RDN of every organization, then the common name.
  const rdns = [...(organizations.length ? [organizations.map((o) => attribute(OID_ORGANIZATION, o))] : []), [attribute(OID_COMMON_NAME, subject.commonName)]];
  const der = new asn1js.Sequence({ value: rdns.map((set) => new asn1js.Set({ value: set })) }).toBER(false);
  return new pkijs.RelativeDistinguishedNames({ schema: asn1js.fromBER(der).result });
}

/**
 * A PEM CERTIFICATE REQUEST for `subject`, signed with `privateKeyPem` (an ECDSA P-256/P-384 or
 * RSA private key, PKCS#8, SEC 1 or PKCS#1), as client-go's `certutil.MakeCSR` makes it.
 * @category Certificates
 */
export async function createCertificateRequest(privateKeyPem: string, subject: CertificateRequestSubject): Promise<string> {
  const key = createPrivateKey(privateKeyPem);
  const der = key.export({ type: 'pkcs8', format: 'der' });
  const jwk = key.export({ format: 'jwk' });
  let algorithm: webcrypto.EcKeyImportParams | webcrypto.RsaHashedImportParams;
  let hash: string;
  if (key.asymmetricKeyType === 'ec') {
    const curve = jwk.crv === 'P-384' ? 'P-384' : jwk.crv === 'P-256' ? 'P-256' : undefined;
    if (!curve) throw new Error(`unsupported elliptic curve ${jwk.crv ?? 'unknown'}`);
    algorithm = { name: 'ECDSA', namedCurve: curve };
    hash = curve === 'P-384' ? 'SHA-384' : 'SHA-256';
  } else if (key.asymmetricKeyType === 'rsa') {
    algorithm = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' };
    hash = 'SHA-256';
  } else {
    throw new Error(`unsupported private key type ${key.asymmetricKeyType ?? 'unknown'}`);
  }
  const privateKey = await webcrypto.subtle.importKey('pkcs8', der, algorithm, true, ['sign']);
  const publicJwk = { ...jwk };
  for (const k of ['d', 'p', 'q', 'dp', 'dq', 'qi'] as const) delete publicJwk[k];
  const publicKey = await webcrypto.subtle.importKey('jwk', publicJwk, algorithm, true, ['verify']);
  const csr = new pkijs.CertificationRequest();
  csr.version = 0;
  csr.subject = subjectOf(subject);
  await csr.subjectPublicKeyInfo.importKey(publicKey, pkiEngine());
  const names = [
    ...(subject.dnsNames ?? []).map((d) => new pkijs.GeneralName({ type: 2, value: d })),
    ...(subject.ipAddresses ?? []).map((ip) => {
      const bytes = ipAddressBytes(ip);
      if (!bytes) throw new Error(`not an IP address: ${ip}`);
      return new pkijs.GeneralName({ type: 7, value: new asn1js.OctetString({ valueHex: bytes }) });
    }),
  ];
  if (names.length) {
    const san = new pkijs.Extension({
      extnID: OID_SUBJECT_ALT_NAME,
      critical: false,
      extnValue: new pkijs.GeneralNames({ names }).toSchema().toBER(false),
    });
    csr.attributes = [new pkijs.Attribute({ type: OID_EXTENSION_REQUEST, values: [new pkijs.Extensions({ extensions: [san] }).toSchema()] })];
  }
  await csr.sign(privateKey, hash, pkiEngine());
  return toPem('CERTIFICATE REQUEST', csr.toSchema().toBER(false));
}
