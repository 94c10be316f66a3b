/**
 * delete: validate the options and hand the object's key to the store (src/api/store/delete.ts),
 * which checks the preconditions and deletes gracefully, with finalizers.
 */
import type { KubeObject } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { objectKey, type EngineContext } from '../context.js';
import { validateDeleteOptions } from '../options.js';
import { deleteObject, type DeletedStatus } from '../store/delete.js';

// The typed client names the Status of a delete from here.
export type { DeletedStatus };

/** The delete verb. */
export async function deleteOne(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest): Promise<ApiResponse<KubeObject | DeletedStatus>> {
  validateDeleteOptions(req.deleteOptions);
  return deleteObject(ctx, kind, req, objectKey(kind, req.namespace, req.name ?? ''));
}
