/**
 * Name and string-format checks with the exact detail messages of Kubernetes v1.36
 * (`k8s.io/apimachinery/pkg/util/validation`, `.../api/validate/content`, `.../api/validation`).
 *
 * Every `is*` function returns the list of problems with a value as detail strings; an empty list
 * means the value is valid. Callers turn the details into field errors
 * (`fieldError.invalid(path, value, detail)` for each).
 *
 * Implementation notes:
 * - Lengths are measured in UTF-8 bytes, as Go's `len(string)` does, even where the message says
 *   "characters".
 * - The formats are matched by hand-written linear scanners equivalent to the Kubernetes regular
 *   expressions (which are exported as the `*_FMT` constants and quoted in the messages), so that
 *   megabyte-long hostile input cannot trigger regex backtracking.
 */

import { utf8ByteLength } from '../../util/go-format.js';

/**
 * Validates a name for a kind. `prefix` is true when the value is a `generateName` (something will be appended).
 * @category Defining kinds
 */
export type NameValidator = (name: string, prefix: boolean) => string[];

// ---------------------------------------------------------------------------------------------
// Message helpers (validation.MaxLenError, content.MaxLenError, RegexError, EmptyError)
// ---------------------------------------------------------------------------------------------

/** `validation.MaxLenError` (k8s.io/apimachinery/pkg/util/validation): used for DNS names. */
export function maxLenError(length: number): string {
  return `must be no more than ${length} characters`;
}

/** `content.MaxLenError` (k8s.io/apimachinery/pkg/api/validate/content): used for label keys and values since v1.35. */
export function maxLenBytesError(length: number): string {
  return `must be no more than ${length} bytes`;
}

/** `EmptyError`. */
export function emptyError(): string {
  return 'must be non-empty';
}

/**
 * `RegexError`: `msg (e.g. 'a',  or 'b', regex used for validation is 'fmt')`.
 * Note the double space before each "or", which Kubernetes really produces.
 */
export function regexError(msg: string, fmt: string, ...examples: string[]): string {
  if (examples.length === 0) return `${msg} (regex used for validation is '${fmt}')`;
  let out = `${msg} (e.g. `;
  examples.forEach((example, i) => {
    if (i > 0) out += ' or ';
    out += `'${example}', `;
  });
  return `${out}regex used for validation is '${fmt}')`;
}

/** `InclusiveRangeError`. */
export function inclusiveRangeError(lo: number, hi: number): string {
  return `must be between ${lo} and ${hi}, inclusive`;
}

export { utf8ByteLength };

// ---------------------------------------------------------------------------------------------
// Formats
// ---------------------------------------------------------------------------------------------

export const DNS1123_LABEL_FMT = '[a-z0-9]([-a-z0-9]*[a-z0-9])?';
export const DNS1123_LABEL_MAX_LENGTH = 63;
export const DNS1123_SUBDOMAIN_FMT = `${DNS1123_LABEL_FMT}(\\.${DNS1123_LABEL_FMT})*`;
export const DNS1123_SUBDOMAIN_MAX_LENGTH = 253;
export const DNS1035_LABEL_FMT = '[a-z]([-a-z0-9]*[a-z0-9])?';
export const DNS1035_LABEL_MAX_LENGTH = 63;
export const LABEL_KEY_FMT = '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]';
export const LABEL_KEY_NAME_MAX_LENGTH = 63;
export const LABEL_VALUE_FMT = `(${LABEL_KEY_FMT})?`;
export const LABEL_VALUE_MAX_LENGTH = 63;
export const C_IDENTIFIER_FMT = '[A-Za-z_][A-Za-z0-9_]*';
export const ENV_VAR_NAME_FMT = '[-._a-zA-Z][-._a-zA-Z0-9]*';
export const CONFIG_MAP_KEY_FMT = '[-._a-zA-Z0-9]+';

const DNS1123_LABEL_ERR =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character";
const DNS1123_SUBDOMAIN_ERR =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character";
const DNS1035_LABEL_ERR =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character";
const LABEL_KEY_ERR = "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const LABEL_VALUE_ERR =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";
const C_IDENTIFIER_ERR = "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_'";
const ENV_VAR_NAME_ERR = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit";
const CONFIG_MAP_KEY_ERR = "a valid config key must consist of alphanumeric characters, '-', '_' or '.'";

