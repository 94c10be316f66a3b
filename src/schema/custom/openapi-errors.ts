/**
 * The errors kube-openapi's validator produces (k8s.io/kube-openapi/pkg/validation/errors), with
 * their exact message texts, and how apiextensions-apiserver turns them into field errors
 * (apiserver/validation/validation.go `kubeOpenAPIResultToFieldErrors`).
 *
 * Two kinds: a `Validation` error carries a name (the value's path, `spec.replicas`, which
 * becomes the field path) and a code that picks the field error type; a plain error (the
 * `anyOf`/`oneOf`/`allOf`/`not` messages, a bound that does not fit the type) carries only text
 * and is reported on the validator's base path (`<nil>` for a whole object).
 */
import { child, type FieldError, GoPrinted } from '../../machinery/field-errors.js';
import { goFormatFloat, goJson, goQuote } from '../../util/go-format.js';
import { goPrintValue } from '../../util/go-print.js';
import { goJsonSorted } from './canonical.js';

/** kube-openapi's error codes that `kubeOpenAPIResultToFieldErrors` tells apart. */
export type OpenApiErrorCode = 'required' | 'enum' | 'tooLong' | 'maxItems' | 'tooManyProperties' | 'invalidType' | 'other';

/** One error of kube-openapi's `Result`. */
export type OpenApiError =
  | {
      readonly kind: 'validation';
      readonly code: OpenApiErrorCode;
      /** The value's path (`spec.replicas`, `.spec` for a required root field). */
      readonly name: string;
      readonly message: string;
      /** The offending value, as Go holds it; `undefined` for none (nil). */
      readonly value?: unknown;
      /** The limit (`maxLength`, `maxItems`, `maxProperties`). */
      readonly valid?: number;
      /** The allowed values of an enum. */
      readonly values?: readonly unknown[];
    }
  | { readonly kind: 'plain'; readonly message: string };

const IN = 'body';

function validation(
  code: OpenApiErrorCode,
  name: string,
  message: string,
  extra: { value?: unknown; valid?: number; values?: readonly unknown[] } = {},
): OpenApiError {
  return { kind: 'validation', code, name, message, ...extra };
}

/** A number as Go's `%v` prints an int64 (`isInt`) or a float64 (`1e+06`). */
export function goNumberText(n: number | bigint, isInt: boolean): string {
  if (typeof n === 'bigint') return n.toString();
  return isInt ? BigInt(Math.trunc(n)).toString() : goFormatFloat(n);
}

/** A number as a field error shows it: an int64 as is, a float64 as Go's `%v` prints it. */
export function goNumberValue(n: number, isInt: boolean): unknown {
  return isInt ? n : new GoPrinted(goFormatFloat(n));
}

/** The constructors of kube-openapi's errors/schema.go, with their messages. */
export const openApiError = {
  /** `InvalidType`: a type (or format) mismatch; `value` is the data's type name, or the string that failed a format. */
  invalidType: (name: string, typeName: string, value: string): OpenApiError =>
    validation('invalidType', name, `${name} in ${IN} must be of type ${typeName}: ${goQuote(value)}`, { value }),
  required: (name: string): OpenApiError => validation('required', name, `${name} in ${IN} is required`),
  tooLong: (name: string, max: number, value: string): OpenApiError =>
    validation('tooLong', name, `${name} in ${IN} should be at most ${max} chars long`, { value, valid: max }),
  tooShort: (name: string, min: number, value: string): OpenApiError =>
    validation('other', name, `${name} in ${IN} should be at least ${min} chars long`, { value }),
  failedPattern: (name: string, pattern: string, value: string): OpenApiError =>
    validation('other', name, `${name} in ${IN} should match '${pattern}'`, { value }),
  enumFail: (name: string, value: unknown, values: readonly unknown[]): OpenApiError =>
    validation('enum', name, `${name} in ${IN} should be one of ${goPrintValue(values)}`, { value, values }),
  /** `NotMultipleOf`; `factor` and `value` already as Go holds them (int64 as bigint-compatible text). */
  notMultipleOf: (name: string, factorText: string, value: unknown): OpenApiError =>
    validation('other', name, `${name} in ${IN} should be a multiple of ${factorText}`, { value }),
  multipleOfMustBePositive: (name: string, factorText: string, factor: unknown): OpenApiError =>
    validation('other', name, `factor MultipleOf declared for ${name} must be positive: ${factorText}`, { value: factor }),
  exceedsMaximum: (name: string, maxText: string, exclusive: boolean, value: unknown): OpenApiError =>
    validation('other', name, `${name} in ${IN} should be less than ${exclusive ? '' : 'or equal to '}${maxText}`, { value }),
  exceedsMinimum: (name: string, minText: string, exclusive: boolean, value: unknown): OpenApiError =>
    validation('other', name, `${name} in ${IN} should be greater than ${exclusive ? '' : 'or equal to '}${minText}`, { value }),
  duplicateItems: (name: string): OpenApiError => validation('other', name, `${name} in ${IN} shouldn't contain duplicates`),
  tooManyItems: (name: string, max: number, size: number): OpenApiError =>
    validation('maxItems', name, `${name} in ${IN} should have at most ${max} items`, { value: size, valid: max }),
  tooFewItems: (name: string, min: number, size: number): OpenApiError =>
    validation('other', name, `${name} in ${IN} should have at least ${min} items`, { value: size }),
  tooManyProperties: (name: string, max: number, size: number): OpenApiError =>
    validation('tooManyProperties', name, `${name} in ${IN} should have at most ${max} properties`, { value: size, valid: max }),
  tooFewProperties: (name: string, min: number, size: number): OpenApiError =>
    validation('other', name, `${name} in ${IN} should have at least ${min} properties`, { value: size }),
  propertyNotAllowed: (name: string, key: string): OpenApiError => validation('other', name, `${name}.${key} in ${IN} is a forbidden property`, { value: key }),
  /** errors.New texts of the validate package (schema_messages.go). */
  plain: (message: string): OpenApiError => ({ kind: 'plain', message }),
};

