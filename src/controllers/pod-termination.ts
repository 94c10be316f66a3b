/**
 * Stands in for the node agent at the end of a pod's life: a pod being deleted gracefully (bound to
 * a node, with a grace period) is removed once its containers would have stopped. No containers
 * run in memkube, so they stop at once; the pod goes on the next controller pass (`settle()`).
 */
import type { EngineContext } from '../api/context.js';
import { isApiError } from '../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../machinery/request.js';
import type { KubeObject } from '../schema/define-kind.js';
import type { StorageEvent } from '../storage/storage.js';
import type { Controller } from './controller-loop.js';

type Send = (req: Omit<ApiRequest, 'user'>) => Promise<ApiResponse>;

const BUCKET = 'core/pods';

/** Creates the pod termination controller. */
export function podTerminationController(ctx: EngineContext, send: Send): Controller {
  return {
    name: 'pod-termination',
    addsFrom: (bucket) => bucket === BUCKET,
    keepsOnlyObserved: true,
    observe(event: StorageEvent): readonly string[] {
      if (event.bucket !== BUCKET || event.type === 'DELETED') return [];
      const meta = (event.object as KubeObject).metadata ?? {};
      return meta.deletionTimestamp && (meta.deletionGracePeriodSeconds ?? 0) > 0 ? [`${event.namespace}/${event.name}`] : [];
    },
    async reconcile(key: string): Promise<void> {
      const [namespace, name] = key.split('/') as [string, string];
      const stored = await ctx.storage.get({ bucket: BUCKET, namespace, name });
      const meta = (stored?.value as KubeObject | undefined)?.metadata;
      if (!stored || !meta?.deletionTimestamp) return;
      try {
        await send({
          verb: 'delete',
          resource: { group: '', version: 'v1', resource: 'pods' },
          namespace,
          name,
          deleteOptions: { gracePeriodSeconds: 0, preconditions: { uid: meta.uid } },
        });
      } catch (e) {
        if (!isApiError(e, 'NotFound') && !isApiError(e, 'Conflict')) throw e;
      }
    },
  };
}
