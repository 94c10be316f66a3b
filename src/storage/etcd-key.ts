/**
 * The etcd key kube-apiserver keeps an object under (`/registry/secrets/default/db`), for the
 * storage keys shown to users and bound into AES-GCM ciphertexts.
 */
import type { ObjectKey } from './storage.js';

/**
 * Groups whose resources kube-apiserver stores under `/registry/<resource>` without the group
 * (its storage factory's default resource prefix). Other groups (custom resources, the aggregator's
 * APIService, CustomResourceDefinitions) are stored under `/registry/<group>/<resource>`.
 */
const UNPREFIXED_GROUPS: ReadonlySet<string> = new Set([
  'core',
  'admissionregistration.k8s.io',
  'apps',
  'autoscaling',
  'batch',
  'certificates.k8s.io',
  'coordination.k8s.io',
  'discovery.k8s.io',
  'events.k8s.io',
  'flowcontrol.apiserver.k8s.io',
  'internal.apiserver.k8s.io',
  'networking.k8s.io',
  'node.k8s.io',
  'policy',
  'rbac.authorization.k8s.io',
  'resource.k8s.io',
  'scheduling.k8s.io',
  'storage.k8s.io',
  'storagemigration.k8s.io',
]);

/** kube-apiserver's own resource prefixes where they differ from the resource name. */
const PREFIX_OVERRIDES: ReadonlyMap<string, string> = new Map([
  ['core/nodes', 'minions'],
  ['core/services', 'services/specs'],
  ['core/endpoints', 'services/endpoints'],
  ['core/replicationcontrollers', 'controllers'],
  ['networking.k8s.io/ingresses', 'ingress'],
]);

/** The etcd key of an object of a bucket (`<group>/<resource>`, `core/...` for the core group). */
export function etcdKey(key: ObjectKey): string {
  const slash = key.bucket.indexOf('/');
  const group = key.bucket.slice(0, slash);
  const resource = key.bucket.slice(slash + 1);
  const prefix = PREFIX_OVERRIDES.get(key.bucket) ?? (UNPREFIXED_GROUPS.has(group) ? resource : `${group}/${resource}`);
  return key.namespace ? `/registry/${prefix}/${key.namespace}/${key.name}` : `/registry/${prefix}/${key.name}`;
}
