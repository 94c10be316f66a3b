/**
 * The store's delete (k8s.io/apiserver pkg/registry/generic/registry/store.go, `Delete`):
 * preconditions, admission, graceful deletion and finalizers. An object that nothing holds is
 * removed at once; otherwise it is marked (deletionTimestamp, deletionGracePeriodSeconds) and stays
 * until its finalizers are gone or its grace period ends. delete and deletecollection come here.
 */
import { formatTime } from '../../clock.js';
import type { KubeObject } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import { cloneJson } from '../../util/json-clone.js';
import { StorageConflictError, StorageKeyError, type StoredObject } from '../../storage/storage.js';
import { kindContext, objectKey, storageFor, type EngineContext } from '../context.js';
import type { KindContext } from '../../schema/define-kind.js';
import { conflict, notFound } from '../../machinery/errors.js';
import type { ObjectKey } from '../../storage/storage.js';
import { isDryRun, requestedGracePeriod } from '../options.js';
import type { ApiRequest, ApiResponse, DeleteOptions } from '../../machinery/request.js';
import { admissionAttributes } from '../admission-attributes.js';
import { metaOf } from '../write-steps.js';
import { removeIfFinalizedReporting } from './finalize.js';

const FOREGROUND = 'foregroundDeletion';
const ORPHAN = 'orphan';

/**
 * The Status a delete answers with when the object is gone (no `code`, no message, as Kubernetes sends it).
 * @category API requests
 */
export interface DeletedStatus {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, never>;
  status: 'Success';
  details: { name?: string; group?: string; kind: string; uid?: string };
}

/** The Status of an immediate delete, for kinds that do not return the deleted object. */
export function deletedStatus(kind: ResolvedKind, obj: Readonly<KubeObject>): DeletedStatus {
  const details: DeletedStatus['details'] = { name: obj.metadata?.name, kind: kind.definition.plural, uid: obj.metadata?.uid };
  if (kind.group) details.group = kind.group;
  return { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details };
}

/**
 * Preconditions of a delete. Kubernetes names the object by its Kind here (not its resource):
 * `Operation cannot be fulfilled on ConfigMap "x": the UID in the precondition ...`.
 */
export function checkPreconditions(kind: ResolvedKind, current: StoredObject, options: DeleteOptions | undefined): void {
  const pre = options?.preconditions;
  if (!pre) return;
  const meta = (current.value.metadata ?? {}) as { uid?: string; resourceVersion?: string };
  const gk = { group: kind.group, resource: kind.definition.kind };
  if (pre.uid !== undefined && pre.uid !== null && pre.uid !== meta.uid) {
    throw conflict(
      gk,
      current.name,
      `the UID in the precondition (${pre.uid}) does not match the UID in record (${meta.uid ?? ''}). The object might have been deleted and then recreated`,
    );
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== null && pre.resourceVersion !== meta.resourceVersion) {
    throw conflict(
      gk,
      current.name,
      `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${meta.resourceVersion ?? ''}). The object might have been modified`,
    );
  }
}

/** The finalizers a delete with these options leaves on the object. */
function finalizersAfter(existing: readonly string[], options: DeleteOptions | undefined): string[] {
  const out = [...existing];
  const add = (f: string) => {
    if (!out.includes(f)) out.push(f);
  };
  const drop = (f: string) => {
    const i = out.indexOf(f);
    if (i >= 0) out.splice(i, 1);
  };
  const policy = options?.propagationPolicy ?? (options?.orphanDependents === true ? 'Orphan' : options?.orphanDependents === false ? 'Background' : undefined);
  if (policy === 'Foreground') {
    add(FOREGROUND);
    drop(ORPHAN);
  } else if (policy === 'Orphan') {
    add(ORPHAN);
    drop(FOREGROUND);
  } else if (policy === 'Background') {
    drop(ORPHAN);
    drop(FOREGROUND);
  }
  return out;
}

/**
 * Deletes `current` as it was read (one attempt; a concurrent write fails with the storage's
 * conflict). {@link deleteObject} retries it; {@link deleteListed} calls it for each listed object.
 */
