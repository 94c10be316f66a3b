/**
 * The name rules of the DRA kinds (pkg/apis/resource/validation): driver names (as CSI driver
 * names), pool names, device, request and counter names, attribute and capacity names (qualified
 * names: an optional domain and a C identifier), with Kubernetes' hand-written messages.
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { isCIdentifier, isDNS1123Label, isDNS1123Subdomain } from '../../schema/validation/names.js';
import { utf8ByteLength } from '../../util/go-format.js';

/** `resource.PoolNameMaxLength`. */
export const POOL_NAME_MAX_LENGTH = 253;
/** `resource.DeviceMaxDomainLength`. */
export const DEVICE_MAX_DOMAIN_LENGTH = 63;
/** `resource.DeviceMaxIDLength`. */
export const DEVICE_MAX_ID_LENGTH = 32;
const DRIVER_NAME_MAX_LENGTH = 63;

/** `ValidateDNS1123Label`: each message an Invalid error. */
export function dnsLabel(value: string, path: string): FieldError[] {
  return isDNS1123Label(value).map((m) => fieldError.invalid(path, value, m));
}

/** `ValidateDNS1123Subdomain`: each message an Invalid error. */
export function dnsSubdomain(value: string, path: string): FieldError[] {
  return isDNS1123Subdomain(value).map((m) => fieldError.invalid(path, value, m));
}

/** `ValidateCSIDriverName`: required, at most 63 characters, a DNS subdomain in any case. */
export function validateDriverName(name: string | undefined, path: string): FieldError[] {
  const value = name ?? '';
  const errors: FieldError[] = [];
  if (value === '') errors.push(fieldError.required(path));
  if (value.length > DRIVER_NAME_MAX_LENGTH) errors.push(fieldError.tooLong(path, DRIVER_NAME_MAX_LENGTH));
  for (const m of isDNS1123Subdomain(value.toLowerCase())) errors.push(fieldError.invalid(path, value, m));
  return errors;
}

/** `validatePoolName`: DNS subdomains separated by `/`, at most 253 bytes. */
export function validatePoolName(name: string | undefined, path: string): FieldError[] {
  const value = name ?? '';
  if (value === '') return [fieldError.required(path)];
  const errors: FieldError[] = [];
  if (utf8ByteLength(value) > POOL_NAME_MAX_LENGTH) errors.push(fieldError.tooLong(path, POOL_NAME_MAX_LENGTH));
  for (const part of value.split('/')) errors.push(...dnsSubdomain(part, path));
  return errors;
}

/** A device, request or counter name: a DNS label. */
export const validateDeviceName = (name: string | undefined, path: string): FieldError[] => dnsLabel(name ?? '', path);

/** A device class name where one is required (`validateDeviceClass`). */
export function validateDeviceClassRef(name: string | undefined, path: string): FieldError[] {
  if (!name) return [fieldError.required(path)];
  return dnsSubdomain(name, path);
}

/** `validateCIdentifier`: at most 32 bytes, a C identifier. */
function validateCIdentifier(id: string, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (utf8ByteLength(id) > DEVICE_MAX_ID_LENGTH) errors.push(fieldError.tooLong(path, DEVICE_MAX_ID_LENGTH));
  for (const m of isCIdentifier(id)) errors.push(fieldError.invalid(path, id, m));
  return errors;
}

/** `validateQualifiedName`: a C identifier, optionally after a domain (a driver name) and `/`. */
export function validateQualifiedName(name: string, path: string): FieldError[] {
  const parts = name.split('/');
  if (parts.length === 1) return validateCIdentifier(parts[0]!, path);
  if (parts.length > 2) return [fieldError.invalid(path, name, 'must not contain more than one slash')];
  const [domain, id] = parts as [string, string];
  const errors: FieldError[] = [];
  if (domain === '') errors.push(fieldError.invalid(path, '', 'the domain must not be empty'));
  else errors.push(...validateDriverName(domain, path));
  if (id === '') errors.push(fieldError.invalid(path, '', 'the name must not be empty'));
  else errors.push(...validateCIdentifier(id, path));
  return errors;
}

/** `validateFullyQualifiedName`: a qualified name that has its domain. */
export function validateFullyQualifiedName(name: string, path: string): FieldError[] {
  const errors = validateQualifiedName(name, path);
  if (!name.includes('/')) errors.push(fieldError.invalid(path, name, 'a fully qualified name must be a domain and a name separated by a slash'));
  return errors;
}

/** Kubernetes' `truncateIfTooLong`: a long map key in a field path is cut in the middle. */
export function truncateKey(key: string, maxLen: number): string {
  const max = Math.max(maxLen, 16);
  if (key.length <= max) return key;
  const remaining = max - 3;
  return `${key.slice(0, Math.floor((remaining + 1) / 2))}...${key.slice(key.length - Math.floor(remaining / 2))}`;
}

/** The longest attribute or capacity name a field path shows whole: domain, `/`, identifier. */
export const ATTRIBUTE_KEY_MAX_LENGTH = DEVICE_MAX_DOMAIN_LENGTH + 1 + DEVICE_MAX_ID_LENGTH;
