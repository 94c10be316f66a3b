/** The scheduling group's kinds, and the system PriorityClasses of a cluster. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { CompositePodGroupKind } from './composite-pod-group.js';
import { PriorityClassKind } from './priority-class.js';

export { CompositePodGroupKind, type CompositePodGroup } from './composite-pod-group.js';
export { PriorityClassKind, schedulingBuiltinObjects, type PriorityClass } from './priority-class.js';

/** PriorityClass (v1), CompositePodGroup (v1alpha3). */
export const schedulingKinds: readonly KindDefinition[] = [PriorityClassKind, CompositePodGroupKind];
