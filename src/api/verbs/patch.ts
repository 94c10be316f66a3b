/**
 * patch: run the request's patch engine (JSON patch, merge patch, strategic merge patch or
 * server-side apply, src/api/patch-engines.ts) on the stored object and give the store the result
 * as the new object. The store re-runs the patch on the newest state after a lost race, so a patch
 * never fails on optimistic locking unless it sets `metadata.resourceVersion` itself. Apply
 * creates the object when it does not exist.
 */
import { goPrintValue } from '../../util/go-print.js';
import { UNSUPPORTED_SMP_MESSAGE } from '../../patch/errors.js';
import type { KubeObject } from '../../schema/define-kind.js';
import { apiVersionOf, type ResolvedKind } from '../../schema/registry.js';
import type { StoredObject } from '../../storage/storage.js';
import { ApiError, badRequest, conflict, invalid, notFound, OBJECT_MODIFIED } from '../../machinery/errors.js';
import { fieldError } from '../../machinery/field-errors.js';
import type { ApiRequest, ApiResponse, PatchType } from '../../machinery/request.js';
import { objectKey, type EngineContext } from '../context.js';
import { decodeBody, type DecodedBody } from '../decode-body.js';
import { resetFields } from '../field-manager.js';
import { fieldValidationOf, validatePatchOptions } from '../options.js';
import { patchTypeOf, runPatchEngine } from '../patch-engines.js';
import { updateObject, type ObjectChange } from '../store/update.js';
import { metaOf, reconcileNamespace } from '../write-steps.js';
import { thenMaybe, type MaybePromise } from '../../util/maybe-promise.js';

/**
 * Decodes the patched document like a request body. A strategic merge patch whose result does not
 * decode is a 422 on the field `patch`, as Kubernetes reports it; the other types answer the
 * decoder's 400.
 */
function decodePatched(ctx: EngineContext, kind: ResolvedKind, version: string, type: PatchType, patched: unknown, req: ApiRequest): MaybePromise<DecodedBody> {
  try {
    return decodeBody(ctx.registry, kind, version, patched, fieldValidationOf(req.writeOptions), req.duplicateFields);
  } catch (e) {
    if (type === 'strategic' && e instanceof ApiError && e.code === 400) {
      throw invalid({ group: '', kind: '' }, '', [
        fieldError.invalid('patch', goPrintValue(req.body), e.message.replace(/^.*? cannot be handled as a \w+: /, '')),
      ]);
    }
    throw e;
  }
}

/**
 * The new object a patch makes of the stored one (absent: only apply, which creates it), `live`
 * being the stored object as served at the request's version.
 */
function patchedObject(
  ctx: EngineContext,
  kind: ResolvedKind,
  req: ApiRequest,
  version: string,
  type: PatchType,
  current: StoredObject | undefined,
  live: KubeObject | undefined,
): MaybePromise<ObjectChange> {
  const patched = runPatchEngine(type, live, req, {
    schema: kind.structural(version),
    apiVersion: apiVersionOf(kind.group, version),
    kind: kind.definition.kind,
    ignoredFields: resetFields(kind, req.subresource),
    now: ctx.clock.now(),
  });
  // An applied object passed the schema already; decoding normalizes it (types, nulls) quietly.
  const decoded = type === 'apply' ? decodeBody(ctx.registry, kind, version, patched, 'Ignore') : decodePatched(ctx, kind, version, type, patched, req);
  return thenMaybe(decoded, (d) => changeOf(kind, req, type, current, d));
}

/** The change a decoded patched object makes: its namespace, its name (apply), its resourceVersion precondition. */
function changeOf(kind: ResolvedKind, req: ApiRequest, type: PatchType, current: StoredObject | undefined, decoded: DecodedBody): ObjectChange {
  const gr = { group: kind.group, resource: kind.definition.plural };
  const obj = decoded.object;
  reconcileNamespace(kind, obj, req.namespace);
  if (type === 'apply') {
    const name = metaOf(obj).name ?? '';
    if (name !== req.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${req.name ?? ''})`);
  }
  // The patch may set a resourceVersion: then it is a precondition, like an update's.
  const rv = obj.metadata?.resourceVersion;
  if (current && rv !== undefined && rv !== String(current.revision)) throw conflict(gr, current.name, OBJECT_MODIFIED);
  return { object: obj, warnings: type === 'apply' ? [] : decoded.warnings, conditional: false, managedFieldsRecorded: type === 'apply' };
}

/** The patch verb (on an item or its subresource). */
export async function patch(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string): Promise<ApiResponse<KubeObject>> {
  const type = patchTypeOf(req);
  if (type === 'strategic' && kind.definition.strategicMergePatch === false) {
    throw new ApiError({ code: 415, reason: 'UnsupportedMediaType', message: UNSUPPORTED_SMP_MESSAGE });
  }
  validatePatchOptions(type, req.writeOptions);
  return updateObject(ctx, kind, req, version, objectKey(kind, req.namespace, req.name ?? ''), {
    tryUpdate(current) {
      if (!current && type !== 'apply') throw notFound({ group: kind.group, resource: kind.definition.plural }, req.name ?? '');
      const live = current && kind.present(version, current.value as KubeObject);
      return thenMaybe(live, (l) => patchedObject(ctx, kind, req, version, type, current, l));
    },
    forceAllowCreate: type === 'apply',
  });
}
