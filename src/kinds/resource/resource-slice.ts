/** ResourceSlice (resource v1, v1beta2, v1beta1; cluster-scoped). */
import { defineKind } from '../../schema/define-kind.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { ResourceSlice as V1 } from '../types/resource-v1.js';
import { ResourceSlice as V1Beta1 } from '../types/resource-v1beta1.js';
import { ResourceSlice as V1Beta2 } from '../types/resource-v1beta2.js';
import { defaultTaint } from './dra-claim-rules.js';
import { sliceConversion } from './dra-conversion.js';
import { DRA_LIST_TYPE_ATTRIBUTES, dropListAttributes, validateSliceSpec } from './dra-slice-rules.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ResourceSlice object (the v1 shape; v1beta1 nests each device's description under `basic`). */
export type ResourceSlice = V1;

/**
 * ResourceSlice: the devices one driver publishes for one pool: driver and pool names, exactly one
 * node selection, devices (unique DNS-label names; attributes with one value each; capacities and
 * their request policies; taints; counters; binding conditions) or shared counters, with Kubernetes'
 * limits; the standard attributes of `resource.kubernetes.io` checked (memkube's rule); driver,
 * pool name and node name immutable. Field selectors `spec.nodeName`, `spec.driver`. Served at v1
 * (storage), v1beta2 (same shape) and v1beta1 (`basic` devices).
 */
export const ResourceSliceKind = defineKind<ResourceSlice>({
  group: 'resource.{api_domain}',
  kind: 'ResourceSlice',
  plural: 'resourceslices',
  scope: 'Cluster',
  // 1 on create, one more when the spec changes (pkg/registry/resource/resourceslice/strategy.go).
  generation: specGeneration(V1),
  versions: [
    lazyVersion('v1', V1, { storage: true }),
    lazyVersion('v1beta2', V1Beta2 as unknown as typeof V1),
    lazyVersion('v1beta1', V1Beta1 as unknown as typeof V1, { conversion: sliceConversion }),
  ],
  schemaRequired: false,
  selectableFields: {
    'spec.nodeName': (s) => s.spec?.nodeName ?? '',
    'spec.driver': (s) => s.spec?.driver ?? '',
  },
  metadataFieldSelectors: ['metadata.name'],
  printerColumns: [
    {
      name: 'Node',
      type: 'string',
      description:
        'NodeName identifies the node which provides the resources in this pool. A field selector can be used to list only ResourceSlice objects belonging to a certain node.\n\nThis field can be used to limit access from nodes to ResourceSlices with the same node name. It also indicates to autoscalers that adding new nodes of the same type as some old node might also make new resources available.\n\nExactly one of NodeName, NodeSelector, AllNodes, and PerDeviceNodeSelection must be set. This field is immutable.',
      value: (s) => s.spec?.nodeName ?? '',
    },
    {
      name: 'Driver',
      type: 'string',
      description:
        'Driver identifies the DRA driver providing the capacity information. A field selector can be used to list only ResourceSlice objects with a certain driver name.\n\nMust be a DNS subdomain and should end with a DNS domain owned by the vendor of the driver. It should use only lower case characters. This field is immutable.',
      value: (s) => s.spec?.driver ?? '',
    },
    {
      name: 'Pool',
      type: 'string',
      description:
        'Name is used to identify the pool. For node-local devices, this is often the node name, but this is not required.\n\nIt must not be longer than 253 characters and must consist of one or more DNS sub-domains separated by slashes. This field is immutable.',
      value: (s) => s.spec?.pool?.name ?? '',
    },
  ],
  strategy: {
    prepareForCreate(slice, ctx) {
      if (!ctx.featureEnabled(DRA_LIST_TYPE_ATTRIBUTES)) dropListAttributes(slice, undefined);
    },
    prepareForUpdate(slice, old, ctx) {
      if (!ctx.featureEnabled(DRA_LIST_TYPE_ATTRIBUTES)) dropListAttributes(slice, old);
    },
    defaults(slice, ctx) {
      for (const d of slice.spec?.devices ?? []) {
        for (const t of d.taints ?? []) defaultTaint(t, ctx);
        for (const m of Object.values(d.nodeAllocatableResourceMappings ?? {})) m.allocationMultiplier ??= '1';
      }
    },
    validate: (slice, ctx) =>
      ctx.operation === 'create'
        ? validateSliceSpec(slice, undefined, { standardDomain: `resource.${ctx.reservedDomain}`, listsAllowed: ctx.featureEnabled(DRA_LIST_TYPE_ATTRIBUTES) })
        : [],
    validateUpdate: (slice, old, ctx) =>
      validateSliceSpec(slice, old, { standardDomain: `resource.${ctx.reservedDomain}`, listsAllowed: ctx.featureEnabled(DRA_LIST_TYPE_ATTRIBUTES) }),
  },
});
