/**
 * The X.509 and PKCS#10 checks that the certificates kinds and APIService's `caBundle` need, with
 * the messages Go's `encoding/pem` and `crypto/x509` produce: a PEM decoder that behaves like Go's
 * `pem.Decode` (text around blocks skipped, headers kept), CSR parsing with signature verification,
 * certificate parsing.
 */
import { createPublicKey, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** One PEM block as Go's `pem.Block`. */
export interface PemBlock {
  readonly type: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly bytes: Uint8Array;
}

const BEGIN = '-----BEGIN ';
const END = '-----END ';
const TAIL = '-----';

function getLine(data: string): [string, string] {
  const i = data.indexOf('\n');
  const [line, rest] = i < 0 ? [data, ''] : [data.slice(0, i + 1), data.slice(i + 1)];
  return [line.replace(/[ \t\r\n]+$/, ''), rest];
}

/**
 * Go's `pem.Decode`: the first PEM block in `data` and the rest after it, or `undefined` (and the
 * whole input) when there is none. Text before a block is skipped. As Go's since 1.25.2 (what
 * Kubernetes v1.36 is built with), it looks for the first END line and parses from the nearest
 * BEGIN before it, window by window, so a hostile input (thousands of BEGIN lines, one END at the
 * end of a 3 MiB body) costs one linear scan instead of a quadratic one.
 */
export function pemDecode(data: string): [PemBlock | undefined, string] {
  let start = 0;
  for (;;) {
    const endAt = data.indexOf('\n' + END, start);
    if (endAt < 0) return [undefined, data];
    const lineEnd = data.indexOf('\n', endAt + 1);
    const windowEnd = lineEnd < 0 ? data.length : lineEnd + 1;
    // Searching back only within [start, endAt] keeps every character scanned a bounded number of times.
    const beginAt = data.slice(start, endAt).lastIndexOf(BEGIN);
    if (beginAt >= 0) {
      const [block, tail] = decodeFirstBlock(data.slice(start + beginAt, windowEnd));
      if (block) return [block, tail + data.slice(windowEnd)];
    }
    start = windowEnd;
  }
}

/** The block parser behind {@link pemDecode}, on one small window of the input. */
function decodeFirstBlock(data: string): [PemBlock | undefined, string] {
  let rest = data;
  for (;;) {
    let start: number;
    if (rest.startsWith(BEGIN)) start = 0;
    else {
      const i = rest.indexOf('\n' + BEGIN);
      if (i < 0) return [undefined, data];
      start = i + 1;
    }
    const after = rest.slice(start + BEGIN.length);
    const [typeLine, afterType] = getLine(after);
    if (!typeLine.endsWith(TAIL)) {
      rest = after;
      continue;
    }
    const type = typeLine.slice(0, -TAIL.length);
    const headers: Record<string, string> = {};
    let body = afterType;
    for (;;) {
      if (body === '') break;
      const [line, next] = getLine(body);
      const colon = line.indexOf(':');
      if (colon < 0) break;
      headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
      body = next;
    }
    // The end marker: either at once (an empty block) or after a newline.
    const endMarker = `${END}${type}${TAIL}`;
    let endIndex: number;
    let endTrailer: string;
    let base64: string;
    if (Object.keys(headers).length === 0 && body.startsWith(endMarker)) {
      endIndex = 0;
      base64 = '';
      endTrailer = body.slice(endMarker.length);
    } else {
      endIndex = body.indexOf('\n' + endMarker);
      if (endIndex < 0) {
        rest = after;
        continue;
      }
      base64 = body.slice(0, endIndex);
      endTrailer = body.slice(endIndex + 1 + endMarker.length);
    }
    // The trailer must end the line.
    const [endLine, restAfter] = getLine(endTrailer);
    if (endLine.length !== 0) {
      rest = after;
      continue;
    }
    const compact = base64.replace(/[ \t\r\n]/g, '');
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 !== 0) {
      rest = after;
      continue;
    }
    return [{ type, headers, bytes: new Uint8Array(Buffer.from(compact, 'base64')) }, restAfter];
  }
}

/** Decodes base64 text as the JSON decoder of a `[]byte` field does (already checked by the decoder). */
export function fromBase64(value: string | undefined): string {
  return Buffer.from(value ?? '', 'base64').toString('latin1');
}

/** Go's `%#v` of a `[]byte`: `[]byte{0x2d, 0x2d}`, or `[]byte(nil)` when empty. */
export function goBytes(latin1: string): string {
  if (latin1.length === 0) return '[]byte(nil)';
  const parts: string[] = [];
  for (let i = 0; i < latin1.length; i++) parts.push(`0x${latin1.charCodeAt(i).toString(16)}`);
  return `[]byte{${parts.join(', ')}}`;
}

