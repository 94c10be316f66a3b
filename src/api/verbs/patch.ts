/**
 * patch: apply a JSON patch, merge patch, strategic merge patch or server-side apply to the stored
 * object, then write the result through the update pipeline. A patch never fails on optimistic
 * locking (it is re-applied to the newest state) unless it sets `metadata.resourceVersion` itself.
 * Apply creates the object when it does not exist.
 */
import { isPatchError, type PatchError } from '../../patch/errors.js';
import { goPrintValue as goV } from '../../util/go-print.js';
import { applyJsonPatch } from '../../patch/json-patch.js';
import { applyMergePatch } from '../../patch/merge-patch.js';
import { UNSUPPORTED_SMP_MESSAGE } from '../../patch/errors.js';
import { applyStrategicMergePatch } from '../../patch/strategic-merge.js';
import { serverSideApply } from '../../patch/apply/apply.js';
import type { KubeObject } from '../../schema/define-kind.js';
import { apiVersionOf, type ResolvedKind } from '../../schema/registry.js';
import type { StoredObject } from '../../storage/storage.js';
import { objectKey, type EngineContext } from '../context.js';
import { decodeBody, type DecodedBody } from '../decode-body.js';
import { ApiError, badRequest, conflict, invalid, notFound, OBJECT_MODIFIED } from '../../machinery/errors.js';
import { fieldError } from '../../machinery/field-errors.js';
import { managerOf, resetFields } from '../field-manager.js';
import { fieldValidationOf, validatePatchOptions } from '../options.js';
import type { ApiRequest, ApiResponse, PatchType } from '../../machinery/request.js';
import { metaOf, reconcileNamespace } from '../write-steps.js';
import { createObject } from './create.js';
import { writeOver } from './update.js';

export const PATCH_TYPES: readonly PatchType[] = ['json', 'merge', 'strategic', 'apply'];

/** The 415 for a patch whose type the server does not know. */
export function unsupportedPatchType(): ApiError {
  return new ApiError({
    code: 415,
    reason: 'UnsupportedMediaType',
    message:
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json',
  });
}

/**
 * The answer for a failed patch: Kubernetes' status, except that the errors Kubernetes answers with
 * a 500 (they come from the client's patch, not from the server) are a 400 with the same message.
 */
export function patchFailure(e: PatchError): ApiError {
  const status = e.toStatus();
  if (!status || status.code >= 500) return badRequest(status?.message ?? e.message);
  return new ApiError({ code: status.code, reason: status.reason, message: status.message, details: status.details });
}

/** Runs the patch engine of `type` on the stored object; answers the patched JSON. */
function patchDocument(kind: ResolvedKind, version: string, type: Exclude<PatchType, 'apply'>, current: KubeObject, req: ApiRequest): unknown {
  const fieldValidation = fieldValidationOf(req.writeOptions);
  try {
    switch (type) {
      case 'json':
        return applyJsonPatch(current, req.body, { fieldValidation });
      case 'merge':
        return applyMergePatch(current, req.body, { fieldValidation });
      case 'strategic':
        return applyStrategicMergePatch(current, req.body, kind.structural(version));
    }
  } catch (e) {
    if (isPatchError(e)) throw patchFailure(e);
    throw e;
  }
}

/**
 * Decodes the patched document like a request body. A strategic merge patch whose result does not
 * decode is a 422 on the field `patch`, as Kubernetes reports it; the other types answer the
 * decoder's 400.
 */
function decodePatched(ctx: EngineContext, kind: ResolvedKind, version: string, type: PatchType, patched: unknown, req: ApiRequest): DecodedBody {
  try {
    return decodeBody(ctx.registry, kind, version, patched, fieldValidationOf(req.writeOptions), req.duplicateFields);
  } catch (e) {
    if (type === 'strategic' && e instanceof ApiError && e.code === 400) {
      throw invalid({ group: '', kind: '' }, '', [fieldError.invalid('patch', goV(req.body), e.message.replace(/^.*? cannot be handled as a \w+: /, ''))]);
    }
    throw e;
  }
}

/** One attempt of a non-apply patch against the stored state. */
async function patchOnce(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string, type: Exclude<PatchType, 'apply'>, current: StoredObject) {
  const gr = { group: kind.group, resource: kind.definition.plural };
  const patched = patchDocument(kind, version, type, kind.present(version, current.value as KubeObject), req);
  const decoded = decodePatched(ctx, kind, version, type, patched, req);
  reconcileNamespace(kind, decoded.object, req.namespace);
  // The patch may set a resourceVersion: then it is a precondition, like an update's.
  const rv = decoded.object.metadata?.resourceVersion;
  if (rv !== undefined && rv !== String(current.revision)) throw conflict(gr, current.name, OBJECT_MODIFIED);
  return writeOver(ctx, kind, req, version, current, decoded.object, decoded.warnings, false);
}

/** One attempt of server-side apply against the stored state (or its absence). */
async function applyOnce(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string, current: StoredObject | undefined) {
  const def = kind.definition;
  const gr = { group: kind.group, resource: def.plural };
  const result = serverSideApply({
    live: current && kind.present(version, current.value as KubeObject),
    applied: req.body,
    manager: managerOf(req),
    apiVersion: apiVersionOf(kind.group, version),
    kind: def.kind,
    subresource: req.subresource,
    schema: kind.structural(version),
    force: req.writeOptions?.force === true,
    now: ctx.clock.now(),
    ignoredFields: resetFields(kind, req.subresource),
  });
  // The merged object passed the schema already; decoding normalizes it (types, nulls) quietly.
  const decoded = decodeBody(ctx.registry, kind, version, result.object, 'Ignore');
  const obj = decoded.object;
  reconcileNamespace(kind, obj, req.namespace);
  const name = metaOf(obj).name ?? '';
  if (name !== req.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${req.name ?? ''})`);
  if (!current) {
    if (req.subresource) throw notFound(gr, req.name ?? '');
    return createObject(ctx, kind, req, version, obj, [], true);
  }
  const rv = obj.metadata?.resourceVersion;
  if (rv !== undefined && rv !== String(current.revision)) throw conflict(gr, current.name, OBJECT_MODIFIED);
  return writeOver(ctx, kind, req, version, current, obj, [], false, true);
}

/** The patch verb (on an item or its `/status`). */
export async function patch(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string): Promise<ApiResponse<KubeObject>> {
  const type = req.patchType;
  if (!type || !PATCH_TYPES.includes(type)) throw unsupportedPatchType();
  if (type === 'strategic' && kind.definition.strategicMergePatch === false) {
    throw new ApiError({ code: 415, reason: 'UnsupportedMediaType', message: UNSUPPORTED_SMP_MESSAGE });
  }
  validatePatchOptions(type, req.writeOptions);
  const gr = { group: kind.group, resource: kind.definition.plural };
  const key = objectKey(kind, req.namespace, req.name ?? '');
  for (;;) {
    const current = await ctx.storage.get(key);
    if (type === 'apply') {
      const result = await applyOnce(ctx, kind, req, version, current);
      if (result !== 'retry') return result;
      continue;
    }
    if (!current) throw notFound(gr, req.name ?? '');
    const result = await patchOnce(ctx, kind, req, version, type, current);
    if (result !== 'retry') return result;
  }
}
