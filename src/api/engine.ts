/**
 * The engine: one entry for every request, whatever door it came through. It resolves the kind,
 * checks the verb against the kind and subresource, and hands over to the verb, which turns the
 * request into a change for the store (src/api/store/); a write's answer is converted back to the
 * request's version here.
 */
import type { KubeObject } from '../schema/define-kind.js';
import type { ResolvedKind } from '../schema/registry.js';
import type { EngineContext } from './context.js';
import { ApiError, badRequest, internalError, methodNotSupported } from '../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../machinery/request.js';
import { isPromise, type MaybePromise } from '../util/maybe-promise.js';
import { authorize } from './authorize.js';
import { act } from './verbs/act.js';
import { computedRead } from './verbs/computed.js';
import { connect } from './verbs/connect.js';
import { create } from './verbs/create.js';
import { deleteCollection } from './verbs/delete-collection.js';
import { deleteOne } from './verbs/delete.js';
import { get } from './verbs/get.js';
import { list } from './verbs/list.js';
import { patch } from './verbs/patch.js';
import { review } from './verbs/review.js';
import { scale } from './verbs/scale.js';
import { update } from './verbs/update.js';
import { watch } from './verbs/watch.js';
import { extended } from '../util/extended.js';

/** 404 for a resource the server does not serve, as Kubernetes answers it. */
function resourceNotFound(): ApiError {
  return new ApiError({ code: 404, reason: 'NotFound', message: 'the server could not find the requested resource', details: {} });
}

/** Resolves the served kind of a request, or answers 404. */
export function resolveKind(ctx: EngineContext, req: ApiRequest): ResolvedKind {
  const kind = ctx.registry.lookup(req.resource);
  if (!kind) throw resourceNotFound();
  const gate = kind.definition.featureGate;
  if (gate && !ctx.featureEnabled(gate)) throw resourceNotFound();
  if (req.subresource !== undefined && !hasSubresource(kind, req.subresource)) throw resourceNotFound();
  return kind;
}

function hasSubresource(kind: ResolvedKind, name: string): boolean {
  if (name === 'status') return kind.definition.statusSubresource === true;
  if (name === 'scale') return kind.definition.scale !== undefined;
  if (kind.definition.actions?.[name] !== undefined) return true;
  if (kind.definition.connectSubresources?.[name] !== undefined) return true;
  if (kind.definition.partSubresources?.[name] !== undefined) return true;
  return kind.definition.updateSubresources?.[name] !== undefined;
}

/**
 * A write's answer converted to the request's version (a delete may answer a Status instead, left
 * as is); a promise only when the conversion answers one.
 */
function atRequestedVersion<B>(kind: ResolvedKind, version: string, res: ApiResponse<B>): MaybePromise<ApiResponse<B>> {
  const body = res.body as KubeObject | undefined;
  if (!body || body.apiVersion !== kind.stored.apiVersion || body.kind !== kind.stored.kind) return res;
  const presented = kind.present(version, body);
  return isPromise(presented) ? presented.then((p) => ({ ...res, body: p as B })) : { ...res, body: presented as B };
}

const ITEM_VERBS = new Set(['get', 'update', 'patch', 'delete']);

/** Runs one request through the pipeline. Every failure is an {@link ApiError}. */
export async function handle(ctx: EngineContext, req: ApiRequest): Promise<ApiResponse> {
  // Kubernetes' deprecation filter warns on every request for a deprecated resource, failed or not.
  let deprecation: string | undefined;
  try {
    if (!req.authorized) {
      const authorized = authorize(ctx, req);
      if (authorized) await authorized;
    }
    const kind = resolveKind(ctx, req);
    deprecation = kind.definition.deprecationWarning;
    // As kube-apiserver's request metrics mark a request to a deprecated version for audit.
    if (deprecation) req.audit?.addAnnotation('k8s.io/deprecated', 'true');
    const res = await dispatch(ctx, req, kind);
    return deprecation ? { ...res, warnings: [deprecation, ...res.warnings] } : res;
  } catch (e) {
    const err = e instanceof ApiError ? e : internalError(e);
    throw deprecation ? err.withWarnings([deprecation]) : err;
  }
}

/**
 * The verb's work for a resolved kind. Not an async function: a get answers its verb's promise
 * as it is, one step fewer (its caller awaits it, and catches what it throws).
 */
function dispatch(ctx: EngineContext, req: ApiRequest, kind: ResolvedKind): MaybePromise<ApiResponse> {
  const version = req.resource.version;
  const gr = { group: kind.group, resource: kind.definition.plural };
  if (ITEM_VERBS.has(req.verb) && !req.name) throw badRequest('name is required for this operation');
  if (kind.namespaced && !req.namespace && req.verb !== 'list' && req.verb !== 'watch' && req.verb !== 'deletecollection') {
    throw badRequest('the namespace of the object is required for this operation');
  }
  if (kind.definition.unsupportedVerbs?.includes(req.verb)) throw methodNotSupported(gr, req.verb);
  if (kind.definition.review) {
    if (req.verb !== 'create' || req.subresource) throw methodNotSupported(gr, req.verb);
    return review(ctx, kind, req, version, (inner) => handle(ctx, extended(inner, { authorized: true })));
  }
  if (req.subresource !== undefined && kind.definition.actions?.[req.subresource]) {
    if (req.verb !== 'create') throw methodNotSupported(gr, req.verb);
    return act(ctx, kind, req, kind.definition.actions[req.subresource]!, (inner) => handle(ctx, extended(inner, { authorized: true })));
  }
  const connector = req.subresource !== undefined ? kind.definition.connectSubresources?.[req.subresource] : undefined;
  if (connector) return connect(ctx, kind, req, connector);
  const readable =
    req.subresource === 'status' ||
    req.subresource === 'scale' ||
    (req.subresource !== undefined && kind.definition.partSubresources?.[req.subresource] !== undefined);
  if (readable && req.verb !== 'get' && req.verb !== 'update' && req.verb !== 'patch') {
    throw methodNotSupported(gr, req.verb);
  }
  if (req.subresource && !readable && req.verb !== 'update' && req.verb !== 'patch') throw methodNotSupported(gr, req.verb);
  if (req.subresource === 'scale') return scale(ctx, kind, req, version);
  const computed = kind.definition.computedObjects;
  if (computed && !req.subresource && (req.verb === 'get' || req.verb === 'list')) return computedRead(kind, req, version, computed());
  switch (req.verb) {
    case 'get':
      return get(ctx, kind, req);
    case 'list':
      return list(ctx, kind, req, version);
    case 'watch':
      return watch(ctx, kind, req, version);
    case 'create':
      return create(ctx, kind, req, version).then((res) => atRequestedVersion(kind, version, res));
    case 'update':
      return update(ctx, kind, req, version).then((res) => atRequestedVersion(kind, version, res));
    case 'patch':
      return patch(ctx, kind, req, version).then((res) => atRequestedVersion(kind, version, res));
    case 'delete':
      return deleteOne(ctx, kind, req).then((res) => atRequestedVersion(kind, version, res));
    case 'deletecollection':
      return deleteCollection(ctx, kind, req, version);
    default:
      throw methodNotSupported(gr, req.verb);
  }
}
