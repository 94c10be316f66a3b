/**
 * The Roles and RoleBindings kube-apiserver creates in kube-system and kube-public
 * (`plugin/pkg/auth/authorizer/rbac/bootstrappolicy/namespace_policy.go`; its
 * `testdata/namespace-roles.yaml` and `namespace-role-bindings.yaml`): leader election of the
 * controller manager and scheduler, the authentication configmap extension API servers read, and
 * the bootstrap-token controllers.
 */
import type { RoleBinding } from './role-binding.js';
import type { Role } from './role.js';
import { bootstrapMetadata, EVENTS_RULE, READ, resources, serviceAccount, user } from './bootstrap-rules.js';

const LEADER_LOCKING = [
  resources(['create', 'get', 'list', 'update', 'watch'], ['coordination.k8s.io'], ['leases']),
  resources(['create', 'get', 'list', 'update', 'watch'], ['coordination.k8s.io'], ['leasecandidates']),
];

const role = (namespace: string, name: string, rules: Role['rules']): Role => ({ metadata: bootstrapMetadata(name, {}, namespace), rules });

/** The namespaced bootstrap Roles, by namespace and name. */
export const BOOTSTRAP_NAMESPACE_ROLES: readonly Role[] = [
  role('kube-public', 'system:controller:bootstrap-signer', [
    resources(READ, [''], ['configmaps']),
    resources(['update'], [''], ['configmaps'], ['cluster-info']),
    EVENTS_RULE,
  ]),
  role('kube-system', 'extension-apiserver-authentication-reader', [resources(READ, [''], ['configmaps'], ['extension-apiserver-authentication'])]),
  role('kube-system', 'system::leader-locking-kube-controller-manager', LEADER_LOCKING),
  role('kube-system', 'system::leader-locking-kube-scheduler', LEADER_LOCKING),
  role('kube-system', 'system:controller:bootstrap-signer', [resources(READ, [''], ['secrets'])]),
  role('kube-system', 'system:controller:cloud-provider', [resources(['create', 'get', 'list', 'watch'], [''], ['configmaps'])]),
  role('kube-system', 'system:controller:token-cleaner', [resources(['delete', 'get', 'list', 'watch'], [''], ['secrets']), EVENTS_RULE]),
];

const binding = (namespace: string, name: string, roleName: string, subjects: RoleBinding['subjects']): RoleBinding => ({
  metadata: bootstrapMetadata(name, {}, namespace),
  roleRef: { kind: 'Role', name: roleName },
  subjects,
});

/** The namespaced bootstrap RoleBindings, by namespace and name. */
export const BOOTSTRAP_NAMESPACE_ROLE_BINDINGS: readonly RoleBinding[] = [
  binding('kube-public', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [serviceAccount('bootstrap-signer', 'kube-system')]),
  binding('kube-system', 'system::extension-apiserver-authentication-reader', 'extension-apiserver-authentication-reader', [
    user('system:kube-controller-manager'),
    user('system:kube-scheduler'),
  ]),
  binding('kube-system', 'system::leader-locking-kube-controller-manager', 'system::leader-locking-kube-controller-manager', [
    user('system:kube-controller-manager'),
    serviceAccount('kube-controller-manager', 'kube-system'),
    serviceAccount('leader-election-controller', 'kube-system'),
  ]),
  binding('kube-system', 'system::leader-locking-kube-scheduler', 'system::leader-locking-kube-scheduler', [
    user('system:kube-scheduler'),
    serviceAccount('kube-scheduler', 'kube-system'),
  ]),
  binding('kube-system', 'system:controller:bootstrap-signer', 'system:controller:bootstrap-signer', [serviceAccount('bootstrap-signer', 'kube-system')]),
  binding('kube-system', 'system:controller:cloud-provider', 'system:controller:cloud-provider', [serviceAccount('cloud-provider', 'kube-system')]),
  binding('kube-system', 'system:controller:token-cleaner', 'system:controller:token-cleaner', [serviceAccount('token-cleaner', 'kube-system')]),
];
