/**
 * NamespaceLifecycle (k8s.io/apiserver pkg/admission/plugin/namespace/lifecycle): a namespaced
 * object is created only in a namespace that exists and is not being terminated.
 */
import type { KubeObject, ObjectMetaLike } from '../../schema/define-kind.js';
import type { AdmissionAttributes } from '../attributes.js';
import { forbidden, notFound } from '../../machinery/errors.js';
import type { AdmissionPlugin } from '../plugin.js';
import { admissionName } from './pod-attributes.js';

export const namespaceLifecycle: AdmissionPlugin = {
  name: 'NamespaceLifecycle',
  operations: ['CREATE', 'UPDATE', 'DELETE'],
  admit(attributes, cluster) {
    const { operation, namespace, resource } = attributes;
    if (operation !== 'CREATE' || !namespace) return;
    if (resource.group === '' && resource.resource === 'namespaces') return;
    return cluster.read({ group: '', resource: 'namespaces' }, '', namespace).then((ns) => admitIn(ns, attributes, namespace));
  },
};

/** Refuses a create in a namespace that is missing or being terminated. */
function admitIn(ns: KubeObject | undefined, attributes: AdmissionAttributes, namespace: string): void {
  const { resource } = attributes;
  if (!ns) throw notFound({ group: '', resource: 'namespaces' }, namespace);
  const status = (ns.status ?? {}) as { phase?: string };
  if (status.phase === 'Terminating' || (ns.metadata as ObjectMetaLike | undefined)?.deletionTimestamp) {
    throw forbidden(
      { group: resource.group, resource: resource.resource },
      admissionName(attributes),
      `unable to create new content in namespace ${namespace} because it is being terminated`,
      [{ reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' }],
    );
  }
}
