/**
 * The garbage collector: what `ownerReferences` and the deletion propagation policies promise.
 * - Background: when an owner is gone, its dependents that have no other live owner are deleted;
 *   dependents that still have one lose the reference to the gone owner.
 * - Orphan: an owner marked with the `orphan` finalizer first has itself removed from its
 *   dependents' ownerReferences, then loses the finalizer (and goes).
 * - Foreground: an owner marked with `foregroundDeletion` has its dependents deleted first; once
 *   none is left it loses the finalizer (and goes).
 * Dependents are found through an index of owner uids kept from storage events, not by scanning.
 * Whether a dependent's owners live is read from storage through each ownerReference's
 * apiVersion, kind and name, checked against its uid (as Kubernetes' collector does,
 * k8s.io/kubernetes pkg/controller/garbagecollector `isDangling`), so no index of every object's
 * uid is kept. A dependent with a reference that cannot be resolved is left as it is.
 * A cluster started from a snapshot builds that index from the snapshot's objects when it first
 * needs it (a delete, or work to do), so a fork that deletes nothing never walks its objects.
 */
import type { EngineContext } from '../api/context.js';
import { isApiError } from '../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../machinery/request.js';
import type { KubeObject } from '../schema/define-kind.js';
import type { ResolvedKind } from '../schema/registry.js';
import { cloneJson } from '../util/json-clone.js';
import type { StorageEvent } from '../storage/storage.js';
import type { Controller, StartOptions, StartingState } from './controller-loop.js';

type Send = (req: Omit<ApiRequest, 'user'>) => Promise<ApiResponse>;

interface ObjectRef {
  bucket: string;
  namespace: string;
  name: string;
}

const FOREGROUND = 'foregroundDeletion';
const ORPHAN = 'orphan';
const MANAGER = 'generic-garbage-collector';

function refKey(r: ObjectRef): string {
  return `${r.bucket}\u0000${r.namespace}\u0000${r.name}`;
}

interface OwnerReference {
  apiVersion?: string;
  kind?: string;
  name?: string;
  uid?: string;
}

function ownerReferences(obj: Readonly<KubeObject> | undefined): OwnerReference[] {
  return (obj?.metadata?.ownerReferences ?? []) as OwnerReference[];
}

function ownerUids(obj: Readonly<KubeObject> | undefined): string[] {
  return ownerReferences(obj)
    .map((r) => r.uid ?? '')
    .filter((u) => u !== '');
}

/** Whether an object is being deleted with a finalizer that makes the collector handle its dependents first. */
function deletingWithDependents(meta: KubeObject['metadata'] | undefined): boolean {
  return !!meta?.deletionTimestamp && (meta.finalizers ?? []).some((f) => f === ORPHAN || f === FOREGROUND);
}

/** Sets a list field, or drops it when empty (Go's omitempty, as the collector's patches leave it). */
function setList(meta: Record<string, unknown>, field: string, list: unknown[]): void {
  if (list.length) meta[field] = list;
  else delete meta[field];
}

