/** ResourceQuota (core v1). */
import { badRequest } from '../../machinery/errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { ResourceQuota as ResourceQuotaSchema } from '../types/core-v1.js';
import { normalizeResourceList, QuantityDecodeError } from '../shared/resource-lists.js';
import { quotaCells, scopesUpdateErrors, validateResourceQuotaSpec, validateResourceQuotaStatus } from './resource-quota/rules.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ResourceQuota object. */
export type ResourceQuota = ResourceQuotaSchema;

/** Canonical quantities, as decoding leaves them; a malformed one is a 400. */
function normalize(rq: ResourceQuota): void {
  try {
    normalizeResourceList(rq.spec?.hard as Record<string, string | number> | undefined, false);
    normalizeResourceList(rq.status?.hard as Record<string, string | number> | undefined, false);
    normalizeResourceList(rq.status?.used as Record<string, string | number> | undefined, false);
  } catch (e) {
    if (e instanceof QuantityDecodeError) throw badRequest(`ResourceQuota in version "v1" cannot be handled as a ResourceQuota: ${e.message}`);
    throw e;
  }
}

/**
 * ResourceQuota: `ValidateResourceQuota` (names, quantities, scopes, scope selector), scopes fixed
 * once created, status only through `/status` and empty on create
 * (pkg/registry/core/resourcequota). No controller computes `status` in memkube.
 */
export const ResourceQuotaKind = defineKind<ResourceQuota>({
  group: '',
  kind: 'ResourceQuota',
  plural: 'resourcequotas',
  shortNames: ['quota'],
  scope: 'Namespaced',
  // No generation: pkg/registry/core/resourcequota/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', ResourceQuotaSchema, { storage: true })],
  statusSubresource: true,
  schemaRequired: false,
  printerColumns: [
    {
      name: 'Request',
      type: 'string',
      description: 'Request represents a minimum amount of cpu/memory that a container may consume.',
      value: (rq) => quotaCells(rq).request,
    },
    {
      name: 'Limit',
      type: 'string',
      description: 'Limits control the maximum amount of cpu/memory that a container may use independent of contention on the node.',
      value: (rq) => quotaCells(rq).limit,
    },
    { name: 'Age', type: 'date', value: (rq) => rq.metadata?.creationTimestamp },
  ],
  strategy: {
    defaults: (rq) => normalize(rq),
    validate(rq, ctx) {
      if (ctx.subresource === 'status') return validateResourceQuotaStatus(rq.status ?? {});
      return validateResourceQuotaSpec(rq.spec ?? {});
    },
    validateUpdate(rq, old, ctx) {
      if (ctx.subresource === 'status') return [];
      return scopesUpdateErrors(rq, old);
    },
  },
});
