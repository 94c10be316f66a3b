/**
 * The `format`s a custom resource's values are checked against: kube-openapi's `strfmt.Default`
 * registry as apiextensions-apiserver uses it (apiserver/validation/formats.go
 * `StripUnsupportedFormatsPostProcessorForVersion`: a format outside the supported list is
 * dropped before validation, so `format: foo` checks nothing), with each format's Go check ported.
 */
import { compileGoRegexp, type GoRegexp } from '../../util/go-regexp.js';
import { isGoMailAddress } from '../../util/go-mail.js';
import { isGoIP, isGoMAC, isSloppyCIDR, isSloppyIP } from '../../util/go-net.js';
import { isGoDate, isGoDuration } from '../../util/go-time.js';
import { goParseRequestURI } from '../../util/go-url.js';
import { utf8ByteLength } from '../../util/go-format.js';

/** Compiles one of the fixed patterns below (they are valid Go regexps). */
function re(pattern: string): () => GoRegexp {
  let compiled: GoRegexp | undefined;
  return () => {
    if (!compiled) {
      const r = compileGoRegexp(pattern);
      if (!r.ok) throw new Error(r.error);
      compiled = r.regexp;
    }
    return compiled;
  };
}

const HOSTNAME = re(
  '^([a-zA-Z0-9\\p{S}\\p{L}]((-?[a-zA-Z0-9\\p{S}\\p{L}]{0,62})?)|([a-zA-Z0-9\\p{S}\\p{L}](([a-zA-Z0-9-\\p{S}\\p{L}]{0,61}[a-zA-Z0-9\\p{S}\\p{L}])?)(\\.)){1,}([a-zA-Z\\p{L}]){2,63})$',
);
const UUID = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$');
const UUID3 = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$');
const UUID4 = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$');
const UUID5 = re('(?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$');
const CREDIT_CARD = re(
  '^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\\d{3})\\d{11})$',
);
const ISBN10 = re('^(?:[0-9]{9}X|[0-9]{10})$');
const ISBN13 = re('^(?:[0-9]{13})$');
const HEX_COLOR = re('^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$');
const RGB_COLOR = re(
  '^rgb\\(\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*,\\s*(0|[1-9]\\d?|1\\d\\d?|2[0-4]\\d|25[0-5])\\s*\\)$',
);
const BASE64 = re('^(?:[A-Za-z0-9+\\/]{4})*(?:[A-Za-z0-9+\\/]{2}==|[A-Za-z0-9+\\/]{3}=|[A-Za-z0-9+\\/]{4})$');
const SSN = re('^\\d{3}[- ]?\\d{2}[- ]?\\d{4}$');
const SHORT_NAME = re('^[a-z0-9]([-a-z0-9]*[a-z0-9])?$');
const LONG_NAME = re('^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$');

/** govalidator's `IsHostname`: the pattern, at most 255 bytes, labels of at most 63 bytes. */
function isHostname(s: string): boolean {
  if (!HOSTNAME().test(s)) return false;
  if (utf8ByteLength(s) > 255) return false;
  return s.split('.').every((part) => utf8ByteLength(part) <= 63);
}

/** govalidator's ISBN check after removing whitespace and dashes. */
function isISBN(s: string, version: 10 | 13): boolean {
  const sanitized = s.replace(/[\t\n\f\r -]+/g, '');
  const digit = (i: number) => sanitized.charCodeAt(i) - 0x30;
  if (version === 10) {
    if (!ISBN10().test(sanitized)) return false;
    let checksum = 0;
    for (let i = 0; i < 9; i++) checksum += (i + 1) * digit(i);
    checksum += sanitized[9] === 'X' ? 100 : 10 * digit(9);
    return checksum % 11 === 0;
  }
  if (!ISBN13().test(sanitized)) return false;
  let checksum = 0;
  for (let i = 0; i < 12; i++) checksum += (i % 2 === 0 ? 1 : 3) * digit(i);
  return digit(12) - ((10 - (checksum % 10)) % 10) === 0;
}

/** govalidator's `IsCreditCard`: digits only (everything else removed), the pattern, the Luhn sum. */
function isCreditCard(s: string): boolean {
  const sanitized = s.replace(/[^0-9]+/g, '');
  if (!CREDIT_CARD().test(sanitized)) return false;
  let sum = 0;
  let double = false;
  for (let i = sanitized.length - 1; i >= 0; i--) {
    let n = sanitized.charCodeAt(i) - 0x30;
    if (double) {
      n *= 2;
      sum += n >= 10 ? (n % 10) + 1 : n;
    } else sum += n;
    double = !double;
  }
  return sum % 10 === 0;
}

