/**
 * The end of a deletion: an object marked for deletion is removed from storage as soon as nothing
 * holds it any more (no finalizers, no grace period left), whichever write made that so.
 */
import { formatTime } from '../../clock.js';
import type { KubeObject, ObjectMetaLike } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import { StorageConflictError, StorageKeyError, type Storage, type StoredObject } from '../../storage/storage.js';
import type { EngineContext } from '../context.js';

/** Whether an object marked for deletion may now be removed. */
export function readyToRemove(kind: ResolvedKind, obj: Readonly<KubeObject>, now: number): boolean {
  const meta = (obj.metadata ?? {}) as ObjectMetaLike;
  if (!meta.deletionTimestamp) return false;
  if ((meta.finalizers?.length ?? 0) > 0) return false;
  if (kind.definition.deletion?.finalizersPending?.(obj)) return false;
  const grace = meta.deletionGracePeriodSeconds ?? 0;
  return grace === 0 || Date.parse(meta.deletionTimestamp) <= Date.parse(formatTime(now));
}

/** Removes `stored` if it is marked for deletion and nothing holds it; answers the last state. */
export async function removeIfFinalized(ctx: EngineContext, kind: ResolvedKind, storage: Storage, stored: StoredObject): Promise<KubeObject> {
  return (await removeIfFinalizedReporting(ctx, kind, storage, stored)).object;
}

/** {@link removeIfFinalized}, also telling whether this call removed the object from storage. */
export async function removeIfFinalizedReporting(
  ctx: EngineContext,
  kind: ResolvedKind,
  storage: Storage,
  stored: StoredObject,
): Promise<{ object: KubeObject; removed: boolean }> {
  const object = stored.value as KubeObject;
  if (!readyToRemove(kind, object, ctx.clock.now())) return { object, removed: false };
  try {
    await storage.delete({ bucket: kind.bucket, namespace: stored.namespace, name: stored.name }, stored.revision);
    return { object, removed: true };
  } catch (e) {
    // Someone else already moved the object on; their write decides its fate.
    if (!(e instanceof StorageConflictError) && !(e instanceof StorageKeyError)) throw e;
    return { object, removed: false };
  }
}
