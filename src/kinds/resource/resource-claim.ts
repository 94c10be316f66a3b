/** ResourceClaim (resource v1, v1beta2, v1beta1; namespaced, with `/status`). */
import { defineKind } from '../../schema/define-kind.js';
import { semanticEqualAt } from '../shared/semantic-equal.js';
import { ResourceClaim as V1 } from '../types/resource-v1.js';
import { ResourceClaim as V1Beta1 } from '../types/resource-v1beta1.js';
import { ResourceClaim as V1Beta2 } from '../types/resource-v1beta2.js';
import { authorizedForAdmin, defaultDeviceClaim, validateDeviceClaim } from './dra-claim-rules.js';
import { claimConversion } from './dra-conversion.js';
import { dropDeallocatedStatusDevices, validateClaimStatusUpdate } from './dra-status-rules.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ResourceClaim object (the v1 shape; v1beta1 nests nothing under `exactly`). */
export type ResourceClaim = V1;

/** The `State` printer column: `deleted`, `pending`, `allocated`, `reserved`, comma-separated. */
function claimState(claim: Readonly<ResourceClaim>): string {
  const states: string[] = [];
  const deleted = Boolean(claim.metadata?.deletionTimestamp);
  if (deleted) states.push('deleted');
  if (!claim.status?.allocation) {
    if (!deleted) states.push('pending');
  } else {
    states.push('allocated');
    if ((claim.status.reservedFor ?? []).length > 0) states.push('reserved');
  }
  return states.join(',');
}

/**
 * ResourceClaim: device requests (exact or a prioritized list), constraints and configuration
 * with Kubernetes' rules and v1 defaults; the spec is immutable; `adminAccess` needs the
 * namespace's admin-access label. The allocation and reservations are written through `/status`
 * (nothing allocates devices in memkube). Served at v1 (storage), v1beta2 (same shape) and v1beta1
 * (exact requests flattened).
 */
export const ResourceClaimKind = defineKind<ResourceClaim>({
  group: 'resource.{api_domain}',
  kind: 'ResourceClaim',
  plural: 'resourceclaims',
  scope: 'Namespaced',
  // No generation: pkg/registry/resource/resourceclaim/strategy.go never sets it.
  generation: false,
  versions: [
    lazyVersion('v1', V1, { storage: true }),
    lazyVersion('v1beta2', V1Beta2 as unknown as typeof V1),
    lazyVersion('v1beta1', V1Beta1 as unknown as typeof V1, { conversion: claimConversion }),
  ],
  statusSubresource: true,
  schemaRequired: false,
  immutableFields: [{ path: 'spec', equal: semanticEqualAt(V1, 'spec'), shown: 'nil' }],
  printerColumns: [{ name: 'State', type: 'string', description: 'A summary of the current state (allocated, pending, reserved, etc.).', value: claimState }],
  strategy: {
    defaults(claim) {
      // Spec and status are Go structs: the server always serializes them.
      claim.spec ??= {};
      claim.status ??= {};
      defaultDeviceClaim(claim.spec.devices);
    },
    prepareForUpdate(claim, old, ctx) {
      if (ctx.subresource === 'status') dropDeallocatedStatusDevices(claim, old);
    },
    async validate(claim, ctx) {
      if (ctx.subresource === 'status') return [];
      if (ctx.operation === 'create')
        return [
          ...(await authorizedForAdmin(claim.spec?.devices, claim.metadata?.namespace ?? '', ctx)),
          ...validateDeviceClaim(claim.spec?.devices, 'spec.devices'),
        ];
      // An update only checks that the spec did not change (declared immutable).
      return [];
    },
    validateUpdate: (claim, old, ctx) => (ctx.subresource === 'status' ? validateClaimStatusUpdate(claim, old) : []),
  },
});
