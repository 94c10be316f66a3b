/**
 * Cross-origin resource sharing for browser clients, as kube-apiserver's `--cors-allowed-origins`
 * serves it (k8s.io/apiserver `filters.WithCORS`, put by `DefaultBuildHandlerChain` outside
 * authentication): a request whose `Origin` matches one of the patterns gets the CORS headers on
 * whatever it is answered, a 401 included, and a preflight `OPTIONS` is answered 204 at once,
 * without credentials, audit or metrics; any other request goes on untouched.
 */
import { randomUuid } from '../util/uuid.js';
import { extended } from '../util/extended.js';
import { compileGoRegexp, type GoRegexp } from '../util/go-regexp.js';
import { isEncodedAnswer } from './encode.js';
import type { CorsOptions, HttpAnswer, HttpRequestHandler } from './door.js';

export type { CorsOptions } from './door.js';

/** What kube-apiserver's `--cors-allowed-origins` help says a valid expression looks like. */
export const CORS_ALLOWED_ORIGINS_HELP =
  "List of allowed origins for CORS, comma separated. An allowed origin can be a regular expression to support subdomain matching. If this list is empty CORS will not be enabled. Please ensure each expression matches the entire hostname by anchoring to the start with '^' or including the '//' prefix, and by anchoring to the end with '$' or including the ':' port separator suffix. Examples of valid expressions are '//example\\.com(:|$)' and '^https://example\\.com(:|$)'";

/** The headers kube-apiserver sends an allowed origin (WithCORS called with its defaults and credentials "true"). */
const ALLOW_METHODS = 'POST, GET, OPTIONS, PUT, DELETE, PATCH';
const ALLOW_HEADERS = 'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since';
const EXPOSE_HEADERS = 'Date';

/**
 * The errors of an allowed-origin list, in kube-apiserver's words (`validateCorsAllowedOriginList`
 * of k8s.io/apiserver's ServerRunOptions, which guards against CVE-2022-1996): an empty entry, a
 * pattern Go's regexp does not compile, a pattern not pinned to the start and end of the host.
 */
export function validateCorsAllowedOrigins(patterns: readonly string[]): string[] {
  const errors: string[] = [];
  for (const pattern of patterns) {
    if (pattern.length === 0) {
      errors.push(`empty value in --cors-allowed-origins, help: ${CORS_ALLOWED_ORIGINS_HELP}`);
      continue;
    }
    const compiled = compileGoRegexp(pattern);
    // A plain substring check, as upstream's: it asks that the markers be there, not where.
    const pinned = (pattern.includes('^') || pattern.includes('//')) && (pattern.includes('$') || pattern.includes(':'));
    const problem = !compiled.ok ? compiled.error : !pinned ? 'regular expression does not pin to start/end of host in the origin header' : undefined;
    if (problem) errors.push(`--cors-allowed-origins has an invalid regular expression: ${problem}, help: ${CORS_ALLOWED_ORIGINS_HELP}`);
  }
  return errors;
}

/**
 * Throws an `Error` with kube-apiserver's message(s) when a pattern of `options` is invalid: for
 * doors that make their handlers later, so that a bad pattern still fails at startup.
 */
export function checkCorsOptions(options: CorsOptions): void {
  const errors = validateCorsAllowedOrigins(options.allowedOrigins);
  // errors.NewAggregate's text: one message as is, several in brackets.
  if (errors.length) throw new Error(errors.length === 1 ? errors[0] : `[${errors.join(', ')}]`);
}

/** The compiled patterns of `options`; throws as {@link checkCorsOptions} does. */
function compileAllowedOrigins(options: CorsOptions): GoRegexp[] {
  checkCorsOptions(options);
  return options.allowedOrigins.map((p) => (compileGoRegexp(p) as { ok: true; regexp: GoRegexp }).regexp);
}

/**
 * The handler with CORS in front of it; `core` itself when no origin is allowed. Throws for an
 * invalid pattern, so a server with one never starts (kube-apiserver exits with the same message).
 */
export function withCors(core: HttpRequestHandler, options: CorsOptions | undefined): HttpRequestHandler {
  if (!options || options.allowedOrigins.length === 0) return core;
  const patterns = compileAllowedOrigins(options);
  return async (request) => {
    // Go's Header.Get: the first Origin line. An origin-list ("a b") is matched as one string.
    const origin = request.headerValues('origin')[0] ?? '';
    if (origin === '' || !patterns.some((re) => re.test(origin))) return core(request);
    const headers = corsHeaders(origin);
    if (request.method === 'OPTIONS') {
      // The filters outside WithCORS still run: WithAuditInit's Audit-Id, WithCacheControl's default.
      headers.set('Cache-Control', 'no-cache, private');
      headers.set('Audit-Id', request.header('audit-id') || randomUuid());
      return new Response(null, { status: 204, headers });
    }
    return withHeaders(await core(request), headers);
  };
}

/** The headers an allowed origin gets. */
function corsHeaders(origin: string): Headers {
  return new Headers({
    'Access-Control-Allow-Origin': origin,
    'Access-Control-Allow-Methods': ALLOW_METHODS,
    'Access-Control-Allow-Headers': ALLOW_HEADERS,
    'Access-Control-Expose-Headers': EXPOSE_HEADERS,
    'Access-Control-Allow-Credentials': 'true',
  });
}

/** The answer with `extra` headers added (a copy: the answer's own headers may be shared). */
function withHeaders(answer: HttpAnswer, extra: Headers): HttpAnswer {
  if (isEncodedAnswer(answer)) {
    const headers = new Headers(answer.headers);
    extra.forEach((value, name) => headers.set(name, value));
    return extended(answer, { headers });
  }
  try {
    extra.forEach((value, name) => answer.headers.set(name, value));
    return answer;
  } catch {
    // A Response with immutable headers (a proxied fetch answer): the same body under new headers.
    const headers = new Headers(answer.headers);
    extra.forEach((value, name) => headers.set(name, value));
    return new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers });
  }
}
