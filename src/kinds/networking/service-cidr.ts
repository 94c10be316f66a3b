/** ServiceCIDR (networking/v1, cluster-scoped). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { semanticEqualAt } from '../shared/semantic-equal.js';
import { ServiceCIDR as ServiceCIDRSchema } from '../types/networking-v1.js';
import { ServiceCIDR as ServiceCIDRV1beta1Schema } from '../types/networking-v1beta1.js';
import { cidrFamily, validateCIDR } from './cidr.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ServiceCIDR object. */
export type ServiceCIDR = ServiceCIDRSchema;

const PATH = 'spec.cidrs';

function validateSpec(sc: ServiceCIDR): FieldError[] {
  const cidrs = sc.spec?.cidrs ?? [];
  const spec = { cidrs };
  if (cidrs.length === 0) return [fieldError.required(PATH, 'at least one CIDR required')];
  if (cidrs.length > 2) return [fieldError.invalid(PATH, spec, 'may only hold up to 2 values')];
  if (cidrs.length === 2) {
    const a = cidrFamily(cidrs[0]!);
    const b = cidrFamily(cidrs[1]!);
    if (!a || !b || a === b) {
      return [fieldError.invalid(PATH, spec, 'may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64')];
    }
  }
  return cidrs.flatMap((c, i) => validateCIDR(`${PATH}[${i}]`, c));
}

/**
 * ServiceCIDR: one or two canonical CIDRs, one per family, checked on create; `spec.cidrs` is
 * immutable; status (conditions merged on `type`) through `/status`.
 */
export const ServiceCIDRKind = defineKind<ServiceCIDR>({
  group: 'networking.{api_domain}',
  kind: 'ServiceCIDR',
  plural: 'servicecidrs',
  scope: 'Cluster',
  // No generation: pkg/registry/networking/servicecidr/strategy.go never sets it.
  generation: false,
  versions: [
    lazyVersion('v1', ServiceCIDRSchema, { storage: true }),
    // v1beta1 has v1's shape (spec.cidrs, status.conditions): only apiVersion differs.
    lazyVersion('v1beta1', ServiceCIDRV1beta1Schema),
  ],
  statusSubresource: true,
  printerColumns: [
    { name: 'CIDRs', type: 'string', description: 'cidrs defines the IP blocks in CIDR notation', value: (s) => (s.spec?.cidrs ?? []).join(',') },
  ],
  // An empty list equals an absent one (apiequality.Semantic.DeepEqual in ValidateImmutableField).
  immutableFields: [{ path: PATH, equal: semanticEqualAt(ServiceCIDRSchema, 'spec', 'cidrs') }],
  strategy: {
    defaults(sc) {
      // The status is a Go struct, not a pointer: the real server always serializes it, `{}` when empty.
      sc.status ??= {};
    },
    // Kubernetes validates the CIDRs on create only; an update checks that they did not change.
    validate: (sc, ctx) => (ctx.operation === 'create' ? validateSpec(sc) : []),
  },
});
