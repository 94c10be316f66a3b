/** CertificateSigningRequest (certificates/v1, cluster-scoped), with `/approval` and `/status`. */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { jsonEqual } from '../../util/json-equal.js';
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import { CertificateSigningRequest as CSRSchema, type CertificateSigningRequestCondition } from '../types/certificates-v1.js';
import { checkSignature, fromBase64, goBytes, parseCertificate, parseCertificateRequest, pemDecode } from '../../pki/x509.js';
import { validateSignerName } from './validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A CertificateSigningRequest object. */
export type CertificateSigningRequest = CSRSchema;

/** The key usages Kubernetes accepts, sorted as `sets.String.List()` reports them. */
export const CSR_USAGES: readonly string[] = [
  'signing',
  'digital signature',
  'content commitment',
  'key encipherment',
  'key agreement',
  'data encipherment',
  'cert sign',
  'crl sign',
  'encipher only',
  'decipher only',
  'any',
  'server auth',
  'client auth',
  'code signing',
  'email protection',
  's/mime',
  'ipsec end system',
  'ipsec tunnel',
  'ipsec user',
  'timestamping',
  'ocsp signing',
  'microsoft sgc',
  'netscape sgc',
];
const SORTED_USAGES = [...CSR_USAGES].sort();
const USAGE_SET = new Set(CSR_USAGES);

const LEGACY_UNKNOWN_SIGNER = (reservedDomain: string) => `${reservedDomain}/legacy-unknown`;
const TRUE_ONLY = new Set(['Approved', 'Denied', 'Failed']);

/** `validateCSR`: the first PEM block is a CERTIFICATE REQUEST whose signature verifies. */
function csrError(request: string): string | undefined {
  const [block] = pemDecode(request);
  if (!block || block.type !== 'CERTIFICATE REQUEST') return 'PEM block type must be CERTIFICATE REQUEST';
  const csr = parseCertificateRequest(block.bytes);
  if (typeof csr === 'string') return csr;
  return checkSignature(csr);
}

/** `validateCertificate`: one or more header-less CERTIFICATE blocks, each a certificate. */
export function certificateError(pem: string): string | undefined {
  if (pem.length === 0) return undefined;
  let rest = pem;
  let blocks = 0;
  for (;;) {
    const [block, remaining] = pemDecode(rest);
    if (!block) break;
    if (block.type !== 'CERTIFICATE') return `only CERTIFICATE PEM blocks are allowed, found ${JSON.stringify(block.type)}`;
    if (Object.keys(block.headers).length !== 0) return 'no PEM block headers are permitted';
    blocks++;
    if (block.bytes.length === 0) return 'found CERTIFICATE PEM block containing 0 certificates';
    if (!parseCertificate(block.bytes)) return 'x509: malformed certificate';
    rest = remaining;
  }
  if (blocks === 0) return 'must contain at least one CERTIFICATE PEM block';
  return undefined;
}

interface Options {
  allowSettingApprovalConditions: boolean;
  allowSettingCertificate: boolean;
  allowBothApprovedAndDenied: boolean;
  allowLegacySignerName: boolean;
  allowDuplicateConditionTypes: boolean;
  allowEmptyConditionType: boolean;
  allowArbitraryCertificate: boolean;
  allowUnknownUsages: boolean;
  allowDuplicateUsages: boolean;
}

const conditionsOf = (csr: Readonly<CertificateSigningRequest> | undefined): readonly CertificateSigningRequestCondition[] => csr?.status?.conditions ?? [];
const hasDuplicates = (values: readonly string[]) => new Set(values).size !== values.length;

function options(csr: Readonly<CertificateSigningRequest>, old: Readonly<CertificateSigningRequest> | undefined, ctx: KindContext): Options {
  const oldConds = conditionsOf(old);
  const oldUsages = old?.spec.usages ?? [];
  const oldCert = fromBase64(old?.status?.certificate);
  return {
    allowSettingApprovalConditions: ctx.subresource === 'approval',
    allowSettingCertificate: ctx.subresource === 'status',
    allowBothApprovedAndDenied: !!old && oldConds.some((c) => c.type === 'Approved') && oldConds.some((c) => c.type === 'Denied'),
    allowLegacySignerName: !!old && old.spec.signerName === LEGACY_UNKNOWN_SIGNER(ctx.reservedDomain),
    allowDuplicateConditionTypes: !!old && hasDuplicates(oldConds.map((c) => c.type)),
    allowEmptyConditionType: !!old && oldConds.some((c) => !c.type),
    allowArbitraryCertificate: !!old && (fromBase64(csr.status?.certificate) === oldCert || certificateError(oldCert) !== undefined),
    allowUnknownUsages: !!old && oldUsages.some((u) => !USAGE_SET.has(u)),
    allowDuplicateUsages: !!old && hasDuplicates(oldUsages),
  };
}

