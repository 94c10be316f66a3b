/**
 * Server-side apply and field management, as Kubernetes does them (sigs.k8s.io/structured-merge-diff
 * and k8s.io/apimachinery `pkg/util/managedfields`): field paths and sets, FieldsV1,
 * `metadata.managedFields`, ownership on update, and apply with conflicts.
 */
export {
  comparePathElements,
  comparePaths,
  deserializePathElement,
  pathElement,
  pathElementsEqual,
  pathElementString,
  PathElementError,
  pathString,
  serializePathElement,
  UNKNOWN_PATH_ELEMENT,
  type FieldPath,
  type KeyField,
  type PathElement,
} from './field-path.js';
export { FieldSet, FieldSetBuilder, FieldsV1Error } from './field-set.js';
export { listItemPathElement, ListItemError, toFieldSet } from './to-field-set.js';
export { listShape, DEDUCED, UNTYPED_ATOMIC, type ListAtom, type TypeRef } from './schema.js';
export type { JsonValue, JsonObject } from './value.js';
export {
  compare,
  ensureNamedFieldsAreMembers,
  merge,
  MergeError,
  removeItems,
  validateTyped,
  typedErrorsMessage,
  type Comparison,
  type TypedError,
} from './typed.js';
export { withGoZeroValues } from './go-zero.js';
export {
  ANCIENT_CHANGES_MANAGER,
  BEFORE_FIRST_APPLY_MANAGER,
  capUpdateManagers,
  decodeManagedFields,
  DEFAULT_MAX_UPDATE_MANAGERS,
  encodeManagedFields,
  isResetManagedFields,
  ManagedFieldsDecodeError,
  managedFromRequest,
  managerIdentifier,
  validateManagedFields,
  type ManagedFields,
  type ManagedFieldsEntry,
  type ManagedFieldsOperation,
  type ManagerState,
} from './managed-fields.js';
export { recordUpdate, STRIPPED_FIELDS, updateManagers, type RecordUpdateOptions } from './update.js';
export {
  ApplyConflictError,
  conflictCauses,
  formatConflictMessage,
  LAST_APPLIED_ANNOTATION,
  printConflictManager,
  serverSideApply,
  type ApplyConflict,
  type ServerSideApplyOptions,
  type ServerSideApplyResult,
} from './apply.js';
