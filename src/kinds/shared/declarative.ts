/**
 * The checks of Kubernetes' declarative validation (k8s.io/apimachinery/pkg/api/validate) that the
 * lifecycle and resource kinds use, with their exact messages. Kubernetes v1.36 validates these
 * kinds only declaratively, so these texts (not the older hand-written ones) are what clients see.
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import {
  isCIdentifier,
  isDNS1123Subdomain,
  isQualifiedName,
  maxLenBytesError,
  maxLenError,
  regexError,
  utf8ByteLength,
  DNS1123_SUBDOMAIN_FMT,
} from '../../schema/validation/names.js';

const SUBDOMAIN_MAX = 253;

/**
 * Go's nil as a bad value (`validate.Immutable` shows it: `immutableFieldError(path, GO_NIL)`).
 * Go renders a nil bad value as the string "null", quoted (`Invalid value: "null"`); passing this
 * string reproduces that.
 */
export const GO_NIL = null;

/** `content.MinError`. */
export const minError = (min: number): string => `must be greater than or equal to ${min}`;
/** `validate.Maximum`'s detail. */
export const maxError = (max: number): string => `must be less than or equal to ${max}`;

/** `content.IsDNS1123Subdomain`: like `IsDNS1123Subdomain`, but its length message counts bytes. */
export function dns1123SubdomainContent(value: string): string[] {
  const tooLong = maxLenError(SUBDOMAIN_MAX);
  return isDNS1123Subdomain(value).map((m) => (m === tooLong ? maxLenBytesError(SUBDOMAIN_MAX) : m));
}

/** `+k8s:format=k8s-long-name`: a DNS subdomain, each message an Invalid error. */
export function longName(path: string, value: string): FieldError[] {
  return dns1123SubdomainContent(value).map((m) => fieldError.invalid(path, value, m));
}

const CASELESS_SUBDOMAIN_RE = new RegExp(`^${DNS1123_SUBDOMAIN_FMT}$`, 'i');
const CASELESS_SUBDOMAIN_ERR =
  "an RFC 1123 subdomain must consist of alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";

/** `+k8s:format=k8s-long-name-caseless` (`IsDNS1123SubdomainCaseless`). */
export function longNameCaseless(path: string, value: string): FieldError[] {
  const errs: FieldError[] = [];
  if (utf8ByteLength(value) > SUBDOMAIN_MAX) errs.push(fieldError.invalid(path, value, maxLenBytesError(SUBDOMAIN_MAX)));
  if (!CASELESS_SUBDOMAIN_RE.test(value)) errs.push(fieldError.invalid(path, value, regexError(CASELESS_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'Example.com')));
  return errs;
}

/** `+k8s:format=k8s-prefixed-label-key` (`content.IsPrefixedLabelKey`). */
export function prefixedLabelKey(path: string, value: string): FieldError[] {
  const msgs = isQualifiedName(value);
  if (msgs.length) return msgs.map((m) => fieldError.invalid(path, value, m));
  if (value.split('/').length !== 2) return [fieldError.invalid(path, value, "must include a prefix (e.g. 'example.com/key')")];
  return [];
}

const UUID_MSG = 'must be a lowercase UUID in 8-4-4-4-12 format';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `+k8s:format=k8s-uuid`. */
export function uuid(path: string, value: string): FieldError[] {
  return UUID_RE.test(value) ? [] : [fieldError.invalid(path, value, UUID_MSG)];
}

/** `+k8s:format=k8s-resource-pool-name`: DNS subdomains separated by `/`, at most 253 bytes. */
export function resourcePoolName(path: string, value: string): FieldError[] {
  const errs: FieldError[] = [];
  if (utf8ByteLength(value) > SUBDOMAIN_MAX) errs.push(fieldError.tooLong(path, SUBDOMAIN_MAX));
  value.split('/').forEach((part, i) => {
    if (part.length === 0) {
      errs.push(fieldError.invalid(path, value, `segment ${i}: must not be empty`));
      return;
    }
    for (const m of dns1123SubdomainContent(part)) errs.push(fieldError.invalid(path, part, `segment ${i}: ${m}`));
  });
  return errs;
}

const ATTRIBUTE_NAME_MAX = 32;
const DOMAIN_MAX = 63;

function cIdentifier(path: string, id: string): FieldError[] {
  const errs: FieldError[] = [];
  if (utf8ByteLength(id) > ATTRIBUTE_NAME_MAX) errs.push(fieldError.tooLong(path, ATTRIBUTE_NAME_MAX));
  for (const m of isCIdentifier(id)) errs.push(fieldError.invalid(path, id, m));
  return errs;
}

/**
 * `+k8s:format=k8s-resource-fully-qualified-name`: a DRA attribute name with its domain
 * (`gpu.example.com/profile`): a DNS subdomain of at most 63 bytes, `/`, a C identifier of at most 32.
 */
export function resourceFullyQualifiedName(path: string, value: string): FieldError[] {
  const errs: FieldError[] = [];
  const parts = value.split('/');
  if (parts.length === 1) {
    errs.push(...cIdentifier(path, parts[0]!));
  } else if (parts.length === 2) {
    const [domain, name] = parts as [string, string];
    if (domain.length === 0) errs.push(fieldError.invalid(path, '', 'prefix must not be empty'));
    else {
      if (utf8ByteLength(domain) > DOMAIN_MAX) errs.push(fieldError.tooLong(path, DOMAIN_MAX));
      for (const m of dns1123SubdomainContent(domain)) errs.push(fieldError.invalid(path, domain, `prefix: ${m}`));
    }
    if (name.length === 0) errs.push(fieldError.invalid(path, '', 'name must not be empty'));
    else errs.push(...cIdentifier(path, name));
  } else {
    errs.push(fieldError.invalid(path, value, 'must not contain more than one slash'));
  }
  if (!value.includes('/')) errs.push(fieldError.invalid(path, value, 'a fully qualified name must be a domain and a name separated by a slash'));
  return errs;
}

/** `validate.Minimum` of an integer. */
export function minimum(path: string, value: number, min: number): FieldError[] {
  return value < min ? [fieldError.invalid(path, value, minError(min))] : [];
}

/** `validate.Maximum` of an integer. */
export function maximum(path: string, value: number, max: number): FieldError[] {
  return value > max ? [fieldError.invalid(path, value, maxError(max))] : [];
}

/** Whether a JSON value is absent (Go's nil pointer or zero value of an omitted field). */
export const isUnset = (v: unknown): v is undefined | null => v === undefined || v === null;
