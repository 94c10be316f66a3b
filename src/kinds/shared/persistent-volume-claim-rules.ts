/**
 * PersistentVolumeClaim rules of Kubernetes v1.36: v1 defaults, `ValidatePersistentVolumeClaim`
 * and the create/update warnings (the update rules are in pvc-update.ts).
 */
import { child, fieldError, key, type FieldError } from '../../machinery/field-errors.js';
import { isDNS1123Subdomain, validateNamespaceName } from '../../schema/validation/names.js';
import type { PersistentVolumeClaim, PersistentVolumeClaimSpec, TypedLocalObjectReference, TypedObjectReference } from '../types/core-v1.js';
import { validateLabelSelector } from './label-selector-validation.js';
import { canonicalQuantity, formatQuantity, parseQuantity, type Quantity } from '../../schema/quantity.js';

export const SUPPORTED_ACCESS_MODES = ['ReadOnlyMany', 'ReadWriteMany', 'ReadWriteOnce', 'ReadWriteOncePod'] as const;
export const SUPPORTED_VOLUME_MODES = ['Block', 'Filesystem'] as const;
/** `volume.beta.kubernetes.io/storage-class`: the pre-1.6 way to name a StorageClass. */
export const betaStorageClassAnnotation = (reservedDomain: string) => `volume.beta.${reservedDomain}/storage-class`;

/** Kubernetes passes a `*field.Path` as the bad value here, which JSON-encodes as `{}`. */
const PATH_VALUE = {};

/** Canonical quantities in a resource list, as Kubernetes stores them. */
function canonicalList(list: Record<string, string | number> | undefined): void {
  if (!list) return;
  for (const [k, v] of Object.entries(list)) list[k] = canonicalQuantity(v);
}

/** `SetDefaults_PersistentVolumeClaim(Spec)`, plus the quantity canonicalization of decoding. */
export function defaultPersistentVolumeClaim(pvc: PersistentVolumeClaim): void {
  const spec = (pvc.spec ??= {});
  spec.volumeMode ??= 'Filesystem';
  canonicalList(spec.resources?.requests);
  canonicalList(spec.resources?.limits);
  const status = (pvc.status ??= {});
  status.phase ||= 'Pending';
  canonicalList(status.capacity);
  canonicalList(status.allocatedResources);
}

/** `validateDataSource` / `validateDataSourceRef`. */
function validateDataSource(ref: TypedLocalObjectReference | TypedObjectReference, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!ref.name) errors.push(fieldError.required(child(path, 'name')));
  if (!ref.kind) errors.push(fieldError.required(child(path, 'kind')));
  const apiGroup = ref.apiGroup ?? '';
  if (apiGroup === '' && ref.kind !== 'PersistentVolumeClaim') {
    errors.push(fieldError.invalid(path, ref.kind ?? '', "must be 'PersistentVolumeClaim' when referencing the default apiGroup"));
  }
  if (apiGroup !== '') {
    for (const msg of isDNS1123Subdomain(apiGroup)) errors.push(fieldError.invalid(child(path, 'apiGroup'), apiGroup, msg));
  }
  const namespace = 'namespace' in ref ? (ref.namespace ?? '') : '';
  if (namespace !== '') {
    for (const msg of validateNamespaceName(namespace, false)) errors.push(fieldError.invalid(child(path, 'namespace'), namespace, msg));
  }
  return errors;
}

export function storageRequest(spec: PersistentVolumeClaimSpec | undefined): Quantity | undefined {
  const v = spec?.resources?.requests?.['storage'];
  return v === undefined ? undefined : parseQuantity(v);
}

