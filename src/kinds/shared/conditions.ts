/**
 * metav1 conditions (`metav1validation.ValidateConditions`), as the status of several groups' kinds
 * carries them (PodCertificateRequest, EvictionRequest, ResourcePoolStatusRequest, CompositePodGroup);
 * APIService checks its condition reasons with the same format.
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { isQualifiedName, regexError } from '../../schema/validation/names.js';

/** A metav1.Condition as the kinds carry it in their status. */
export interface MetaCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
  observedGeneration?: number;
}

const CONDITION_REASON_FMT = '[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?';
const CONDITION_REASON_RE = new RegExp(`^${CONDITION_REASON_FMT}$`);

/**
 * The format check metav1 `ValidateConditions` applies to a non-empty condition `reason` (one-word
 * CamelCase, e.g. `MyName`, `ReasonA,ReasonB`): its detail message, or none when the reason fits.
 */
export function conditionReasonErrors(reason: string): string[] {
  if (CONDITION_REASON_RE.test(reason)) return [];
  return [
    regexError(
      "a condition reason must start with alphabetic character, optionally followed by a string of alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'",
      CONDITION_REASON_FMT,
      'my_name',
      'MY_NAME',
      'MyName',
      'ReasonA,ReasonB',
      'ReasonA:ReasonB',
    ),
  ];
}

/** `metav1validation.ValidateConditions`. */
export function validateMetaConditions(conditions: readonly MetaCondition[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const p = `${path}[${i}]`;
    for (const m of isQualifiedName(c.type ?? '')) errs.push(fieldError.invalid(`${p}.type`, c.type ?? '', m));
    if (!['False', 'True', 'Unknown'].includes(c.status ?? '')) errs.push(fieldError.notSupported(`${p}.status`, c.status ?? '', ['False', 'True', 'Unknown']));
    if ((c.observedGeneration ?? 0) < 0)
      errs.push(fieldError.invalid(`${p}.observedGeneration`, c.observedGeneration, 'must be greater than or equal to zero'));
    if (!c.lastTransitionTime) errs.push(fieldError.required(`${p}.lastTransitionTime`, 'must be set'));
    const reason = c.reason ?? '';
    if (reason.length === 0) errs.push(fieldError.required(`${p}.reason`, 'must be set'));
    else {
      for (const m of conditionReasonErrors(reason)) errs.push(fieldError.invalid(`${p}.reason`, reason, m));
      if (reason.length > 1024) errs.push(fieldError.tooLong(`${p}.reason`, 1024));
    }
    if ((c.message ?? '').length > 32768) errs.push(fieldError.tooLong(`${p}.message`, 32768));
    if (seen.has(c.type)) errs.push(fieldError.duplicate(`${p}.type`, c.type));
    seen.add(c.type);
  });
  return errs;
}
