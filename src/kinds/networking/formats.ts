/**
 * Format checks of the networking kinds, with Kubernetes' messages
 * (`k8s.io/apimachinery/pkg/util/validation`): wildcard DNS subdomains, domain-prefixed paths, and
 * `IsValidIP` (strict, canonical form required) for IPAddress names.
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { DNS1123_SUBDOMAIN_FMT, isDNS1123Subdomain, maxLenError, regexError } from '../../schema/validation/names.js';
import { is4in6, parseIP, type ParsedIP } from '../shared/pod-spec/formats.js';

const WILDCARD_FMT = `\\*\\.${DNS1123_SUBDOMAIN_FMT}`;
const WILDCARD_RE = new RegExp(`^${WILDCARD_FMT}$`);
const WILDCARD_MSG =
  "a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character";

/** `IsWildcardDNS1123Subdomain`. */
export function isWildcardDNS1123Subdomain(value: string): string[] {
  const errs: string[] = [];
  if (value.length > 253) errs.push(maxLenError(253));
  if (!WILDCARD_RE.test(value)) errs.push(regexError(WILDCARD_MSG, WILDCARD_FMT, '*.example.com'));
  return errs;
}

const HTTP_PATH_FMT = "[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+";
const HTTP_PATH_RE = new RegExp(`^${HTTP_PATH_FMT}$`);

/** `IsDomainPrefixedPath`: a DNS subdomain, `/`, and HTTP path characters (e.g. `acme.io/foo`). */
export function isDomainPrefixedPath(path: string, value: string): FieldError[] {
  if (value.length === 0) return [fieldError.required(path)];
  const slash = value.indexOf('/');
  if (slash <= 0 || slash === value.length - 1) {
    return [fieldError.invalid(path, value, 'must be a domain-prefixed path (such as "acme.io/foo")')];
  }
  const host = value.slice(0, slash);
  const rest = value.slice(slash + 1);
  const errs = isDNS1123Subdomain(host).map((m) => fieldError.invalid(path, host, m));
  if (!HTTP_PATH_RE.test(rest)) errs.push(fieldError.invalid(path, rest, regexError('Invalid path', HTTP_PATH_FMT)));
  return errs;
}

/** Go's `net.IP.String()` of a parsed address (IPv6 in RFC 5952 form). */
export function formatIP(ip: ParsedIP): string {
  if (ip.bytes.length === 4) return ip.bytes.join('.');
  return formatIPv6Groups(Array.from({ length: 8 }, (_, i) => (ip.bytes[2 * i]! << 8) | ip.bytes[2 * i + 1]!));
}

/** Eight 16-bit groups as RFC 5952 text: lower-case hex, the longest run of two or more zero groups as `::`. */
export function formatIPv6Groups(groups: readonly number[]): string {
  let best = -1;
  let bestLen = 1;
  for (let i = 0; i < 8;) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLen) {
      best = i;
      bestLen = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best < 0) return hex.join(':');
  return `${hex.slice(0, best).join(':')}::${hex.slice(best + bestLen).join(':')}`;
}

/** `IsValidIP` (strict): the detail messages for `value`, empty when it is a canonical address. */
export function isValidIP(value: string): string[] {
  const ip = parseIP(value);
  if (!ip) return ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'];
  const errs: string[] = [];
  if (!ip.strict) errs.push('must not have leading 0s');
  if (is4in6(ip)) errs.push('must not be an IPv4-mapped IPv6 address');
  if (errs.length) return errs;
  const canonical = formatIP(ip);
  return value === canonical ? [] : [`must be in canonical form (${JSON.stringify(canonical)})`];
}

/** Whether `value` is an IP address as `ParseIPSloppy` reads one. */
export const isIPSloppy = (value: string): boolean => parseIP(value) !== undefined;
