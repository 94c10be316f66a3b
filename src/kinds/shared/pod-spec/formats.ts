/**
 * Small format checks the Pod and Node rules share, with Kubernetes' exact messages
 * (`k8s.io/apimachinery/pkg/util/validation`, `pkg/apis/core/validation`): port numbers and
 * names, relaxed environment variable names, user and group ids, local paths, IP addresses and
 * CIDRs (legacy fields, with v1.36's strict checks), label selectors.
 */
import { fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { inclusiveRangeError, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, maxLenError } from '../../../schema/validation/names.js';

/** `isNotPositiveErrorMsg`. */
export const NOT_POSITIVE_MSG = 'must be greater than zero';
/** `fileModeErrorMsg`. */
export const FILE_MODE_MSG = 'must be a number between 0 and 0777 (octal), both inclusive';
const INT32_MAX = 2147483647;

/** `IsValidPortNum`. */
export function isValidPortNum(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** `IsValidPortName` (IANA_SVC_NAME). */
export function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (Buffer.byteLength(port, 'utf8') > 15) errs.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

/** `IsRelaxedEnvVarName` (the rule since RelaxedEnvironmentVariableValidation went GA). */
export function isRelaxedEnvVarName(value: string): string[] {
  const errs: string[] = [];
  if (value.length === 0) errs.push('environment variable name must be non-empty');
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x3d /* = */) {
      errs.push("a valid environment variable name must consist only of printable ASCII characters other than '='");
      break;
    }
  }
  return errs;
}

/** `IsValidUserID` / `IsValidGroupID`: 0..2^31-1. */
export function isValidID(id: number): string[] {
  return id >= 0 && id <= INT32_MAX ? [] : [inclusiveRangeError(0, INT32_MAX)];
}

/** `ValidateDNS1123Label` with the field error per message. */
export function dns1123LabelErrors(value: string, path: string): FieldError[] {
  return isDNS1123Label(value).map((msg) => fieldError.invalid(path, value, msg));
}

/** `ValidateDNS1123Subdomain` with the field error per message. */
export function dns1123SubdomainErrors(value: string, path: string): FieldError[] {
  return isDNS1123Subdomain(value).map((msg) => fieldError.invalid(path, value, msg));
}

/** `ValidateQualifiedName` with the field error per message. */
export function qualifiedNameErrors(value: string, path: string): FieldError[] {
  return isQualifiedName(value).map((msg) => fieldError.invalid(path, value, msg));
}

/** `ValidatePositiveField`. */
export function positiveFieldErrors(value: number, path: string): FieldError[] {
  return value <= 0 ? [fieldError.invalid(path, value, NOT_POSITIVE_MSG)] : [];
}

/** A file mode (0..0777) check. */
export function fileModeErrors(mode: number | undefined, path: string): FieldError[] {
  return mode !== undefined && (mode > 0o777 || mode < 0) ? [fieldError.invalid(path, mode, FILE_MODE_MSG)] : [];
}

// ---------------------------------------------------------------------------------------------
// Paths
// ---------------------------------------------------------------------------------------------

/** `validatePathNoBacksteps`: no `..` element. */
export function pathNoBackstepsErrors(target: string, path: string): FieldError[] {
  return target.split('/').includes('..') ? [fieldError.invalid(path, target, "must not contain '..'")] : [];
}

/** `validateLocalDescendingPath`: relative, no `..` element. */
export function localDescendingPathErrors(target: string, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (target.startsWith('/')) errs.push(fieldError.invalid(path, target, 'must be a relative path'));
  errs.push(...pathNoBackstepsErrors(target, path));
  return errs;
}

/** `ValidateLocalNonReservedPath`: also not starting with `..`. */
export function localNonReservedPathErrors(target: string, path: string): FieldError[] {
  const errs = localDescendingPathErrors(target, path);
  if (target.startsWith('..') && !target.startsWith('../')) errs.push(fieldError.invalid(path, target, "must not start with '..'"));
  return errs;
}

// ---------------------------------------------------------------------------------------------
// IP addresses and CIDRs
// ---------------------------------------------------------------------------------------------

/** A parsed address: 4 or 16 bytes, and whether Go's strict parser (`netip`) would accept its text. */
export interface ParsedIP {
  bytes: number[];
  strict: boolean;
}

