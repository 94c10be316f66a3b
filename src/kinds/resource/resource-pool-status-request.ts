/** ResourcePoolStatusRequest (resource/v1alpha3, cluster-scoped; gate DRAResourcePoolStatus). */
import { defineKind } from '../../schema/define-kind.js';
import { ResourcePoolStatusRequest as ResourcePoolStatusRequestSchema, type ResourcePoolStatusRequest } from './resource-pool-status-request-schema.js';
import {
  DRA_RESOURCE_POOL_STATUS,
  RESOURCE_POOL_STATUS_REQUEST_IMMUTABLE_FIELDS,
  RESOURCE_POOL_STATUS_REQUEST_LIMIT,
  validateResourcePoolStatusRequestSpec,
  validateResourcePoolStatusRequestStatus,
  validateResourcePoolStatusRequestUpdate,
} from './resource-pool-status-request-validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

export type { ResourcePoolStatusRequest } from './resource-pool-status-request-schema.js';

/**
 * ResourcePoolStatusRequest: a one-time question about a driver's resource pools. `spec`
 * (`driver`, `poolName`, `limit` default 100 in 1..1000, `defaultPartitionTypeAttribute` with gate
 * DRAPartitionableDevicesType) is immutable; the answer is written once through `/status`, after
 * which the whole object is immutable. Updates need a resourceVersion, as in Kubernetes.
 */
export const ResourcePoolStatusRequestKind = defineKind<ResourcePoolStatusRequest>({
  group: 'resource.{api_domain}',
  kind: 'ResourcePoolStatusRequest',
  plural: 'resourcepoolstatusrequests',
  scope: 'Cluster',
  // No generation: pkg/registry/resource/resourcepoolstatusrequest/strategy.go never sets it.
  generation: false,
  featureGate: DRA_RESOURCE_POOL_STATUS,
  versions: [lazyVersion('v1alpha3', ResourcePoolStatusRequestSchema, { storage: true })],
  statusSubresource: true,
  schemaRequired: false,
  allowUnconditionalUpdate: false,
  immutableFields: RESOURCE_POOL_STATUS_REQUEST_IMMUTABLE_FIELDS,
  strategy: {
    defaults(rpsr) {
      if (rpsr.spec && (rpsr.spec.limit === undefined || rpsr.spec.limit === null)) rpsr.spec.limit = RESOURCE_POOL_STATUS_REQUEST_LIMIT.default;
    },
    validate: (rpsr, ctx) => (ctx.operation === 'create' ? validateResourcePoolStatusRequestSpec(rpsr, ctx) : []),
    validateUpdate(rpsr, old, ctx) {
      if (ctx.subresource === 'status') return validateResourcePoolStatusRequestStatus(rpsr, old);
      return validateResourcePoolStatusRequestUpdate(rpsr, old);
    },
  },
});
