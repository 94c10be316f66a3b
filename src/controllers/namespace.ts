/**
 * The namespace controller: when a namespace is marked for deletion, it deletes everything in it,
 * reports progress in the namespace's conditions, and once the namespace is empty removes the
 * `kubernetes` finalizer, which lets the namespace go.
 */
import type { EngineContext } from '../api/context.js';
import { formatTime } from '../clock.js';
import { isApiError } from '../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../machinery/request.js';
import type { KubeObject } from '../schema/define-kind.js';
import type { StorageEvent } from '../storage/storage.js';
import type { Controller } from './controller-loop.js';

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' };
const BUCKET = 'core/namespaces';

type Send = (req: Omit<ApiRequest, 'user'>) => Promise<ApiResponse>;

interface Condition {
  type: string;
  status: 'True' | 'False';
  lastTransitionTime: string;
  reason: string;
  message: string;
}

/** Options of {@link namespaceController}. */
export interface NamespaceControllerOptions {
  /**
   * Real time (ms) between a namespace being marked for deletion and the controller starting to
   * empty it. A real cluster takes a moment here (discovery, then a list of every resource), and
   * clients count on it: `kubectl delete -f` of a manifest that starts with its Namespace deletes
   * the namespace's objects itself afterwards.
   */
  deletionDelayMs?: number;
}

/** Creates the namespace controller of a cluster. */
export function namespaceController(ctx: EngineContext, send: Send, options: NamespaceControllerOptions = {}): Controller {
  const deletionDelayMs = options.deletionDelayMs ?? 0;
  const terminating = new Set<string>();

  const condition = (type: string, failed: boolean, okReason: string, okMessage: string, badReason: string, badMessage: string): Condition => ({
    type,
    status: failed ? 'True' : 'False',
    lastTransitionTime: formatTime(ctx.clock.now()),
    reason: failed ? badReason : okReason,
    message: failed ? badMessage : okMessage,
  });

  async function reconcile(name: string): Promise<void> {
    const stored = await ctx.storage.get({ bucket: BUCKET, namespace: '', name });
    const ns = stored?.value as KubeObject | undefined;
    if (!ns?.metadata?.deletionTimestamp) {
      terminating.delete(name);
      return;
    }
    terminating.add(name);
    const remaining = new Map<string, number>();
    const finalizers = new Map<string, number>();
    for (const kind of ctx.registry.kinds()) {
      // A kind sharing another's storage is the same objects through another door.
      if (!kind.namespaced || kind.definition.sharesStorageWith) continue;
      const { items } = await ctx.storage.list(kind.bucket, { namespace: name });
      if (!items.length) continue;
      const resource = kind.group ? `${kind.definition.plural}.${kind.group}` : kind.definition.plural;
      remaining.set(resource, items.length);
      for (const item of items) {
        const meta = (item.value as KubeObject).metadata ?? {};
        for (const f of meta.finalizers ?? []) finalizers.set(f, (finalizers.get(f) ?? 0) + 1);
        if (meta.deletionTimestamp) continue;
        try {
          await send({
            verb: 'delete',
            resource: { group: kind.group, version: kind.definition.storageVersion.name, resource: kind.definition.plural },
            namespace: name,
            name: item.name,
            deleteOptions: { propagationPolicy: 'Background' },
          });
        } catch (e) {
          if (!isApiError(e, 'NotFound')) throw e;
        }
      }
    }
    // Count again: whatever the deletes removed at once is gone now.
    let left = 0;
    const leftByResource: string[] = [];
    for (const kind of ctx.registry.kinds()) {
      if (!kind.namespaced || kind.definition.sharesStorageWith) continue;
      const { items } = await ctx.storage.list(kind.bucket, { namespace: name });
      if (items.length) {
        left += items.length;
        leftByResource.push(`${kind.group ? `${kind.definition.plural}.${kind.group}` : kind.definition.plural} has ${items.length} resource instances`);
      }
    }
    const finalizerText = [...finalizers].map(([f, n]) => `${f} in ${n} resource instances`).join(', ');
    const conditions: Condition[] = [
      condition('NamespaceDeletionDiscoveryFailure', false, 'ResourcesDiscovered', 'All resources successfully discovered', 'DiscoveryFailed', ''),
      condition(
        'NamespaceDeletionGroupVersionParsingFailure',
        false,
        'ParsedGroupVersions',
        'All legacy kube types successfully parsed',
        'GroupVersionParsingFailed',
        '',
      ),
      condition(
        'NamespaceDeletionContentFailure',
        false,
        'ContentDeleted',
        'All content successfully deleted, may be waiting on finalization',
        'ContentDeletionFailed',
        '',
      ),
      condition(
        'NamespaceContentRemaining',
        left > 0,
        'ContentRemoved',
        'All content successfully removed',
        'SomeResourcesRemain',
        `Some resources are remaining: ${leftByResource.join(', ')}`,
      ),
      condition(
        'NamespaceFinalizersRemaining',
        left > 0 && finalizers.size > 0,
        'ContentHasNoFinalizers',
        'All content-preserving finalizers finished',
        'SomeFinalizersRemain',
        `Some content in the namespace has finalizers remaining: ${finalizerText}`,
      ),
    ];
    await writeConditions(name, conditions);
    if (left > 0) return;
    const current = (await ctx.storage.get({ bucket: BUCKET, namespace: '', name }))?.value as KubeObject | undefined;
    if (!current) return;
    const spec = (current.spec ?? {}) as { finalizers?: string[] };
    const next = { ...current, spec: { ...spec, finalizers: (spec.finalizers ?? []).filter((f) => f !== 'kubernetes') } };
    await send({ verb: 'update', resource: NAMESPACES, name, subresource: 'finalize', body: next });
  }

  async function writeConditions(name: string, conditions: Condition[]): Promise<void> {
    const current = (await ctx.storage.get({ bucket: BUCKET, namespace: '', name }))?.value as KubeObject | undefined;
    if (!current) return;
    const status = (current.status ?? {}) as { conditions?: Condition[] };
    // Keep the transition time of conditions whose status did not change.
    const merged = conditions.map((c) => {
      const prev = status.conditions?.find((p) => p.type === c.type);
      return prev && prev.status === c.status && prev.reason === c.reason && prev.message === c.message ? prev : c;
    });
    await send({ verb: 'update', resource: NAMESPACES, name, subresource: 'status', body: { ...current, status: { ...status, conditions: merged } } });
  }

  return {
    name: 'namespace',
    // Other objects matter to it only when they go.
    addsFrom: (bucket) => bucket === BUCKET,
    observe(event: StorageEvent): readonly string[] {
      if (event.bucket === BUCKET) {
        return (event.object.metadata as { deletionTimestamp?: string } | undefined)?.deletionTimestamp ? [event.name] : [];
      }
      // Content of a terminating namespace changed: check whether it is empty now.
      return event.namespace && terminating.has(event.namespace) && event.type === 'DELETED' ? [event.namespace] : [];
    },
    // Only the first look at a terminating namespace waits; the controller then follows its content at once.
    delayFor: (name) => (terminating.has(name) ? 0 : deletionDelayMs),
    reconcile,
  };
}
