/**
 * The service account controller: every active namespace has a `default` ServiceAccount, as in a
 * real cluster (pods name it unless they say otherwise, and admission requires it to exist).
 */
import type { EngineContext } from '../api/context.js';
import { isApiError } from '../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../machinery/request.js';
import type { KubeObject } from '../schema/define-kind.js';
import type { StorageEvent } from '../storage/storage.js';
import type { Controller } from './controller-loop.js';

type Send = (req: Omit<ApiRequest, 'user'>) => Promise<ApiResponse>;

const DEFAULT_ACCOUNT = 'default';

/** Creates the service account controller. */
export function serviceAccountController(ctx: EngineContext, send: Send): Controller {
  return {
    name: 'serviceaccount',
    addsFrom: (bucket) => bucket === 'core/namespaces',
    keepsOnlyObserved: true,
    observe(event: StorageEvent): readonly string[] {
      if (event.bucket === 'core/namespaces' && event.type !== 'DELETED') return [event.name];
      // Someone deleted the default account: put it back.
      if (event.bucket === 'core/serviceaccounts' && event.type === 'DELETED' && event.name === DEFAULT_ACCOUNT) return [event.namespace];
      return [];
    },
    async reconcile(namespace: string): Promise<void> {
      const ns = (await ctx.storage.get({ bucket: 'core/namespaces', namespace: '', name: namespace }))?.value as KubeObject | undefined;
      if (!ns || ns.metadata?.deletionTimestamp) return;
      if (await ctx.storage.get({ bucket: 'core/serviceaccounts', namespace, name: DEFAULT_ACCOUNT })) return;
      try {
        await send({
          verb: 'create',
          resource: { group: '', version: 'v1', resource: 'serviceaccounts' },
          namespace,
          body: { metadata: { name: DEFAULT_ACCOUNT, namespace } },
        });
      } catch (e) {
        // Created meanwhile, or the namespace began terminating: nothing to do.
        if (!isApiError(e, 'AlreadyExists') && !isApiError(e, 'Forbidden') && !isApiError(e, 'NotFound')) throw e;
      }
    },
  };
}