/** Creates the garbage collector of a cluster. */
export function garbageCollector(ctx: EngineContext, send: Send): Controller {
  /** uid → where the object lives, for the owners deleting with their dependents first (orphan or foreground). */
  const waitingOwners = new Map<string, ObjectRef>();
  /** owner uid → dependents (by ref key). */
  const dependents = new Map<string, Map<string, ObjectRef>>();

  /**
   * The state the cluster started from and the changes since, not indexed yet. The index is built
   * when first needed, or once the changes waiting are as many as the state's objects (so waiting
   * never holds more than the index would).
   */
  let unindexed: { state: StartingState; size: number; events: StorageEvent[] } | undefined;

  /** Makes the index whole: the starting state's objects, then the changes since, in order. */
  function indexed(): void {
    if (!unindexed) return;
    const { state, events } = unindexed;
    unindexed = undefined;
    for (const [bucket, { objects }] of state.buckets) {
      for (const { namespace, name, value } of objects.values()) add({ bucket, namespace, name }, value as KubeObject);
    }
    for (const event of events) index(event);
  }

  const kindOf = (bucket: string): ResolvedKind | undefined => ctx.registry.lookupBucket(bucket);

  const read = async (ref: ObjectRef): Promise<KubeObject | undefined> => (await ctx.storage.get(ref))?.value as KubeObject | undefined;

  const resource = (kind: ResolvedKind) => ({ group: kind.group, version: kind.definition.storageVersion.name, resource: kind.definition.plural });

  function index(event: StorageEvent): void {
    const ref = { bucket: event.bucket, namespace: event.namespace, name: event.name };
    for (const owner of ownerUids(event.previous as KubeObject | undefined)) dependents.get(owner)?.delete(refKey(ref));
    if (event.type === 'DELETED') {
      const uid = (event.object.metadata as { uid?: string } | undefined)?.uid;
      if (uid) waitingOwners.delete(uid);
      return;
    }
    add(ref, event.object as KubeObject);
  }

  /** Indexes an object that exists at `ref`. */
  function add(ref: ObjectRef, obj: KubeObject): void {
    const meta = obj.metadata;
    if (meta?.uid && (waitingOwners.size || meta.deletionTimestamp)) {
      if (deletingWithDependents(meta)) waitingOwners.set(meta.uid, ref);
      else waitingOwners.delete(meta.uid);
    }
    if (!meta?.ownerReferences?.length) return;
    for (const owner of ownerUids(obj)) {
      let set = dependents.get(owner);
      if (!set) dependents.set(owner, (set = new Map()));
      set.set(refKey(ref), ref);
    }
  }

  /** Writes `obj` changed by `change`, unless it changed meanwhile (then the next event retries). */
  async function rewrite(ref: ObjectRef, change: (obj: KubeObject) => boolean): Promise<void> {
    const kind = kindOf(ref.bucket);
    const current = await read(ref);
    if (!kind || !current) return;
    const next = cloneJson(current);
    if (!change(next)) return;
    try {
      await send({
        verb: 'update',
        resource: resource(kind),
        namespace: ref.namespace || undefined,
        name: ref.name,
        body: next,
        writeOptions: { fieldManager: MANAGER },
      });
    } catch (e) {
      if (!isApiError(e, 'NotFound')) throw e;
    }
  }

  async function remove(ref: ObjectRef, propagationPolicy: string): Promise<void> {
    const kind = kindOf(ref.bucket);
    if (!kind) return;
    try {
      await send({ verb: 'delete', resource: resource(kind), namespace: ref.namespace || undefined, name: ref.name, deleteOptions: { propagationPolicy } });
    } catch (e) {
      if (!isApiError(e, 'NotFound') && !isApiError(e, 'Conflict')) throw e;
    }
  }

  /**
   * Where the owner an ownerReference of the dependent at `ref` names stands: `live` when it exists
   * with that uid, `absent` when not. An owner of a namespaced kind lives in the dependent's
   * namespace. A reference whose kind is not served, or a cluster-scoped dependent naming a
   * namespaced kind, is `unresolvable`: Kubernetes never collects a dependent through it.
   */
  async function ownerState(ref: ObjectRef, owner: OwnerReference): Promise<'live' | 'absent' | 'unresolvable'> {
    const found = ctx.registry.lookupKind(owner.apiVersion ?? '', owner.kind ?? '');
    if (!found || !owner.name || (found.kind.namespaced && !ref.namespace)) return 'unresolvable';
    const key = { bucket: found.kind.bucket, namespace: found.kind.namespaced ? ref.namespace : '', name: owner.name };
    return (await read(key))?.metadata?.uid === owner.uid ? 'live' : 'absent';
  }

  /** An owner is gone: delete its orphaned dependents, drop the dangling reference from the others. */
  async function ownerGone(uid: string): Promise<void> {
    each: for (const ref of [...(dependents.get(uid)?.values() ?? [])]) {
      const dep = await read(ref);
      if (!dep) continue;
      let alive = false;
      for (const owner of ownerReferences(dep)) {
        if (!owner.uid) continue;
        const state = await ownerState(ref, owner);
        if (state === 'unresolvable') continue each;
        if (owner.uid !== uid && state === 'live') alive = true;
      }
      if (!alive) await remove(ref, 'Background');
      else {
        await rewrite(ref, (obj) => {
          const refs = (obj.metadata?.ownerReferences ?? []) as { uid?: string }[];
          setList(
            obj.metadata!,
            'ownerReferences',
            refs.filter((r) => r.uid !== uid),
          );
          return true;
        });
      }
    }
    dependents.delete(uid);
  }

  async function dropFinalizer(ref: ObjectRef, finalizer: string): Promise<void> {
    await rewrite(ref, (obj) => {
      const list = obj.metadata?.finalizers ?? [];
      if (!list.includes(finalizer)) return false;
      setList(
        obj.metadata!,
        'finalizers',
        list.filter((f) => f !== finalizer),
      );
      return true;
    });
  }

  async function ownerDeleting(ref: ObjectRef): Promise<void> {
    const owner = await read(ref);
    const uid = owner?.metadata?.uid;
    if (!owner?.metadata?.deletionTimestamp || !uid) return;
    const finalizers = owner.metadata.finalizers ?? [];
    const deps = [...(dependents.get(uid)?.values() ?? [])];
    if (finalizers.includes(ORPHAN)) {
      for (const dep of deps) {
        await rewrite(dep, (obj) => {
          const refs = (obj.metadata?.ownerReferences ?? []) as { uid?: string }[];
          if (!refs.some((r) => r.uid === uid)) return false;
          setList(
            obj.metadata!,
            'ownerReferences',
            refs.filter((r) => r.uid !== uid),
          );
          return true;
        });
      }
      await dropFinalizer(ref, ORPHAN);
    } else if (finalizers.includes(FOREGROUND)) {
      for (const dep of deps) {
        const d = await read(dep);
        if (d && !d.metadata?.deletionTimestamp) await remove(dep, 'Foreground');
      }
      // Done when no dependent is left; the dependents' DELETED events bring us back here.
      if ((dependents.get(uid)?.size ?? 0) === 0) await dropFinalizer(ref, FOREGROUND);
    }
  }

  return {
    name: 'garbage-collector',
    // What reconcile changes of the index only tidies it: a settled start needs no work.
    keepsOnlyObserved: true,
    start(state: StartingState, options: StartOptions): readonly string[] {
      let size = 0;
      const work: string[] = [];
      for (const [bucket, { objects }] of state.buckets) {
        size += objects.size;
        if (options.settled) continue;
        for (const { namespace, name, value } of objects.values()) {
          if (deletingWithDependents(value.metadata as KubeObject['metadata'])) work.push(`deleting\u0000${refKey({ bucket, namespace, name })}`);
        }
      }
      indexed();
      unindexed = { state, size, events: [] };
      return work;
    },
    observe(event: StorageEvent): readonly string[] {
      // What a change other than a delete gives to do does not depend on the index.
      if (unindexed && event.type !== 'DELETED' && unindexed.events.length < unindexed.size) unindexed.events.push(event);
      else {
        indexed();
        index(event);
      }
      const work: string[] = [];
      const meta = event.object.metadata as KubeObject['metadata'];
      const uid = meta?.uid ?? '';
      if (event.type === 'DELETED') {
        if (uid && dependents.has(uid)) work.push(`gone\u0000${uid}`);
        // A dependent went: an owner waiting in foreground deletion may be done.
        for (const owner of ownerUids(event.object as KubeObject)) {
          const ownerRef = waitingOwners.get(owner);
          if (ownerRef) work.push(`deleting\u0000${refKey(ownerRef)}`);
        }
      } else if (deletingWithDependents(meta)) {
        work.push(`deleting\u0000${refKey({ bucket: event.bucket, namespace: event.namespace, name: event.name })}`);
      }
      return work;
    },
    async reconcile(key: string): Promise<void> {
      indexed();
      const [what, a, b, c] = key.split('\u0000') as [string, string, string?, string?];
      if (what === 'gone') await ownerGone(a);
      else await ownerDeleting({ bucket: a, namespace: b ?? '', name: c ?? '' });
    },
  };
}
