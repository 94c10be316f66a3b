/**
 * The ClusterRoles and ClusterRoleBindings a Kubernetes API server creates at start (its
 * `rbac/bootstrap-roles` post-start hook, from `plugin/pkg/auth/authorizer/rbac/bootstrappolicy`
 * `ClusterRoles()` and `ClusterRoleBindings()`): the user-facing roles (`cluster-admin`; `admin`,
 * `edit` and `view`, aggregated from the `system:aggregate-to-*` roles and anything else labelled
 * `rbac.authorization.k8s.io/aggregate-to-*`) and the `system:` roles of the cluster's components.
 * The controllers' roles are in bootstrap-controller-policy.ts, the namespaced ones in
 * bootstrap-namespace-policy.ts.
 */
import type { PolicyRule } from '../types/rbac-v1.js';
import { bootstrapMetadata, EVENTS_RULE, group, READ, READ_WRITE, resources, serviceAccount, urls, user, WRITE } from './bootstrap-rules.js';
import type { ClusterRole } from './cluster-role.js';
import type { ClusterRoleBinding } from './cluster-role-binding.js';

function role(name: string, rules: PolicyRule[], labels?: Record<string, string>): ClusterRole {
  return { metadata: bootstrapMetadata(name, labels), rules };
}

/** A role whose rules the aggregation controller fills from the roles labelled `aggregate-to-<to>`. */
function aggregated(name: string, to: string, labels?: Record<string, string>): ClusterRole {
  return {
    metadata: bootstrapMetadata(name, labels),
    aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [`rbac.authorization.k8s.io/aggregate-to-${to}`]: 'true' } }] },
  };
}

const TO_ADMIN = { 'rbac.authorization.k8s.io/aggregate-to-admin': 'true' };
const TO_EDIT = { 'rbac.authorization.k8s.io/aggregate-to-edit': 'true' };
const TO_VIEW = { 'rbac.authorization.k8s.io/aggregate-to-view': 'true' };

