/** PodCertificateRequest (certificates/v1, namespaced), status through `/status`. */
import { z } from 'zod';
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import { lazySchema } from '../types/lazy-schema.js';
import { isDNS1123Subdomain } from '../../schema/validation/names.js';
import { goJson } from '../../util/go-format.js';
import { fieldNode, semanticEqual } from '../shared/semantic-equal.js';
import { ObjectMeta } from '../types/meta-v1.js';
import { PodCertificateRequestSpec as BetaSpec, PodCertificateRequestStatus } from '../types/certificates-v1beta1.js';
import { certTime, checkSignature, fromBase64, parseCertificate, parseCertificateRequest, pemDecode, publicKey, spkiDer } from '../../pki/x509.js';
import { validateMetaConditions } from '../shared/conditions.js';
import { goDurationString, goTimeString, isReservedSignerName, validateSignerName, validateUserAnnotations } from './validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** The v1 spec: the beta spec without the alpha-era `pkixPublicKey` and `proofOfPossession`. */
export const PodCertificateRequestSpecV1 = lazySchema(() =>
  BetaSpec().omit({ pkixPublicKey: true, proofOfPossession: true }).meta({
    id: 'io.k8s.api.certificates.v1.PodCertificateRequestSpec',
  }),
);
export const PodCertificateRequestSchema = lazySchema(() =>
  z
    .object({
      apiVersion: z.string().optional(),
      kind: z.string().optional(),
      metadata: ObjectMeta().optional(),
      spec: PodCertificateRequestSpecV1(),
      status: PodCertificateRequestStatus().optional(),
    })
    .meta({
      id: 'io.k8s.api.certificates.v1.PodCertificateRequest',
      'x-kubernetes-group-version-kind': [{ group: 'certificates.k8s.io', kind: 'PodCertificateRequest', version: 'v1' }],
    }),
);
/** A PodCertificateRequest object. */
export type PodCertificateRequest = z.infer<ReturnType<typeof PodCertificateRequestSchema>>;

export const DEFAULT_MAX_EXPIRATION_SECONDS = 86400;
export const MIN_MAX_EXPIRATION_SECONDS = 3600;
export const MAX_MAX_EXPIRATION_SECONDS = 7862400;
export const RESERVED_MAX_MAX_EXPIRATION_SECONDS = 86400;
const MAX_CERTIFICATE_CHAIN_SIZE = 100 * 1024;
const TERMINAL = ['Issued', 'Denied', 'Failed'];
const STUB = 'spec.stubPKCS10Request';

/** `field.Invalid` with `field.OmitValueType{}`: the message shows no value. */
const omitted = (field: string, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, detail });

const CURVES: Record<string, string> = { prime256v1: 'P-256', secp384r1: 'P-384', secp521r1: 'P-521' };

/** The stub request: DER PKCS#10, signature verified, an accepted key type. */
function validateStub(der: string): FieldError[] {
  const bytes = new Uint8Array(Buffer.from(der, 'latin1'));
  const csr = parseCertificateRequest(bytes);
  if (typeof csr === 'string') return [omitted(STUB, `must be a valid PKCS#10 certificate signing request: ${csr}`)];
  const key = publicKey(csr.subjectPublicKeyInfo);
  switch (key?.asymmetricKeyType) {
    case 'ed25519':
      break;
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve ?? '';
      if (!CURVES[curve]) return [fieldError.invalid(STUB, `curve ${curve}`, 'elliptic public keys must use curve P256, P384, or P521')];
      break;
    }
    case 'rsa': {
      const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
      if (bits !== 3072 && bits !== 4096) return [fieldError.invalid(STUB, `${bits}-bit modulus`, 'RSA keys must have modulus size 3072 or 4096')];
      break;
    }
    default:
      return [omitted(STUB, 'unknown public key type; supported types are Ed25519, ECDSA, and RSA')];
  }
  const sig = checkSignature(csr);
  if (sig) return [omitted(STUB, `could not verify PKCS#10 signature: ${sig}`)];
  return [];
}

