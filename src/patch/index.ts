/**
 * Patching as the Kubernetes API server does it: JSON patch, JSON merge patch and strategic
 * merge patch (apply), and the patches client-side `kubectl apply` computes (create). Pure
 * functions over plain JSON values; inputs are never modified. Failures are {@link PatchError}s
 * whose `toStatus()` is the response Kubernetes sends.
 */
export {
  PatchError,
  isPatchError,
  GENERIC_UNPROCESSABLE_MESSAGE,
  PANIC_MESSAGE,
  CUSTOM_RESOURCE_PATCH_TYPES,
  UNSUPPORTED_SMP_MESSAGE,
  type PatchErrorKind,
  type PatchStatus,
} from './errors.js';
export {
  applyJsonPatch,
  jsonPatchUnknownFields,
  MAX_JSON_PATCH_OPERATIONS,
  DEFAULT_JSON_PATCH_MAX_COPY_BYTES,
  MAX_JSON_NESTING_DEPTH,
  type FieldValidation,
  type JsonPatchOptions,
} from './json-patch.js';
export { applyMergePatch, createMergePatch, type MergePatchOptions } from './merge-patch.js';
export { applyStrategicMergePatch } from './strategic-merge.js';
export {
  createStrategicMergePatch,
  createThreeWayMergePatch,
  mergingMapsHaveConflicts,
  requireKeyUnchanged,
  requireMetadataKeyUnchanged,
  type CreatePatchOptions,
  type PatchPrecondition,
  type ThreeWayOptions,
} from './create-patch.js';
export { goPrintValue as goFormatValue } from '../util/go-print.js';
export type { JsonObject } from '../util/go-value.js';
export type { PatchMeta, PatchSchema } from './strategic-merge-meta.js';
