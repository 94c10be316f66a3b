/**
 * create (POST): decode the body into a working object, make its namespace the request's, and hand
 * it to the store (src/api/store/create.ts), which runs the rest of the pipeline and answers 201.
 */
import type { KubeObject } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import { badRequest } from '../../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import type { EngineContext } from '../context.js';
import { decodeBody } from '../decode-body.js';
import { fieldValidationOf, validateWriteOptions } from '../options.js';
import { createObject } from '../store/create.js';
import { reconcileNamespace } from '../write-steps.js';
import { isPromise } from '../../util/maybe-promise.js';

/** The create verb. */
export async function create(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string): Promise<ApiResponse<KubeObject>> {
  validateWriteOptions('CreateOptions', req.writeOptions);
  const decoded = decodeBody(ctx.registry, kind, version, req.body, fieldValidationOf(req.writeOptions), req.duplicateFields);
  const { object, warnings } = isPromise(decoded) ? await decoded : decoded;
  rejectResourceVersionOnCreate(object);
  reconcileNamespace(kind, object, req.namespace);
  return createObject(ctx, kind, req, version, { object, warnings });
}

/**
 * A numeric resourceVersion on a new object is refused (Kubernetes answers this with a plain 500;
 * we answer 400 with the same message, because the fault is the client's). A non-numeric one is
 * silently dropped, as Kubernetes does.
 */
function rejectResourceVersionOnCreate(obj: KubeObject): void {
  const rv = obj.metadata?.resourceVersion;
  if (rv && /^\d+$/.test(rv) && Number(rv) !== 0) throw badRequest('resourceVersion should not be set on objects to be created');
}
