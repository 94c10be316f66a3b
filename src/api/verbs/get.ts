/** get: a map lookup, then conversion to the requested version. */
import type { KubeObject } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import { objectKey, type EngineContext } from '../context.js';
import { notFound } from '../errors.js';
import type { ApiRequest, ApiResponse } from '../request.js';

/** The get verb (an item or its `/status`). */
export async function get(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest): Promise<ApiResponse<KubeObject>> {
  const name = req.name ?? '';
  const stored = await ctx.storage.get(objectKey(kind, req.namespace, name));
  if (!stored) throw notFound({ group: kind.group, resource: kind.definition.plural }, name);
  return { code: 200, body: stored.value as KubeObject, warnings: [] };
}
