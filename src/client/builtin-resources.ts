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
  configMaps: namespaced<ConfigMap>('', 'v1', 'configmaps'),
  endpoints: namespaced<Endpoints>('', 'v1', 'endpoints'),
  events: namespaced<Event>('', 'v1', 'events'),
  limitRanges: namespaced<LimitRange>('', 'v1', 'limitranges'),
  namespaces: clusterScoped<Namespace>('', 'v1', 'namespaces'),
  nodes: clusterScoped<Node>('', 'v1', 'nodes'),
  persistentVolumeClaims: namespaced<PersistentVolumeClaim>('', 'v1', 'persistentvolumeclaims'),
  persistentVolumes: clusterScoped<PersistentVolume>('', 'v1', 'persistentvolumes'),
  pods: namespaced<Pod>('', 'v1', 'pods'),
  podTemplates: namespaced<PodTemplate>('', 'v1', 'podtemplates'),
  replicationControllers: namespaced<ReplicationController>('', 'v1', 'replicationcontrollers'),
  resourceQuotas: namespaced<ResourceQuota>('', 'v1', 'resourcequotas'),
  secrets: namespaced<Secret>('', 'v1', 'secrets'),
  serviceAccounts: namespaced<ServiceAccount>('', 'v1', 'serviceaccounts'),
  services: namespaced<Service>('', 'v1', 'services'),
  // apps/v1
  controllerRevisions: namespaced<ControllerRevision>('apps', 'v1', 'controllerrevisions'),
  daemonSets: namespaced<DaemonSet>('apps', 'v1', 'daemonsets'),
  deployments: namespaced<Deployment>('apps', 'v1', 'deployments'),
  replicaSets: namespaced<ReplicaSet>('apps', 'v1', 'replicasets'),
  statefulSets: namespaced<StatefulSet>('apps', 'v1', 'statefulsets'),
  // batch/v1
  cronJobs: namespaced<CronJob>('batch', 'v1', 'cronjobs'),
  jobs: namespaced<Job>('batch', 'v1', 'jobs'),
  // rbac.authorization.k8s.io/v1
  clusterRoleBindings: clusterScoped<ClusterRoleBinding>('rbac.authorization.{api_domain}', 'v1', 'clusterrolebindings'),
  clusterRoles: clusterScoped<ClusterRole>('rbac.authorization.{api_domain}', 'v1', 'clusterroles'),
  roleBindings: namespaced<RoleBinding>('rbac.authorization.{api_domain}', 'v1', 'rolebindings'),
  roles: namespaced<Role>('rbac.authorization.{api_domain}', 'v1', 'roles'),
  // networking.k8s.io/v1
  ingressClasses: clusterScoped<IngressClass>('networking.{api_domain}', 'v1', 'ingressclasses'),
  ingresses: namespaced<Ingress>('networking.{api_domain}', 'v1', 'ingresses'),
  ipAddresses: clusterScoped<IPAddress>('networking.{api_domain}', 'v1', 'ipaddresses'),
  networkPolicies: namespaced<NetworkPolicy>('networking.{api_domain}', 'v1', 'networkpolicies'),
  serviceCIDRs: clusterScoped<ServiceCIDR>('networking.{api_domain}', 'v1', 'servicecidrs'),
  // a few more that operators often touch
  customResourceDefinitions: clusterScoped<CustomResourceDefinition>('apiextensions.{api_domain}', 'v1', 'customresourcedefinitions'),
  endpointSlices: namespaced<EndpointSlice>('discovery.{api_domain}', 'v1', 'endpointslices'),
  horizontalPodAutoscalers: namespaced<HorizontalPodAutoscaler>('autoscaling', 'v2', 'horizontalpodautoscalers'),
  leases: namespaced<Lease>('coordination.{api_domain}', 'v1', 'leases'),
  podDisruptionBudgets: namespaced<PodDisruptionBudget>('policy', 'v1', 'poddisruptionbudgets'),
  storageClasses: clusterScoped<StorageClass>('storage.{api_domain}', 'v1', 'storageclasses'),
} as const;

/** The method names of the typed helpers. */
export type BuiltinResourceName = keyof typeof builtinResources;
