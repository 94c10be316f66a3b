/**
 * The table behind the client's typed helpers (`client.configMaps('ns')`, `client.nodes()`...): one
 * row per common built-in resource, naming its group, version, plural and scope, and carrying its
 * generated TypeScript type. A test checks every row against the registry, so a row cannot name a
 * resource the cluster does not serve, nor get its scope wrong.
 */
import type { KubeObject } from '../schema/define-kind.js';
import type { ControllerRevision, DaemonSet, Deployment, ReplicaSet, StatefulSet } from '../kinds/types/apps-v1.js';
import type { HorizontalPodAutoscaler } from '../kinds/types/autoscaling-v2.js';
import type { CronJob, Job } from '../kinds/types/batch-v1.js';
import type { Lease } from '../kinds/types/coordination-v1.js';
import type {
  ConfigMap,
  Endpoints,
  Event,
  LimitRange,
  Namespace,
  Node,
  PersistentVolume,
  PersistentVolumeClaim,
  Pod,
  PodTemplate,
  ReplicationController,
  ResourceQuota,
  Secret,
  Service,
  ServiceAccount,
} from '../kinds/types/core-v1.js';
import type { CustomResourceDefinition } from '../kinds/types/apiextensions-v1.js';
import type { EndpointSlice } from '../kinds/types/discovery-v1.js';
import type { Ingress, IngressClass, IPAddress, NetworkPolicy, ServiceCIDR } from '../kinds/types/networking-v1.js';
import type { PodDisruptionBudget } from '../kinds/types/policy-v1.js';
import type { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from '../kinds/types/rbac-v1.js';
import type { StorageClass } from '../kinds/types/storage-v1.js';

/**
 * One row of the table. `group` may hold `{api_domain}`, replaced by the cluster's API domain
 * (`k8s.io` by default), as the registry's groups do.
 * @category Client
 */
export interface BuiltinResource<T extends KubeObject, S extends 'Namespaced' | 'Cluster'> {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  readonly scope: S;
  /** Phantom member carrying the object type; never set. */
  readonly __type?: T;
}

function namespaced<T extends KubeObject>(group: string, version: string, resource: string): BuiltinResource<T, 'Namespaced'> {
  return { group, version, resource, scope: 'Namespaced' };
}

function clusterScoped<T extends KubeObject>(group: string, version: string, resource: string): BuiltinResource<T, 'Cluster'> {
  return { group, version, resource, scope: 'Cluster' };
}

/** The typed helpers of the client, by method name. */
export const builtinResources = {
  // core/v1
  /** A client of `configmaps` (core/v1, ConfigMap) in `namespace`; not bound to a namespace when it is left out. */
  configMaps: namespaced<ConfigMap>('', 'v1', 'configmaps'),
  /** A client of `endpoints` (core/v1, Endpoints) in `namespace`; not bound to a namespace when it is left out. */
  endpoints: namespaced<Endpoints>('', 'v1', 'endpoints'),
  /** A client of `events` (core/v1, Event) in `namespace`; not bound to a namespace when it is left out. */
  events: namespaced<Event>('', 'v1', 'events'),
  /** A client of `limitranges` (core/v1, LimitRange) in `namespace`; not bound to a namespace when it is left out. */
  limitRanges: namespaced<LimitRange>('', 'v1', 'limitranges'),
  /** A client of `namespaces` (core/v1, Namespace), cluster-scoped. */
  namespaces: clusterScoped<Namespace>('', 'v1', 'namespaces'),
  /** A client of `nodes` (core/v1, Node), cluster-scoped. */
  nodes: clusterScoped<Node>('', 'v1', 'nodes'),
  /** A client of `persistentvolumeclaims` (core/v1, PersistentVolumeClaim) in `namespace`; not bound to a namespace when it is left out. */
  persistentVolumeClaims: namespaced<PersistentVolumeClaim>('', 'v1', 'persistentvolumeclaims'),
  /** A client of `persistentvolumes` (core/v1, PersistentVolume), cluster-scoped. */
  persistentVolumes: clusterScoped<PersistentVolume>('', 'v1', 'persistentvolumes'),
  /** A client of `pods` (core/v1, Pod) in `namespace`; not bound to a namespace when it is left out. */
  pods: namespaced<Pod>('', 'v1', 'pods'),
  /** A client of `podtemplates` (core/v1, PodTemplate) in `namespace`; not bound to a namespace when it is left out. */
  podTemplates: namespaced<PodTemplate>('', 'v1', 'podtemplates'),
  /** A client of `replicationcontrollers` (core/v1, ReplicationController) in `namespace`; not bound to a namespace when it is left out. */
  replicationControllers: namespaced<ReplicationController>('', 'v1', 'replicationcontrollers'),
  /** A client of `resourcequotas` (core/v1, ResourceQuota) in `namespace`; not bound to a namespace when it is left out. */
  resourceQuotas: namespaced<ResourceQuota>('', 'v1', 'resourcequotas'),
  /** A client of `secrets` (core/v1, Secret) in `namespace`; not bound to a namespace when it is left out. */
  secrets: namespaced<Secret>('', 'v1', 'secrets'),
  /** A client of `serviceaccounts` (core/v1, ServiceAccount) in `namespace`; not bound to a namespace when it is left out. */
  serviceAccounts: namespaced<ServiceAccount>('', 'v1', 'serviceaccounts'),
  /** A client of `services` (core/v1, Service) in `namespace`; not bound to a namespace when it is left out. */
  services: namespaced<Service>('', 'v1', 'services'),
  // apps/v1
  /** A client of `controllerrevisions` (apps/v1, ControllerRevision) in `namespace`; not bound to a namespace when it is left out. */
  controllerRevisions: namespaced<ControllerRevision>('apps', 'v1', 'controllerrevisions'),
  /** A client of `daemonsets` (apps/v1, DaemonSet) in `namespace`; not bound to a namespace when it is left out. */
  daemonSets: namespaced<DaemonSet>('apps', 'v1', 'daemonsets'),
  /** A client of `deployments` (apps/v1, Deployment) in `namespace`; not bound to a namespace when it is left out. */
  deployments: namespaced<Deployment>('apps', 'v1', 'deployments'),
  /** A client of `replicasets` (apps/v1, ReplicaSet) in `namespace`; not bound to a namespace when it is left out. */
  replicaSets: namespaced<ReplicaSet>('apps', 'v1', 'replicasets'),
  /** A client of `statefulsets` (apps/v1, StatefulSet) in `namespace`; not bound to a namespace when it is left out. */
  statefulSets: namespaced<StatefulSet>('apps', 'v1', 'statefulsets'),
  // batch/v1
  /** A client of `cronjobs` (batch/v1, CronJob) in `namespace`; not bound to a namespace when it is left out. */
  cronJobs: namespaced<CronJob>('batch', 'v1', 'cronjobs'),
  /** A client of `jobs` (batch/v1, Job) in `namespace`; not bound to a namespace when it is left out. */
  jobs: namespaced<Job>('batch', 'v1', 'jobs'),
  // rbac.authorization.k8s.io/v1
  /** A client of `clusterrolebindings` (rbac.authorization.k8s.io/v1, ClusterRoleBinding), cluster-scoped. */
  clusterRoleBindings: clusterScoped<ClusterRoleBinding>('rbac.authorization.{api_domain}', 'v1', 'clusterrolebindings'),
  /** A client of `clusterroles` (rbac.authorization.k8s.io/v1, ClusterRole), cluster-scoped. */
  clusterRoles: clusterScoped<ClusterRole>('rbac.authorization.{api_domain}', 'v1', 'clusterroles'),
  /** A client of `rolebindings` (rbac.authorization.k8s.io/v1, RoleBinding) in `namespace`; not bound to a namespace when it is left out. */
  roleBindings: namespaced<RoleBinding>('rbac.authorization.{api_domain}', 'v1', 'rolebindings'),
  /** A client of `roles` (rbac.authorization.k8s.io/v1, Role) in `namespace`; not bound to a namespace when it is left out. */
  roles: namespaced<Role>('rbac.authorization.{api_domain}', 'v1', 'roles'),
  // networking.k8s.io/v1
  /** A client of `ingressclasses` (networking.k8s.io/v1, IngressClass), cluster-scoped. */
  ingressClasses: clusterScoped<IngressClass>('networking.{api_domain}', 'v1', 'ingressclasses'),
  /** A client of `ingresses` (networking.k8s.io/v1, Ingress) in `namespace`; not bound to a namespace when it is left out. */
  ingresses: namespaced<Ingress>('networking.{api_domain}', 'v1', 'ingresses'),
  /** A client of `ipaddresses` (networking.k8s.io/v1, IPAddress), cluster-scoped. */
  ipAddresses: clusterScoped<IPAddress>('networking.{api_domain}', 'v1', 'ipaddresses'),
  /** A client of `networkpolicies` (networking.k8s.io/v1, NetworkPolicy) in `namespace`; not bound to a namespace when it is left out. */
  networkPolicies: namespaced<NetworkPolicy>('networking.{api_domain}', 'v1', 'networkpolicies'),
  /** A client of `servicecidrs` (networking.k8s.io/v1, ServiceCIDR), cluster-scoped. */
  serviceCIDRs: clusterScoped<ServiceCIDR>('networking.{api_domain}', 'v1', 'servicecidrs'),
  // a few more that operators often touch
  /** A client of `customresourcedefinitions` (apiextensions.k8s.io/v1, CustomResourceDefinition), cluster-scoped. */
  customResourceDefinitions: clusterScoped<CustomResourceDefinition>('apiextensions.{api_domain}', 'v1', 'customresourcedefinitions'),
  /** A client of `endpointslices` (discovery.k8s.io/v1, EndpointSlice) in `namespace`; not bound to a namespace when it is left out. */
  endpointSlices: namespaced<EndpointSlice>('discovery.{api_domain}', 'v1', 'endpointslices'),
  /** A client of `horizontalpodautoscalers` (autoscaling/v2, HorizontalPodAutoscaler) in `namespace`; not bound to a namespace when it is left out. */
  horizontalPodAutoscalers: namespaced<HorizontalPodAutoscaler>('autoscaling', 'v2', 'horizontalpodautoscalers'),
  /** A client of `leases` (coordination.k8s.io/v1, Lease) in `namespace`; not bound to a namespace when it is left out. */
  leases: namespaced<Lease>('coordination.{api_domain}', 'v1', 'leases'),
  /** A client of `poddisruptionbudgets` (policy/v1, PodDisruptionBudget) in `namespace`; not bound to a namespace when it is left out. */
  podDisruptionBudgets: namespaced<PodDisruptionBudget>('policy', 'v1', 'poddisruptionbudgets'),
  /** A client of `storageclasses` (storage.k8s.io/v1, StorageClass), cluster-scoped. */
  storageClasses: clusterScoped<StorageClass>('storage.{api_domain}', 'v1', 'storageclasses'),
} as const;

/** The method names of the typed helpers. */
export type BuiltinResourceName = keyof typeof builtinResources;
