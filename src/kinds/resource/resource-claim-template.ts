/** ResourceClaimTemplate (resource v1, v1beta2, v1beta1; namespaced). */
import { defineKind } from '../../schema/define-kind.js';
import { validateAnnotations, validateLabels } from '../../schema/validation/object-meta.js';
import { semanticEqualAt } from '../shared/semantic-equal.js';
import { ResourceClaimTemplate as V1 } from '../types/resource-v1.js';
import { ResourceClaimTemplate as V1Beta1 } from '../types/resource-v1beta1.js';
import { ResourceClaimTemplate as V1Beta2 } from '../types/resource-v1beta2.js';
import { authorizedForAdmin, defaultDeviceClaim, validateDeviceClaim } from './dra-claim-rules.js';
import { claimTemplateConversion } from './dra-conversion.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A ResourceClaimTemplate object (the v1 shape). */
export type ResourceClaimTemplate = V1;

/**
 * ResourceClaimTemplate: the claim a pod's resource claim is made from: its metadata (labels and
 * annotations checked) and a claim spec with the ResourceClaim rules and defaults; immutable.
 * Served at v1 (storage), v1beta2 and v1beta1 (exact requests flattened).
 */
export const ResourceClaimTemplateKind = defineKind<ResourceClaimTemplate>({
  group: 'resource.{api_domain}',
  kind: 'ResourceClaimTemplate',
  plural: 'resourceclaimtemplates',
  scope: 'Namespaced',
  // No generation: pkg/registry/resource/resourceclaimtemplate/strategy.go never sets it.
  generation: false,
  versions: [
    lazyVersion('v1', V1, { storage: true }),
    lazyVersion('v1beta2', V1Beta2 as unknown as typeof V1),
    lazyVersion('v1beta1', V1Beta1 as unknown as typeof V1, { conversion: claimTemplateConversion }),
  ],
  schemaRequired: false,
  immutableFields: [{ path: 'spec', equal: semanticEqualAt(V1, 'spec'), shown: 'nil' }],
  strategy: {
    defaults(t) {
      t.spec ??= { spec: {} };
      t.spec.spec ??= {};
      defaultDeviceClaim(t.spec.spec.devices);
    },
    async validate(t, ctx) {
      if (ctx.operation !== 'create') return [];
      const meta = t.spec?.metadata ?? {};
      return [
        ...(await authorizedForAdmin(t.spec?.spec?.devices, t.metadata?.namespace ?? '', ctx)),
        ...validateLabels(meta.labels, 'spec.metadata.labels'),
        ...validateAnnotations(meta.annotations, 'spec.metadata.annotations'),
        ...validateDeviceClaim(t.spec?.spec?.devices, 'spec.spec.devices'),
      ];
    },
  },
});
