/**
 * Fields that may not change once an object exists: the `field is immutable` error of Kubernetes'
 * `ValidateImmutableField` (k8s.io/apimachinery/pkg/api/validation/generic.go) and of the
 * declarative `+k8s:immutable` tag (`validate.Immutable`, k8s.io/apimachinery/pkg/api/validate),
 * and the check of the fields a kind declares immutable (`immutableFields` of `defineKind`).
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { jsonEqual } from '../../util/json-equal.js';

/** `apimachinery/pkg/api/validation.FieldImmutableErrorMsg`, also the detail of `validate.Immutable`. */
export const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';

/**
 * The error for a field that changed: Invalid, showing `shown` (Kubernetes shows the new value;
 * the declarative `+k8s:immutable` shows Go's nil, `null`).
 */
export function immutableFieldError(path: string, shown: unknown): FieldError {
  return fieldError.invalid(path, shown, FIELD_IMMUTABLE_ERROR_MSG);
}

/**
 * A field declared immutable, with how its old and new values compare and what the error shows.
 * A bare string (`'spec.foo'`) is `{ path: 'spec.foo' }`: JSON equality, the new value shown.
 * @category Defining kinds
 */
export interface ImmutableField {
  /** The field's path from the object's root, dot-separated (`spec.leaseName`); also the error's field. */
  readonly path: string;
  /**
   * The value an absent field has, in the comparison and in the message: Go's zero value of a field
   * that is not a pointer (`''` for a string: unset and `""` are the same value).
   */
  readonly zero?: unknown;
  /**
   * The value an absent field of the stored object counts as: the default Kubernetes fills in when
   * it reads an object stored before the field had one.
   */
  readonly storedDefault?: unknown;
  /**
   * Whether the new and the old value (after `zero` and `storedDefault`) are the same. JSON equality
   * by default; `semanticEqualAt` of kinds/shared/semantic-equal.ts gives Go's
   * `apiequality.Semantic.DeepEqual`, where an empty list or map equals an absent one.
   */
  readonly equal?: (now: unknown, before: unknown) => boolean;
  /**
   * What the error shows: `'value'` (default) the new value (`null` when absent), as
   * `ValidateImmutableField`; `'nil'` Go's nil, as the declarative `+k8s:immutable`; or a function
   * of the new value (a Go-printed struct).
   */
  readonly shown?: 'value' | 'nil' | ((now: unknown) => unknown);
}

/** What {@link immutableFieldErrors} reads of a kind. */
export interface DeclaresImmutableFields {
  readonly immutableFields?: readonly (string | ImmutableField)[];
}

/**
 * The `field is immutable` errors of an update of the main resource: one per declared field whose
 * value changed, in declaration order.
 */
export function immutableFieldErrors(kind: DeclaresImmutableFields, obj: object, old: object): FieldError[] {
  const fields = kind.immutableFields;
  if (!fields?.length) return [];
  const errors: FieldError[] = [];
  for (const declared of fields) {
    const field = typeof declared === 'string' ? { path: declared } : declared;
    const steps = field.path.split('.');
    const now = valueAt(obj, steps) ?? field.zero;
    const before = valueAt(old, steps) ?? field.storedDefault ?? field.zero;
    if ((field.equal ?? jsonEqual)(now, before)) continue;
    const shown = field.shown ?? 'value';
    errors.push(immutableFieldError(field.path, shown === 'value' ? (now ?? null) : shown === 'nil' ? null : shown(now)));
  }
  return errors;
}

function valueAt(obj: object, steps: readonly string[]): unknown {
  let at: unknown = obj;
  for (const step of steps) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined;
    at = Object.hasOwn(at, step) ? (at as Record<string, unknown>)[step] : undefined;
  }
  return at;
}
