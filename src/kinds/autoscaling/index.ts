/** The autoscaling group's kinds (served at v2 and v1). */
import type { KindDefinition } from '../../schema/define-kind.js';
import { HorizontalPodAutoscalerKind } from './horizontal-pod-autoscaler.js';

export { HorizontalPodAutoscalerKind, type HorizontalPodAutoscaler } from './horizontal-pod-autoscaler.js';

/** The kinds of the autoscaling group, in the order the registry serves them. */
export const autoscalingKinds: readonly KindDefinition[] = [HorizontalPodAutoscalerKind];
