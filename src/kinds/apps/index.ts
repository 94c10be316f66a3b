/** The apps/v1 group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { ControllerRevisionKind } from './controller-revision.js';
import { DaemonSetKind } from './daemonset.js';
import { DeploymentKind } from './deployment.js';
import { ReplicaSetKind } from './replicaset.js';
import { StatefulSetKind } from './statefulset.js';

export { ControllerRevisionKind, type ControllerRevision } from './controller-revision.js';
export { DaemonSetKind, type DaemonSet } from './daemonset.js';
export { DeploymentKind, type Deployment } from './deployment.js';
export { ReplicaSetKind, type ReplicaSet } from './replicaset.js';
export { StatefulSetKind, type StatefulSet } from './statefulset.js';

/** The kinds of the apps group, in the order the registry serves them (Kubernetes' discovery order). */
export const appsKinds: readonly KindDefinition[] = [ControllerRevisionKind, DaemonSetKind, DeploymentKind, ReplicaSetKind, StatefulSetKind];
