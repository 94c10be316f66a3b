/**
 * `ValidateLabelSelector` of k8s.io/apimachinery/pkg/apis/meta/v1/validation, for selectors held in
 * objects (a PVC's `spec.selector`; workloads will need it too).
 */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { isValidLabelValue } from '../../schema/validation/names.js';
import { validateLabelName, validateLabels } from '../../schema/validation/object-meta.js';
import type { LabelSelector } from '../types/meta-v1.js';

/** `LabelSelectorValidationOptions`. */
export interface LabelSelectorValidationOptions {
  /** Skip the label value checks of `matchExpressions` (an update of an object that already has invalid ones). */
  readonly allowInvalidLabelValueInSelector?: boolean;
  /** Accept operators this server does not know (the selectors an access review asks about). */
  readonly allowUnknownOperatorInRequirement?: boolean;
}

/** A label selector requirement (`key`, `operator`, `values`). */
export interface LabelSelectorRequirementLike {
  readonly key: string;
  readonly operator: string;
  readonly values?: readonly string[];
}

/** `ValidateLabelSelectorRequirement`: the operator's values, the key, and the values themselves. */
export function validateLabelSelectorRequirement(expr: LabelSelectorRequirementLike, p: string, options: LabelSelectorValidationOptions = {}): FieldError[] {
  const errors: FieldError[] = [];
  const values = expr.values ?? [];
  switch (expr.operator) {
    case 'In':
    case 'NotIn':
      if (values.length === 0) errors.push(fieldError.required(child(p, 'values'), "must be specified when `operator` is 'In' or 'NotIn'"));
      break;
    case 'Exists':
    case 'DoesNotExist':
      if (values.length > 0) errors.push(fieldError.forbidden(child(p, 'values'), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      break;
    default:
      if (!options.allowUnknownOperatorInRequirement) errors.push(fieldError.invalid(child(p, 'operator'), expr.operator, 'not a valid selector operator'));
  }
  errors.push(...validateLabelName(expr.key, child(p, 'key')));
  if (!options.allowInvalidLabelValueInSelector)
    values.forEach((v, j) => {
      for (const msg of isValidLabelValue(v)) errors.push(fieldError.invalid(index(child(p, 'values'), j), v, msg));
    });
  return errors;
}

/** `ValidateLabelSelector` (metav1), label values checked unless the options allow invalid ones. */
export function validateLabelSelector(selector: LabelSelector | undefined, path: string, options: LabelSelectorValidationOptions = {}): FieldError[] {
  if (!selector) return [];
  const errors = validateLabels(selector.matchLabels, child(path, 'matchLabels'));
  (selector.matchExpressions ?? []).forEach((expr, i) => {
    errors.push(...validateLabelSelectorRequirement(expr, index(child(path, 'matchExpressions'), i), options));
  });
  return errors;
}