/** Dotted IPv4 as `ParseIPSloppy` reads it (leading zeros allowed, read as decimal). */
function parseIPv4(s: string): ParsedIP | undefined {
  const parts = s.split('.');
  if (parts.length !== 4) return undefined;
  const bytes: number[] = [];
  let strict = true;
  for (const p of parts) {
    if (!/^\d{1,10}$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    if (p.length > 1 && p.startsWith('0')) strict = false;
    bytes.push(n);
  }
  return { bytes, strict };
}

function parseIPv6(s: string): ParsedIP | undefined {
  if (s.length > 64) return undefined;
  let strict = true;
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (text: string): number[] | undefined => {
    if (text === '') return [];
    const out: number[] = [];
    const parts = text.split(':');
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIPv4(p);
        if (!v4) return undefined;
        if (!v4.strict) strict = false;
        out.push((v4.bytes[0]! << 8) | v4.bytes[1]!, (v4.bytes[2]! << 8) | v4.bytes[3]!);
        continue;
      }
      if (!/^[0-9a-fA-F]{1,4}$/.test(p)) return undefined;
      out.push(parseInt(p, 16));
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  let all: number[];
  if (halves.length === 2) {
    if (head.length + tail.length > 7) return undefined;
    all = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  } else {
    if (head.length !== 8) return undefined;
    all = head;
  }
  const bytes: number[] = [];
  for (const g of all) bytes.push(g >> 8, g & 0xff);
  return { bytes, strict };
}

/** `ParseIPSloppy`. */
export function parseIP(s: string): ParsedIP | undefined {
  return s.includes(':') ? parseIPv6(s) : parseIPv4(s);
}

/** The bytes (4 or 16) of an address as `ParseIPSloppy` reads it, or undefined when it does not parse. */
export function ipBytes(value: string): number[] | undefined {
  return parseIP(value)?.bytes;
}

/** Whether a 16-byte address is an IPv4-mapped IPv6 address (`::ffff:a.b.c.d`). */
export function is4in6(ip: ParsedIP): boolean {
  return ip.bytes.length === 16 && ip.bytes.slice(0, 10).every((b) => b === 0) && ip.bytes[10] === 0xff && ip.bytes[11] === 0xff;
}

/** `IsValidIPForLegacyField` with StrictIPCIDRValidation on (beta, default on in v1.36). */
export function legacyIPErrors(value: string, path: string, validOld: readonly string[] = []): FieldError[] {
  if (validOld.includes(value)) return [];
  const ip = parseIP(value);
  if (!ip) return [fieldError.invalid(path, value, 'must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)')];
  const errs: FieldError[] = [];
  if (!ip.strict) errs.push(fieldError.invalid(path, value, 'must not have leading 0s'));
  if (is4in6(ip)) errs.push(fieldError.invalid(path, value, 'must not be an IPv4-mapped IPv6 address'));
  return errs;
}

/** The address family of a CIDR (`4` or `6`), undefined when it does not parse. */
export function cidrFamily(value: string): 4 | 6 | undefined {
  const parsed = parseCIDR(value);
  if (!parsed) return undefined;
  return parsed.ip.bytes.length === 4 || is4in6(parsed.ip) ? 4 : 6;
}

function parseCIDR(value: string): { ip: ParsedIP; bits: number; strictPrefix: boolean } | undefined {
  const slash = value.indexOf('/');
  if (slash < 0) return undefined;
  const ip = parseIP(value.slice(0, slash));
  const mask = value.slice(slash + 1);
  if (!ip || !/^\d{1,10}$/.test(mask)) return undefined;
  const bits = Number(mask);
  if (bits > ip.bytes.length * 8) return undefined;
  return { ip, bits, strictPrefix: !(mask.length > 1 && mask.startsWith('0')) };
}

/** `IsValidCIDRForLegacyField` with StrictIPCIDRValidation on. */
export function legacyCIDRErrors(value: string, path: string, validOld: readonly string[] = []): FieldError[] {
  if (validOld.includes(value)) return [];
  const parsed = parseCIDR(value);
  if (!parsed) return [fieldError.invalid(path, value, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')];
  if (!parsed.ip.strict || !parsed.strictPrefix) return [fieldError.invalid(path, value, 'must not have leading 0s in IP or prefix length')];
  if (is4in6(parsed.ip)) return [fieldError.invalid(path, value, 'must not have an IPv4-mapped IPv6 address')];
  const { bytes } = parsed.ip;
  for (let bit = parsed.bits; bit < bytes.length * 8; bit++) {
    if ((bytes[bit >> 3]! >> (7 - (bit & 7))) & 1) return [fieldError.invalid(path, value, 'must not have bits set beyond the prefix length')];
  }
  return [];
}
