/**
 * A policy binding's `paramRef` (`validateParamRef` of pkg/apis/admissionregistration/validation) and
 * its `ParamRef` printer column, shared by the validating and mutating policy bindings.
 */
import { child, fieldError, type FieldError } from '../../machinery/field-errors.js';
import { isPathSegmentName } from '../../schema/validation/names.js';
import { labelSelectorFromObject, type LabelSelectorObject } from '../../selectors/label-selector.js';
import { validateLabelSelector } from '../shared/label-selector-validation.js';
import type { ParamRef } from '../types/admissionregistration-v1.js';

/** `parameterNotFoundAction` values, in the order Kubernetes lists them. */
const PARAMETER_NOT_FOUND_ACTIONS = ['Deny', 'Allow'];
const EXCLUSIVE_MSG = 'name and selector are mutually exclusive';

/** `validateParamRef`: a path-segment `name` or a `selector` (one, not both), and a `parameterNotFoundAction`. */
export function validateParamRef(pr: ParamRef, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const name = pr.name ?? '';
  if (name !== '') {
    for (const msg of isPathSegmentName(name)) errors.push(fieldError.invalid(child(path, 'name'), name, msg));
    if (pr.selector) errors.push(fieldError.forbidden(child(path, 'name'), EXCLUSIVE_MSG));
  }
  if (pr.selector) {
    errors.push(...validateLabelSelector(pr.selector, child(path, 'selector')));
    if (name !== '') errors.push(fieldError.forbidden(child(path, 'selector'), EXCLUSIVE_MSG));
  }
  if (name === '' && !pr.selector) errors.push(fieldError.required(path, 'one of name or selector must be specified'));
  const action = pr.parameterNotFoundAction ?? '';
  if (action === '') errors.push(fieldError.required(child(path, 'parameterNotFoundAction')));
  else if (!PARAMETER_NOT_FOUND_ACTIONS.includes(action))
    errors.push(fieldError.notSupported(child(path, 'parameterNotFoundAction'), action, PARAMETER_NOT_FOUND_ACTIONS));
  return errors;
}

/** The `ParamRef` printer column as Kubernetes prints it: `<namespace>/<name>`, `*\/<name>`, the selector, or `<unset>`. */
export function paramRefColumn(pr: ParamRef | undefined): string {
  if (!pr) return '<unset>';
  if (pr.name) return `${pr.namespace ? pr.namespace : '*'}/${pr.name}`;
  if (pr.selector) {
    try {
      return labelSelectorFromObject(pr.selector as LabelSelectorObject).toString();
    } catch {
      return '<error>';
    }
  }
  return '<unset>';
}
