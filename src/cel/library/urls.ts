/**
 * Kubernetes' URL library (apiserver/pkg/cel/library/urls.go): url(), isURL() and the accessors of
 * kubernetes.URL, over Go's url.ParseRequestURI rules.
 */
import { goParseURL, type GoURL } from '../../util/go-url.js';
import { ArrayList, CelError, LiteralMap, OpaqueValue, type Result, type Value } from '../values/values.js';
import { fn, overload, type FunctionDecl } from '../functions/declarations.js';

/** A kubernetes.URL value. */
export class URLValue extends OpaqueValue {
  readonly typeName = 'kubernetes.URL';
  constructor(
    readonly raw: string,
    readonly url: GoURL,
  ) {
    super();
  }
  equals(other: OpaqueValue): boolean {
    return other instanceof URLValue && other.raw === this.raw;
  }
}

/** Go's url.ParseRequestURI: an absolute URI or an absolute path, no fragment split off. */
function parseRequestURI(raw: string): URLValue | string {
  const r = goParseURL(raw);
  if (!r.ok) return r.error;
  if (r.url.scheme === '' && !raw.startsWith('/')) return `parse "${raw}": invalid URI for request`;
  return new URLValue(raw, r.url);
}

const U = (v: Value): GoURL => (v as URLValue).url;

function hostname(u: GoURL): string {
  const h = u.host;
  if (h.startsWith('[')) {
    const end = h.indexOf(']');
    return end < 0 ? h.slice(1) : h.slice(1, end);
  }
  const colon = h.lastIndexOf(':');
  return colon < 0 ? h : h.slice(0, colon);
}

function port(u: GoURL): string {
  const h = u.host;
  const close = h.lastIndexOf(']');
  const colon = h.lastIndexOf(':');
  if (colon < 0 || colon < close) return '';
  return h.slice(colon + 1);
}

function escapedPath(u: GoURL): string {
  return encodeURI(u.path).replace(/%5B/g, '[').replace(/%5D/g, ']');
}

function query(u: GoURL): Result {
  const m = new LiteralMap();
  const groups = new Map<string, string[]>();
  for (const part of u.rawQuery.split('&')) {
    if (part === '' || part.includes(';')) continue;
    const eq = part.indexOf('=');
    const decode = (s: string): string | undefined => {
      try {
        return decodeURIComponent(s.replace(/\+/g, ' '));
      } catch {
        return undefined;
      }
    };
    const k = decode(eq < 0 ? part : part.slice(0, eq));
    const v = decode(eq < 0 ? '' : part.slice(eq + 1));
    if (k === undefined || v === undefined) continue;
    const list = groups.get(k) ?? [];
    list.push(v);
    groups.set(k, list);
  }
  for (const [k, vs] of groups) m.set(k, new ArrayList(vs));
  return m;
}

/** The declarations of the URL library. */
export function urlFunctions(): FunctionDecl[] {
  return [
    fn(
      'url',
      overload('string_to_url', '(string) -> kubernetes.URL', (a) => {
        const u = parseRequestURI(a[0] as string);
        return typeof u === 'string' ? new CelError(`URL parse error during conversion from string: ${u}`) : u;
      }),
    ),
    fn(
      'isURL',
      overload('is_url_string', '(string) -> bool', (a) => typeof parseRequestURI(a[0] as string) !== 'string'),
    ),
    fn(
      'getScheme',
      overload('url_get_scheme', 'kubernetes.URL.() -> string', (a) => U(a[0]!).scheme),
    ),
    fn(
      'getHost',
      overload('url_get_host', 'kubernetes.URL.() -> string', (a) => U(a[0]!).host),
    ),
    fn(
      'getHostname',
      overload('url_get_hostname', 'kubernetes.URL.() -> string', (a) => hostname(U(a[0]!))),
    ),
    fn(
      'getPort',
      overload('url_get_port', 'kubernetes.URL.() -> string', (a) => port(U(a[0]!))),
    ),
    fn(
      'getEscapedPath',
      overload('url_get_escaped_path', 'kubernetes.URL.() -> string', (a) => escapedPath(U(a[0]!))),
    ),
    fn(
      'getQuery',
      overload('url_get_query', 'kubernetes.URL.() -> map(string, list(string))', (a) => query(U(a[0]!))),
    ),
  ];
}
