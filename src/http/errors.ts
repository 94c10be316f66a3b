/**
 * Failures as Kubernetes answers them: a `metav1.Status` body with its code. Anything that is not
 * an ApiError becomes a 500 InternalError Status; nothing escapes as a crash.
 */
import { ApiError, compactStatus, internalError } from '../machinery/errors.js';
import { encodeResponse } from './encode.js';

/** The ApiError for any thrown value. */
export function asApiError(e: unknown): ApiError {
  return e instanceof ApiError ? e : internalError(e);
}

/**
 * The headers a failure adds: its warnings, and `Retry-After` when its Status suggests a delay (a 429 from an
 * eviction, a 504), as Kubernetes' `responsewriters.ErrorNegotiated` sets it.
 */
export function errorHeaders(err: ApiError, headers?: Headers): Headers | undefined {
  const delay = err.status.details?.retryAfterSeconds;
  const retry = delay !== undefined && delay > 0;
  if (!retry && err.warnings.length === 0) return headers;
  const out = headers ?? new Headers();
  if (retry) out.set('Retry-After', String(Math.trunc(delay)));
  addWarnings(out, err.warnings);
  return out;
}

/** The Status response of a failure. */
export function errorResponse(e: unknown, format: 'json' | 'yaml' = 'json', pretty = false, headers?: Headers): Response {
  const err = asApiError(e);
  const ct = format === 'yaml' ? 'application/yaml' : 'application/json';
  return encodeResponse(err.code, compactStatus(err.status), format, ct, pretty, errorHeaders(err, headers));
}

/**
 * `Warning` header values (`299 - "text"`), escaped as Kubernetes does: `"` and `\` get a
 * backslash, control characters become spaces. Text beyond ASCII (a warning naming a field
 * `😀`) goes on the wire as its UTF-8 bytes, as Go writes headers: a header value holds bytes,
 * and one with a wider character would fail the whole response after the write was done.
 */
export function warningHeaderValue(text: string): string {
  // eslint-disable-next-line no-control-regex
  const clean = text.replace(/[\u0000-\u001f\u007f]/g, ' ').replace(/[\\"]/g, (c) => `\\${c}`);
  const value = `299 - "${clean}"`;
  // eslint-disable-next-line no-control-regex
  return /^[\u0000-\u007f]*$/.test(value) ? value : Buffer.from(value, 'utf8').toString('latin1');
}

/** Adds one `Warning` header per warning, in order. */
export function addWarnings(headers: Headers, warnings: readonly string[]): void {
  for (const w of warnings) headers.append('Warning', warningHeaderValue(w));
}

/** 404 for a path the server does not serve. */
export function pathNotFound(): ApiError {
  return new ApiError({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} });
}

/** 405 for a method a path does not take. */
export function methodNotAllowed(): ApiError {
  return new ApiError({ code: 405, reason: 'MethodNotAllowed', message: 'the server does not allow this method on the requested resource', details: {} });
}
