/** The apps/v1 group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { ControllerRevisionKind } from './controller-revision.js';
import { StatefulSetKind } from './statefulset.js';

export { ControllerRevisionKind, type ControllerRevision } from './controller-revision.js';
export { StatefulSetKind, type StatefulSet } from './statefulset.js';

/** The kinds of the apps group, in the order the registry serves them. */
export const appsKinds: readonly KindDefinition[] = [StatefulSetKind, ControllerRevisionKind];
