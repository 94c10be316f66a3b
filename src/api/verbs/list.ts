/** list: the objects of one kind a request selects, one page of them (src/api/list-pages.ts), as a `<Kind>List`. */
import type { KubeObject } from '../../schema/define-kind.js';
import { apiVersionOf, rememberStoredForm, storedFormOf, type ResolvedKind } from '../../schema/registry.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import type { EngineContext } from '../context.js';
import { selectStored, type ObjectList } from '../list-pages.js';
import { isPromise } from '../../util/maybe-promise.js';
import { apiServerMetrics } from '../metrics/server-metrics.js';

// The typed client names the list type from here.
export type { ObjectList };

/**
 * Built-in kinds serialize list items without apiVersion and kind, as the real API server does
 * for its typed lists.
 */
function listItem(value: KubeObject): KubeObject {
  const { apiVersion: _a, kind: _k, ...rest } = value;
  const stored = storedFormOf(value);
  if (stored) rememberStoredForm(rest, stored);
  return rest as KubeObject;
}

/** The list verb. */
export async function list(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string): Promise<ApiResponse<ObjectList>> {
  const selected = await selectStored(ctx, kind, req);
  apiServerMetrics(ctx.metrics).recordList(kind.group, kind.definition.plural, selected.index, selected.fetched, selected.items.length);
  // One call for the whole page: a conversion webhook converts a list in one review.
  const presenting = kind.presentAll(
    version,
    selected.items.map((s) => s.value as KubeObject),
  );
  const presented = isPromise(presenting) ? await presenting : presenting;
  const metadata: ObjectList['metadata'] = { resourceVersion: String(selected.revision) };
  if (selected.continue) metadata.continue = selected.continue;
  if (selected.remaining !== undefined) metadata.remainingItemCount = selected.remaining;
  return {
    code: 200,
    body: {
      apiVersion: apiVersionOf(kind.group, version),
      kind: `${kind.definition.kind}List`,
      metadata,
      // Custom resources are served from unstructured lists, whose items keep apiVersion and kind.
      items: kind.published(version) ? presented : presented.map(listItem),
    },
    warnings: [],
  };
}