function validateConditions(csr: Readonly<CertificateSigningRequest>, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  let approved = false;
  let denied = false;
  conditionsOf(csr).forEach((c, i) => {
    const p = `status.conditions[${i}]`;
    if (!opts.allowEmptyConditionType && !c.type) errs.push(fieldError.required(`${p}.type`));
    const allowed = TRUE_ONLY.has(c.type) ? ['True'] : ['False', 'True', 'Unknown'];
    if (!c.status) errs.push(fieldError.required(`${p}.status`));
    else if (!allowed.includes(c.status)) errs.push(fieldError.notSupported(`${p}.status`, c.status, allowed));
    if (!opts.allowBothApprovedAndDenied) {
      if (c.type === 'Approved') {
        approved = true;
        if (denied) errs.push(fieldError.invalid(`${p}.type`, c.type, 'Approved and Denied conditions are mutually exclusive'));
      } else if (c.type === 'Denied') {
        denied = true;
        if (approved) errs.push(fieldError.invalid(`${p}.type`, c.type, 'Approved and Denied conditions are mutually exclusive'));
      }
    }
    if (!opts.allowDuplicateConditionTypes) {
      if (seen.has(c.type)) errs.push(fieldError.duplicate(`${p}.type`, c.type));
      seen.add(c.type);
    }
  });
  return errs;
}

function validateCSR(csr: Readonly<CertificateSigningRequest>, opts: Options, ctx: KindContext): FieldError[] {
  const errs: FieldError[] = [];
  const request = fromBase64(csr.spec.request);
  const requestError = csrError(request);
  // The bad value is a Go []byte, which field errors print with %#v.
  if (requestError) errs.push({ type: 'FieldValueInvalid', field: 'spec.request', detail: `${goBytes(request)}: ${requestError}` });
  const usages = csr.spec.usages ?? [];
  if (usages.length === 0) errs.push(fieldError.required('spec.usages'));
  if (!opts.allowUnknownUsages) {
    usages.forEach((u, i) => {
      if (!USAGE_SET.has(u)) errs.push(fieldError.notSupported(`spec.usages[${i}]`, u, SORTED_USAGES));
    });
  }
  if (!opts.allowDuplicateUsages) {
    const seen = new Set<string>();
    usages.forEach((u, i) => {
      if (seen.has(u)) errs.push(fieldError.duplicate(`spec.usages[${i}]`, u));
      seen.add(u);
    });
  }
  const signerName = csr.spec.signerName ?? '';
  if (!opts.allowLegacySignerName && signerName === LEGACY_UNKNOWN_SIGNER(ctx.reservedDomain)) {
    errs.push(fieldError.invalid('spec.signerName', signerName, 'the legacy signerName is not allowed via this API version'));
  } else {
    errs.push(...validateSignerName('spec.signerName', signerName));
  }
  const exp = csr.spec.expirationSeconds;
  if (exp !== undefined && exp < 600)
    errs.push(fieldError.invalid('spec.expirationSeconds', exp, 'may not specify a duration less than 600 seconds (10 minutes)'));
  errs.push(...validateConditions(csr, opts));
  if (!opts.allowArbitraryCertificate) {
    const certError = certificateError(fromBase64(csr.status?.certificate));
    if (certError) errs.push(fieldError.invalid('status.certificate', '<certificate data>', certError));
  }
  return errs;
}

function validateCSRUpdate(csr: Readonly<CertificateSigningRequest>, old: Readonly<CertificateSigningRequest>, opts: Options, ctx: KindContext): FieldError[] {
  const errs = validateCSR(csr, opts, ctx);
  for (const t of ['Approved', 'Denied', 'Failed']) {
    if (conditionsOf(csr).filter((c) => c.type === t).length < conditionsOf(old).filter((c) => c.type === t).length) {
      errs.push(fieldError.forbidden('status.conditions', `updates may not remove a condition of type ${JSON.stringify(t)}`));
    }
  }
  if (!opts.allowSettingApprovalConditions) {
    for (const t of ['Approved', 'Denied']) {
      const before = conditionsOf(old).filter((c) => c.type === t);
      const after = conditionsOf(csr).filter((c) => c.type === t);
      if (after.length < before.length) continue;
      if (after.length > before.length) errs.push(fieldError.forbidden('status.conditions', `updates may not add a condition of type ${JSON.stringify(t)}`));
      else if (!jsonEqual(before, after)) {
        errs.push(fieldError.forbidden('status.conditions', `updates may not modify a condition of type ${JSON.stringify(t)}`));
      }
    }
  }
  if (fromBase64(csr.status?.certificate) !== fromBase64(old.status?.certificate)) {
    if (!opts.allowSettingCertificate) errs.push(fieldError.forbidden('status.certificate', 'updates may not set certificate content'));
    else if (fromBase64(old.status?.certificate).length > 0)
      errs.push(fieldError.forbidden('status.certificate', 'updates may not modify existing certificate content'));
    else errs.push(...issuanceErrors(csr));
  }
  return errs;
}

/** The message of a certificate set on a request without an Approved condition. */
export const CERTIFICATE_NOT_APPROVED_MSG = 'certificate can only be set once the request is approved';

/**
 * memkube's issuance rule: a certificate is set only once the request is Approved, and a Denied or Failed request stays
 * without one. Kubernetes v1.36 does not check this (the signers do), so the messages are ours.
 * It runs on the conditions after the write, so a Failed condition added in the same /status
 * update counts.
 */
