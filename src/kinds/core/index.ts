/** The core (v1) group's kinds. */
export { ConfigMapKind, type ConfigMap } from './configmap.js';
export { EventKind, type Event } from './event.js';
export { NamespaceKind, type Namespace } from './namespace.js';
export { NodeKind, type Node } from './node.js';
export { PersistentVolumeClaimKind, type PersistentVolumeClaim } from './persistent-volume-claim.js';
export { PodKind, type Pod } from './pod.js';
export { SecretKind, type Secret } from './secret.js';
export { ServiceAccountKind, type ServiceAccount } from './service-account.js';
export { ServiceKind, type Service } from './service.js';
