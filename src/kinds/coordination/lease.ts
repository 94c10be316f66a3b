/** Lease (coordination/v1, namespaced). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { Lease as LeaseSchema } from '../types/coordination-v1.js';
import { normalizeMicroTimes } from './micro-time.js';
import { COORDINATED_LEADER_ELECTION, validateLeaseStrategy } from './strategy.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A Lease object. */
export type Lease = LeaseSchema;

const MICRO_TIME_FIELDS = ['acquireTime', 'renewTime'] as const;

function validateLeaseSpec(lease: Lease): FieldError[] {
  const spec = lease.spec ?? {};
  const errors: FieldError[] = [];
  if (spec.leaseDurationSeconds !== undefined && spec.leaseDurationSeconds <= 0) {
    errors.push(fieldError.invalid('spec.leaseDurationSeconds', spec.leaseDurationSeconds, 'must be greater than 0'));
  }
  if (spec.leaseTransitions !== undefined && spec.leaseTransitions < 0) {
    errors.push(fieldError.invalid('spec.leaseTransitions', spec.leaseTransitions, 'must be greater than or equal to 0'));
  }
  if (spec.strategy !== undefined) errors.push(...validateLeaseStrategy(spec.strategy, 'spec.strategy'));
  if (spec.preferredHolder && !spec.strategy) {
    errors.push(fieldError.forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  }
  return errors;
}

/**
 * Lease: MicroTime fields decoded strictly (six fraction digits) and stored in UTC; `strategy` and
 * `preferredHolder` exist only with the CoordinatedLeaderElection gate (dropped otherwise, unless
 * the stored object already uses them); PUT creates; updates need a resourceVersion.
 */
export const LeaseKind = defineKind<Lease>({
  group: 'coordination.{api_domain}',
  kind: 'Lease',
  plural: 'leases',
  scope: 'Namespaced',
  // No generation: pkg/registry/coordination/lease/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', LeaseSchema, { storage: true })],
  printerColumns: [
    {
      name: 'Holder',
      type: 'string',
      description:
        'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.',
      value: (l) => l.spec?.holderIdentity,
    },
  ],
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  strategy: {
    prepareForCreate(lease, ctx) {
      normalizeMicroTimes(lease.spec, MICRO_TIME_FIELDS, 'Lease', 'v1');
      if (!ctx.featureEnabled(COORDINATED_LEADER_ELECTION) && lease.spec) {
        delete lease.spec.strategy;
        delete lease.spec.preferredHolder;
      }
    },
    prepareForUpdate(lease, old, ctx) {
      normalizeMicroTimes(lease.spec, MICRO_TIME_FIELDS, 'Lease', 'v1');
      if (!ctx.featureEnabled(COORDINATED_LEADER_ELECTION) && lease.spec) {
        if (old.spec?.strategy === undefined) delete lease.spec.strategy;
        if (old.spec?.preferredHolder === undefined) delete lease.spec.preferredHolder;
      }
    },
    validate: (lease) => validateLeaseSpec(lease),
  },
});