// ---------------------------------------------------------------------------------------------
// Linear scanners, equivalent to the anchored regular expressions above
// ---------------------------------------------------------------------------------------------

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}
function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}
function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}
function isLowerAlnum(c: number): boolean {
  return isLower(c) || isDigit(c);
}
function isAlnum(c: number): boolean {
  return isLower(c) || isUpper(c) || isDigit(c);
}

/** `^[a-z0-9]([-a-z0-9]*[a-z0-9])?$` on `value[start, end)`. */
function scanDNS1123Label(value: string, start: number, end: number): boolean {
  if (end <= start) return false;
  if (!isLowerAlnum(value.charCodeAt(start)) || !isLowerAlnum(value.charCodeAt(end - 1))) return false;
  for (let i = start + 1; i < end - 1; i++) {
    const c = value.charCodeAt(i);
    if (!isLowerAlnum(c) && c !== 45 /* - */) return false;
  }
  return true;
}

/** `^<label>(\.<label>)*$`. */
function scanDNS1123Subdomain(value: string): boolean {
  let start = 0;
  for (;;) {
    const dot = value.indexOf('.', start);
    const end = dot < 0 ? value.length : dot;
    if (!scanDNS1123Label(value, start, end)) return false;
    if (dot < 0) return true;
    start = dot + 1;
  }
}

/** `^[a-z]([-a-z0-9]*[a-z0-9])?$`. */
function scanDNS1035Label(value: string): boolean {
  return value.length > 0 && isLower(value.charCodeAt(0)) && scanDNS1123Label(value, 0, value.length);
}

/** `^([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]$`. */
function scanLabelKeyName(value: string): boolean {
  const len = value.length;
  if (len === 0) return false;
  if (!isAlnum(value.charCodeAt(0)) || !isAlnum(value.charCodeAt(len - 1))) return false;
  for (let i = 1; i < len - 1; i++) {
    const c = value.charCodeAt(i);
    if (!isAlnum(c) && c !== 45 /* - */ && c !== 95 /* _ */ && c !== 46 /* . */) return false;
  }
  return true;
}

// ---------------------------------------------------------------------------------------------
// DNS names
// ---------------------------------------------------------------------------------------------

/** `IsDNS1123Label`: a lowercase RFC 1123 label, at most 63 bytes. */
export function isDNS1123Label(value: string): string[] {
  const errs: string[] = [];
  if (utf8ByteLength(value) > DNS1123_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1123_LABEL_MAX_LENGTH));
  if (!scanDNS1123Label(value, 0, value.length)) {
    if (scanDNS1123Subdomain(value)) {
      // A valid subdomain but not a valid label: it must be the dots.
      errs.push('must not contain dots');
    } else {
      errs.push(regexError(DNS1123_LABEL_ERR, DNS1123_LABEL_FMT, 'my-name', '123-abc'));
    }
  }
  return errs;
}

