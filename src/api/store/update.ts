/**
 * The store's update: Kubernetes' `GuaranteedUpdate` (k8s.io/apiserver
 * pkg/registry/generic/registry/store.go, `Update`). Read the stored object, let the verb compute
 * the new object from it, run it through the pipeline (keep what may not change → server fields →
 * defaults → managedFields → mutating admission → the strategy's prepare → defaults → generation →
 * validation → validating admission → warnings) and compare-and-swap it; when a concurrent write
 * won, read again and recompute, unless the client named a resourceVersion (409). A missing object
 * is created when the kind creates on update (or the verb forces it, as server-side apply does).
 * update, patch and `/scale` all write through here.
 */
import type { KubeObject } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import { StorageConflictError, StorageKeyError, type ObjectKey, type StoredObject } from '../../storage/storage.js';
import { cloneJson } from '../../util/json-clone.js';
import { conflict, notFound, OBJECT_MODIFIED } from '../../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { jsonEqual } from '../../util/json-equal.js';
import { admissionAttributes } from '../admission-attributes.js';
import { kindContext, storageFor, type EngineContext } from '../context.js';
import { recordManagedFields } from '../field-manager.js';
import { isDryRun } from '../options.js';
import { applySchemaDefaults, bumpGeneration, inServerOrder, keepServerMeta, validateObject } from '../write-steps.js';
import { createObject, type NewObject } from './create.js';
import { removeIfFinalized } from './finalize.js';

/** The new object a verb computed from the stored one. */
export interface ObjectChange extends NewObject {
  /**
   * The client named a resourceVersion: a concurrent write is a 409 rather than a reason to
   * recompute, and a missing object is not created.
   */
  readonly conditional: boolean;
}

/** How a verb turns the stored object into the new one. */
export interface GuaranteedUpdate {
  /**
   * The new object from the current one; `current` is undefined when the object does not exist
   * (throw 404 there unless the change may create it). Called again after a lost race.
   */
  tryUpdate(current: StoredObject | undefined): ObjectChange | Promise<ObjectChange>;
  /** Create a missing object even though the kind does not create on update (server-side apply). */
  readonly forceAllowCreate?: boolean;
}

/** Updates the object at `key` (or creates it, see {@link GuaranteedUpdate}); answers the stored result. */
export async function updateObject(
  ctx: EngineContext,
  kind: ResolvedKind,
  req: ApiRequest,
  version: string,
  key: ObjectKey,
  update: GuaranteedUpdate,
): Promise<ApiResponse<KubeObject>> {
  const gr = { group: kind.group, resource: kind.definition.plural };
  for (;;) {
    const current = await ctx.storage.get(key);
    const change = await update.tryUpdate(current);
    if (!current) {
      const mayCreate = (update.forceAllowCreate || kind.definition.allowCreateOnUpdate) && !req.subresource && !change.conditional;
      if (!mayCreate) throw notFound(gr, key.name);
      return createObject(ctx, kind, req, version, change);
    }
    try {
      return await commitUpdate(ctx, kind, req, version, current, change);
    } catch (e) {
      if (!(e instanceof StorageConflictError)) throw e;
      if (change.conditional) throw conflict(gr, current.name, OBJECT_MODIFIED);
    }
  }
}

/** Carries over what the request may not change: status on the main resource, all but status on `/status`. */
function keepUnchangeable(kind: ResolvedKind, obj: KubeObject, old: Readonly<KubeObject>, subresource: string | undefined): KubeObject {
  const custom = subresource ? (kind.definition.updateSubresources?.[subresource] ?? kind.definition.partSubresources?.[subresource]) : undefined;
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
 * One attempt: the pipeline from the computed object to the compare-and-swap write over `current`.
 * A lost race throws the storage's conflict for {@link updateObject} to decide on.
 */
async function commitUpdate(
  ctx: EngineContext,
  kind: ResolvedKind,
  req: ApiRequest,
  version: string,
  current: StoredObject,
  change: ObjectChange,
): Promise<ApiResponse<KubeObject>> {
  const def = kind.definition;
  const kctx = kindContext(ctx, req, 'update');
  const storage = storageFor(ctx, isDryRun(req.writeOptions));
  const old = current.value as KubeObject;
  const next = keepUnchangeable(kind, cloneJson(change.object), old, req.subresource);
  keepServerMeta(next, old);
  // Defaults with decoding, then the field manager, then admission and the strategy: as Kubernetes orders them.
  applySchemaDefaults(kind, version, next);
  def.strategy?.defaults?.(next, kctx);
  if (!change.managedFieldsRecorded) {
    const recording = recordManagedFields(kind, version, req, next, old, ctx.clock.now());
    if (recording) await recording;
  }
  const attributes = admissionAttributes(kind, req, 'UPDATE', next, old);
  // Each step is awaited only when it answers a promise: most answer at once.
  const admitted = ctx.admission.admit(attributes, kctx);
  if (admitted) await admitted;
  const prepared = def.strategy?.prepareForUpdate?.(next, old, kctx);
  if (prepared) await prepared;
  applySchemaDefaults(kind, version, next);
  def.strategy?.defaults?.(next, kctx);
  bumpGeneration(kind, next, old, req.subresource);
  const validated = validateObject(kind, version, next, old, kctx);
  if (validated) await validated;
  const allowed = ctx.admission.validate(attributes, kctx);
  if (allowed) await allowed;
  const warnings = [...change.warnings, ...(def.strategy?.warnings?.(next, old, kctx) ?? [])];
  // Kubernetes does not write an unchanged object: no new resourceVersion, no watch event; unless
  // it was read with an old encryption key or provider (GuaranteedUpdate's stale read).
  if (jsonEqual(next, old) && !current.stale) return { code: 200, body: old, warnings };
  let stored: StoredObject;
  try {
    stored = await storage.update({ bucket: kind.bucket, namespace: current.namespace, name: current.name }, inServerOrder(next), current.revision);
  } catch (e) {
    if (e instanceof StorageKeyError) throw notFound({ group: kind.group, resource: def.plural }, current.name);
    throw e;
  }
  return { code: 200, body: await removeIfFinalized(ctx, kind, storage, stored), warnings };
}
