/** HorizontalPodAutoscaler (autoscaling/v2, autoscaling/v1). */
import { badRequest } from '../../machinery/errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { HorizontalPodAutoscaler as V2Schema } from '../types/autoscaling-v2.js';
import { HorizontalPodAutoscaler as V1Schema } from '../types/autoscaling-v1.js';
import { QuantityDecodeError } from '../shared/resource-lists.js';
import { autoscalingV1Conversion } from './hpa/conversion.js';
import { applyHorizontalPodAutoscalerDefaults } from './hpa/defaults.js';
import { validateHorizontalPodAutoscalerSpec, validateHorizontalPodAutoscalerStatusUpdate, validationOptions } from './hpa/validation.js';
import { age, formatTargets } from './hpa/printers.js';
import type { z } from 'zod';
import { lazyVersion } from '../shared/lazy-version.js';

/** A HorizontalPodAutoscaler in its stored (autoscaling/v2) shape. */
export type HorizontalPodAutoscaler = V2Schema;

const DESCRIPTION = {
  reference:
    'scaleTargetRef points to the target resource to scale, and is used to the pods for which metrics should be collected, as well as to actually change the replica count.',
  targets:
    'metrics contains the specifications for which to use to calculate the desired replica count (the maximum replica count across all metrics will be used).  The desired replica count is calculated multiplying the ratio between the target value and the current value by the current number of pods.  Ergo, metrics used must decrease as the pod count is increased, and vice-versa.  See the individual metric source types for more information about how each type of metric must respond. If not set, the default metric will be set to 80% average CPU utilization.',
  minPods:
    'minReplicas is the lower limit for the number of replicas to which the autoscaler can scale down.  It defaults to 1 pod.  minReplicas is allowed to be 0 if the alpha feature gate HPAScaleToZero is enabled and at least one Object or External metric is configured.  Scaling is active as long as at least one metric value is available.',
  maxPods: 'maxReplicas is the upper limit for the number of replicas to which the autoscaler can scale up. It cannot be less that minReplicas.',
  replicas: 'currentReplicas is current number of replicas of pods managed by this autoscaler, as last seen by the autoscaler.',
  age: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
};

function defaultHpa(hpa: HorizontalPodAutoscaler): void {
  try {
    applyHorizontalPodAutoscalerDefaults(hpa);
  } catch (e) {
    if (e instanceof QuantityDecodeError)
      throw badRequest(`HorizontalPodAutoscaler in version "v2" cannot be handled as a HorizontalPodAutoscaler: ${e.message}`);
    throw e;
  }
}

/**
 * HorizontalPodAutoscaler: stored at autoscaling/v2 (the preferred version), also served at
 * autoscaling/v1 through Kubernetes' conversion (v2-only fields in annotations). The v2 defaults,
 * the validation and status rules of Kubernetes v1.36, `/status`. No controller scales anything.
 */
export const HorizontalPodAutoscalerKind = defineKind<HorizontalPodAutoscaler>({
  group: 'autoscaling',
  kind: 'HorizontalPodAutoscaler',
  plural: 'horizontalpodautoscalers',
  shortNames: ['hpa'],
  categories: ['all'],
  scope: 'Namespaced',
  // pkg/registry/autoscaling/horizontalpodautoscaler/strategy.go never sets a generation.
  generation: false,
  versions: [
    lazyVersion('v2', V2Schema, { storage: true }),
    lazyVersion('v1', V1Schema as unknown as () => z.ZodType<HorizontalPodAutoscaler>, { conversion: autoscalingV1Conversion }),
  ],
  statusSubresource: true,
  schemaRequired: false,
  printerColumns: [
    {
      name: 'Reference',
      type: 'string',
      description: DESCRIPTION.reference,
      value: (h) => `${h.spec?.scaleTargetRef?.kind ?? ''}/${h.spec?.scaleTargetRef?.name ?? ''}`,
    },
    { name: 'Targets', type: 'string', description: DESCRIPTION.targets, value: (h) => formatTargets(h) },
    { name: 'MinPods', type: 'string', description: DESCRIPTION.minPods, value: (h) => (h.spec?.minReplicas != null ? String(h.spec.minReplicas) : '<unset>') },
    { name: 'MaxPods', type: 'string', description: DESCRIPTION.maxPods, value: (h) => h.spec?.maxReplicas ?? 0 },
    { name: 'Replicas', type: 'string', description: DESCRIPTION.replicas, value: (h) => h.status?.currentReplicas ?? 0 },
    { name: 'Age', type: 'string', description: DESCRIPTION.age, value: (h, now) => age(h.metadata?.creationTimestamp, now) },
  ],
  strategy: {
    prepareForCreate(hpa) {
      hpa.status = { desiredReplicas: 0 };
    },
    defaults(hpa) {
      defaultHpa(hpa);
    },
    validate(hpa, ctx) {
      if (ctx.operation !== 'create') return [];
      return validateHorizontalPodAutoscalerSpec(hpa.spec ?? ({} as HorizontalPodAutoscaler['spec']), validationOptions(hpa));
    },
    validateUpdate(hpa, old, ctx) {
      if (ctx.subresource === 'status') return validateHorizontalPodAutoscalerStatusUpdate(hpa);
      return validateHorizontalPodAutoscalerSpec(hpa.spec ?? ({} as HorizontalPodAutoscaler['spec']), validationOptions(hpa, old));
    },
  },
});
