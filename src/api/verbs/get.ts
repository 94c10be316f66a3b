/**
 * get: a map lookup, then conversion to the requested version. A `resourceVersion` asks for a
 * state not older than it (as the watch cache serves gets): a revision not yet written is waited
 * for briefly, then 504 Too large resource version.
 */
import type { KubeObject } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import { objectKey, type EngineContext } from '../context.js';
import { notFound } from '../../machinery/errors.js';
import { parseResourceVersion, waitForRevision } from '../list-options.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { isPromise } from '../../util/maybe-promise.js';

/** The get verb (an item or its `/status`). */
export async function get(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest): Promise<ApiResponse<KubeObject>> {
  const name = req.name ?? '';
  const rv = parseResourceVersion(req.getOptions?.resourceVersion);
  if (rv !== undefined && rv > 0) await waitForRevision(ctx.storage, rv);
  const stored = await ctx.storage.get(objectKey(kind, req.namespace, name));
  if (!stored) throw notFound({ group: kind.group, resource: kind.definition.plural }, name);
  const body = kind.present(req.resource.version, stored.value as KubeObject);
  return { code: 200, body: isPromise(body) ? await body : body, warnings: [] };
}
