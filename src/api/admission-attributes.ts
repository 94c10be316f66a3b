/** The admission attributes of a write (k8s.io/apiserver's `admission.NewAttributesRecord`). */
import type { AdmissionAttributes, AdmissionOperation } from '../admission/attributes.js';
import type { KubeObject } from '../schema/define-kind.js';
import type { ResolvedKind } from '../schema/registry.js';
import type { ApiRequest } from '../machinery/request.js';
import { isDryRun } from './options.js';

/** What admission sees of `req` writing `object` over `oldObject`; both are in the storage version. */
export function admissionAttributes(
  kind: ResolvedKind,
  req: ApiRequest,
  operation: AdmissionOperation,
  object: KubeObject | undefined,
  oldObject: Readonly<KubeObject> | undefined,
): AdmissionAttributes {
  const meta = object?.metadata ?? oldObject?.metadata;
  return {
    user: req.user,
    operation,
    kind: { group: kind.group, version: req.resource.version, kind: kind.definition.kind },
    resource: { group: kind.group, version: req.resource.version, resource: kind.definition.plural },
    subresource: req.subresource ?? '',
    namespace: kind.namespaced ? (meta?.namespace ?? req.namespace ?? '') : '',
    name: meta?.name ?? req.name ?? '',
    object,
    oldObject,
    dryRun: isDryRun(operation === 'DELETE' ? req.deleteOptions : req.writeOptions),
  };
}
