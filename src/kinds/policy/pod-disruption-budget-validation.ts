/**
 * PodDisruptionBudget validation of Kubernetes v1.36 (`pkg/apis/policy/validation/validation.go`:
 * `ValidatePodDisruptionBudgetSpec`, `ValidatePodDisruptionBudgetStatusUpdate`; the int-or-percent
 * rules of `pkg/apis/apps/validation`), in Kubernetes' order. ObjectMeta is checked by the engine.
 */
import { child, fieldError, GoPrinted, type FieldError } from '../../machinery/field-errors.js';
import { validateNonnegativeField } from '../../schema/validation/object-meta.js';
import { goQuote } from '../../util/go-format.js';
import { validateMetaConditions, type MetaCondition } from '../shared/conditions.js';
import { validateLabelSelector, type LabelSelectorValidationOptions } from '../shared/label-selector-validation.js';
import type { PodDisruptionBudgetSpec, PodDisruptionBudgetStatus } from '../types/policy-v1.js';
import type { IntOrString } from '../types/primitives.js';

/** `IsValidPercent`'s message. */
const PERCENT_MSG = "a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')";

/** The values `unhealthyPodEvictionPolicy` may take, sorted as Kubernetes lists them. */
export const UNHEALTHY_POD_EVICTION_POLICIES = ['AlwaysAllow', 'IfHealthyBudget'];

/** `%#v` of an `intstr.IntOrString`, as Kubernetes shows it in these errors (`Type:0` int, `Type:1` string). */
function goIntOrString(v: IntOrString): GoPrinted {
  return typeof v === 'number'
    ? new GoPrinted(`intstr.IntOrString{Type:0, IntVal:${v}, StrVal:""}`)
    : new GoPrinted(`intstr.IntOrString{Type:1, IntVal:0, StrVal:${goQuote(v)}}`);
}

/**
 * `%#v` of the internal `policy.PodDisruptionBudgetSpec`. Its fields are pointers, which Go prints
 * as addresses; memkube prints a set pointer as `(0xc000000000)`, a placeholder for an address that
 * differs on every request of a real server.
 */
function goSpec(spec: PodDisruptionBudgetSpec): GoPrinted {
  const ptr = (type: string, set: boolean) => `(*${type})(${set ? '0xc000000000' : 'nil'})`;
  return new GoPrinted(
    `policy.PodDisruptionBudgetSpec{MinAvailable:${ptr('intstr.IntOrString', spec.minAvailable !== undefined)}, ` +
      `Selector:${ptr('v1.LabelSelector', spec.selector !== undefined)}, ` +
      `MaxUnavailable:${ptr('intstr.IntOrString', spec.maxUnavailable !== undefined)}, ` +
      `UnhealthyPodEvictionPolicy:${ptr('policy.UnhealthyPodEvictionPolicyType', spec.unhealthyPodEvictionPolicy !== undefined)}}`,
  );
}

/** `ValidatePositiveIntOrPercent` then `IsNotMoreThan100Percent`. */
function intOrPercentErrors(v: IntOrString, path: string): FieldError[] {
  if (typeof v === 'number') return validateNonnegativeField(v, path);
  if (!/^[0-9]+%$/.test(v)) return [fieldError.invalid(path, goIntOrString(v), PERCENT_MSG)];
  return Number(v.slice(0, -1)) > 100 ? [fieldError.invalid(path, goIntOrString(v), 'must not be greater than 100%')] : [];
}

/** `ValidatePodDisruptionBudgetSpec`. */
export function validatePodDisruptionBudgetSpec(spec: PodDisruptionBudgetSpec, options: LabelSelectorValidationOptions): FieldError[] {
  const path = 'spec';
  const errs: FieldError[] = [];
  if (spec.minAvailable !== undefined && spec.maxUnavailable !== undefined) {
    errs.push(fieldError.invalid(path, goSpec(spec), 'minAvailable and maxUnavailable cannot be both set'));
  }
  if (spec.minAvailable !== undefined) errs.push(...intOrPercentErrors(spec.minAvailable, child(path, 'minAvailable')));
  if (spec.maxUnavailable !== undefined) errs.push(...intOrPercentErrors(spec.maxUnavailable, child(path, 'maxUnavailable')));
  errs.push(...validateLabelSelector(spec.selector, child(path, 'selector'), options));
  const policy = spec.unhealthyPodEvictionPolicy;
  if (policy !== undefined && !UNHEALTHY_POD_EVICTION_POLICIES.includes(policy)) {
    errs.push(fieldError.notSupported(child(path, 'unhealthyPodEvictionPolicy'), policy, UNHEALTHY_POD_EVICTION_POLICIES));
  }
  return errs;
}

/** Whether a stored selector has label values `ValidateLabelSelector` refuses (`hasInvalidLabelValueInLabelSelector`). */
export function hasInvalidLabelValue(spec: PodDisruptionBudgetSpec | undefined): boolean {
  if (!spec?.selector) return false;
  return validateLabelSelector(spec.selector, '').length > validateLabelSelector(spec.selector, '', { allowInvalidLabelValueInSelector: true }).length;
}

/** `ValidatePodDisruptionBudgetStatusUpdate` for policy/v1: conditions, and counts not negative. */
export function validatePodDisruptionBudgetStatus(status: PodDisruptionBudgetStatus): FieldError[] {
  const path = 'status';
  const errs = validateMetaConditions((status.conditions ?? []) as MetaCondition[], child(path, 'conditions'));
  for (const f of ['disruptionsAllowed', 'currentHealthy', 'desiredHealthy', 'expectedPods'] as const) {
    errs.push(...validateNonnegativeField(status[f] ?? 0, child(path, f)));
  }
  return errs;
}
