/**
 * A connect subresource (a Pod's `log`, a Node's `proxy`): the kind's `connect` streams from a
 * node agent. The verb must be one of the subresource's methods' (405 otherwise); the answer is a
 * streamed body, passed on as it is.
 */
import type { ConnectContext, ConnectSubresource, KubeObject } from '../../schema/define-kind.js';
import { connectVerbOf } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import { cloneJson } from '../../util/json-clone.js';
import { badRequest, methodNotSupported, notFound } from '../../machinery/errors.js';
import type { ApiRequest, ApiResponse, ConnectRequest } from '../../machinery/request.js';
import { kindContext, objectKey, type EngineContext } from '../context.js';

/** The connect request of `req`: the one it carries, or a GET of the verb's method without parameters. */
function connectRequestOf(req: ApiRequest): ConnectRequest {
  if (req.connect) return req.connect;
  const method = ({ get: 'GET', create: 'POST', update: 'PUT', patch: 'PATCH', delete: 'DELETE' } as const)[req.verb as 'get'] ?? 'GET';
  return { method, params: {} };
}

/** Runs a connect subresource. */
export async function connect(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, sub: ConnectSubresource): Promise<ApiResponse> {
  const gr = { group: kind.group, resource: kind.definition.plural };
  if (!req.name) throw badRequest('name is required for this operation');
  const request = connectRequestOf(req);
  if (!sub.methods.some((m) => m === request.method) || (connectVerbOf(request.method) ?? req.verb) !== req.verb) {
    throw methodNotSupported(gr, req.verb);
  }
  const key = objectKey(kind, req.namespace, req.name!);
  const cctx: ConnectContext = {
    ...kindContext(ctx, req, 'create'),
    nodes: ctx.nodes,
    async readTarget() {
      const stored = await ctx.storage.get(key);
      if (!stored) throw notFound(gr, req.name!);
      return cloneJson(stored.value) as KubeObject;
    },
  };
  return sub.connect({ namespace: kind.namespaced ? req.namespace : undefined, name: req.name! }, request, cctx);
}
