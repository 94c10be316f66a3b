/**
 * `nodes/{name}/proxy/{path}`: a request passed on to the node's agent, as kube-apiserver's
 * ProxyREST (pkg/registry/core/node/rest/proxy.go) with `ResourceLocation`
 * (pkg/registry/core/node/strategy.go): the name may carry a port and scheme
 * (`[scheme:]name[:port]`); the agent's own port goes with the API server's client certificate,
 * another port of the node without it (and never to a loopback or link-local address); the path
 * is joined to `/` and cleaned (a trailing slash kept), so no `..` or encoded slash climbs above
 * the agent's root; method, query, headers and body pass on, and the agent's status, headers and
 * body come back as they are.
 */
import { isIP } from 'node:net';
import { badRequest } from '../../../machinery/errors.js';
import type { NodeLocation } from '../../../machinery/node-connections.js';
import type { ApiResponse, StreamedBody } from '../../../machinery/request.js';
import type { ConnectSubresource } from '../../../schema/define-kind.js';
import { locateNodeAgent, plainFailure } from '../node-agent.js';

/** `utilnet.SplitSchemeNamePort`: `name`, `name:port` or `scheme:name:port`; undefined when malformed. */
export function splitSchemeNamePort(id: string): { scheme: string; name: string; port: string } | undefined {
  const parts = id.split(':');
  let scheme = '';
  let name: string;
  let port = '';
  if (parts.length === 1) name = parts[0]!;
  else if (parts.length === 2) [name, port] = parts as [string, string];
  else if (parts.length === 3) [scheme, name, port] = parts as [string, string, string];
  else return undefined;
  if (name === '' || !['', 'http', 'https'].includes(scheme)) return undefined;
  return { scheme, name, port };
}

/** Go's `path.Clean` of an absolute path: `.` and `..` resolved, never above `/`, no empty segments. */
function cleanSegments(path: string): string[] {
  const out: string[] = [];
  for (const s of path.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') out.pop();
    else out.push(s);
  }
  return out;
}

/** A path segment escaped as Go's `url.URL.EscapedPath` leaves it: sub-delimiters, `:` and `@` stay. */
function escapeSegment(segment: string): string {
  return encodeURIComponent(segment).replace(/%(21|24|26|27|28|29|2A|2B|2C|3B|3D|3A|40)/gi, (m) => decodeURIComponent(m));
}

/**
 * The agent's path for a proxied path (`net.JoinPreservingTrailingSlash("/", path)`): cleaned,
 * escaped, a trailing slash kept. `path` is already decoded, so an encoded slash is a separator.
 */
export function proxiedPath(path: string | undefined): string {
  const segments = cleanSegments(path ?? '');
  const joined = `/${segments.map(escapeSegment).join('/')}`;
  return joined !== '/' && (path ?? '').endsWith('/') ? `${joined}/` : joined;
}

/** `proxyutil.IsProxyableIP` for an address literal: loopback and link-local addresses are not proxied to. */
function proxyable(host: string): boolean {
  const kind = isIP(host);
  if (kind === 4) return !/^127\./.test(host) && !/^169\.254\./.test(host);
  if (kind === 6) {
    const h = host.toLowerCase();
    return h !== '::1' && !/^fe[89ab]/.test(h) && !/^ff0[12]:/.test(h);
  }
  return true;
}

/** Where a proxied request goes: the agent, or (another port asked for) the node's address at that port. */
async function proxyLocation(id: string, ctx: Parameters<ConnectSubresource['connect']>[2]): Promise<NodeLocation> {
  const parsed = splitSchemeNamePort(id);
  if (!parsed) throw badRequest(`invalid node request ${JSON.stringify(id)}`);
  const agent = await locateNodeAgent(ctx, parsed.name);
  if (parsed.port === '' || parsed.port === agent.port) return agent;
  if (!proxyable(agent.host)) throw badRequest('address not allowed');
  return { scheme: parsed.scheme === 'https' ? 'https' : 'http', host: agent.host, port: parsed.port, agent: false };
}

/** The raw query of a proxied request, or one made from its parameters (the in-process client). */
function queryOf(request: Parameters<ConnectSubresource['connect']>[1]): string {
  if (request.query !== undefined) return request.query;
  return new URLSearchParams(Object.entries(request.params).flatMap(([k, vs]) => vs.map((v): [string, string] => [k, v]))).toString();
}

/** The Node's `proxy` subresource. */
export const nodeProxy: ConnectSubresource = {
  methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'],
  discoveryKind: 'NodeProxyOptions',
  takesPath: true,
  async connect(target, request, ctx): Promise<ApiResponse<StreamedBody>> {
    const location = await proxyLocation(target.name, ctx);
    let res;
    try {
      res = await ctx.nodes.send(location, {
        method: request.method,
        path: proxiedPath(request.path),
        ...(queryOf(request) ? { query: queryOf(request) } : {}),
        ...(request.headers ? { headers: request.headers } : {}),
        ...(request.body ? { body: request.body } : {}),
      });
    } catch (e) {
      // The reverse proxy's error handler gets the transport's error as it is.
      throw plainFailure(e instanceof Error ? e.message : String(e));
    }
    return { code: res.status, body: res.body, warnings: [] };
  },
};
