/** The scheduling group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { CompositePodGroupKind } from './composite-pod-group.js';
import { PodGroupKind } from './pod-group.js';
import { WorkloadKind } from './workload.js';

export { CompositePodGroupKind, type CompositePodGroup } from './composite-pod-group.js';
export { PodGroupKind, type PodGroup } from './pod-group.js';
export { WorkloadKind, type Workload } from './workload.js';
export { GENERIC_WORKLOAD } from './workload-gate.js';

/** CompositePodGroup. */
export const schedulingKinds: readonly KindDefinition[] = [CompositePodGroupKind, WorkloadKind, PodGroupKind];
