/** EvictionRequest (lifecycle/v1alpha1, namespaced; gate EvictionRequestAPI). */
import { defineKind } from '../../schema/define-kind.js';
import { EvictionRequest as EvictionRequestSchema, type EvictionRequest } from './eviction-request-schema.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { validateEvictionRequestSpec, validateEvictionRequestStatus } from './eviction-request-validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

export type { EvictionRequest } from './eviction-request-schema.js';

/** The feature gate of the lifecycle group's kinds in Kubernetes. */
export const EVICTION_REQUEST_API = 'EvictionRequestAPI';

/**
 * EvictionRequest: a requester (a domain-prefixed key outside the API and reserved domains) asks
 * for the graceful eviction of a pod (`spec.target.pod`, by name and uid) with intent `Eviction` or
 * `Withdrawn`. Target and requester are immutable; the intent may change. Status (conditions merged
 * on `type`, at most 100; `observedGeneration` ≥ 1, never decreasing) is written through `/status`.
 * Updates need a resourceVersion, as in Kubernetes.
 */
export const EvictionRequestKind = defineKind<EvictionRequest>({
  group: 'lifecycle.{api_domain}',
  kind: 'EvictionRequest',
  plural: 'evictionrequests',
  scope: 'Namespaced',
  // Generation 1 on create, one more for each change of the spec (pkg/registry/lifecycle/evictionrequest/strategy.go).
  generation: specGeneration(EvictionRequestSchema),
  featureGate: EVICTION_REQUEST_API,
  versions: [lazyVersion('v1alpha1', EvictionRequestSchema, { storage: true })],
  statusSubresource: true,
  schemaRequired: false,
  allowUnconditionalUpdate: false,
  strategy: {
    defaults(er) {
      // The status is a Go struct, not a pointer: the real server always serializes it, `{}` when empty.
      er.status ??= {};
    },
    validate: (er, ctx) => (ctx.operation === 'create' ? validateEvictionRequestSpec(er, undefined, ctx) : []),
    validateUpdate(er, old, ctx) {
      if (ctx.subresource === 'status') return validateEvictionRequestStatus(er, old);
      return validateEvictionRequestSpec(er, old, ctx);
    },
  },
});
