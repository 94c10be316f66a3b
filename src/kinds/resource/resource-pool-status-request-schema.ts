/**
 * The zod schema of ResourcePoolStatusRequest (resource/v1alpha3). The generated types
 * (../types/resource-v1alpha3.ts) lack newer fields (`spec.defaultPartitionTypeAttribute`,
 * `PoolStatus.partitionSummary` and `shareableSummary`); they are extended here, in the generated
 * style.
 */
import { z } from 'zod';
import { lazySchema } from '../types/lazy-schema.js';
import { Condition, ObjectMeta } from '../types/meta-v1.js';
import { Quantity } from '../types/primitives.js';
import {
  PoolStatus as GeneratedPoolStatus,
  ResourcePoolStatusRequestSpec as GeneratedSpec,
  ResourcePoolStatusRequestStatus as GeneratedStatus,
} from '../types/resource-v1alpha3.js';

const ID = 'io.k8s.api.resource.v1alpha3';

/** How many more devices of one partition type a pool can still allocate. */
export const PartitionTypeStatus = lazySchema(() =>
  z
    .object({
      allocatable: z.int32(),
      attribute: z.string(),
      total: z.int32(),
      type: z.string(),
    })
    .meta({ id: `${ID}.PartitionTypeStatus` }),
);
export type PartitionTypeStatus = z.infer<ReturnType<typeof PartitionTypeStatus>>;

/** One shareable capacity of a pool: total, consumed and available (total − consumed). */
export const ShareableCapacityStatus = lazySchema(() =>
  z
    .object({
      available: Quantity(),
      consumed: Quantity(),
      name: z.string(),
      total: Quantity(),
    })
    .meta({ id: `${ID}.ShareableCapacityStatus` }),
);
export type ShareableCapacityStatus = z.infer<ReturnType<typeof ShareableCapacityStatus>>;

/** Devices allowing multiple allocations, and their capacities. */
export const ShareableSummaryStatus = lazySchema(() =>
  z
    .object({
      capacity: z.array(ShareableCapacityStatus()).meta({ 'x-kubernetes-list-type': 'atomic' }).optional(),
      fullyAvailableDevices: z.int32(),
      partiallyAvailableDevices: z.int32(),
    })
    .meta({ id: `${ID}.ShareableSummaryStatus` }),
);
export type ShareableSummaryStatus = z.infer<ReturnType<typeof ShareableSummaryStatus>>;

/** The status of one pool. */
export const PoolStatus = lazySchema(() =>
  GeneratedPoolStatus()
    .extend({
      partitionSummary: z.array(PartitionTypeStatus()).meta({ 'x-kubernetes-list-type': 'atomic' }).optional(),
      shareableSummary: ShareableSummaryStatus().optional(),
    })
    .meta({ id: `${ID}.PoolStatus` }),
);
export type PoolStatus = z.infer<ReturnType<typeof PoolStatus>>;

/** Which pools to report on. */
export const ResourcePoolStatusRequestSpec = lazySchema(() =>
  GeneratedSpec()
    .extend({
      defaultPartitionTypeAttribute: z.string().optional(),
    })
    .meta({ id: `${ID}.ResourcePoolStatusRequestSpec` }),
);
export type ResourcePoolStatusRequestSpec = z.infer<ReturnType<typeof ResourcePoolStatusRequestSpec>>;

/** The computed answer. */
export const ResourcePoolStatusRequestStatus = lazySchema(() =>
  GeneratedStatus()
    .extend({
      conditions: z
        .array(Condition())
        .meta({
          'x-kubernetes-list-map-keys': ['type'],
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'type',
          'x-kubernetes-patch-strategy': 'merge',
        })
        .optional(),
      pools: z.array(PoolStatus()).meta({ 'x-kubernetes-list-type': 'atomic' }).optional(),
    })
    .meta({ id: `${ID}.ResourcePoolStatusRequestStatus` }),
);
export type ResourcePoolStatusRequestStatus = z.infer<ReturnType<typeof ResourcePoolStatusRequestStatus>>;

/** A ResourcePoolStatusRequest object; `metadata` is required. */
export const ResourcePoolStatusRequest = lazySchema(() =>
  z
    .object({
      apiVersion: z.string().optional(),
      kind: z.string().optional(),
      metadata: ObjectMeta(),
      spec: ResourcePoolStatusRequestSpec(),
      status: ResourcePoolStatusRequestStatus().optional(),
    })
    .meta({
      id: `${ID}.ResourcePoolStatusRequest`,
      'x-kubernetes-group-version-kind': [{ group: 'resource.k8s.io', kind: 'ResourcePoolStatusRequest()', version: 'v1alpha3' }],
    }),
);
export type ResourcePoolStatusRequest = z.infer<ReturnType<typeof ResourcePoolStatusRequest>>;
