/** The core (v1) group's kinds. */
export { BindingKind, type Binding } from './binding.js';
export { ComponentStatusKind, type ComponentStatus } from './component-status.js';
export { ConfigMapKind, type ConfigMap } from './configmap.js';
export { EndpointsKind, type Endpoints } from './endpoints.js';
export { EventKind, type Event } from './event.js';
export { LimitRangeKind, type LimitRange } from './limit-range.js';
export { NamespaceKind, type Namespace } from './namespace.js';
export { NodeKind, type Node } from './node.js';
export { PersistentVolumeKind, type PersistentVolume } from './persistent-volume.js';
export { PersistentVolumeClaimKind, type PersistentVolumeClaim } from './persistent-volume-claim.js';
export { PodKind, type Pod } from './pod.js';
export { PodTemplateKind, type PodTemplate } from './pod-template.js';
export { ReplicationControllerKind, type ReplicationController } from './replication-controller.js';
export { ResourceQuotaKind, type ResourceQuota } from './resource-quota.js';
export { SecretKind, type Secret } from './secret.js';
export { ServiceAccountKind, type ServiceAccount } from './service-account.js';
export { ServiceKind, type Service } from './service.js';
