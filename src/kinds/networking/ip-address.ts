/** IPAddress (networking.k8s.io/v1 and v1beta1, cluster-scoped). */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { isDNS1123Subdomain, isPathSegmentName } from '../../schema/validation/names.js';
import { IPAddress as IPAddressSchema } from '../types/networking-v1.js';
import { IPAddress as IPAddressV1beta1Schema } from '../types/networking-v1beta1.js';
import { isValidIP } from './formats.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** An IPAddress object. */
export type IPAddress = IPAddressSchema;

/** `validateIPAddressParentReference`. */
function validateParentRef(ip: IPAddress): FieldError[] {
  const ref = ip.spec?.parentRef;
  if (!ref) return [fieldError.required('spec.parentRef')];
  const p = 'spec.parentRef';
  const errs: FieldError[] = [];
  // The core group is empty, so a group is checked only when given.
  if (ref.group) errs.push(...isDNS1123Subdomain(ref.group).map((m) => fieldError.invalid(`${p}.group`, ref.group, m)));
  for (const f of ['resource', 'name'] as const) {
    const v = ref[f];
    if (!v) errs.push(fieldError.required(`${p}.${f}`));
    else errs.push(...isPathSegmentName(v).map((m) => fieldError.invalid(`${p}.${f}`, v, m)));
  }
  if (ref.namespace) errs.push(...isPathSegmentName(ref.namespace).map((m) => fieldError.invalid(`${p}.namespace`, ref.namespace, m)));
  return errs;
}

/** `printIPAddress`'s ParentRef cell: `resource[.group][/namespace]/name`, lowercased group/resource. */
function formatParentRef(ip: Readonly<IPAddress>): string {
  const ref = ip.spec?.parentRef;
  if (!ref) return '<none>';
  let s = (ref.group ? `${ref.resource}.${ref.group}` : ref.resource).toLowerCase();
  if (ref.namespace) s += `/${ref.namespace}`;
  return `${s}/${ref.name}`;
}

/**
 * IPAddress: the name is an IP address in canonical form (`ValidateIPAddressName`), the parent
 * reference is required, checked and immutable. No status, no generation.
 */
export const IPAddressKind = defineKind<IPAddress>({
  group: 'networking.{api_domain}',
  kind: 'IPAddress',
  plural: 'ipaddresses',
  shortNames: ['ip'],
  scope: 'Cluster',
  // pkg/registry/networking/ipaddress/strategy.go never sets a generation.
  generation: false,
  versions: [
    lazyVersion('v1', IPAddressSchema, { storage: true }),
    // Same shape as v1: only apiVersion differs.
    lazyVersion('v1beta1', IPAddressV1beta1Schema),
  ],
  nameValidator: (name) => isValidIP(name),
  schemaRequired: false,
  immutableFields: ['spec.parentRef'],
  // Kubernetes prints no Age for IPAddresses.
  ageColumn: false,
  printerColumns: [
    {
      name: 'ParentRef',
      type: 'string',
      description: 'ParentRef references the resource that an IPAddress is attached to. An IPAddress must reference a parent object.',
      value: formatParentRef,
    },
  ],
  strategy: {
    validate: (ip) => validateParentRef(ip),
  },
});
