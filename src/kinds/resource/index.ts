/** The resource group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { ResourcePoolStatusRequestKind } from './resource-pool-status-request.js';

export { ResourcePoolStatusRequestKind, type ResourcePoolStatusRequest } from './resource-pool-status-request.js';
export {
  COMPLETE,
  DRA_PARTITIONABLE_DEVICES_TYPE,
  DRA_RESOURCE_POOL_STATUS,
  FAILED,
  RESOURCE_POOL_STATUS_REQUEST_LIMIT,
} from './resource-pool-status-request-validation.js';

/** ResourcePoolStatusRequest. */
export const resourceKinds: readonly KindDefinition[] = [ResourcePoolStatusRequestKind];
