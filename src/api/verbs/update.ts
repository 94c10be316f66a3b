/**
 * update (PUT), on the main resource or on `/status`: optimistic concurrency on resourceVersion,
 * server-owned fields kept, status (or everything but status) kept, generation bumped on spec
 * changes, no write at all when nothing changed.
 */
import type { KubeObject } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import { StorageConflictError, StorageKeyError, type StoredObject } from '../../storage/storage.js';
import { cloneJson } from '../../util/json-clone.js';
import { kindContext, objectKey, storageFor, type EngineContext } from '../context.js';
import { decodeBody } from '../decode-body.js';
import { badRequest, conflict, invalid, notFound, OBJECT_MODIFIED } from '../../machinery/errors.js';
import { fieldError } from '../../machinery/field-errors.js';
import { recordManagedFields } from '../field-manager.js';
import { fieldValidationOf, isDryRun, validateWriteOptions } from '../options.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { jsonEqual } from '../../util/json-equal.js';
import { bumpGeneration, inServerOrder, keepServerMeta, metaOf, reconcileNamespace, validateObject } from '../write-steps.js';
import { createObject } from './create.js';
import { removeIfFinalized } from './finalize.js';

/** Parses a resourceVersion string; Kubernetes answers a non-integer one with 400. */
export function parseResourceVersion(rv: string): number {
  if (!/^\d+$/.test(rv)) throw badRequest(`invalid resource version: ${rv}`);
  return Number(rv);
}

/** Carries over what the request may not change: status on the main resource, all but status on `/status`. */
function keepUnchangeable(kind: ResolvedKind, obj: KubeObject, old: Readonly<KubeObject>, subresource: string | undefined): KubeObject {
  const custom = subresource ? kind.definition.updateSubresources?.[subresource] : undefined;
  if (custom) return custom(obj, cloneJson(old) as KubeObject);
  if (subresource === 'status') {
    const next = cloneJson(old) as KubeObject;
    if (obj.status === undefined) delete next.status;
    else next.status = obj.status;
    // Labels, annotations and other user metadata stay as stored: /status changes status only.
    next.metadata = { ...next.metadata, resourceVersion: obj.metadata?.resourceVersion };
    return next;
  }
  if (kind.definition.statusSubresource) {
    if (old.status === undefined) delete obj.status;
    else obj.status = cloneJson(old.status);
  }
  return obj;
}

/**
 * Writes `body` over the stored object `current`: the update pipeline from "keep what may not
 * change" to the compare-and-swap write. Shared by update and patch. Answers 'retry' when a
 * concurrent write won and the caller may try again on the new state (`conditional` false);
 * a conditional write (the client named a resourceVersion) fails with 409 instead.
 */
export async function writeOver(
  ctx: EngineContext,
  kind: ResolvedKind,
  req: ApiRequest,
  version: string,
  current: StoredObject,
  body: KubeObject,
  decodeWarnings: readonly string[],
  conditional: boolean,
  managedFieldsDone = false,
): Promise<ApiResponse<KubeObject> | 'retry'> {
  const def = kind.definition;
  const gr = { group: kind.group, resource: def.plural };
  const kctx = kindContext(ctx, req, 'update');
  const storage = storageFor(ctx, isDryRun(req.writeOptions));
  const old = current.value as KubeObject;
  const next = keepUnchangeable(kind, cloneJson(body), old, req.subresource);
  keepServerMeta(next, old);
  // Defaults with decoding, then the field manager, then the strategy: as Kubernetes orders them.
  def.strategy?.defaults?.(next, kctx);
  if (!managedFieldsDone) recordManagedFields(kind, version, req, next, old, ctx.clock.now());
  await def.strategy?.prepareForUpdate?.(next, old, kctx);
  def.strategy?.defaults?.(next, kctx);
  bumpGeneration(kind, next, old, req.subresource);
  await validateObject(kind, version, next, old, kctx);
  const warnings = [...decodeWarnings, ...(def.strategy?.warnings?.(next, old, kctx) ?? [])];
  // Kubernetes does not write an unchanged object: no new resourceVersion, no watch event.
  if (jsonEqual(next, old)) return { code: 200, body: old, warnings };
  try {
    const stored = await storage.update(objectKey(kind, current.namespace, current.name), inServerOrder(next), current.revision);
    return { code: 200, body: await removeIfFinalized(ctx, kind, storage, stored), warnings };
  } catch (e) {
    if (e instanceof StorageConflictError) {
      if (conditional) throw conflict(gr, current.name, OBJECT_MODIFIED);
      return 'retry';
    }
    if (e instanceof StorageKeyError) throw notFound(gr, current.name);
    throw e;
  }
}

/** The update verb (PUT on an item or its `/status`). */
export async function update(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string): Promise<ApiResponse<KubeObject>> {
  validateWriteOptions('UpdateOptions', req.writeOptions);
  const def = kind.definition;
  const gr = { group: kind.group, resource: def.plural };
  const name = req.name ?? '';
  const decoded = decodeBody(ctx.registry, kind, version, req.body, fieldValidationOf(req.writeOptions), req.duplicateFields);
  const body = decoded.object;
  const bodyName = metaOf(body).name ?? '';
  if (bodyName !== name) throw badRequest(`the name of the object (${bodyName}) does not match the name on the URL (${name})`);
  reconcileNamespace(kind, body, req.namespace);

  const key = objectKey(kind, body.metadata?.namespace, name);
  const requestedRv = body.metadata?.resourceVersion;

  for (;;) {
    const current = await ctx.storage.get(key);
    if (!current) {
      // Kinds that allow it (Event, Lease, ...) create on PUT; a resourceVersion then names a lost object.
      if (def.allowCreateOnUpdate && !req.subresource && !requestedRv) {
        return createObject(ctx, kind, req, version, body, decoded.warnings);
      }
      throw notFound(gr, name);
    }
    checkUidPrecondition(kind, current, body);
    if (requestedRv) {
      if (parseResourceVersion(requestedRv) !== current.revision) throw conflict(gr, name, OBJECT_MODIFIED);
    } else if (def.allowUnconditionalUpdate === false) {
      throw invalid({ group: kind.group, kind: def.kind }, name, [
        fieldError.invalid('metadata.resourceVersion', 0, 'must be specified for an update'),
      ]);
    }
    const result = await writeOver(ctx, kind, req, version, current, body, decoded.warnings, !!requestedRv);
    if (result !== 'retry') return result;
  }
}

/**
 * A uid in the body of an update is a precondition. Kubernetes reports its failure from the storage
 * layer, hence the StorageError wording.
 */
function checkUidPrecondition(kind: ResolvedKind, current: StoredObject, body: KubeObject): void {
  const uid = body.metadata?.uid;
  const stored = (current.value.metadata as { uid?: string } | undefined)?.uid;
  if (!uid || uid === stored) return;
  const key = `/registry/${kind.group ? `${kind.group}/` : ''}${kind.definition.plural}/${current.namespace ? `${current.namespace}/` : ''}${current.name}`;
  throw conflict(
    { group: kind.group, resource: kind.definition.plural },
    current.name,
    `StorageError: invalid object, Code: 4, Key: ${key}, ResourceVersion: 0, AdditionalErrorMsg: Precondition failed: UID in precondition: ${uid}, UID in object meta: ${stored ?? ''}`,
  );
}
