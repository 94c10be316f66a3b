/** The preconditions an update names in its body: a resourceVersion to match and a uid. */
import type { KubeObject } from '../schema/define-kind.js';
import type { ResolvedKind } from '../schema/registry.js';
import type { StoredObject } from '../storage/storage.js';
import { badRequest, conflict } from '../machinery/errors.js';

/** Parses a resourceVersion an update names; Kubernetes answers a non-integer one with 400. */
export function parseUpdateResourceVersion(rv: string): number {
  if (!/^\d+$/.test(rv)) throw badRequest(`invalid resource version: ${rv}`);
  return Number(rv);
}

/**
 * A uid in the body of an update is a precondition. Kubernetes reports its failure from the storage
 * layer, hence the StorageError wording.
 */
export function checkUidPrecondition(kind: ResolvedKind, current: StoredObject, body: KubeObject): void {
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
