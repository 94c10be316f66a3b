/**
 * Request routing as kubelet's server does it: Go's `http.ServeMux` first (the path cleaned, `..`
 * and `//` answered with a 301 to the clean path, `/tree` redirected to a registered `/tree/`, an
 * unknown path `404 page not found`), then, for a go-restful web service, its router (path
 * parameters, `404: Page Not Found`, `405: Method Not Allowed` with `Allow`, `406: Not
 * Acceptable`). The container filter (authentication and authorization) runs before the route's
 * own answer, even when that answer is an error, as go-restful runs container filters.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { posix } from 'node:path';
import { httpError, movedPermanently, writeErrorString } from './respond.js';

/** One request as a handler sees it. */
export interface RouteContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly method: string;
  /** The decoded path (Go's `URL.Path`). */
  readonly path: string;
  readonly query: URLSearchParams;
  /** Path parameters of a web service route (decoded). */
  readonly params: Readonly<Record<string, string>>;
}

/** Answers a request. */
export type RouteHandler = (context: RouteContext) => void | Promise<void>;

/** Runs before every handler of the mux; resolves false when it answered the request itself. */
export type RouteFilter = (context: RouteContext) => Promise<boolean>;

/** A route of a web service: a method and a path template below the service's root (`/{podNamespace}/{podID}`). */
export interface ServiceRoute {
  readonly method: string;
  readonly path: string;
  readonly handler: RouteHandler;
  /** The type it produces; an `Accept` naming neither it nor `*\/*` is refused. */
  readonly produces?: string;
}

type MuxEntry =
  { readonly kind: 'handle'; readonly handler: RouteHandler } | { readonly kind: 'service'; readonly root: string; readonly routes: readonly ServiceRoute[] };

/** Go's `cleanPath`: `path.Clean`, the trailing slash kept. */
export function cleanPath(path: string): string {
  if (path === '') return '/';
  const rooted = path.startsWith('/') ? path : `/${path}`;
  const clean = posix.normalize(rooted);
  return rooted.endsWith('/') && !clean.endsWith('/') ? `${clean}/` : clean;
}

/** Percent-decoding as Go's URL parser does it; undefined for a malformed escape. */
export function decodePath(escaped: string): string | undefined {
  if (!/^(?:[^%]|%[0-9A-Fa-f]{2})*$/.test(escaped)) return undefined;
  return Buffer.from(
    escaped.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

/** Splits a path into go-restful's tokens (slashes at both ends ignored). */
function tokens(path: string): string[] {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? [] : trimmed.split('/');
}

function matchTemplate(template: readonly string[], parts: readonly string[]): Record<string, string> | undefined {
  if (template.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const t = template[i]!;
    const p = parts[i]!;
    const param = /^\{(\w+)\}$/.exec(t);
    if (param) params[param[1]!] = p;
    else if (t !== p) return undefined;
  }
  return params;
}

function acceptable(accept: string | undefined, produces: string | undefined): boolean {
  if (!produces) return true;
  return (accept || '*/*').split(',').some((part) => {
    const type = part.split(';')[0]!.trim();
    return type === '*/*' || type === produces;
  });
}

/** The mux of one port. */
export class NodeAgentRouter {
  private readonly entries = new Map<string, MuxEntry>();

  /** `mux.Handle`: an exact path, or a subtree when `pattern` ends with `/`. */
  handle(pattern: string, handler: RouteHandler): this {
    this.entries.set(pattern, { kind: 'handle', handler });
    return this;
  }

  /** A go-restful web service at `root` (also registered at `root/` unless `root` ends with a slash). */
  service(root: string, routes: readonly ServiceRoute[]): this {
    const entry: MuxEntry = { kind: 'service', root, routes };
    this.entries.set(root, entry);
    if (!root.endsWith('/')) this.entries.set(`${root}/`, entry);
    return this;
  }

  private match(path: string): MuxEntry | undefined {
    const exact = this.entries.get(path);
    if (exact) return exact;
    let best: string | undefined;
    for (const pattern of this.entries.keys()) {
      if (pattern.endsWith('/') && path.startsWith(pattern) && (!best || pattern.length > best.length)) best = pattern;
    }
    return best === undefined ? undefined : this.entries.get(best);
  }

  /** Answers one request; `filter` runs before any handler or route error. */
  async dispatch(req: IncomingMessage, res: ServerResponse, filter?: RouteFilter): Promise<void> {
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const q = target.indexOf('?');
    const escaped = q < 0 ? target : target.slice(0, q);
    const rawQuery = q < 0 ? '' : target.slice(q + 1);
    const decoded = decodePath(escaped);
    if (decoded === undefined || !escaped.startsWith('/')) {
      res.writeHead(400, { 'Content-Type': 'text/plain; charset=utf-8', Connection: 'close' });
      res.end('400 Bad Request');
      return;
    }
    const clean = cleanPath(escaped);
    const suffix = rawQuery ? `?${rawQuery}` : '';
    if (!this.entries.has(clean) && !clean.endsWith('/') && this.entries.has(`${clean}/`)) {
      return movedPermanently(res, method, `${clean}/${suffix}`);
    }
    if (clean !== escaped) return movedPermanently(res, method, `${clean}${suffix}`);
    const entry = this.match(clean);
    if (!entry) return httpError(res, 404, '404 page not found');
    const context: RouteContext = { req, res, method, path: decoded, query: new URLSearchParams(rawQuery), params: {} };
    if (filter && !(await filter(context))) return;
    if (entry.kind === 'handle') return entry.handler(context);

    const parts = tokens(decoded);
    const rootParts = tokens(entry.root);
    const candidates: { route: ServiceRoute; params: Record<string, string> }[] = [];
    for (const route of entry.routes) {
      const params = matchTemplate([...rootParts, ...tokens(route.path)], parts);
      if (params) candidates.push({ route, params });
    }
    if (!candidates.length) return writeErrorString(res, 404, '404: Page Not Found');
    const byMethod = candidates.filter((c) => c.route.method === method);
    if (!byMethod.length) {
      const allowed = [...new Set(candidates.map((c) => c.route.method))].join(', ');
      return writeErrorString(res, 405, '405: Method Not Allowed', { Allow: allowed });
    }
    const chosen = byMethod.find((c) => acceptable(req.headers.accept, c.route.produces));
    if (!chosen) return writeErrorString(res, 406, '406: Not Acceptable');
    return chosen.route.handler({ ...context, params: chosen.params });
  }
}
