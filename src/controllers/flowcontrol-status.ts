/**
 * The API Priority and Fairness status a Kubernetes API server keeps: every FlowSchema carries a
 * `Dangling` condition saying whether the PriorityLevelConfiguration it names exists (what `kubectl
 * get flowschemas` prints as MISSINGPL). memkube classifies no request; this controller keeps only
 * that condition up to date, writing through `/status` when it changes.
 */
import type { EngineContext } from '../api/context.js';
import { isApiError } from '../machinery/errors.js';
import type { ApiRequest, ApiResponse } from '../machinery/request.js';
import type { KubeObject } from '../schema/define-kind.js';
import type { StorageEvent } from '../storage/storage.js';
import { timeText } from '../util/flat-string.js';
import type { Controller } from './controller-loop.js';

type Send = (req: Omit<ApiRequest, 'user'>) => Promise<ApiResponse>;

interface FlowSchemaCondition {
  type?: string;
  status?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

/** The field manager Kubernetes' APF controller writes the condition with. */
const FIELD_MANAGER = 'api-priority-and-fairness-config-consumer-v1';
/** Work keys for a priority level: re-check the schemas that name it. */
const LEVEL_KEY = 'pl:';

/** The `Dangling` condition a FlowSchema naming `level` should carry (without its transition time). */
export function danglingCondition(level: string, exists: boolean): FlowSchemaCondition {
  return exists
    ? {
        type: 'Dangling',
        status: 'False',
        reason: 'Found',
        message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(level)} and it exists`,
      }
    : {
        type: 'Dangling',
        status: 'True',
        reason: 'NotFound',
        message: `This FlowSchema references the PriorityLevelConfiguration object named ${JSON.stringify(level)} but there is no such object`,
      };
}

/** Creates the controller for the cluster's `flowcontrol.apiserver.<domain>` group. */
export function flowControlStatusController(ctx: EngineContext, send: Send): Controller {
  const group = `flowcontrol.apiserver.${ctx.apiDomain}`;
  const schemas = `${group}/flowschemas`;
  const levels = `${group}/prioritylevelconfigurations`;
  const level = (fs: KubeObject) => (fs['spec'] as { priorityLevelConfiguration?: { name?: string } } | undefined)?.priorityLevelConfiguration?.name ?? '';

  async function reconcileSchema(name: string): Promise<void> {
    const fs = (await ctx.storage.get({ bucket: schemas, namespace: '', name }))?.value as KubeObject | undefined;
    if (!fs || fs.metadata?.deletionTimestamp) return;
    const plName = level(fs);
    const exists = plName !== '' && (await ctx.storage.get({ bucket: levels, namespace: '', name: plName })) !== undefined;
    const desired = danglingCondition(plName, exists);
    const conditions = ((fs['status'] as { conditions?: FlowSchemaCondition[] } | undefined)?.conditions ?? []) as FlowSchemaCondition[];
    const current = conditions.find((c) => c.type === 'Dangling');
    if (current && current.status === desired.status && current.reason === desired.reason && current.message === desired.message) return;
    // The transition time changes only with the status.
    const kept = current !== undefined && current.status === desired.status ? current.lastTransitionTime : undefined;
    const condition = { ...desired, lastTransitionTime: kept ?? timeText(ctx.clock.now()) };
    try {
      await send({
        verb: 'patch',
        resource: { group, version: 'v1', resource: 'flowschemas' },
        subresource: 'status',
        name,
        patchType: 'merge',
        body: {
          metadata: { resourceVersion: fs.metadata?.resourceVersion },
          status: { conditions: [...conditions.filter((c) => c.type !== 'Dangling'), condition] },
        },
        writeOptions: { fieldManager: FIELD_MANAGER },
      });
    } catch (e) {
      // Deleted or changed meanwhile: the event of that change queues the schema again.
      if (!isApiError(e, 'NotFound') && !isApiError(e, 'Conflict')) throw e;
    }
  }

  return {
    name: 'flowcontrol-status',
    addsFrom: (bucket) => bucket === schemas || bucket === levels,
    keepsOnlyObserved: true,
    observe(event: StorageEvent): readonly string[] {
      if (event.bucket === schemas && event.type !== 'DELETED') return [event.name];
      if (event.bucket === levels && event.type !== 'MODIFIED') return [LEVEL_KEY + event.name];
      return [];
    },
    async reconcile(key: string): Promise<void> {
      if (!key.startsWith(LEVEL_KEY)) return reconcileSchema(key);
      const plName = key.slice(LEVEL_KEY.length);
      const { items } = await ctx.storage.list(schemas, { filter: (fs) => level(fs as KubeObject) === plName });
      for (const item of items) await reconcileSchema(item.name);
    },
  };
}
