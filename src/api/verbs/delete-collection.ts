/** deletecollection: the store deletes every object a list with the same options would return (src/api/store/delete.ts). */
import type { KubeObject } from '../../schema/define-kind.js';
import { apiVersionOf, type ResolvedKind } from '../../schema/registry.js';
import type { EngineContext } from '../context.js';
import { validateDeleteOptions } from '../options.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { selectStored, type ObjectList } from '../list-pages.js';
import { deleteListed } from '../store/delete.js';

/** The deletecollection verb; answers the list of objects it deleted or marked. */
export async function deleteCollection(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string): Promise<ApiResponse<ObjectList>> {
  validateDeleteOptions(req.deleteOptions);
  const selected = await selectStored(ctx, kind, req);
  const deleted = await deleteListed(ctx, kind, req, selected.items);
  // Kubernetes answers the items as they were listed, before deletion.
  const items = deleted.map((stored) => kind.present(version, stored.value as KubeObject));
  return {
    code: 200,
    body: {
      apiVersion: apiVersionOf(kind.group, version),
      kind: `${kind.definition.kind}List`,
      metadata: { resourceVersion: String(await ctx.storage.currentRevision()) },
      items,
    },
    warnings: [],
  };
}
