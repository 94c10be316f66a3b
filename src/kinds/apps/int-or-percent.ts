/**
 * The int-or-percent rules of the rolling update strategies (`pkg/apis/apps/validation/validation.go`:
 * `ValidatePositiveIntOrPercent`, `getPercentValue`, `getIntOrPercentValue`, `IsNotMoreThan100Percent`).
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { validateNonnegativeField } from '../../schema/validation/object-meta.js';

/** `validation.IsValidPercent`'s message. */
export const PERCENT_MSG =
  "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** An IntOrString as JSON. */
export type IntOrPercent = number | string;

/** `getPercentValue`: the number of a valid percent string. */
export function percentValue(v: IntOrPercent): number | undefined {
  return typeof v === 'string' && /^[0-9]+%$/.test(v) ? Number(v.slice(0, -1)) : undefined;
}

/** `getIntOrPercentValue` (`IntValue()` of a string that is no number is 0, as `strconv.Atoi` fails). */
export function intOrPercentValue(v: IntOrPercent): number {
  const pct = percentValue(v);
  if (pct !== undefined) return pct;
  if (typeof v === 'number') return v;
  if (!/^[+-]?\d+$/.test(v)) return 0;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : 0;
}

/** `ValidatePositiveIntOrPercent`: a percent string `[0-9]+%`, or a number not below 0. */
export function validatePositiveIntOrPercent(v: IntOrPercent, path: string): FieldError[] {
  if (typeof v === 'string') return percentValue(v) === undefined ? [fieldError.invalid(path, v, PERCENT_MSG)] : [];
  return validateNonnegativeField(v, path);
}

/** `IsNotMoreThan100Percent`. */
export function notMoreThan100Percent(v: IntOrPercent, path: string): FieldError[] {
  const pct = percentValue(v);
  return pct !== undefined && pct > 100 ? [fieldError.invalid(path, v, 'must not be greater than 100%')] : [];
}