function dns1123Subdomain(value: string, lenError: (n: number) => string): string[] {
  const errs: string[] = [];
  if (utf8ByteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(lenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!scanDNS1123Subdomain(value)) errs.push(regexError(DNS1123_SUBDOMAIN_ERR, DNS1123_SUBDOMAIN_FMT, 'example.com'));
  return errs;
}

/** `IsDNS1123Subdomain`: a lowercase RFC 1123 subdomain, at most 253 bytes. */
export function isDNS1123Subdomain(value: string): string[] {
  return dns1123Subdomain(value, maxLenError);
}

/** `IsDNS1035Label`: a DNS-1035 label (starts with a letter), at most 63 bytes. */
export function isDNS1035Label(value: string): string[] {
  const errs: string[] = [];
  if (utf8ByteLength(value) > DNS1035_LABEL_MAX_LENGTH) errs.push(maxLenError(DNS1035_LABEL_MAX_LENGTH));
  if (!scanDNS1035Label(value)) errs.push(regexError(DNS1035_LABEL_ERR, DNS1035_LABEL_FMT, 'my-name', 'abc-123'));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// Label keys (qualified names) and label values
// ---------------------------------------------------------------------------------------------

/**
 * `IsQualifiedName` (= `content.IsLabelKey` since v1.35): an optional DNS subdomain prefix and '/',
 * then a name of at most 63 bytes made of alphanumerics, '-', '_' and '.'.
 */
export function isQualifiedName(value: string): string[] {
  const errs: string[] = [];
  const slash = value.indexOf('/');
  let name = value;
  if (slash >= 0) {
    if (value.indexOf('/', slash + 1) >= 0) {
      return [
        `a valid label key ${regexError(LABEL_KEY_ERR, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}` +
          " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
      ];
    }
    const prefix = value.slice(0, slash);
    name = value.slice(slash + 1);
    if (prefix.length === 0) {
      errs.push(`prefix part ${emptyError()}`);
    } else {
      // The label-key prefix uses the `content` variant, whose length message says "bytes".
      for (const msg of dns1123Subdomain(prefix, maxLenBytesError)) errs.push(`prefix part ${msg}`);
    }
  }
  if (name.length === 0) {
    errs.push(`name part ${emptyError()}`);
  } else if (utf8ByteLength(name) > LABEL_KEY_NAME_MAX_LENGTH) {
    errs.push(`name part ${maxLenBytesError(LABEL_KEY_NAME_MAX_LENGTH)}`);
  }
  if (!scanLabelKeyName(name)) {
    errs.push(`name part ${regexError(LABEL_KEY_ERR, LABEL_KEY_FMT, 'MyName', 'my.name', '123-abc')}`);
  }
  return errs;
}

/** Alias: Kubernetes now calls a qualified name a label key. */
export const isLabelKey = isQualifiedName;

/** `IsValidLabelValue` (= `content.IsLabelValue`): empty, or a label-key name of at most 63 bytes. */
export function isValidLabelValue(value: string): string[] {
  const errs: string[] = [];
  if (utf8ByteLength(value) > LABEL_VALUE_MAX_LENGTH) errs.push(maxLenBytesError(LABEL_VALUE_MAX_LENGTH));
  if (value.length !== 0 && !scanLabelKeyName(value)) {
    errs.push(regexError(LABEL_VALUE_ERR, LABEL_VALUE_FMT, 'MyValue', 'my_value', '12345'));
  }
  return errs;
}

// ---------------------------------------------------------------------------------------------
// Other identifiers
// ---------------------------------------------------------------------------------------------

const cIdentifierRegexp = new RegExp(`^${C_IDENTIFIER_FMT}$`);
const envVarNameRegexp = new RegExp(`^${ENV_VAR_NAME_FMT}$`);
const configMapKeyRegexp = new RegExp(`^${CONFIG_MAP_KEY_FMT}$`);

/** `IsCIdentifier`: format only, no length limit. */
export function isCIdentifier(value: string): string[] {
  if (!cIdentifierRegexp.test(value)) return [regexError(C_IDENTIFIER_ERR, C_IDENTIFIER_FMT, 'my_name', 'MY_NAME', 'MyName')];
  return [];
}

function hasChDirPrefix(value: string): string[] {
  if (value === '.') return ["must not be '.'"];
  if (value === '..') return ["must not be '..'"];
  if (value.startsWith('..')) return ["must not start with '..'"];
  return [];
}

/** `IsEnvVarName` (the strict, non-relaxed rule). */
export function isEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (!envVarNameRegexp.test(value)) {
    errs.push(regexError(ENV_VAR_NAME_ERR, ENV_VAR_NAME_FMT, 'my.env-name', 'MY_ENV.NAME', 'MyEnvName1'));
  }
  errs.push(...hasChDirPrefix(value));
  return errs;
}

/** `IsConfigMapKey`: a key of a ConfigMap's or Secret's data. */
export function isConfigMapKey(value: string): string[] {
  const errs: string[] = [];
  if (utf8ByteLength(value) > DNS1123_SUBDOMAIN_MAX_LENGTH) errs.push(maxLenError(DNS1123_SUBDOMAIN_MAX_LENGTH));
  if (!configMapKeyRegexp.test(value)) errs.push(regexError(CONFIG_MAP_KEY_ERR, CONFIG_MAP_KEY_FMT, 'key.name', 'KEY_NAME', 'key-name'));
  errs.push(...hasChDirPrefix(value));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// Path segments
// ---------------------------------------------------------------------------------------------

/** `IsPathSegmentPrefix`: no '/' and no '%'. No emptiness or length check, as in Kubernetes. */
export function isPathSegmentPrefix(name: string): string[] {
  const errs: string[] = [];
  if (name.includes('/')) errs.push("may not contain '/'");
  if (name.includes('%')) errs.push("may not contain '%'");
  return errs;
}

/** `IsPathSegmentName`: not '.' or '..', then the prefix rules. */
export function isPathSegmentName(name: string): string[] {
  if (name === '.') return ["may not be '.'"];
  if (name === '..') return ["may not be '..'"];
  return isPathSegmentPrefix(name);
}

/**
 * `ValidatePathSegmentName`: the rule every object name must obey so that it can be a URL path
 * segment (the generic API server checks it for all kinds, including custom resources).
 */
export const validatePathSegmentName: NameValidator = (name, prefix) => (prefix ? isPathSegmentPrefix(name) : isPathSegmentName(name));

// ---------------------------------------------------------------------------------------------
// Name validators for kinds
// ---------------------------------------------------------------------------------------------

/**
 * Go's `maskTrailingDash`: when validating a generateName, a trailing '-' is tolerated. Kubernetes
 * does this with `name[:len(name)-2] + "a"` on the UTF-8 bytes, i.e. it drops the dash *and the byte
 * before it* and appends 'a' (so `ab-` is checked as `aa`, `a.-` as `aa`). When the dropped byte is
 * part of a multi-byte character, Go leaves invalid UTF-8 behind; here the leftover bytes become
 * U+0001 characters, which keeps both the byte length and the invalidity.
 */
function maskTrailingDash(name: string): string {
  if (!name.endsWith('-') || utf8ByteLength(name) <= 1) return name;
  const rest = name.slice(0, -1);
  if (rest.length === 0) return name;
  const last = rest.charCodeAt(rest.length - 1);
  let cut = 1;
  let bytes: number;
  if (last < 0x80) bytes = 1;
  else if (last < 0x800) bytes = 2;
  else if ((last & 0xfc00) === 0xdc00 && rest.length >= 2 && (rest.charCodeAt(rest.length - 2) & 0xfc00) === 0xd800) {
    bytes = 4;
    cut = 2;
  } else bytes = 3;
  return rest.slice(0, rest.length - cut) + '\u0001'.repeat(bytes - 1) + 'a';
}

/** `NameIsDNSSubdomain`: the name rule of most kinds. */
export const nameIsDNSSubdomain: NameValidator = (name, prefix) => isDNS1123Subdomain(prefix ? maskTrailingDash(name) : name);

/** `NameIsDNSLabel`: e.g. Namespace. */
export const nameIsDNSLabel: NameValidator = (name, prefix) => isDNS1123Label(prefix ? maskTrailingDash(name) : name);

/** `NameIsDNS1035Label`: e.g. Service. */
export const nameIsDNS1035Label: NameValidator = (name, prefix) => isDNS1035Label(prefix ? maskTrailingDash(name) : name);

/** `ValidateNamespaceName`: how `metadata.namespace` is checked. */
export const validateNamespaceName: NameValidator = nameIsDNSLabel;

/** Alias of {@link nameIsDNSSubdomain}. */
export const dns1123SubdomainNameValidator: NameValidator = nameIsDNSSubdomain;
/** Alias of {@link nameIsDNSLabel}. */
export const dns1123LabelNameValidator: NameValidator = nameIsDNSLabel;
/** Alias of {@link nameIsDNS1035Label}. */
export const dns1035LabelNameValidator: NameValidator = nameIsDNS1035Label;
/** Alias of {@link validatePathSegmentName}. */
export const pathSegmentNameValidator: NameValidator = validatePathSegmentName;
