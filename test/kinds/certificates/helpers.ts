/** Real PKCS#10 requests and certificates for the certificates tests (pkijs over WebCrypto). */
import { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { toPem } from '../../../src/pki/pem.js';

const engine = new pkijs.CryptoEngine({ name: 'node', crypto: webcrypto as unknown as pkijs.CryptoEngineParameters['crypto'] });

export type KeySpec = { name: 'ECDSA'; namedCurve: 'P-256' | 'P-384' } | { name: 'RSASSA-PKCS1-v1_5'; modulusLength: 2048 | 3072 };

export async function keyPair(spec: KeySpec = { name: 'ECDSA', namedCurve: 'P-256' }): Promise<webcrypto.CryptoKeyPair> {
  const alg = spec.name === 'ECDSA' ? spec : { ...spec, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
  return (await webcrypto.subtle.generateKey(alg, true, ['sign', 'verify'])) as webcrypto.CryptoKeyPair;
}

function cn(name: string): pkijs.RelativeDistinguishedNames {
  return new pkijs.RelativeDistinguishedNames({
    typesAndValues: [new pkijs.AttributeTypeAndValue({ type: '2.5.4.3', value: new asn1js.Utf8String({ value: name }) })],
  });
}

/** DER of a signed PKCS#10 request; `corrupt` flips a signature bit. */
export async function csrDer(keys: webcrypto.CryptoKeyPair, options: { commonName?: string; corrupt?: boolean } = {}): Promise<Uint8Array> {
  const csr = new pkijs.CertificationRequest();
  csr.version = 0;
  if (options.commonName) csr.subject = cn(options.commonName);
  await csr.subjectPublicKeyInfo.importKey(keys.publicKey, engine);
  await csr.sign(keys.privateKey, 'SHA-256', engine);
  if (options.corrupt) {
    const sig = new Uint8Array(csr.signatureValue.valueBlock.valueHexView);
    sig[sig.length - 5]! ^= 0x01;
    csr.signatureValue = new asn1js.BitString({ valueHex: sig });
  }
  return new Uint8Array(csr.toSchema().toBER(false));
}

export const b64 = (data: string | Uint8Array) => Buffer.from(data).toString('base64');
export const csrPem = (der: Uint8Array) => toPem('CERTIFICATE REQUEST', der);

/** A certificate for `publicKey` signed by `signingKey`, valid [notBefore, notAfter]. */
export async function certificatePem(publicKey: webcrypto.CryptoKey, signingKey: webcrypto.CryptoKey, notBefore: Date, notAfter: Date): Promise<string> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = new asn1js.Integer({ value: 42 });
  cert.issuer = cn('test-ca');
  cert.subject = cn('leaf');
  cert.notBefore = new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: notBefore });
  cert.notAfter = new pkijs.Time({ type: pkijs.TimeType.UTCTime, value: notAfter });
  await cert.subjectPublicKeyInfo.importKey(publicKey, engine);
  await cert.sign(signingKey, 'SHA-256', engine);
  return toPem('CERTIFICATE', cert.toSchema(true).toBER(false));
}