async function deleteStored(
  ctx: EngineContext,
  kind: ResolvedKind,
  req: ApiRequest,
  current: StoredObject,
  options: DeleteOptions | undefined,
  kctx: KindContext = kindContext(ctx, req, 'delete'),
): Promise<ApiResponse<KubeObject | DeletedStatus>> {
  await ctx.admission.validate(admissionAttributes(kind, req, 'DELETE', undefined, current.value as KubeObject), kctx);
  const storage = storageFor(ctx, isDryRun(options));
  const key = objectKey(kind, current.namespace, current.name);
  const old = current.value as KubeObject;
  const def = kind.definition;
  const grace = def.deletion?.gracePeriod?.(old, requestedGracePeriod(options)) ?? 0;
  const finalizers = finalizersAfter(old.metadata?.finalizers ?? [], options);
  const held = finalizers.length > 0 || grace > 0 || (def.deletion?.finalizersPending?.(old) ?? false);
  const oldMeta = old.metadata ?? {};

  if (!held && !oldMeta.deletionTimestamp) {
    await storage.delete(key, current.revision);
    return { code: 200, body: def.deletion?.returnDeletedObject ? old : deletedStatus(kind, old), warnings: [] };
  }

  const next = cloneJson(old) as KubeObject;
  const meta = metaOf(next);
  const now = ctx.clock.now();
  if (!oldMeta.deletionTimestamp) {
    meta.deletionTimestamp = formatTime(now + grace * 1000);
    meta.deletionGracePeriodSeconds = grace;
    // Kubernetes bumps the generation when it marks an object, so controllers see the change.
    if ((meta.generation ?? 0) > 0 && !def.deletion?.markKeepsGeneration) meta.generation = (meta.generation ?? 0) + 1;
    def.deletion?.markDeleting?.(next);
  } else if (grace < (oldMeta.deletionGracePeriodSeconds ?? 0)) {
    // A second delete may only shorten the grace period.
    meta.deletionTimestamp = formatTime(now + grace * 1000);
    meta.deletionGracePeriodSeconds = grace;
  }
  if (finalizers.length) meta.finalizers = finalizers;
  else delete meta.finalizers;
  const stored = JSON.stringify(next) === JSON.stringify(old) ? current : await storage.update(key, next, current.revision);
  const { object, removed } = await removeIfFinalizedReporting(ctx, kind, storage, stored);
  return { code: removed ? 200 : pendingDeletionCode(options), body: object, warnings: [] };
}

/**
 * The status of a delete that left the object in place (finalizers or a grace period hold it):
 * 202 Accepted only when the request asked for cascading deletion with `orphanDependents: false`,
 * 200 otherwise — the API server keeps 200 for every other pending deletion so as not to break
 * older clients (k8s.io/apiserver pkg/endpoints/handlers/delete.go, `DeleteResource`).
 */
function pendingDeletionCode(options: DeleteOptions | undefined): 200 | 202 {
  return options?.orphanDependents === false ? 202 : 200;
}

/** Deletes the object at `key`, reading it again when a concurrent write moved it on. */
export async function deleteObject(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, key: ObjectKey): Promise<ApiResponse<KubeObject | DeletedStatus>> {
  const gr = { group: kind.group, resource: kind.definition.plural };
  const kctx = kindContext(ctx, req, 'delete');
  await ctx.admission.admit(admissionAttributes(kind, req, 'DELETE', undefined, undefined), kctx);
  for (;;) {
    const current = await ctx.storage.get(key);
    if (!current) throw notFound(gr, key.name);
    checkPreconditions(kind, current, req.deleteOptions);
    kind.definition.deletion?.checkDelete?.(current.value as KubeObject, kctx);
    try {
      return await deleteStored(ctx, kind, req, current, req.deleteOptions, kctx);
    } catch (e) {
      // A concurrent write moved the object on: read it again and decide anew.
      if (e instanceof StorageConflictError) continue;
      if (e instanceof StorageKeyError) throw notFound(gr, key.name);
      throw e;
    }
  }
}

/**
 * Deletes the objects a deletecollection listed, each as it was listed (Kubernetes' `DeleteCollection`
 * deletes them one by one); answers the ones it deleted or marked. Objects gone or changed since the
 * list are skipped, as Kubernetes skips objects that vanished meanwhile. Preconditions name one
 * object; on a collection they do not apply.
 */
export async function deleteListed(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, listed: readonly StoredObject[]): Promise<StoredObject[]> {
  const options = req.deleteOptions ? { ...req.deleteOptions, preconditions: undefined } : undefined;
  const kctx = kindContext(ctx, req, 'delete');
  await ctx.admission.admit(admissionAttributes(kind, req, 'DELETE', undefined, undefined), kctx);
  const deleted: StoredObject[] = [];
  for (const stored of listed) {
    try {
      await deleteStored(ctx, kind, req, stored, options, kctx);
      deleted.push(stored);
    } catch (e) {
      if (e instanceof StorageKeyError || e instanceof StorageConflictError) continue;
      throw e;
    }
  }
  return deleted;
}
