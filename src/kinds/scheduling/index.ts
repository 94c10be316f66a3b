/** The scheduling group's kinds, and the system PriorityClasses of a cluster. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { CompositePodGroupKind } from './composite-pod-group.js';
import { PodGroupKind } from './pod-group.js';
import { PriorityClassKind } from './priority-class.js';
import { WorkloadKind } from './workload.js';

export { CompositePodGroupKind, type CompositePodGroup } from './composite-pod-group.js';
export { PodGroupKind, type PodGroup } from './pod-group.js';
export { PriorityClassKind, schedulingBuiltinObjects, type PriorityClass } from './priority-class.js';
export { WorkloadKind, type Workload } from './workload.js';
export { GENERIC_WORKLOAD } from './workload-gate.js';

/** PriorityClass (v1), Workload and PodGroup (v1alpha2), CompositePodGroup (v1alpha3). */
export const schedulingKinds: readonly KindDefinition[] = [PriorityClassKind, WorkloadKind, PodGroupKind, CompositePodGroupKind];
