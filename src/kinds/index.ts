/** Every built-in kind, in the order the registry serves them. */
import type { BuiltinObject, KindDefinition } from '../schema/define-kind.js';
import {
  BindingKind,
  ComponentStatusKind,
  ConfigMapKind,
  EndpointsKind,
  EventKind,
  LimitRangeKind,
  NamespaceKind,
  NodeKind,
  PersistentVolumeClaimKind,
  PersistentVolumeKind,
  PodKind,
  PodTemplateKind,
  ReplicationControllerKind,
  ResourceQuotaKind,
  SecretKind,
  ServiceAccountKind,
  ServiceKind,
} from './core/index.js';

import { admissionregistrationKinds } from './admissionregistration/index.js';
import { apiextensionsKinds } from './apiextensions/index.js';
import { apiregistrationKinds } from './apiregistration/index.js';
import { appsKinds } from './apps/index.js';
import { authenticationKinds } from './authentication/index.js';
import { authorizationKinds } from './authorization/index.js';
import { autoscalingKinds } from './autoscaling/index.js';
import { batchKinds } from './batch/index.js';
import { certificatesKinds } from './certificates/index.js';
import { coordinationKinds } from './coordination/index.js';
import { discoveryKinds } from './discovery/index.js';
import { eventsKinds } from './events/index.js';
import { flowControlBootstrap, flowcontrolKinds, FlowSchemaKind, PriorityLevelConfigurationKind } from './flowcontrol/index.js';
import { apiserverinternalKinds } from './apiserverinternal/index.js';
import { storagemigrationKinds } from './storagemigration/index.js';
import { lifecycleKinds } from './lifecycle/index.js';
import { networkingKinds } from './networking/index.js';
import { nodeKinds } from './node/index.js';
import { policyKinds } from './policy/index.js';
import { rbacBuiltinObjects, rbacKinds } from './rbac/index.js';
import { resourceKinds } from './resource/index.js';
import { schedulingBuiltinObjects, schedulingKinds } from './scheduling/index.js';
import { storageKinds } from './storage/index.js';

export * from './core/index.js';
export * from './apps/index.js';
export * from './autoscaling/index.js';
export * from './batch/index.js';
export * from './certificates/index.js';
export * from './coordination/index.js';
export * from './discovery/index.js';
export * from './events/index.js';
export * from './lifecycle/index.js';
export * from './networking/index.js';
export * from './node/index.js';
export * from './policy/index.js';
export * from './rbac/index.js';
export * from './resource/index.js';
export * from './scheduling/index.js';
export * from './storage/index.js';
export * from './apiregistration/index.js';
export * from './admissionregistration/index.js';
export * from './apiextensions/index.js';
export * from './authentication/index.js';
export * from './authorization/index.js';
export * from './flowcontrol/index.js';
export * from './apiserverinternal/index.js';
export * from './storagemigration/index.js';

/** The kinds every cluster serves. */
export const builtinKinds: readonly KindDefinition[] = [
  NamespaceKind,
  ConfigMapKind,
  SecretKind,
  ServiceAccountKind,
  PodKind,
  NodeKind,
  ServiceKind,
  PersistentVolumeClaimKind,
  EventKind,
  ReplicationControllerKind,
  EndpointsKind,
  PersistentVolumeKind,
  LimitRangeKind,
  ResourceQuotaKind,
  PodTemplateKind,
  ComponentStatusKind,
  BindingKind,
  ...appsKinds,
  ...autoscalingKinds,
  ...batchKinds,
  ...certificatesKinds,
  ...coordinationKinds,
  ...discoveryKinds,
  ...eventsKinds,
  ...lifecycleKinds,
  ...networkingKinds,
  ...nodeKinds,
  ...policyKinds,
  ...rbacKinds,
  ...resourceKinds,
  ...schedulingKinds,
  ...storageKinds,
  ...apiregistrationKinds,
  ...admissionregistrationKinds,
  ...apiextensionsKinds,
  ...authenticationKinds,
  ...authorizationKinds,
  ...flowcontrolKinds,
  ...apiserverinternalKinds,
  ...storagemigrationKinds,
];

/**
 * The objects every cluster starts with: the bootstrap ClusterRoles and bindings, the system
 * PriorityClasses, the flowcontrol bootstrap priority levels and flow schemas (whose rules name the
 * cluster's API groups, hence the domain).
 */
export function builtinObjectsFor(apiDomain: string): readonly BuiltinObject[] {
  const { priorityLevels, flowSchemas } = flowControlBootstrap(apiDomain);
  return [
    ...rbacBuiltinObjects,
    ...schedulingBuiltinObjects,
    ...priorityLevels.map((object) => ({ kind: PriorityLevelConfigurationKind, object })),
    ...flowSchemas.map((object) => ({ kind: FlowSchemaKind, object })),
  ];
}
