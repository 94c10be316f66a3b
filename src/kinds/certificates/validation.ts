/** Validation shared by the certificates kinds (Kubernetes' `ValidateSignerName`, user annotations, Go's time texts). */
import { fieldError, key, type FieldError } from '../../machinery/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName } from '../../schema/validation/names.js';
import { annotationsTooLarge, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES } from '../../schema/validation/object-meta.js';

const DNS1123_SUBDOMAIN_MAX = 253;
const DNS1123_LABEL_MAX = 63;

/** `ValidateSignerName`: `example.com/signer-name`, at most 571 characters. */
export function validateSignerName(path: string, signerName: string): FieldError[] {
  if (signerName.length === 0) return [fieldError.required(path)];
  const segments = signerName.split('/');
  if (segments.length !== 2) {
    return [fieldError.invalid(path, signerName, "must be a fully qualified domain and path of the form 'example.com/signer-name'")];
  }
  const [domain, rest] = segments as [string, string];
  const errs: FieldError[] = [];
  if (domain.length > DNS1123_SUBDOMAIN_MAX) errs.push(fieldError.tooLong(path, DNS1123_SUBDOMAIN_MAX));
  const domainLabels = domain.split('.');
  for (const label of domainLabels) {
    const msgs = isDNS1123Label(label);
    if (msgs.length) {
      for (const m of msgs) errs.push(fieldError.invalid(path, domain, `validating label ${JSON.stringify(label)}: ${m}`));
      break;
    }
  }
  if (domainLabels.length < 2) errs.push(fieldError.invalid(path, domain, 'should be a domain with at least two segments separated by dots'));
  for (const label of rest.split('.')) {
    const msgs = isDNS1123Subdomain(label);
    if (msgs.length) {
      for (const m of msgs) errs.push(fieldError.invalid(path, rest, `validating label ${JSON.stringify(label)}: ${m}`));
      break;
    }
  }
  const max = DNS1123_SUBDOMAIN_MAX + (DNS1123_SUBDOMAIN_MAX + DNS1123_LABEL_MAX + 1) + 1;
  if (signerName.length > max) errs.push(fieldError.tooLong(path, max));
  return errs;
}

/** `IsKubernetesSignerName`: the host part is the reserved domain or one of its subdomains. */
export function isReservedSignerName(signerName: string, reservedDomain: string): boolean {
  const host = signerName.split('/')[0] ?? '';
  return host === reservedDomain || host.endsWith(`.${reservedDomain}`);
}

/**
 * `ValidateUserAnnotations`: annotation keys (qualified names, case-insensitive) that must also be
 * domain-prefixed; the whole map is limited like metadata annotations.
 */
export function validateUserAnnotations(annotations: Readonly<Record<string, string>>, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const k of Object.keys(annotations).sort()) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(fieldError.invalid(path, k, msg));
    if (!k.includes('/')) errs.push(fieldError.invalid(key(path, k), k, 'must be a domain-prefixed key (such as "acme.io/foo")'));
  }
  if (annotationsTooLarge(annotations)) errs.push(fieldError.tooLong(path, TOTAL_ANNOTATION_SIZE_LIMIT_BYTES));
  return errs;
}

/** Go's `time.Time.String()` of a UTC instant: `2026-01-01 00:00:00 +0000 UTC`. */
export function goTimeString(ms: number): string {
  const d = new Date(ms);
  const iso = d.toISOString(); // 2026-01-01T00:00:00.000Z
  const frac = iso.slice(20, 23).replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac ? '.' + frac : ''} +0000 UTC`;
}

/** Go's `time.Duration.String()` for whole milliseconds. */
export function goDurationString(ms: number): string {
  if (ms === 0) return '0s';
  const neg = ms < 0;
  let rest = Math.abs(ms);
  if (rest < 1000) return `${neg ? '-' : ''}${rest}ms`;
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const m = Math.floor(rest / 60_000);
  rest -= m * 60_000;
  const s = rest / 1000;
  let text = `${s}s`;
  if (h > 0) text = `${h}h${m}m${text}`;
  else if (m > 0) text = `${m}m${text}`;
  return (neg ? '-' : '') + text;
}
