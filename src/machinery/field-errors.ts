/**
 * Field-level validation errors, shaped like Kubernetes' `field.Error` so that a list of them
 * renders into the exact `metav1.Status` causes and message the real API server produces.
 */
import { goJson, goQuote } from '../util/go-format.js';

/**
 * The cause types Kubernetes reports for field errors (`metav1.CauseType`).
 * @category Errors
 */
export type FieldErrorType =
  | 'FieldValueNotFound'
  | 'FieldValueRequired'
  | 'FieldValueDuplicate'
  | 'FieldValueInvalid'
  | 'FieldValueNotSupported'
  | 'FieldValueForbidden'
  | 'FieldValueTooLong'
  | 'FieldValueTooMany'
  | 'InternalError'
  | 'FieldValueTypeInvalid';

/**
 * One problem with one field of an object.
 * @category Errors
 */
export interface FieldError {
  readonly type: FieldErrorType;
  /** Field path as Kubernetes writes it, e.g. `spec.containers[0].name` or `metadata.labels`. */
  readonly field: string;
  /** The offending value; `undefined` when the message should not show one. */
  readonly badValue?: unknown;
  readonly detail: string;
}

const typeText: Record<FieldErrorType, string> = {
  FieldValueNotFound: 'Not found',
  FieldValueRequired: 'Required value',
  FieldValueDuplicate: 'Duplicate value',
  FieldValueInvalid: 'Invalid value',
  FieldValueNotSupported: 'Unsupported value',
  FieldValueForbidden: 'Forbidden',
  FieldValueTooLong: 'Too long',
  FieldValueTooMany: 'Too many',
  InternalError: 'Internal error',
  FieldValueTypeInvalid: 'Invalid value',
};

/** Types whose message never shows the bad value, as in Kubernetes. */
const valueless = new Set<FieldErrorType>(['FieldValueRequired', 'FieldValueForbidden', 'FieldValueTooLong', 'InternalError']);

/**
 * A bad value already in the form Go prints it (a struct's `%#v`, a time's `String()`), shown as is
 * where Kubernetes reports a whole struct, e.g. `core.EventSource{Component:"", Host:""}`.
 */
export class GoPrinted {
  constructor(readonly text: string) {}
}

/** A bad value as Go prints it in a field error: `%q` for strings, `json.Marshal` for composites. */
function renderValue(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof GoPrinted) return value.text;
  switch (typeof value) {
    case 'string':
      return goQuote(value);
    case 'number':
    case 'boolean':
    case 'bigint':
      return String(value);
    default:
      try {
        return goJson(value);
      } catch {
        return String(value);
      }
  }
}

/** The message of one field error without its field path, e.g. `Invalid value: "x": must be ...`. */
export function fieldErrorBody(error: FieldError): string {
  let text = typeText[error.type];
  if (!valueless.has(error.type) && error.badValue !== undefined) {
    text += `: ${renderValue(error.badValue)}`;
  }
  if (error.detail) text += `: ${error.detail}`;
  return text;
}

/**
 * The full message of one field error, e.g. `metadata.name: Required value: name is required`.
 * @category Errors
 */
export function fieldErrorMessage(error: FieldError): string {
  return `${error.field}: ${fieldErrorBody(error)}`;
}

/**
 * Renders a list of errors the way Kubernetes' `ErrorList.ToAggregate()` does (deduplicated; brackets when several).
 * @category Errors
 */
export function aggregateMessage(errors: readonly FieldError[]): string {
  const seen = new Set<string>();
  const messages: string[] = [];
  for (const e of errors) {
    const m = fieldErrorMessage(e);
    if (!seen.has(m)) {
      seen.add(m);
      messages.push(m);
    }
  }
  if (messages.length === 1) return messages[0]!;
  return `[${messages.join(', ')}]`;
}

/**
 * Constructors mirroring `field.Required`, `field.Invalid`, ...
 * @category Errors
 */
export const fieldError = {
  /** `Required value`: the field must be set. */
  required: (field: string, detail = ''): FieldError => ({ type: 'FieldValueRequired', field, detail }),
  /** `Invalid value`: the value is wrong, `detail` says why. */
  invalid: (field: string, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueInvalid', field, badValue, detail }),
  /** `Unsupported value`: the value is not one of `supported`. */
  notSupported: (field: string, badValue: unknown, supported: readonly string[]): FieldError => ({
    type: 'FieldValueNotSupported',
    field,
    badValue,
    detail: supported.length ? `supported values: ${supported.map((s) => JSON.stringify(s)).join(', ')}` : '',
  }),
  /** `Forbidden`: the field may not be set (here, or to this). */
  forbidden: (field: string, detail: string): FieldError => ({ type: 'FieldValueForbidden', field, detail }),
  /** `Duplicate value`: the value occurs twice where it must be unique. */
  duplicate: (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueDuplicate', field, badValue, detail: '' }),
  /** `Not found`: the value names something that does not exist. */
  notFound: (field: string, badValue: unknown): FieldError => ({ type: 'FieldValueNotFound', field, badValue, detail: '' }),
  /** `Too long`: the value has more than `maxLength` bytes. */
  tooLong: (field: string, maxLength: number): FieldError => ({
    type: 'FieldValueTooLong',
    field,
    detail: `may not be more than ${maxLength} ${maxLength === 1 ? 'byte' : 'bytes'}`,
  }),
  /** `Too many`: the list has `actual` items, more than `max`. */
  tooMany: (field: string, actual: number, max: number): FieldError => ({
    type: 'FieldValueTooMany',
    field,
    badValue: actual,
    detail: `must have at most ${max} ${max === 1 ? 'item' : 'items'}`,
  }),
  /** `Invalid value` of the wrong type: `detail` names the expected one. */
  typeInvalid: (field: string, badValue: unknown, detail: string): FieldError => ({ type: 'FieldValueTypeInvalid', field, badValue, detail }),
  /** `Internal error`: validation itself failed. */
  internal: (field: string, detail: string): FieldError => ({ type: 'InternalError', field, detail }),
};

/** Joins a parent path and a child field name: `child('spec', 'containers')` is `spec.containers`. */
export function child(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

/** Indexes into a list path: `index('spec.containers', 0)` is `spec.containers[0]`. */
export function index(path: string, i: number): string {
  return `${path}[${i}]`;
}

/** Keys into a map path: `key('metadata.labels', 'a')` is `metadata.labels[a]`. */
export function key(path: string, k: string): string {
  return `${path}[${k}]`;
}