function parseStrict<T extends { fromSchema(schema: unknown): void }>(der: Uint8Array, make: (schema: unknown) => T): T | undefined {
  const ber = asn1js.fromBER(der);
  if (ber.offset === -1 || ber.offset !== der.byteLength) return undefined;
  try {
    return make(ber.result);
  } catch {
    return undefined;
  }
}

/** A parsed PKCS#10 request, or the error Go's x509 gives. */
export function parseCertificateRequest(der: Uint8Array): pkijs.CertificationRequest | string {
  const csr = parseStrict(der, (schema) => new pkijs.CertificationRequest({ schema }));
  return csr ?? 'x509: malformed certificate request';
}

/** A parsed certificate, or undefined when the DER is not one. */
export function parseCertificate(der: Uint8Array): pkijs.Certificate | undefined {
  return parseStrict(der, (schema) => new pkijs.Certificate({ schema }));
}

/** The DER of a SubjectPublicKeyInfo. */
export function spkiDer(info: pkijs.PublicKeyInfo): Uint8Array {
  return new Uint8Array(info.toSchema().toBER(false));
}

/** The public key of a SubjectPublicKeyInfo, or undefined when Node cannot read it. */
export function publicKey(info: pkijs.PublicKeyInfo): KeyObject | undefined {
  try {
    return createPublicKey({ key: Buffer.from(spkiDer(info)), format: 'der', type: 'spki' });
  } catch {
    return undefined;
  }
}

const SIGNATURE_ALGORITHMS: Record<string, { hash: string | null; kind: 'rsa' | 'ecdsa' | 'ed25519' }> = {
  '1.2.840.113549.1.1.5': { hash: 'sha1', kind: 'rsa' },
  '1.2.840.113549.1.1.11': { hash: 'sha256', kind: 'rsa' },
  '1.2.840.113549.1.1.12': { hash: 'sha384', kind: 'rsa' },
  '1.2.840.113549.1.1.13': { hash: 'sha512', kind: 'rsa' },
  '1.2.840.10045.4.1': { hash: 'sha1', kind: 'ecdsa' },
  '1.2.840.10045.4.3.2': { hash: 'sha256', kind: 'ecdsa' },
  '1.2.840.10045.4.3.3': { hash: 'sha384', kind: 'ecdsa' },
  '1.2.840.10045.4.3.4': { hash: 'sha512', kind: 'ecdsa' },
  '1.3.101.112': { hash: null, kind: 'ed25519' },
};

/** `CertificateRequest.CheckSignature`: undefined when the signature verifies, else Go's error text. */
export function checkSignature(csr: pkijs.CertificationRequest): string | undefined {
  const alg = SIGNATURE_ALGORITHMS[csr.signatureAlgorithm.algorithmId];
  if (!alg) return 'x509: cannot verify signature: algorithm unimplemented';
  const key = publicKey(csr.subjectPublicKeyInfo);
  const failure =
    alg.kind === 'rsa' ? 'crypto/rsa: verification error' : alg.kind === 'ecdsa' ? 'x509: ECDSA verification failure' : 'x509: Ed25519 verification failure';
  const keyType = key?.asymmetricKeyType;
  const matches = alg.kind === 'rsa' ? keyType === 'rsa' : alg.kind === 'ecdsa' ? keyType === 'ec' : keyType === 'ed25519';
  if (!key || !matches)
    return (
      'x509: signature algorithm specifies an ' +
      (alg.kind === 'rsa' ? 'RSA' : alg.kind === 'ecdsa' ? 'ECDSA' : 'Ed25519') +
      ' public key, but have public key of type ' +
      goKeyType(keyType)
    );
  try {
    const ok = cryptoVerify(alg.hash, csr.tbsView, key, csr.signatureValue.valueBlock.valueHexView);
    return ok ? undefined : failure;
  } catch {
    return failure;
  }
}

function goKeyType(t: string | undefined): string {
  switch (t) {
    case 'rsa':
      return '*rsa.PublicKey';
    case 'ec':
      return '*ecdsa.PublicKey';
    case 'ed25519':
      return 'ed25519.PublicKey';
    default:
      return '<nil>';
  }
}

/** A certificate's validity instant as epoch milliseconds. */
export function certTime(t: pkijs.Time): number {
  return t.value.getTime();
}

/**
 * The basic constraints of a certificate as Go's `x509.Certificate` reports them:
 * `BasicConstraintsValid` (the extension is present and parses) and `IsCA`.
 */
export function basicConstraints(cert: pkijs.Certificate): { readonly valid: boolean; readonly isCA: boolean } {
  const ext = (cert.extensions ?? []).find((e) => e.extnID === pkijs.id_BasicConstraints);
  const parsed = ext?.parsedValue as pkijs.BasicConstraints | undefined;
  if (!ext || !(parsed instanceof pkijs.BasicConstraints)) return { valid: false, isCA: false };
  return { valid: true, isCA: parsed.cA === true };
}