const DATE_TIME_TAIL = /^([0-9]{2}):([0-9]{2}):([0-9]{2})([^\n][0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/;

/** kube-openapi's `IsDateTime`: a date, `t`, then a time whose fields compare as strings within range. */
function isDateTime(s: string): boolean {
  if (utf8ByteLength(s) < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isGoDate(parts[0]!)) return false;
  const m = DATE_TIME_TAIL.exec(parts[1]!);
  if (!m) return false;
  return m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

/** kube-openapi's `ParseDuration`: Go's `time.ParseDuration`, else `<digits> <unit>` pairs with loose unit names. */
function isDuration(s: string): boolean {
  if (isGoDuration(s)) return true;
  const groups = [
    ['ns', 'nano'],
    ['us', '\u00b5s', 'micro'],
    ['ms', 'milli'],
    ['s', 'sec'],
    ['m', 'min'],
    ['h', 'hr', 'hour'],
    ['d', 'day'],
    ['w', 'wk', 'week'],
  ];
  let ok = false;
  // The matches of `((\d+)\s*([A-Za-zµ]+))`, found left to right without backtracking.
  const isLetter = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0xb5;
  for (let i = 0; i < s.length;) {
    const c = s.charCodeAt(i);
    if (c < 0x30 || c > 0x39) {
      i++;
      continue;
    }
    const digitsStart = i;
    while (i < s.length && s.charCodeAt(i) >= 0x30 && s.charCodeAt(i) <= 0x39) i++;
    const digits = s.slice(digitsStart, i);
    let j = i;
    while (j < s.length && ' \t\n\f\r'.includes(s[j]!)) j++;
    const unitStart = j;
    while (j < s.length && isLetter(s.charCodeAt(j))) j++;
    if (j === unitStart) continue;
    i = j;
    // strconv.Atoi fails beyond int64: the whole parse fails.
    if (BigInt(digits) > 9223372036854775807n) return false;
    const unit = s.slice(unitStart, j).toLowerCase();
    for (const variants of groups) {
      variants.forEach((variant, k) => {
        if ((k === variants.length - 1 && unit.startsWith(variant)) || variant === unit) ok = true;
      });
    }
  }
  return ok;
}

/** The registry's check for each normalized format name (dashes removed, as strfmt normalizes). */
const CHECKS: ReadonlyMap<string, (s: string) => boolean> = new Map<string, (s: string) => boolean>([
  ['bsonobjectid', (s) => /^[0-9a-fA-F]{24}$/.test(s)],
  ['uri', (s) => goParseRequestURI(s).ok],
  ['email', isGoMailAddress],
  ['hostname', isHostname],
  ['ipv4', (s) => isSloppyIP(s) && s.includes('.')],
  ['ipv6', (s) => isGoIP(s) && s.includes(':')],
  ['cidr', isSloppyCIDR],
  ['mac', isGoMAC],
  ['uuid', (s) => UUID().test(s)],
  ['uuid3', (s) => UUID3().test(s)],
  ['uuid4', (s) => UUID4().test(s)],
  ['uuid5', (s) => UUID5().test(s)],
  ['isbn', (s) => isISBN(s, 10) || isISBN(s, 13)],
  ['isbn10', (s) => isISBN(s, 10)],
  ['isbn13', (s) => isISBN(s, 13)],
  ['creditcard', isCreditCard],
  ['ssn', (s) => utf8ByteLength(s) === 11 && SSN().test(s)],
  ['hexcolor', (s) => HEX_COLOR().test(s)],
  ['rgbcolor', (s) => RGB_COLOR().test(s)],
  ['byte', (s) => BASE64().test(s)],
  ['password', () => true],
  ['date', isGoDate],
  ['duration', isDuration],
  ['datetime', isDateTime],
  ['k8sshortname', (s) => utf8ByteLength(s) <= 63 && SHORT_NAME().test(s)],
  ['k8slongname', (s) => utf8ByteLength(s) <= 253 && LONG_NAME().test(s)],
]);

/**
 * The format validation sees for a schema of these types: `StripUnsupportedFormats` keeps a
 * string (or untyped) schema's format when the registry knows it, an integer's `int32`/`int64`, a
 * number's `float`/`double`, and drops every other (an object's, a boolean's, an int-or-string's
 * unknown one).
 */
export function effectiveFormat(types: readonly string[], format: string): string {
  if (format === '') return '';
  const type = types.length === 1 ? types[0]! : '';
  switch (type) {
    case '':
    case 'string':
      return CHECKS.has(format.replaceAll('-', '')) ? format : '';
    case 'integer':
      return format === 'int32' || format === 'int64' ? format : '';
    case 'number':
      return format === 'float' || format === 'double' ? format : '';
    default:
      return '';
  }
}

/** The registry's check for a format (`uuid`, `date-time`, ...), or undefined when the registry has none (`int32`). */
export function formatCheck(format: string): ((s: string) => boolean) | undefined {
  return format === '' ? undefined : CHECKS.get(format.replaceAll('-', ''));
}
