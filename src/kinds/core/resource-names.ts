/**
 * Resource names and quantities as LimitRange and ResourceQuota check them (Kubernetes v1.36
 * `pkg/apis/core/validation/validation.go` `validateResourceName`, `validateContainerResourceName`,
 * `ValidateResourceQuotaResourceName`, `ValidateResourceQuantityValue`; the sets of
 * `pkg/apis/core/helper/helpers.go`).
 */
import { fieldError, GoPrinted, type FieldError } from '../../machinery/field-errors.js';
import { isQualifiedName } from '../../schema/validation/names.js';
import { quantityText, quantityValue } from '../shared/resource-lists.js';
import { INTEGER_RESOURCES, STANDARD_QUOTA_RESOURCES, STANDARD_RESOURCES } from '../shared/standard-resources.js';

const isHugePages = (name: string) => name.startsWith('hugepages-');
const isQuotaHugePages = (name: string) => isHugePages(name) || name.startsWith('requests.hugepages-');
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');

/** `IsExtendedResourceName`. */
export function isExtendedResourceName(name: string): boolean {
  if (isNative(name) || name.startsWith('requests.')) return false;
  return isQualifiedName(`requests.${name}`).length === 0;
}

/** `IsOvercommitAllowed`. */
export function isOvercommitAllowed(name: string): boolean {
  return isNative(name) && !isHugePages(name);
}

/** `IsStandardQuotaResourceName`. */
export function isStandardQuotaResourceName(name: string): boolean {
  return STANDARD_QUOTA_RESOURCES.has(name) || isQuotaHugePages(name);
}

/** `validateResourceName`. */
export function resourceNameErrors(name: string, path: string): FieldError[] {
  const errs = isQualifiedName(name).map((msg) => fieldError.invalid(path, name, msg));
  if (errs.length) return errs;
  if (!name.includes('/') && !STANDARD_RESOURCES.has(name) && !isQuotaHugePages(name)) {
    return [fieldError.invalid(path, name, 'must be a standard resource type or fully qualified')];
  }
  return [];
}

/** `validateContainerResourceName`. */
export function containerResourceNameErrors(name: string, path: string): FieldError[] {
  const errs = resourceNameErrors(name, path);
  if (!name.includes('/')) {
    if (!['cpu', 'memory', 'ephemeral-storage'].includes(name) && !isHugePages(name)) {
      errs.push(fieldError.invalid(path, name, 'must be a standard resource for containers'));
    }
  } else if (!isNative(name) && !isExtendedResourceName(name)) {
    errs.push(fieldError.invalid(path, name, "doesn't follow extended resource name standard"));
  }
  return errs;
}

/** `ValidateResourceQuotaResourceName`. */
export function quotaResourceNameErrors(name: string, path: string): FieldError[] {
  const errs = resourceNameErrors(name, path);
  if (!name.includes('/') && !isStandardQuotaResourceName(name)) errs.push(fieldError.invalid(path, name, 'must be a standard resource for quota'));
  return errs;
}

/** `ValidateResourceQuantityValue`: not negative; whole for the integer resources. */
export function quantityValueErrors(name: string, value: string | number, path: string): FieldError[] {
  const q = quantityValue(value);
  if (!q) return [];
  const errs: FieldError[] = [];
  if (q.nanos < 0n) errs.push(fieldError.invalid(path, quantityText(q), 'must be greater than or equal to 0'));
  const integer = INTEGER_RESOURCES.has(name) || isExtendedResourceName(name);
  // MilliValue() rounds up to whole milli-units.
  const milli = q.nanos >= 0n ? (q.nanos + 999_999n) / 1_000_000n : q.nanos / 1_000_000n;
  if (integer && milli % 1000n !== 0n) errs.push(fieldError.invalid(path, new GoPrinted(quantityText(q)), 'must be an integer'));
  return errs;
}
