/**
 * The zod schema of EvictionRequest (lifecycle/v1alpha1). The kind is not in the reference OpenAPI,
 * so it is declared here by hand in the generated types' style, with the field names of Kubernetes
 * v1.36.
 */
import { z } from 'zod';
import { lazySchema } from '../types/lazy-schema.js';
import { Condition, ObjectMeta } from '../types/meta-v1.js';

const ID = 'io.k8s.api.lifecycle.v1alpha1';

/** A pod in the request's namespace, by name and uid. */
export const EvictionRequestPodReference = lazySchema(() =>
  z
    .object({
      name: z.string(),
      uid: z.string(),
    })
    .meta({ id: `${ID}.EvictionRequestPodReference` }),
);
export type EvictionRequestPodReference = z.infer<ReturnType<typeof EvictionRequestPodReference>>;

/** The object to evict; a union whose only member today is `pod`. */
export const EvictionRequestTarget = lazySchema(() =>
  z
    .object({
      pod: EvictionRequestPodReference().optional(),
    })
    .meta({ id: `${ID}.EvictionRequestTarget`, 'x-kubernetes-unions': [{ 'fields-to-discriminateBy': { pod: 'Pod' } }] }),
);
export type EvictionRequestTarget = z.infer<ReturnType<typeof EvictionRequestTarget>>;

/** What a requester wants for its target. */
export const EvictionRequestSpec = lazySchema(() =>
  z
    .object({
      intent: z.string(),
      requester: z.string(),
      target: EvictionRequestTarget(),
    })
    .meta({ id: `${ID}.EvictionRequestSpec` }),
);
export type EvictionRequestSpec = z.infer<ReturnType<typeof EvictionRequestSpec>>;

/** What the eviction controller observed. */
export const EvictionRequestStatus = lazySchema(() =>
  z
    .object({
      conditions: z
        .array(Condition())
        .meta({
          'x-kubernetes-list-map-keys': ['type'],
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-patch-merge-key': 'type',
          'x-kubernetes-patch-strategy': 'merge',
        })
        .optional(),
      observedGeneration: z.int().optional(),
    })
    .meta({ id: `${ID}.EvictionRequestStatus` }),
);
export type EvictionRequestStatus = z.infer<ReturnType<typeof EvictionRequestStatus>>;

/** An EvictionRequest object. */
export const EvictionRequest = lazySchema(() =>
  z
    .object({
      apiVersion: z.string().optional(),
      kind: z.string().optional(),
      metadata: ObjectMeta().optional(),
      spec: EvictionRequestSpec(),
      status: EvictionRequestStatus().optional(),
    })
    .meta({ id: `${ID}.EvictionRequest`, 'x-kubernetes-group-version-kind': [{ group: 'lifecycle.k8s.io', kind: 'EvictionRequest()', version: 'v1alpha1' }] }),
);
export type EvictionRequest = z.infer<ReturnType<typeof EvictionRequest>>;
