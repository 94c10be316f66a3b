/**
 * The v1 defaults of a CustomResourceDefinition (apiextensions-apiserver/pkg/apis/apiextensions/v1
 * defaults.go and zz_generated.defaults.go): `names.singular` is the lower-cased kind,
 * `names.listKind` is the kind + `List` (when there is a kind), `conversion` is `{strategy: None}`
 * when absent, a conversion webhook service's `port` is 443, and an empty `status.storedVersions`
 * gets the storage version. `preserveUnknownFields` has no default: v1 omits it when false.
 */
import type { CustomResourceDefinition } from '../../types/apiextensions-v1.js';

/** Fills the v1 defaults of a definition in place. */
export function defaultCustomResourceDefinition(crd: CustomResourceDefinition): void {
  const spec = crd.spec;
  if (!spec || typeof spec !== 'object') return;
  const names = spec.names;
  if (names && typeof names === 'object') {
    const kind = typeof names.kind === 'string' ? names.kind : '';
    if (!names.singular && kind) names.singular = kind.toLowerCase();
    if (!names.listKind && kind) names.listKind = `${kind}List`;
  }
  spec.conversion ??= { strategy: 'None' };
  const service = spec.conversion?.webhook?.clientConfig?.service;
  if (service && typeof service === 'object') service.port ??= 443;
  const status = (crd.status ??= {});
  if (!status.storedVersions?.length) {
    const storage = (Array.isArray(spec.versions) ? spec.versions : []).find((v) => v?.storage === true);
    if (storage) status.storedVersions = [storage.name];
  }
}
