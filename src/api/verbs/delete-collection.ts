/** deletecollection: the store deletes every object a list with the same options would return. */
import type { KubeObject } from '../../schema/define-kind.js';
import { apiVersionOf, type ResolvedKind } from '../../schema/registry.js';
import { StorageConflictError, StorageKeyError } from '../../storage/storage.js';
import type { EngineContext } from '../context.js';
import { validateDeleteOptions } from '../options.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { selectStored, type ObjectList } from '../list-pages.js';
import { deleteStored } from '../store/delete.js';

/** The deletecollection verb; answers the list of objects it deleted or marked. */
export async function deleteCollection(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string): Promise<ApiResponse<ObjectList>> {
  validateDeleteOptions(req.deleteOptions);
  // Preconditions name one object; on a collection they do not apply.
  const options = req.deleteOptions ? { ...req.deleteOptions, preconditions: undefined } : undefined;
  const selected = await selectStored(ctx, kind, req);
  const items: KubeObject[] = [];
  for (const stored of selected.items) {
    try {
      await deleteStored(ctx, kind, req, stored, options);
      // Kubernetes answers the items as they were listed, before deletion.
      items.push(kind.present(version, stored.value as KubeObject));
    } catch (e) {
      // Gone or changed since the list: Kubernetes skips objects that vanished meanwhile.
      if (e instanceof StorageKeyError || e instanceof StorageConflictError) continue;
      throw e;
    }
  }
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
