/**
 * The roles of kube-controller-manager's controllers (`plugin/pkg/auth/authorizer/rbac/bootstrappolicy/
 * controller_policy.go`; its `testdata/controller-roles.yaml` with the default feature gates of the
 * newest copy read): one ClusterRole `system:controller:<name>` per controller, bound to the
 * service account `kube-system/<name>` the controller runs as.
 */
import type { ClusterRoleBinding } from './cluster-role-binding.js';
import type { ClusterRole } from './cluster-role.js';
import { bootstrapMetadata, EVENTS_RULE, READ, resources, serviceAccount } from './bootstrap-rules.js';

/** The prefix of every controller role and of the service account it is bound to. */
export const CONTROLLER_ROLE_PREFIX = 'system:controller:';

const CORE = [''];
const APPS_EXT = ['apps', 'extensions'];
const STORAGE = ['storage.k8s.io'];
const RESOURCE = ['resource.k8s.io'];
const NETWORKING = ['networking.k8s.io'];

function controller(name: string, rules: ReturnType<typeof resources>[]): ClusterRole {
  return { metadata: bootstrapMetadata(CONTROLLER_ROLE_PREFIX + name), rules };
}

/** The controller roles, in name order. */
export const BOOTSTRAP_CONTROLLER_ROLES: readonly ClusterRole[] = [
  controller('attachdetach-controller', [
    resources(['list', 'watch'], CORE, ['persistentvolumeclaims', 'persistentvolumes']),
    resources(READ, CORE, ['nodes']),
    resources(['patch', 'update'], CORE, ['nodes/status']),
    resources(['list', 'watch'], CORE, ['pods']),
    EVENTS_RULE,
    resources(['create', 'delete', 'get', 'list', 'watch'], STORAGE, ['volumeattachments']),
    resources(READ, STORAGE, ['csidrivers']),
    resources(READ, STORAGE, ['csinodes']),
  ]),
  controller('certificate-controller', [
    resources(['delete', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
    resources(['update'], ['certificates.k8s.io'], ['certificatesigningrequests/approval', 'certificatesigningrequests/status']),
    resources(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
    resources(
      ['sign'],
      ['certificates.k8s.io'],
      ['signers'],
      ['kubernetes.io/kube-apiserver-client', 'kubernetes.io/kube-apiserver-client-kubelet', 'kubernetes.io/kubelet-serving', 'kubernetes.io/legacy-unknown'],
    ),
    resources(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    EVENTS_RULE,
  ]),
  controller('clusterrole-aggregation-controller', [
    resources(['escalate', 'get', 'list', 'patch', 'update', 'watch'], ['rbac.authorization.k8s.io'], ['clusterroles']),
  ]),
  controller('cronjob-controller', [
    resources(['get', 'list', 'update', 'watch'], ['batch'], ['cronjobs']),
    resources(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], ['batch'], ['jobs']),
    resources(['update'], ['batch'], ['cronjobs/status']),
    resources(['update'], ['batch'], ['cronjobs/finalizers']),
    resources(['delete', 'list', 'watch'], CORE, ['pods']),
    EVENTS_RULE,
  ]),
  controller('daemon-set-controller', [
    resources(READ, APPS_EXT, ['daemonsets']),
    resources(['update'], APPS_EXT, ['daemonsets/status']),
    resources(['update'], APPS_EXT, ['daemonsets/finalizers']),
    resources(['list', 'watch'], CORE, ['nodes']),
    resources(['create', 'delete', 'list', 'patch', 'watch'], CORE, ['pods']),
    resources(['create'], CORE, ['pods/binding']),
    resources(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], ['apps'], ['controllerrevisions']),
    EVENTS_RULE,
  ]),
  controller('deployment-controller', [
    resources(['get', 'list', 'update', 'watch'], APPS_EXT, ['deployments']),
    resources(['update'], APPS_EXT, ['deployments/status']),
    resources(['update'], APPS_EXT, ['deployments/finalizers']),
    resources(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], APPS_EXT, ['replicasets']),
    resources(['get', 'list', 'update', 'watch'], CORE, ['pods']),
    EVENTS_RULE,
  ]),
  controller('device-taint-eviction-controller', [
    resources(['delete', 'get', 'list', 'watch'], CORE, ['pods']),
    resources(['patch', 'update'], CORE, ['pods/status']),
    resources(READ, RESOURCE, ['resourceclaims']),
    resources(READ, RESOURCE, ['resourceslices']),
    resources(READ, RESOURCE, ['deviceclasses']),
    EVENTS_RULE,
  ]),
  controller('disruption-controller', [
    resources(READ, APPS_EXT, ['deployments']),
    resources(READ, APPS_EXT, ['replicasets']),
    resources(READ, CORE, ['replicationcontrollers']),
    resources(READ, ['policy'], ['poddisruptionbudgets']),
    resources(READ, ['apps'], ['statefulsets']),
    resources(['update'], ['policy'], ['poddisruptionbudgets/status']),
    resources(['patch', 'update'], CORE, ['pods/status']),
    resources(['get'], ['*'], ['*/scale']),
    EVENTS_RULE,
  ]),
  controller('endpoint-controller', [
    resources(READ, CORE, ['pods', 'services']),
    resources(['create', 'delete', 'get', 'list', 'update', 'watch'], CORE, ['endpoints']),
    resources(['create'], CORE, ['endpoints/restricted']),
    EVENTS_RULE,
  ]),
  controller('endpointslice-controller', [
    resources(READ, CORE, ['nodes', 'pods', 'services']),
    resources(['update'], CORE, ['services/finalizers']),
    resources(['create', 'delete', 'get', 'list', 'update', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
    EVENTS_RULE,
  ]),
  controller('endpointslicemirroring-controller', [
    resources(READ, CORE, ['endpoints', 'services']),
    resources(['update'], CORE, ['services/finalizers']),
    resources(['update'], CORE, ['endpoints/finalizers']),
    resources(['create', 'delete', 'get', 'list', 'update', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
    EVENTS_RULE,
  ]),
  controller('ephemeral-volume-controller', [
    resources(READ, CORE, ['pods']),
    resources(['update'], CORE, ['pods/finalizers']),
    resources(['create', 'get', 'list', 'watch'], CORE, ['persistentvolumeclaims']),
    EVENTS_RULE,
  ]),
  controller('expand-controller', [
    resources(['get', 'list', 'patch', 'update', 'watch'], CORE, ['persistentvolumes']),
    resources(['patch', 'update'], CORE, ['persistentvolumeclaims/status']),
    resources(READ, CORE, ['persistentvolumeclaims']),
    EVENTS_RULE,
  ]),
  controller('generic-garbage-collector', [resources(['delete', 'get', 'list', 'patch', 'update', 'watch'], ['*'], ['*']), EVENTS_RULE]),
  controller('horizontal-pod-autoscaler', [
    resources(READ, ['autoscaling'], ['horizontalpodautoscalers']),
    resources(['update'], ['autoscaling'], ['horizontalpodautoscalers/status']),
    resources(['get', 'update'], ['*'], ['*/scale']),
    resources(['list', 'watch'], CORE, ['pods']),
    resources(['list', 'watch'], ['metrics.k8s.io'], ['pods']),
    resources(READ, ['custom.metrics.k8s.io'], ['*']),
    resources(READ, ['external.metrics.k8s.io'], ['*']),
    EVENTS_RULE,
  ]),
  controller('job-controller', [
    resources(['get', 'list', 'patch', 'update', 'watch'], ['batch'], ['jobs']),
    resources(['update'], ['batch'], ['jobs/status']),
    resources(['update'], ['batch'], ['jobs/finalizers']),
    resources(['create', 'delete', 'list', 'patch', 'watch'], CORE, ['pods']),
    EVENTS_RULE,
  ]),
  controller('legacy-service-account-token-cleaner', [
    resources(['get'], CORE, ['configmaps'], ['kube-apiserver-legacy-service-account-token-tracking']),
    resources(['delete', 'patch'], CORE, ['secrets']),
  ]),
  controller('namespace-controller', [
    resources(['delete', 'get', 'list', 'watch'], CORE, ['namespaces']),
    resources(['update'], CORE, ['namespaces/finalize', 'namespaces/status']),
    resources(['delete', 'deletecollection', 'get', 'list', 'watch'], ['*'], ['*']),
  ]),
  controller('node-controller', [
    resources(['delete', 'get', 'list', 'patch', 'update', 'watch'], CORE, ['nodes']),
    resources(['patch', 'update'], CORE, ['nodes/status']),
    resources(['patch', 'update'], CORE, ['pods/status']),
    resources(['delete', 'get', 'list', 'watch'], CORE, ['pods']),
    EVENTS_RULE,
  ]),
  controller('persistent-volume-binder', [
    resources(['create', 'delete', 'get', 'list', 'update', 'watch'], CORE, ['persistentvolumes']),
    resources(['update'], CORE, ['persistentvolumes/status']),
    resources(['get', 'list', 'update', 'watch'], CORE, ['persistentvolumeclaims']),
    resources(['update'], CORE, ['persistentvolumeclaims/status']),
    resources(['create', 'delete', 'get', 'list', 'watch'], CORE, ['pods']),
    resources(READ, STORAGE, ['storageclasses']),
    resources(['list', 'watch'], CORE, ['nodes']),
    EVENTS_RULE,
    resources(['watch'], CORE, ['events']),
  ]),
  controller('pod-garbage-collector', [
    resources(['delete', 'list', 'watch'], CORE, ['pods']),
    resources(READ, CORE, ['nodes']),
    resources(['patch'], CORE, ['pods/status']),
  ]),
  controller('pv-protection-controller', [resources(['get', 'list', 'update', 'watch'], CORE, ['persistentvolumes']), EVENTS_RULE]),
  controller('pvc-protection-controller', [
    resources(['get', 'list', 'update', 'watch'], CORE, ['persistentvolumeclaims']),
    resources(['update'], CORE, ['persistentvolumeclaims/status']),
    resources(READ, CORE, ['pods']),
    EVENTS_RULE,
  ]),
  controller('replicaset-controller', [
    resources(['get', 'list', 'update', 'watch'], APPS_EXT, ['replicasets']),
    resources(['update'], APPS_EXT, ['replicasets/status']),
    resources(['update'], APPS_EXT, ['replicasets/finalizers']),
    resources(['create', 'delete', 'list', 'patch', 'watch'], CORE, ['pods']),
    EVENTS_RULE,
  ]),
  controller('replication-controller', [
    resources(['get', 'list', 'update', 'watch'], CORE, ['replicationcontrollers']),
    resources(['update'], CORE, ['replicationcontrollers/status']),
    resources(['update'], CORE, ['replicationcontrollers/finalizers']),
    resources(['create', 'delete', 'list', 'patch', 'watch'], CORE, ['pods']),
    EVENTS_RULE,
  ]),
  controller('resource-claim-controller', [
    resources(READ, CORE, ['pods']),
    resources(['update'], CORE, ['pods/finalizers']),
    resources(['create', 'delete', 'get', 'list', 'watch'], RESOURCE, ['resourceclaims']),
    resources(['patch', 'update'], RESOURCE, ['resourceclaims', 'resourceclaims/status']),
    resources(['patch', 'update'], CORE, ['pods/status']),
    EVENTS_RULE,
    resources(['patch', 'update'], RESOURCE, ['resourceclaims/binding']),
  ]),
  controller('resourcequota-controller', [resources(['list', 'watch'], ['*'], ['*']), resources(['update'], CORE, ['resourcequotas/status']), EVENTS_RULE]),
  controller('root-ca-cert-publisher', [resources(['create', 'update'], CORE, ['configmaps']), EVENTS_RULE]),
  controller('route-controller', [resources(['list', 'watch'], CORE, ['nodes']), resources(['patch'], CORE, ['nodes/status']), EVENTS_RULE]),
  controller('selinux-warning-controller', [
    EVENTS_RULE,
    resources(READ, CORE, ['persistentvolumes']),
    resources(READ, CORE, ['persistentvolumeclaims']),
    resources(READ, CORE, ['pods']),
    resources(READ, STORAGE, ['csidrivers']),
  ]),
  controller('service-account-controller', [resources(['create'], CORE, ['serviceaccounts']), EVENTS_RULE]),
  controller('service-cidrs-controller', [
    resources(['get', 'list', 'patch', 'update', 'watch'], NETWORKING, ['servicecidrs']),
    resources(['patch', 'update'], NETWORKING, ['servicecidrs/finalizers']),
    resources(['patch', 'update'], NETWORKING, ['servicecidrs/status']),
    resources(READ, NETWORKING, ['ipaddresses']),
    EVENTS_RULE,
  ]),
  controller('service-controller', [
    resources(READ, CORE, ['services']),
    resources(['patch', 'update'], CORE, ['services/status']),
    resources(['list', 'watch'], CORE, ['nodes']),
    EVENTS_RULE,
  ]),
  controller('statefulset-controller', [
    resources(['list', 'watch'], CORE, ['pods']),
    resources(READ, ['apps'], ['statefulsets']),
    resources(['update'], ['apps'], ['statefulsets/status']),
    resources(['update'], ['apps'], ['statefulsets/finalizers']),
    resources(['create', 'delete', 'get', 'patch', 'update'], CORE, ['pods']),
    resources(['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'], ['apps'], ['controllerrevisions']),
    resources(['create', 'get', 'list', 'watch'], CORE, ['persistentvolumeclaims']),
    resources(['delete', 'update'], CORE, ['persistentvolumeclaims']),
    resources(['update'], CORE, ['pods/finalizers']),
    EVENTS_RULE,
  ]),
  controller('ttl-after-finished-controller', [resources(['delete', 'get', 'list', 'watch'], ['batch'], ['jobs']), EVENTS_RULE]),
  controller('ttl-controller', [resources(['list', 'patch', 'update', 'watch'], CORE, ['nodes']), EVENTS_RULE]),
  controller('validatingadmissionpolicy-status-controller', [
    resources(READ, ['admissionregistration.k8s.io'], ['validatingadmissionpolicies']),
    resources(['get', 'patch', 'update'], ['admissionregistration.k8s.io'], ['validatingadmissionpolicies/status']),
    EVENTS_RULE,
  ]),
  controller('volumeattributesclass-protection-controller', [
    resources(READ, CORE, ['persistentvolumeclaims']),
    resources(READ, CORE, ['persistentvolumes']),
    resources(['get', 'list', 'update', 'watch'], STORAGE, ['volumeattributesclasses']),
    EVENTS_RULE,
  ]),
];

/** Each controller role bound to its controller's service account in kube-system (`addControllerRole`). */
export const BOOTSTRAP_CONTROLLER_ROLE_BINDINGS: readonly ClusterRoleBinding[] = BOOTSTRAP_CONTROLLER_ROLES.map((role) => {
  const name = role.metadata!.name!;
  return {
    metadata: bootstrapMetadata(name),
    roleRef: { kind: 'ClusterRole', name },
    subjects: [serviceAccount(name.slice(CONTROLLER_ROLE_PREFIX.length), 'kube-system')],
  };
});
