/**
 * Kubernetes' format library (apiserver/pkg/cel/library/format.go): `format.<name>()` constants,
 * `format.named(name)` and `<format>.validate(text)`, which answers optional.none() for a valid
 * string and the validator's messages otherwise.
 */
import { isQualifiedName, isValidLabelValue, nameIsDNS1035Label, nameIsDNSLabel, nameIsDNSSubdomain } from '../../schema/validation/names.js';
import { ArrayList, OpaqueValue, OptionalValue } from '../values/values.js';
import { parseTimestamp } from '../values/time.js';
import { fn, overload, type FunctionDecl } from '../functions/declarations.js';
import { goParseURL } from '../../util/go-url.js';

/** A kubernetes.NamedFormat value. */
export class FormatValue extends OpaqueValue {
  readonly typeName = 'kubernetes.NamedFormat';
  constructor(
    readonly name: string,
    readonly validate: (s: string) => string[],
  ) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof FormatValue && other.name === this.name;
  }
}

/** apimachinery's IsValidPortName. */
function isValidPortName(port: string): string[] {
  const errs: string[] = [];
  if (port.length > 15) errs.push('must be no more than 15 characters');
  if (!/^[-a-z0-9]+$/.test(port)) errs.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(port)) errs.push('must contain at least one letter (a-z)');
  if (port.includes('--')) errs.push('must not contain consecutive hyphens');
  if (port.length > 0 && (port.startsWith('-') || port.endsWith('-'))) errs.push('must not begin or end with a hyphen');
  return errs;
}

function uri(s: string): string[] {
  const r = goParseURL(s);
  if (!r.ok) return [r.error];
  if (r.url.scheme === '' && !s.startsWith('/')) return [`parse "${s}": invalid URI for request`];
  return [];
}

const UUID = /^[0-9a-fA-F]{8}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{4}-?[0-9a-fA-F]{12}$/;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function validDate(s: string): boolean {
  return /^\d{4}-\d{2}-\d{2}$/.test(s) && parseTimestamp(`${s}T00:00:00Z`) !== undefined;
}

/** The named formats, by the name `format.<name>()` uses. */
export const NAMED_FORMATS: ReadonlyMap<string, FormatValue> = new Map(
  (
    [
      ['dns1123Label', 'DNS1123Label', (s) => nameIsDNSLabel(s, false)],
      ['dns1123Subdomain', 'DNS1123Subdomain', (s) => nameIsDNSSubdomain(s, false)],
      ['dns1035Label', 'DNS1035Label', (s) => nameIsDNS1035Label(s, false)],
      ['qualifiedName', 'QualifiedName', isQualifiedName],
      ['portName', 'PortName', isValidPortName],
      ['dns1123LabelPrefix', 'DNS1123LabelPrefix', (s) => nameIsDNSLabel(s, true)],
      ['dns1123SubdomainPrefix', 'DNS1123SubdomainPrefix', (s) => nameIsDNSSubdomain(s, true)],
      ['dns1035LabelPrefix', 'DNS1035LabelPrefix', (s) => nameIsDNS1035Label(s, true)],
      ['labelValue', 'LabelValue', isValidLabelValue],
      ['uri', 'URI', uri],
      ['uuid', 'uuid', (s) => (UUID.test(s) ? [] : ['does not match the UUID format'])],
      ['byte', 'byte', (s) => (BASE64.test(s) ? [] : ['invalid base64'])],
      ['date', 'date', (s) => (validDate(s) ? [] : ['invalid date'])],
      ['datetime', 'datetime', (s) => (parseTimestamp(s) !== undefined ? [] : ['invalid datetime'])],
    ] as [string, string, (s: string) => string[]][]
  ).map(([key, name, validate]) => [key, new FormatValue(name, validate)]),
);

/** The declarations of the format library. */
export function formatFunctions(): FunctionDecl[] {
  return [
    ...[...NAMED_FORMATS].map(([key, value]) =>
      fn(
        `format.${key}`,
        overload(`format.${key}`, '() -> kubernetes.NamedFormat', () => value),
      ),
    ),
    fn(
      'validate',
      overload('format-validate', 'kubernetes.NamedFormat.(string) -> optional_type(list(string))', (a) => {
        const errs = (a[0] as FormatValue).validate(a[1] as string);
        return errs.length === 0 ? OptionalValue.NONE : OptionalValue.of(new ArrayList(errs));
      }),
    ),
    fn(
      'format.named',
      overload('format-named', '(string) -> optional_type(kubernetes.NamedFormat)', (a) => {
        const f = NAMED_FORMATS.get(a[0] as string);
        return f ? OptionalValue.of(f) : OptionalValue.NONE;
      }),
    ),
  ];
}