/** The bootstrap ClusterRoles, by name. */
export const BOOTSTRAP_CLUSTER_ROLES: readonly ClusterRole[] = [
  aggregated('admin', 'admin'),
  role('cluster-admin', [resources(['*'], ['*'], ['*']), urls(['*'], ['*'])]),
  aggregated('edit', 'edit', TO_ADMIN),
  role(
    'system:aggregate-to-admin',
    [
      resources(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews']),
      resources(READ_WRITE, ['rbac.authorization.k8s.io'], ['rolebindings', 'roles']),
    ],
    TO_ADMIN,
  ),
  role(
    'system:aggregate-to-edit',
    [
      resources(READ, [''], ['pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy', 'secrets', 'services/proxy']),
      resources(['impersonate'], [''], ['serviceaccounts']),
      resources(WRITE, [''], ['pods', 'pods/attach', 'pods/exec', 'pods/portforward', 'pods/proxy']),
      resources(['create'], [''], ['pods/eviction']),
      resources(
        WRITE,
        [''],
        [
          'configmaps',
          'events',
          'persistentvolumeclaims',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'secrets',
          'serviceaccounts',
          'services',
          'services/proxy',
        ],
      ),
      resources(['create'], [''], ['serviceaccounts/token']),
      resources(
        WRITE,
        ['apps'],
        ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale', 'statefulsets', 'statefulsets/scale'],
      ),
      resources(WRITE, ['autoscaling'], ['horizontalpodautoscalers']),
      resources(WRITE, ['batch'], ['cronjobs', 'jobs']),
      resources(
        WRITE,
        ['extensions'],
        [
          'daemonsets',
          'deployments',
          'deployments/rollback',
          'deployments/scale',
          'ingresses',
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicationcontrollers/scale',
        ],
      ),
      resources(WRITE, ['policy'], ['poddisruptionbudgets']),
      resources(WRITE, ['networking.k8s.io'], ['ingresses', 'networkpolicies']),
      resources(READ_WRITE, ['coordination.k8s.io'], ['leases']),
    ],
    TO_EDIT,
  ),
  role(
    'system:aggregate-to-view',
    [
      resources(
        READ,
        [''],
        [
          'configmaps',
          'endpoints',
          'persistentvolumeclaims',
          'persistentvolumeclaims/status',
          'pods',
          'replicationcontrollers',
          'replicationcontrollers/scale',
          'serviceaccounts',
          'services',
          'services/status',
        ],
      ),
      resources(
        READ,
        [''],
        [
          'bindings',
          'events',
          'limitranges',
          'namespaces/status',
          'pods/log',
          'pods/status',
          'replicationcontrollers/status',
          'resourcequotas',
          'resourcequotas/status',
        ],
      ),
      resources(READ, [''], ['namespaces']),
      resources(READ, ['discovery.k8s.io'], ['endpointslices']),
      resources(
        READ,
        ['apps'],
        [
          'controllerrevisions',
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'statefulsets',
          'statefulsets/scale',
          'statefulsets/status',
        ],
      ),
      resources(READ, ['autoscaling'], ['horizontalpodautoscalers', 'horizontalpodautoscalers/status']),
      resources(READ, ['batch'], ['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']),
      resources(
        READ,
        ['extensions'],
        [
          'daemonsets',
          'daemonsets/status',
          'deployments',
          'deployments/scale',
          'deployments/status',
          'ingresses',
          'ingresses/status',
          'networkpolicies',
          'replicasets',
          'replicasets/scale',
          'replicasets/status',
          'replicationcontrollers/scale',
        ],
      ),
      resources(READ, ['policy'], ['poddisruptionbudgets', 'poddisruptionbudgets/status']),
      resources(READ, ['networking.k8s.io'], ['ingresses', 'ingresses/status', 'networkpolicies']),
    ],
    TO_VIEW,
  ),
  role('system:auth-delegator', [
    resources(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    resources(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
  ]),
  role('system:basic-user', [
    resources(['create'], ['authorization.k8s.io'], ['selfsubjectaccessreviews', 'selfsubjectrulesreviews']),
    resources(['create'], ['authentication.k8s.io'], ['selfsubjectreviews']),
  ]),
  role('system:certificates.k8s.io:certificatesigningrequests:nodeclient', [
    resources(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/nodeclient']),
  ]),
  role('system:certificates.k8s.io:certificatesigningrequests:selfnodeclient', [
    resources(['create'], ['certificates.k8s.io'], ['certificatesigningrequests/selfnodeclient']),
  ]),
  role('system:certificates.k8s.io:kube-apiserver-client-approver', [
    resources(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client']),
  ]),
  role('system:certificates.k8s.io:kube-apiserver-client-kubelet-approver', [
    resources(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kube-apiserver-client-kubelet']),
  ]),
  role('system:certificates.k8s.io:kubelet-serving-approver', [
    resources(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/kubelet-serving']),
  ]),
  role('system:certificates.k8s.io:legacy-unknown-approver', [resources(['approve'], ['certificates.k8s.io'], ['signers'], ['kubernetes.io/legacy-unknown'])]),
  role('system:discovery', [
    urls(['get'], ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/']),
  ]),
  role('system:heapster', [resources(READ, [''], ['events', 'namespaces', 'nodes', 'pods']), resources(READ, ['extensions'], ['deployments'])]),
  role('system:kube-aggregator', [resources(READ, [''], ['endpoints', 'services'])]),
  role('system:kube-controller-manager', [
    EVENTS_RULE,
    resources(['create'], ['coordination.k8s.io'], ['leases']),
    resources(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-controller-manager']),
    resources(['create'], [''], ['secrets', 'serviceaccounts']),
    resources(['delete'], [''], ['secrets']),
    resources(['get'], [''], ['configmaps', 'namespaces', 'secrets', 'serviceaccounts']),
    resources(['update'], [''], ['secrets', 'serviceaccounts']),
    resources(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    resources(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    resources(['list', 'watch'], ['*'], ['*']),
    resources(['create'], [''], ['serviceaccounts/token']),
  ]),
  role('system:kube-dns', [resources(['list', 'watch'], [''], ['endpoints', 'services'])]),
  role('system:kube-scheduler', [
    EVENTS_RULE,
    resources(['create'], ['coordination.k8s.io'], ['leases']),
    resources(['get', 'update'], ['coordination.k8s.io'], ['leases'], ['kube-scheduler']),
    resources(READ, [''], ['nodes']),
    resources(['delete', 'get', 'list', 'watch'], [''], ['pods']),
    resources(['create'], [''], ['bindings', 'pods/binding']),
    resources(['patch', 'update'], [''], ['pods/status']),
    resources(READ, [''], ['replicationcontrollers', 'services']),
    resources(READ, ['apps', 'extensions'], ['replicasets']),
    resources(READ, ['apps'], ['statefulsets']),
    resources(READ, ['policy'], ['poddisruptionbudgets']),
    resources(READ, [''], ['persistentvolumeclaims', 'persistentvolumes']),
    resources(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    resources(['create'], ['authorization.k8s.io'], ['subjectaccessreviews']),
    resources(READ, ['storage.k8s.io'], ['csinodes']),
    resources(READ, [''], ['namespaces']),
    resources(READ, ['storage.k8s.io'], ['csidrivers']),
    resources(READ, ['storage.k8s.io'], ['csistoragecapacities']),
  ]),
  role('system:kubelet-api-admin', [
    resources(READ, [''], ['nodes']),
    resources(['proxy'], [''], ['nodes']),
    resources(['*'], [''], ['nodes/log', 'nodes/metrics', 'nodes/proxy', 'nodes/stats']),
  ]),
  role('system:monitoring', [urls(['get'], ['/healthz', '/healthz/*', '/livez', '/livez/*', '/metrics', '/metrics/slis', '/readyz', '/readyz/*'])]),
  role('system:node', [
    resources(['create'], ['authentication.k8s.io'], ['tokenreviews']),
    resources(['create'], ['authorization.k8s.io'], ['localsubjectaccessreviews', 'subjectaccessreviews']),
    resources(READ, [''], ['services']),
    resources(['create', 'get', 'list', 'watch'], [''], ['nodes']),
    resources(['patch', 'update'], [''], ['nodes/status']),
    resources(['patch', 'update'], [''], ['nodes']),
    resources(['create', 'patch', 'update'], [''], ['events']),
    resources(READ, [''], ['pods']),
    resources(['create', 'delete'], [''], ['pods']),
    resources(['patch', 'update'], [''], ['pods/status']),
    resources(['create'], [''], ['pods/eviction']),
    resources(READ, [''], ['configmaps', 'secrets']),
    resources(['get'], [''], ['persistentvolumeclaims', 'persistentvolumes']),
    resources(['get'], [''], ['endpoints']),
    resources(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests']),
    resources(['create', 'delete', 'get', 'patch', 'update'], ['coordination.k8s.io'], ['leases']),
    resources(['get'], ['storage.k8s.io'], ['volumeattachments']),
    resources(['create'], [''], ['serviceaccounts/token']),
    resources(['get', 'patch', 'update'], [''], ['persistentvolumeclaims/status']),
    resources(READ, ['storage.k8s.io'], ['csidrivers']),
    resources(['create', 'delete', 'get', 'patch', 'update'], ['storage.k8s.io'], ['csinodes']),
    resources(READ, ['node.k8s.io'], ['runtimeclasses']),
  ]),
  role('system:node-bootstrapper', [resources(['create', 'get', 'list', 'watch'], ['certificates.k8s.io'], ['certificatesigningrequests'])]),
  role('system:node-problem-detector', [resources(['get'], [''], ['nodes']), resources(['patch'], [''], ['nodes/status']), EVENTS_RULE]),
  role('system:node-proxier', [
    resources(['list', 'watch'], [''], ['endpoints', 'services']),
    resources(READ, [''], ['nodes']),
    EVENTS_RULE,
    resources(['list', 'watch'], ['discovery.k8s.io'], ['endpointslices']),
  ]),
  role('system:persistent-volume-provisioner', [
    resources(['create', 'delete', 'get', 'list', 'watch'], [''], ['persistentvolumes']),
    resources(['get', 'list', 'update', 'watch'], [''], ['persistentvolumeclaims']),
    resources(READ, ['storage.k8s.io'], ['storageclasses']),
    resources(['watch'], [''], ['events']),
    EVENTS_RULE,
  ]),
  role('system:public-info-viewer', [urls(['get'], ['/healthz', '/livez', '/readyz', '/version', '/version/'])]),
  role('system:service-account-issuer-discovery', [urls(['get'], ['/.well-known/openid-configuration', '/openid/v1/jwks'])]),
  role('system:volume-scheduler', [
    resources(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumes']),
    resources(READ, ['storage.k8s.io'], ['storageclasses']),
    resources(['get', 'list', 'patch', 'update', 'watch'], [''], ['persistentvolumeclaims']),
  ]),
  aggregated('view', 'view', TO_EDIT),
];

/** A binding of the ClusterRole of the same name; `apiGroup`s are left to the defaults. */
function binding(name: string, subjects: ReturnType<typeof user>[]): ClusterRoleBinding {
  const b: ClusterRoleBinding = { metadata: bootstrapMetadata(name), roleRef: { kind: 'ClusterRole', name } };
  if (subjects.length) b.subjects = subjects;
  return b;
}

/** The bootstrap ClusterRoleBindings. */
export const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: readonly ClusterRoleBinding[] = [
  binding('cluster-admin', [group('system:masters')]),
  binding('system:basic-user', [group('system:authenticated')]),
  binding('system:discovery', [group('system:authenticated')]),
  binding('system:kube-controller-manager', [user('system:kube-controller-manager')]),
  binding('system:kube-dns', [serviceAccount('kube-dns', 'kube-system')]),
  binding('system:kube-scheduler', [user('system:kube-scheduler')]),
  binding('system:monitoring', [group('system:monitoring')]),
  // Kept without subjects since the Node authorizer took over (bootstrappolicy's comment says why).
  binding('system:node', []),
  binding('system:node-proxier', [user('system:kube-proxy')]),
  binding('system:public-info-viewer', [group('system:authenticated'), group('system:unauthenticated')]),
  binding('system:service-account-issuer-discovery', [group('system:serviceaccounts')]),
  binding('system:volume-scheduler', [user('system:kube-scheduler')]),
];
