/** The resource group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { DeviceClassKind } from './device-class.js';
import { DeviceTaintRuleKind } from './device-taint-rule.js';
import { ResourceClaimTemplateKind } from './resource-claim-template.js';
import { ResourceClaimKind } from './resource-claim.js';
import { ResourcePoolStatusRequestKind } from './resource-pool-status-request.js';
import { ResourceSliceKind } from './resource-slice.js';

export { ResourcePoolStatusRequestKind, type ResourcePoolStatusRequest } from './resource-pool-status-request.js';
export { DeviceClassKind, type DeviceClass } from './device-class.js';
export { ResourceClaimKind, type ResourceClaim } from './resource-claim.js';
export { ResourceClaimTemplateKind, type ResourceClaimTemplate } from './resource-claim-template.js';
export { ResourceSliceKind, type ResourceSlice } from './resource-slice.js';
export { DeviceTaintRuleKind, DRA_DEVICE_TAINT_RULES, type DeviceTaintRule } from './device-taint-rule.js';
export { DRA_LIST_TYPE_ATTRIBUTES } from './dra-slice-rules.js';
export {
  COMPLETE,
  DRA_PARTITIONABLE_DEVICES_TYPE,
  DRA_RESOURCE_POOL_STATUS,
  FAILED,
  RESOURCE_POOL_STATUS_REQUEST_LIMIT,
} from './resource-pool-status-request-validation.js';

/** DeviceClass, ResourceClaim, ResourceClaimTemplate, ResourceSlice, DeviceTaintRule and ResourcePoolStatusRequest. */
export const resourceKinds: readonly KindDefinition[] = [
  DeviceClassKind,
  ResourceClaimKind,
  ResourceClaimTemplateKind,
  ResourceSliceKind,
  DeviceTaintRuleKind,
  ResourcePoolStatusRequestKind,
];