/** A map or slice bad value as Go's `json.Marshal` writes it (members sorted); numbers come already shown. */
function shown(value: unknown): unknown {
  return typeof value === 'object' && value !== null && !(value instanceof GoPrinted) ? new GoPrinted(goJsonSorted(value)) : value;
}

/**
 * Field errors from kube-openapi errors, as `kubeOpenAPIResultToFieldErrors` makes them: the path is
 * `basePath` joined with the error's name (a leading `.` dropped); a plain error, or one without a
 * name, is reported on `basePath` itself (`<nil>` when there is none). Duplicate messages are
 * dropped, keeping the first, as kube-openapi's `Result` does.
 *
 * Bad values are already as a field error shows them (see {@link goNumberValue}).
 */
export function openApiErrorsToFieldErrors(errors: readonly OpenApiError[], basePath: string): FieldError[] {
  const seen = new Set<string>();
  const out: FieldError[] = [];
  const base = basePath === '' ? '<nil>' : basePath;
  for (const e of errors) {
    if (seen.has(e.message)) continue;
    seen.add(e.message);
    if (e.kind === 'plain') {
      out.push({ type: 'FieldValueInvalid', field: base, badValue: '', detail: e.message });
      continue;
    }
    const name = e.name.startsWith('.') ? e.name.slice(1) : e.name;
    const field = e.name === '' || e.name === '.' ? base : basePath === '' ? name : child(basePath, name);
    const value = e.value === undefined ? '' : shown(e.value);
    switch (e.code) {
      case 'required':
        out.push({ type: 'FieldValueRequired', field, detail: '' });
        break;
      case 'enum': {
        const supported = (e.values ?? []).map((v) => goQuote(typeof v === 'string' ? v : goJson(v)));
        out.push({
          type: 'FieldValueNotSupported',
          field,
          badValue: e.value === undefined ? null : shown(e.value),
          detail: supported.length ? `supported values: ${supported.join(', ')}` : '',
        });
        break;
      }
      case 'tooLong': {
        const max = e.valid ?? -1;
        out.push({ type: 'FieldValueTooLong', field, detail: max >= 0 ? `may not be more than ${max} ${max === 1 ? 'byte' : 'bytes'}` : 'value is too long' });
        break;
      }
      case 'maxItems':
      case 'tooManyProperties': {
        const max = e.valid ?? -1;
        const actual = typeof e.value === 'number' ? e.value : -1;
        out.push({
          type: 'FieldValueTooMany',
          field,
          badValue: actual >= 0 ? actual : undefined,
          detail: max >= 0 ? `must have at most ${max} ${max === 1 ? 'item' : 'items'}` : 'has too many items',
        });
        break;
      }
      case 'invalidType':
        out.push({ type: 'FieldValueTypeInvalid', field, badValue: value, detail: e.message });
        break;
      default:
        out.push({ type: 'FieldValueInvalid', field, badValue: value, detail: e.message });
    }
  }
  return out;
}