/** `ValidatePersistentVolumeClaimSpec`. */
export function validatePersistentVolumeClaimSpec(spec: PersistentVolumeClaimSpec | undefined, path = 'spec'): FieldError[] {
  const s = spec ?? {};
  const errors: FieldError[] = [];
  const modesPath = child(path, 'accessModes');
  const modes = s.accessModes ?? [];
  if (modes.length === 0) errors.push(fieldError.required(modesPath, 'at least 1 access mode is required'));
  errors.push(...validateLabelSelector(s.selector, child(path, 'selector')));
  let rwop = false;
  let others = false;
  for (const mode of modes) {
    const supported = (SUPPORTED_ACCESS_MODES as readonly string[]).includes(mode);
    if (!supported) errors.push(fieldError.notSupported(modesPath, mode, SUPPORTED_ACCESS_MODES));
    if (mode === 'ReadWriteOncePod') rwop = true;
    else if (supported) others = true;
  }
  if (rwop && others) errors.push(fieldError.forbidden(modesPath, 'may not use ReadWriteOncePod with other access modes'));

  const storagePath = key(child(path, 'resources'), 'storage');
  const storage = storageRequest(s);
  if (s.resources?.requests?.['storage'] === undefined) errors.push(fieldError.required(storagePath));
  else if (storage && storage.nanos <= 0n) errors.push(fieldError.invalid(storagePath, formatQuantity(storage), 'must be greater than zero'));

  if (s.storageClassName) {
    for (const msg of isDNS1123Subdomain(s.storageClassName)) errors.push(fieldError.invalid(child(path, 'storageClassName'), s.storageClassName, msg));
  }
  if (s.volumeMode !== undefined && !(SUPPORTED_VOLUME_MODES as readonly string[]).includes(s.volumeMode)) {
    errors.push(fieldError.notSupported(child(path, 'volumeMode'), s.volumeMode, SUPPORTED_VOLUME_MODES));
  }
  if (s.dataSource) errors.push(...validateDataSource(s.dataSource, child(path, 'dataSource')));
  if (s.dataSourceRef) errors.push(...validateDataSource(s.dataSourceRef, child(path, 'dataSourceRef')));
  if (s.dataSourceRef?.namespace) {
    if (s.dataSource) errors.push(fieldError.invalid(path, PATH_VALUE, 'may not be specified when dataSourceRef.namespace is specified'));
  } else if (s.dataSource && s.dataSourceRef) {
    const same =
      (s.dataSource.apiGroup ?? null) === (s.dataSourceRef.apiGroup ?? null) &&
      (s.dataSource.kind ?? '') === (s.dataSourceRef.kind ?? '') &&
      (s.dataSource.name ?? '') === (s.dataSourceRef.name ?? '');
    if (!same) errors.push(fieldError.invalid(path, PATH_VALUE, 'must match dataSourceRef'));
  }
  if (s.volumeAttributesClassName) {
    for (const msg of isDNS1123Subdomain(s.volumeAttributesClassName)) {
      errors.push(fieldError.invalid(child(path, 'volumeAttributesClassName'), s.volumeAttributesClassName, msg));
    }
  }
  return errors;
}

/** `GetWarningsForPersistentVolumeClaim`. */
export function persistentVolumeClaimWarnings(pvc: PersistentVolumeClaim, reservedDomain: string): string[] {
  const warnings: string[] = [];
  const annotation = betaStorageClassAnnotation(reservedDomain);
  if (pvc.metadata?.annotations && Object.prototype.hasOwnProperty.call(pvc.metadata.annotations, annotation)) {
    warnings.push(`metadata.annotations[${annotation}]: deprecated since v1.8; use "storageClassName" attribute instead`);
  }
  for (const list of ['requests', 'limits'] as const) {
    const value = pvc.spec?.resources?.[list]?.['storage'];
    const q = value === undefined ? undefined : parseQuantity(value);
    // MilliValue() rounds up to whole milli-units before the check.
    if (q && ((q.nanos + (q.nanos > 0n ? 999_999n : 0n)) / 1_000_000n) % 1000n !== 0n) {
      warnings.push(`spec.resources.${list}[storage]: fractional byte value ${JSON.stringify(formatQuantity(q))} is invalid, must be an integer`);
    }
  }
  return warnings;
}
