/** `ValidatePersistentVolumeClaimUpdate` of Kubernetes v1.36: what may change in a claim. */
import { fieldError, type FieldError } from '../../../machinery/field-errors.js';
import type { StructuralNode } from '../../../schema/structural.js';
import { immutableFieldError } from '../../../schema/validation/immutable-fields.js';
import { PersistentVolumeClaim as PersistentVolumeClaimSchema, type PersistentVolumeClaim, type PersistentVolumeClaimSpec } from '../../types/core-v1.js';
import { childNode, fieldNode, semanticEqual } from '../../shared/semantic-equal.js';
import { betaStorageClassAnnotation, storageRequest } from '../../shared/persistent-volume-claim-rules.js';
import { compareQuantities, parseQuantity } from '../../../schema/quantity.js';

const IMMUTABLE_SPEC_DETAIL = 'spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims';

/** Go field names of PersistentVolumeClaimSpec, for the diff in the immutability message. */
const GO_SPEC_FIELDS: Record<string, string> = {
  accessModes: 'AccessModes',
  selector: 'Selector',
  resources: 'Resources',
  volumeName: 'VolumeName',
  storageClassName: 'StorageClassName',
  volumeMode: 'VolumeMode',
  dataSource: 'DataSource',
  dataSourceRef: 'DataSourceRef',
  volumeAttributesClassName: 'VolumeAttributesClassName',
};

/** PersistentVolumeClaimSpec's structural schema, for `apiequality.Semantic.DeepEqual`. */
let specNode: StructuralNode | undefined;
const spec = (): StructuralNode | undefined => (specNode ??= fieldNode(PersistentVolumeClaimSchema(), 'spec'));

/**
 * A diff of two specs in the spirit of go-cmp's output (Kubernetes appends `cmp.Diff` to the
 * message; its exact text is deliberately unstable, so only its shape is reproduced).
 */
function specDiff(oldSpec: Record<string, unknown>, newSpec: Record<string, unknown>): string {
  const lines = ['  core.PersistentVolumeClaimSpec{'];
  let same = 0;
  for (const [field, goName] of Object.entries(GO_SPEC_FIELDS)) {
    const a = oldSpec[field];
    const b = newSpec[field];
    if (semanticEqual(a, b, childNode(spec(), field))) {
      same++;
      continue;
    }
    if (a !== undefined) lines.push(`- \t${goName}: ${JSON.stringify(a)},`);
    if (b !== undefined) lines.push(`+ \t${goName}: ${JSON.stringify(b)},`);
  }
  if (same) lines.push(`  \t... // ${same} identical field${same === 1 ? '' : 's'}`);
  lines.push('  }');
  return lines.join('\n');
}

/** `ValidatePersistentVolumeClaimUpdate` after `ValidatePersistentVolumeClaim` (done by `validate`). */
export function validatePersistentVolumeClaimUpdate(pvc: PersistentVolumeClaim, old: Readonly<PersistentVolumeClaim>, reservedDomain: string): FieldError[] {
  const errors: FieldError[] = [];
  const newSpec = structuredClone(pvc.spec ?? {}) as Record<string, unknown> & PersistentVolumeClaimSpec;
  const oldSpec = structuredClone(old.spec ?? {}) as Record<string, unknown> & PersistentVolumeClaimSpec;
  // The volume binder sets volumeName once.
  if (!old.spec?.volumeName) oldSpec.volumeName = newSpec.volumeName;

  const annotation = betaStorageClassAnnotation(reservedDomain);
  const oldAnnotations = old.metadata?.annotations ?? {};
  const newAnnotations = pvc.metadata?.annotations ?? {};
  const oldHasAnnotation = Object.prototype.hasOwnProperty.call(oldAnnotations, annotation);
  const newHasAnnotation = Object.prototype.hasOwnProperty.call(newAnnotations, annotation);
  const upgradeFromAnnotation =
    oldHasAnnotation &&
    old.spec?.storageClassName === undefined &&
    pvc.spec?.storageClassName !== undefined &&
    pvc.spec.storageClassName === oldAnnotations[annotation] &&
    (!newHasAnnotation || newAnnotations[annotation] === oldAnnotations[annotation]);
  if (upgradeFromAnnotation) {
    delete newSpec.storageClassName;
  } else {
    const before = oldAnnotations[annotation] ?? '';
    const after = newAnnotations[annotation] ?? '';
    if (before !== after) errors.push(immutableFieldError(`metadata.annotations.${annotation}`, after));
    // A class may be set on a claim that had none (and no conflicting annotation).
    if (
      pvc.spec?.storageClassName !== undefined &&
      old.spec?.storageClassName === undefined &&
      (!oldHasAnnotation || pvc.spec.storageClassName === oldAnnotations[annotation])
    ) {
      newSpec.storageClassName = oldSpec.storageClassName;
      if (newSpec.storageClassName === undefined) delete newSpec.storageClassName;
    }
  }
  // Bound claims may change their storage request and attributes class.
  if (pvc.status?.phase === 'Bound') {
    if (newSpec.resources?.requests) {
      const oldStorage = old.spec?.resources?.requests?.['storage'];
      if (oldStorage === undefined) delete newSpec.resources.requests['storage'];
      else newSpec.resources.requests['storage'] = oldStorage;
    }
    if (newSpec.volumeAttributesClassName !== undefined) {
      if (oldSpec.volumeAttributesClassName === undefined) delete newSpec.volumeAttributesClassName;
      else newSpec.volumeAttributesClassName = oldSpec.volumeAttributesClassName;
    }
  }
  // Semantic equality: an empty list or map equals an absent one; an empty struct (`selector: {}`)
  // is not a nil pointer.
  if (!semanticEqual(newSpec, oldSpec, spec())) {
    errors.push(fieldError.forbidden('spec', `${IMMUTABLE_SPEC_DETAIL}\n${specDiff(oldSpec, newSpec)}`));
  }

  const oldSize = storageRequest(old.spec) ?? { nanos: 0n, format: 'DecimalSI' as const };
  const newSize = storageRequest(pvc.spec) ?? { nanos: 0n, format: 'DecimalSI' as const };
  const capacityValue = old.status?.capacity?.['storage'];
  const capacity = (capacityValue === undefined ? undefined : parseQuantity(capacityValue)) ?? { nanos: 0n, format: 'DecimalSI' as const };
  if (compareQuantities(newSize, oldSize) < 0 && compareQuantities(newSize, capacity) <= 0) {
    errors.push(fieldError.forbidden('spec.resources.requests.storage', 'field can not be less than status.capacity'));
  }
  if ((pvc.spec?.volumeMode ?? null) !== (old.spec?.volumeMode ?? null)) {
    errors.push(immutableFieldError('volumeMode', pvc.spec?.volumeMode ?? null));
  }
  const oldClass = old.spec?.volumeAttributesClassName;
  const newClass = pvc.spec?.volumeAttributesClassName;
  if (oldClass !== undefined && oldClass !== newClass) {
    if (newClass === undefined) errors.push(fieldError.forbidden('spec.volumeAttributesClassName', 'update from non-nil value to nil is forbidden'));
    else if (newClass === '') errors.push(fieldError.forbidden('spec.volumeAttributesClassName', 'update from non-nil value to an empty string is forbidden'));
  }
  return errors;
}