function validateCreate(req: PodCertificateRequest, ctx: KindContext): FieldError[] {
  const s = req.spec;
  const errs: FieldError[] = [...validateSignerName('spec.signerName', s.signerName ?? '')];
  if (s.unverifiedUserAnnotations) errs.push(...validateUserAnnotations(s.unverifiedUserAnnotations, 'spec.unverifiedUserAnnotations'));
  const uid = (field: string, v: string | undefined) => {
    if (!v) errs.push(fieldError.invalid(`spec.${field}`, v ?? '', 'must not be empty'));
    else if (v.length > 128) errs.push(fieldError.tooLong(`spec.${field}`, 128));
  };
  for (const m of isDNS1123Subdomain(s.podName ?? '')) errs.push(fieldError.invalid('spec.podName', s.podName ?? '', m));
  uid('podUID', s.podUID);
  for (const m of isDNS1123Subdomain(s.serviceAccountName ?? '')) errs.push(fieldError.invalid('spec.serviceAccountName', s.serviceAccountName ?? '', m));
  uid('serviceAccountUID', s.serviceAccountUID);
  for (const m of isDNS1123Subdomain(s.nodeName ?? '')) errs.push(fieldError.invalid('spec.nodeName', s.nodeName ?? '', m));
  uid('nodeUID', s.nodeUID);
  const max = s.maxExpirationSeconds;
  if (max === undefined) return [...errs, fieldError.required('spec.maxExpirationSeconds', 'must be set')];
  const hi = isReservedSignerName(s.signerName ?? '', ctx.reservedDomain) ? RESERVED_MAX_MAX_EXPIRATION_SECONDS : MAX_MAX_EXPIRATION_SECONDS;
  if (max < MIN_MAX_EXPIRATION_SECONDS || max > hi) {
    errs.push(fieldError.invalid('spec.maxExpirationSeconds', max, `must be in the range [${MIN_MAX_EXPIRATION_SECONDS}, ${hi}]`));
  }
  if (!s.stubPKCS10Request) errs.push(fieldError.required(STUB, ''));
  else errs.push(...validateStub(fromBase64(s.stubPKCS10Request)));
  return errs;
}

const conds = (r: Readonly<PodCertificateRequest>) => r.status?.conditions ?? [];
const isIn = (r: Readonly<PodCertificateRequest>, type: string) => conds(r).some((c) => c.type === type && c.status === 'True');
const terminal = (r: Readonly<PodCertificateRequest>) => TERMINAL.some((t) => isIn(r, t));
/**
 * `apiequality.Semantic.DeepEqual` of the spec or the status (both structs, so absent is `{}`; an
 * empty map, list or `[]byte` equals an absent one), as `ValidateImmutableField` and
 * `validateSemanticEquality` compare them.
 */
const same = (a: unknown, b: unknown, field: 'spec' | 'status') => semanticEqual(a ?? {}, b ?? {}, fieldNode(PodCertificateRequestSchema(), field));
const ms = (t: string) => Date.parse(t);

function validateStatusUpdate(req: PodCertificateRequest, old: Readonly<PodCertificateRequest>, ctx: KindContext): FieldError[] {
  const errs: FieldError[] = [];
  let known = 0;
  conds(req).forEach((c, i) => {
    // Kubernetes builds these paths with a child named "[i]", hence the dot before the index.
    const p = `status.conditions.[${i}]`;
    if (TERMINAL.includes(c.type)) {
      known++;
      if (known > 1) errs.push(fieldError.invalid(`${p}.type`, c.type, 'There may be at most one condition with type "Issued", "Denied", or "Failed"'));
      if (c.status !== 'True') errs.push(fieldError.notSupported(`${p}.status`, c.status, ['True']));
    } else {
      errs.push(fieldError.notSupported(`${p}.type`, c.type, TERMINAL));
    }
  });
  errs.push(...validateMetaConditions(conds(req), 'status.conditions'));
  if (errs.length) return errs;
  const omit = (field: string, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, detail });
  if (terminal(old)) {
    return same(req.status, old.status, 'status') ? [] : [omit('status', 'immutable after PodCertificateRequest is issued, denied, or failed')];
  }
  if (isIn(req, 'Denied') || isIn(req, 'Failed')) {
    const { conditions, ...rest } = req.status ?? {};
    void conditions;
    return Object.keys(rest).length ? [omit('status', 'non-condition status fields must be empty when denying or failing the PodCertificateRequest')] : [];
  }
  if (!isIn(req, 'Issued')) {
    return same(req.status, old.status, 'status') ? [] : [omit('status', 'status is immutable unless transitioning to "Issued", "Denied", or "Failed"')];
  }
  const chain = req.status?.certificateChain ?? '';
  const path = 'status.certificateChain';
  if (chain.length > MAX_CERTIFICATE_CHAIN_SIZE) return [fieldError.tooLong(path, MAX_CERTIFICATE_CHAIN_SIZE)];
  const [leafBlock, restChain] = pemDecode(chain);
  if (!leafBlock) return [fieldError.invalid(path, chain, 'issued certificate chain must contain at least one certificate')];
  if (leafBlock.type !== 'CERTIFICATE') return [fieldError.invalid(path, chain, 'issued certificate chain must consist entirely of CERTIFICATE PEM blocks')];
  const leaf = parseCertificate(leafBlock.bytes);
  if (!leaf) return [fieldError.invalid(path, chain, 'leaf certificate does not parse as valid X.509')];
  const stub = parseCertificateRequest(new Uint8Array(Buffer.from(fromBase64(old.spec.stubPKCS10Request), 'latin1')));
  if (typeof stub === 'string' || Buffer.compare(Buffer.from(spkiDer(stub.subjectPublicKeyInfo)), Buffer.from(spkiDer(leaf.subjectPublicKeyInfo))) !== 0) {
    return [fieldError.invalid(path, chain, 'leaf certificate was not issued to the requested public key')];
  }
  const st = req.status!;
  if (!st.notBefore) errs.push(fieldError.required('status.notBefore', 'must be present and consistent with the issued certificate'));
  if (!st.notAfter) errs.push(fieldError.required('status.notAfter', 'must be present and consistent with the issued certificate'));
  if (!st.beginRefreshAt) errs.push(fieldError.required('status.beginRefreshAt', 'must be present and in the range [notbefore+10min, notafter-10min]'));
  if (errs.length) return errs;
  const notBefore = ms(st.notBefore!);
  const notAfter = ms(st.notAfter!);
  const refresh = ms(st.beginRefreshAt!);
  const leafNB = certTime(leaf.notBefore);
  const leafNA = certTime(leaf.notAfter);
  if (notBefore !== leafNB)
    return [fieldError.invalid('status.notBefore', goTimeString(notBefore), 'must be set to the NotBefore time encoded in the leaf certificate')];
  const now = ctx.now();
  if (!(notBefore > now - 300_000 && notBefore < now + 300_000)) {
    return [fieldError.invalid('status.notBefore', goTimeString(notBefore), "must be set to within 5 minutes of kube-apiserver's current time")];
  }
  if (notAfter !== leafNA)
    return [fieldError.invalid('status.notAfter', goTimeString(notAfter), 'must be set to the NotAfter time encoded in the leaf certificate')];
  const lifetime = leafNA - leafNB;
  if (lifetime < 3_600_000) return [fieldError.invalid(path, goDurationString(lifetime), 'leaf certificate lifetime must be >= 1 hour')];
  const max = req.spec.maxExpirationSeconds ?? DEFAULT_MAX_EXPIRATION_SECONDS;
  if (lifetime > max * 1000)
    return [fieldError.invalid(path, goDurationString(lifetime), `leaf certificate lifetime must be <= spec.maxExpirationSeconds (${max})`)];
  if (refresh < notBefore + 600_000)
    return [fieldError.invalid('status.beginRefreshAt', goTimeString(refresh), 'must be at least 10 minutes after status.notBefore')];
  if (refresh > notAfter - 600_000)
    return [fieldError.invalid('status.beginRefreshAt', goTimeString(refresh), 'must be at least 10 minutes before status.notAfter')];
  let rest = restChain;
  for (;;) {
    const [block, next] = pemDecode(rest);
    if (!block) break;
    if (block.type !== 'CERTIFICATE') return [fieldError.invalid(path, chain, 'issued certificate chain must consist entirely of CERTFICATE PEM blocks')];
    if (!parseCertificate(block.bytes)) return [fieldError.invalid(path, chain, 'intermediate certificate does not parse as valid X.509')];
    rest = next;
  }
  return [];
}