function issuanceErrors(csr: Readonly<CertificateSigningRequest>): FieldError[] {
  if (fromBase64(csr.status?.certificate).length === 0) return [];
  const conds = conditionsOf(csr);
  const has = (type: string) => conds.some((c) => c.type === type && c.status === 'True');
  if (!has('Approved')) return [fieldError.forbidden('status.certificate', CERTIFICATE_NOT_APPROVED_MSG)];
  for (const t of ['Denied', 'Failed']) {
    if (has(t)) return [fieldError.forbidden('status.certificate', `certificate can not be set on a request with a ${JSON.stringify(t)} condition`)];
  }
  return [];
}

/** `populateConditionTimestamps`: missing times become now, or the old condition's transition time. */
function populateConditionTimestamps(csr: CertificateSigningRequest, old: Readonly<CertificateSigningRequest>, now: string): void {
  for (const c of csr.status?.conditions ?? []) {
    c.lastUpdateTime ||= now;
    if (!c.lastTransitionTime) {
      const same = conditionsOf(old).find((o) => o.type === c.type && o.status === c.status && !!o.lastTransitionTime);
      c.lastTransitionTime = same?.lastTransitionTime ?? now;
    }
  }
}

/** `preserveConditionInstances`: keeps the stored instances of a type when their number did not change. */
function preserveConditionInstances(csr: CertificateSigningRequest, old: Readonly<CertificateSigningRequest>, type: string): void {
  const oldIdx = conditionsOf(old).flatMap((c, i) => (c.type === type ? [i] : []));
  const newIdx = conditionsOf(csr).flatMap((c, i) => (c.type === type ? [i] : []));
  if (oldIdx.length !== newIdx.length || !csr.status?.conditions) return;
  oldIdx.forEach((o, k) => {
    csr.status!.conditions![newIdx[k]!] = structuredClone(old.status!.conditions![o]!);
  });
}

const nowString = (ctx: KindContext) => new Date(Math.floor(ctx.now() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/** CertificateSigningRequest: spec set once from the request and the requesting user; approval and issuance through subresources. */
export const CertificateSigningRequestKind = defineKind<CertificateSigningRequest>({
  group: 'certificates.{api_domain}',
  kind: 'CertificateSigningRequest',
  plural: 'certificatesigningrequests',
  shortNames: ['csr'],
  scope: 'Cluster',
  // No generation: pkg/registry/certificates/certificates/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', CSRSchema, { storage: true })],
  nameValidator: () => [],
  statusSubresource: true,
  schemaRequired: false,
  updateSubresources: {
    approval: (body, old) => ({ ...old, status: { ...old.status, conditions: body.status?.conditions } }),
  },
  selectableFields: { 'spec.signerName': (csr) => csr.spec?.signerName },
  metadataFieldSelectors: ['metadata.name'],
  printerColumns: [
    { name: 'SignerName', type: 'string', value: (csr) => csr.spec?.signerName },
    { name: 'Requestor', type: 'string', value: (csr) => csr.spec?.username },
    {
      name: 'RequestedDuration',
      type: 'string',
      value: (csr) => (csr.spec?.expirationSeconds === undefined ? '<none>' : `${Math.round(csr.spec.expirationSeconds / 60)}m`),
    },
    {
      name: 'Condition',
      type: 'string',
      value: (csr) => {
        const types = (csr.status?.conditions ?? []).map((c) => c.type);
        if (csr.status?.certificate) types.push('Issued');
        return types.length ? types.join(',') : 'Pending';
      },
    },
  ],
  strategy: {
    prepareForCreate(csr, ctx) {
      const spec = csr.spec;
      delete spec.username;
      delete spec.uid;
      delete spec.groups;
      delete spec.extra;
      if (ctx.user.username) spec.username = ctx.user.username;
      if (ctx.user.uid) spec.uid = ctx.user.uid;
      if (ctx.user.groups.length) spec.groups = [...ctx.user.groups];
      const extra = ctx.user.extra ?? {};
      if (Object.keys(extra).length) spec.extra = Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, [...v]]));
      csr.status = {};
    },
    prepareForUpdate(csr, old, ctx) {
      csr.spec = structuredClone(old.spec) as CertificateSigningRequest['spec'];
      if (!ctx.subresource) {
        csr.status = structuredClone(old.status);
        return;
      }
      if (ctx.subresource === 'status') {
        preserveConditionInstances(csr, old, 'Approved');
        preserveConditionInstances(csr, old, 'Denied');
      }
      if (ctx.subresource === 'approval' && csr.status) {
        if (old.status?.certificate === undefined) delete csr.status.certificate;
        else csr.status.certificate = old.status.certificate;
      }
      populateConditionTimestamps(csr, old, nowString(ctx));
      if (csr.status?.conditions?.length === 0) delete csr.status.conditions;
    },
    validate(csr, ctx) {
      if (ctx.operation !== 'create') return [];
      return validateCSR(csr, options(csr, undefined, ctx), ctx);
    },
    validateUpdate(csr, old, ctx) {
      return validateCSRUpdate(csr, old, options(csr, old, ctx), ctx);
    },
  },
});
