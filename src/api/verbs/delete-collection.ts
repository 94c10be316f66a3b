/** deletecollection: the store deletes every object a list with the same options would return (src/api/store/delete.ts). */
import type { KubeObject } from '../../schema/define-kind.js';
import { apiVersionOf, type ResolvedKind } from '../../schema/registry.js';
import type { EngineContext } from '../context.js';
import { validateDeleteOptions } from '../options.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { selectStored, type ObjectList } from '../list-pages.js';
import { deleteListed } from '../store/delete.js';
import { isPromise } from '../../util/maybe-promise.js';

/** The deletecollection verb; answers the list of objects it deleted or marked. */
export async function deleteCollection(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string): Promise<ApiResponse<ObjectList>> {
  validateDeleteOptions(req.deleteOptions);
  const selected = await selectStored(ctx, kind, req);
  // Kubernetes answers the items as they were listed, before deletion, and converts them while
  // listing: a conversion that fails deletes nothing. One call for all (one webhook review).
  const presenting = kind.presentAll(
    version,
    selected.items.map((s) => s.value as KubeObject),
  );
  const presented = isPromise(presenting) ? await presenting : presenting;
  const deleted = new Set(await deleteListed(ctx, kind, req, selected.items));
  const items = presented.filter((_, i) => deleted.has(selected.items[i]!));
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
