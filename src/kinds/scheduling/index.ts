/** The scheduling group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { CompositePodGroupKind } from './composite-pod-group.js';

export { CompositePodGroupKind, type CompositePodGroup } from './composite-pod-group.js';

/** CompositePodGroup. */
export const schedulingKinds: readonly KindDefinition[] = [CompositePodGroupKind];
