/** The admission attributes of a write (k8s.io/apiserver's `admission.NewAttributesRecord`). */
import type { AdmissionAttributes, AdmissionOperation } from '../admission/attributes.js';
import type { KubeObject } from '../schema/define-kind.js';
import type { ResolvedKind } from '../schema/registry.js';
import type { ApiRequest } from '../machinery/request.js';
import { isDryRun } from './options.js';
import { isQualifiedName } from '../schema/validation/names.js';

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
    addAnnotation: annotator(req),
  };
}

/** The annotations a request's admission plugins added, by request: a key is set once. */
const admissionAnnotations = new WeakMap<ApiRequest, Map<string, string>>();

/** `attributesRecord.AddAnnotation`: checks the key's form and refuses to overwrite, then records for audit. */
function annotator(req: ApiRequest): (key: string, value: string) => Error | undefined {
  return (key, value) => {
    if (key.split('/').length !== 2) {
      return new Error(
        "annotation key has invalid format, the right format is a DNS subdomain prefix and '/' and key name. (e.g. 'podsecuritypolicy.admission.k8s.io/admit-policy')",
      );
    }
    const msgs = isQualifiedName(key);
    if (msgs.length) {
      return new Error(
        `annotation key has invalid format ${msgs.join(',')}. A qualified name like 'podsecuritypolicy.admission.k8s.io/admit-policy' is required.`,
      );
    }
    let seen = admissionAnnotations.get(req);
    if (!seen) admissionAnnotations.set(req, (seen = new Map()));
    const old = seen.get(key);
    if (old !== undefined && old !== value) {
      return new Error(
        `admission annotations are not allowd to be overwritten, key:${JSON.stringify(key)}, old value: {Metadata ${old}}, new value: {Metadata ${value}}`,
      );
    }
    seen.set(key, value);
    req.audit?.addAnnotation(key, value);
    return undefined;
  };
}