/** PodCertificateRequest: the spec is fixed at creation; a signer answers once through `/status`. */
export const PodCertificateRequestKind = defineKind<PodCertificateRequest>({
  group: 'certificates.{api_domain}',
  kind: 'PodCertificateRequest',
  plural: 'podcertificaterequests',
  scope: 'Namespaced',
  // No generation: pkg/registry/certificates/podcertificaterequest/strategy.go never sets it.
  generation: false,
  // v1beta1 has v1's shape (the schema is v1beta1's, which v1 keeps): only apiVersion differs.
  versions: [lazyVersion('v1', PodCertificateRequestSchema, { storage: true }), lazyVersion('v1beta1', PodCertificateRequestSchema)],
  statusSubresource: true,
  schemaRequired: false,
  allowUnconditionalUpdate: false,
  printerColumns: [
    { name: 'Signer', type: 'string', value: (r) => r.spec?.signerName },
    { name: 'Pod', type: 'string', value: (r) => r.spec?.podName },
  ],
  // All spec fields are immutable; the error shows the new spec as Go prints it.
  immutableFields: [{ path: 'spec', equal: (now, before) => same(now, before, 'spec'), shown: (spec) => JSON.parse(goJson(spec)) as unknown }],
  strategy: {
    prepareForCreate(req) {
      delete req.status;
    },
    prepareForUpdate(req, old, ctx) {
      // Kubernetes fills no condition timestamps here (its populateConditionTimestamps is disabled
      // for this kind): a condition without lastTransitionTime is rejected.
      if (ctx.subresource === 'status') req.spec = structuredClone(old.spec) as PodCertificateRequest['spec'];
    },
    defaults(req) {
      // The status is a Go struct, not a pointer: the real server always serializes it, `{}` when empty.
      req.status ??= {};
      req.spec.maxExpirationSeconds ??= DEFAULT_MAX_EXPIRATION_SECONDS;
    },
    validate(req, ctx) {
      return ctx.operation === 'create' ? validateCreate(req, ctx) : [];
    },
    validateUpdate(req, old, ctx) {
      return ctx.subresource === 'status' ? validateStatusUpdate(req, old, ctx) : [];
    },
  },
});
