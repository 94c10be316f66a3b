/** LeaseCandidate (coordination/v1beta1, v1alpha2; namespaced; gate CoordinatedLeaderElection). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { isConfigMapKey, isDNS1123Subdomain } from '../../schema/validation/names.js';
import { LeaseCandidate as LeaseCandidateV1Alpha2 } from '../types/coordination-v1alpha2.js';
import { LeaseCandidate as LeaseCandidateSchema } from '../types/coordination-v1beta1.js';
import { normalizeMicroTimes } from './micro-time.js';
import { compareSemVer, isZeroSemVer, parseSemVer, type SemVer } from './semver.js';
import { COORDINATED_LEADER_ELECTION, OLDEST_EMULATION_VERSION, validateLeaseStrategy } from './strategy.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A LeaseCandidate object. */
export type LeaseCandidate = LeaseCandidateSchema;

const MICRO_TIME_FIELDS = ['pingTime', 'renewTime'] as const;

/** The version part of a request's group/version (`coordination.k8s.io/v1alpha2` → `v1alpha2`). */
const requestVersion = (apiVersion: string) => apiVersion.slice(apiVersion.lastIndexOf('/') + 1) || 'v1beta1';
const SEMVER_MSG = 'must be a valid semantic version';

function validateLeaseCandidateSpec(lc: LeaseCandidate): FieldError[] {
  const spec: Partial<LeaseCandidate['spec']> = lc.spec ?? {};
  const errors: FieldError[] = [];
  if (!spec.leaseName) errors.push(fieldError.required('spec.leaseName'));
  // The same limits as a Lease's name: Lease names are DNS subdomains (LeaseKind keeps the default
  // name validator). Kubernetes v1.36 does not check leaseName's format; memkube does (a departure).
  else for (const msg of isDNS1123Subdomain(spec.leaseName)) errors.push(fieldError.invalid('spec.leaseName', spec.leaseName, msg));

  let ev: SemVer | undefined;
  if (spec.emulationVersion) {
    ev = parseSemVer(spec.emulationVersion);
    if (!ev) errors.push(fieldError.invalid('spec.emulationVersion', spec.emulationVersion, SEMVER_MSG));
  }
  let bv: SemVer | undefined;
  if (!spec.binaryVersion) {
    errors.push(fieldError.required('spec.binaryVersion'));
  } else {
    bv = parseSemVer(spec.binaryVersion);
    if (!bv) errors.push(fieldError.invalid('spec.binaryVersion', spec.binaryVersion, SEMVER_MSG));
  }
  if (spec.binaryVersion && spec.emulationVersion) {
    // An unparsable version counts as 0.0.0, as in Kubernetes.
    const zero: SemVer = { major: 0n, minor: 0n, patch: 0n, pre: [] };
    if (compareSemVer(bv ?? zero, ev ?? zero) < 0) {
      errors.push(fieldError.invalid('spec.binaryVersion', spec.binaryVersion, 'must be greater than or equal to `emulationVersion`'));
    }
  }

  if (!spec.strategy) {
    errors.push(fieldError.required('spec.strategy'));
  } else {
    if (spec.strategy === OLDEST_EMULATION_VERSION && isZeroSemVer(ev)) {
      errors.push(fieldError.required('spec.emulationVersion', "must be specified when `strategy` is 'OldestEmulationVersion'"));
    }
    errors.push(...validateLeaseStrategy(spec.strategy, 'spec.strategy'));
  }
  return errors;
}

/**
 * LeaseCandidate: names are config-map keys (as Kubernetes' `ValidLeaseCandidateName`), versions
 * are semver, `leaseName` is a DNS subdomain (as a Lease name) and immutable; PUT creates; updates
 * need a resourceVersion.
 */
export const LeaseCandidateKind = defineKind<LeaseCandidate>({
  group: 'coordination.{api_domain}',
  kind: 'LeaseCandidate',
  plural: 'leasecandidates',
  scope: 'Namespaced',
  // No generation: pkg/registry/coordination/leasecandidate/strategy.go never sets it.
  generation: false,
  featureGate: COORDINATED_LEADER_ELECTION,
  // v1alpha2 has v1beta1's shape.
  versions: [
    lazyVersion('v1beta1', LeaseCandidateSchema, { storage: true }),
    lazyVersion('v1alpha2', LeaseCandidateV1Alpha2 as unknown as typeof LeaseCandidateSchema),
  ],
  nameValidator: (name) => isConfigMapKey(name),
  schemaRequired: false,
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  printerColumns: [
    {
      name: 'LeaseName',
      type: 'string',
      description: 'LeaseName is the name of the lease for which this candidate is contending.',
      value: (lc) => lc.spec?.leaseName,
    },
    { name: 'BinaryVersion', type: 'string', value: (lc) => lc.spec?.binaryVersion },
    { name: 'EmulationVersion', type: 'string', value: (lc) => lc.spec?.emulationVersion },
  ],
  selectableFields: { 'spec.leaseName': (lc) => lc.spec?.leaseName },
  // leaseName is a Go string: unset is "".
  immutableFields: [{ path: 'spec.leaseName', zero: '' }],
  strategy: {
    prepareForCreate(lc, ctx) {
      normalizeMicroTimes(lc.spec, MICRO_TIME_FIELDS, 'LeaseCandidate', requestVersion(ctx.apiVersion));
    },
    prepareForUpdate(lc, _old, ctx) {
      normalizeMicroTimes(lc.spec, MICRO_TIME_FIELDS, 'LeaseCandidate', requestVersion(ctx.apiVersion));
    },
    validate: (lc) => validateLeaseCandidateSpec(lc),
  },
});
