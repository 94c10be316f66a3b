/**
 * The conversion webhook's client configuration, as k8s.io/apiserver/pkg/util/webhook checks it
 * (`ValidateWebhookURL` with https forced, `ValidateWebhookService`, `ValidateCABundle`).
 */
import { child, fieldError, GoPrinted, type FieldError } from '../../../machinery/field-errors.js';
import { inclusiveRangeError, isDNS1123Subdomain } from '../../../schema/validation/names.js';
import { goJson } from '../../../util/go-format.js';
import { goParseURL, goUserinfoString } from '../../../util/go-url.js';
import { fromBase64, parseCertificate, pemDecode } from '../../../pki/x509.js';
import type { InternalWebhookClientConfig } from './internal.js';

const URL_FORM = '; desired format: https://host[/path]';

/** `ValidateWebhookURL(path, url, true)`. */
export function validateConversionWebhookURL(url: string, path: string): FieldError[] {
  const parsed = goParseURL(url);
  if (!parsed.ok) return [fieldError.required(path, `url must be a valid URL: ${parsed.error}${URL_FORM}`)];
  const u = parsed.url;
  const errors: FieldError[] = [];
  if (u.scheme !== 'https') errors.push(fieldError.invalid(path, u.scheme, `'https' is the only allowed URL scheme${URL_FORM}`));
  if (u.host === '') errors.push(fieldError.invalid(path, u.host, `host must be specified${URL_FORM}`));
  if (u.user) errors.push(fieldError.invalid(path, goUserinfoString(u.user), 'user information is not permitted in the URL'));
  if (u.fragment !== '') errors.push(fieldError.invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery !== '') errors.push(fieldError.invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errors;
}

/** `ValidateWebhookService`: name, namespace, port, and a path of DNS-subdomain segments. */
export function validateConversionWebhookService(service: NonNullable<InternalWebhookClientConfig['service']>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!service.name) errors.push(fieldError.required(child(path, 'name'), ''));
  if (!service.namespace) errors.push(fieldError.required(child(path, 'namespace'), ''));
  const port = service.port;
  if (!(port >= 1 && port <= 65535)) errors.push(fieldError.invalid(child(path, 'port'), port, `port is not valid: ${inclusiveRangeError(1, 65535)}`));
  const urlPath = service.path;
  if (urlPath === undefined || urlPath === '' || urlPath === '/') return errors;
  const at = child(path, 'path');
  if (urlPath === '//') return [...errors, fieldError.invalid(at, urlPath, 'segment[0] may not be empty')];
  if (!urlPath.startsWith('/')) errors.push(fieldError.invalid(at, urlPath, "must start with a '/'"));
  let toCheck = urlPath.slice(1);
  if (toCheck.endsWith('/')) toCheck = toCheck.slice(0, -1);
  toCheck.split('/').forEach((step, i) => {
    if (step === '') {
      errors.push(fieldError.invalid(at, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const msg of isDNS1123Subdomain(step)) errors.push(fieldError.invalid(at, urlPath, `segment[${i}]: ${msg}`));
  });
  return errors;
}

/**
 * Why client-go's `transport.TLSConfigFor` refuses a CA bundle, or undefined when it loads:
 * `AppendCertsFromPEM` must find a certificate, and when it does not, the first PEM problem is named.
 */
export function caBundleProblem(caBundle: string): string | undefined {
  let rest = fromBase64(caBundle);
  let found = false;
  let problem: string | undefined;
  for (;;) {
    const [block, next] = pemDecode(rest);
    if (!block) break;
    rest = next;
    if (block.type !== 'CERTIFICATE' || Object.keys(block.headers).length) continue;
    if (parseCertificate(block.bytes)) found = true;
    else problem ??= 'failed to parse certificate: x509: malformed certificate';
  }
  if (found) return undefined;
  const any = pemDecode(fromBase64(caBundle))[0];
  return `unable to load root certificates: ${!any ? 'unable to parse bytes as PEM block' : (problem ?? 'no valid certificate authority data seen')}`;
}

/** `ValidateCABundle`: the bundle must load as a pool of root certificates. */
export function validateCABundle(caBundle: string, path: string): FieldError[] {
  const problem = caBundleProblem(caBundle);
  return problem ? [fieldError.invalid(path, new GoPrinted(goJson(caBundle)), problem)] : [];
}
