/**
 * A Pod's `eviction` subresource: POST a `policy/v1` Eviction and the pod is deleted unless a
 * PodDisruptionBudget forbids it, as pkg/registry/core/pod/storage/eviction.go's EvictionREST
 * decides: a pod that is not running (or already terminating) goes at once; otherwise the one
 * budget selecting it must allow a disruption, which the eviction uses up (recording the pod in
 * the budget's `status.disruptedPods`) before deleting the pod.
 */
import { formatTime } from '../../../clock.js';
import { ApiError, badRequest, forbidden, isApiError } from '../../../machinery/errors.js';
import type { ApiRequest, DeleteOptions } from '../../../machinery/request.js';
import type { ActionContext, ActionSubresource, KubeObject } from '../../../schema/define-kind.js';
import { labelSelectorFromObject, SelectorParseError, type LabelSelectorObject } from '../../../selectors/label-selector.js';
import type { Pod } from '../../types/core-v1.js';
import { Eviction as EvictionSchema, type Eviction, type PodDisruptionBudget } from '../../types/policy-v1.js';
import { SUCCESS } from './action-status.js';

const PODS = { group: '', version: 'v1', resource: 'pods' };
const BUDGETS = { group: 'policy', version: 'v1', resource: 'poddisruptionbudgets' };
/** EvictionREST's `MaxDisruptedPodSize`: beyond this many unconfirmed evictions a budget refuses more. */
const MAX_DISRUPTED_PODS = 2000;
/** How often an eviction retries after a conflicting write (client-go's `retry.DefaultRetry` has 5 steps). */
const ATTEMPTS = 5;
const VIOLATION = "Cannot evict pod as it would violate the pod's disruption budget.";

/** 429 TooManyRequests with the budget's reason as a `DisruptionBudget` cause. */
function tooManyRequests(cause: string, retryAfterSeconds: number): ApiError {
  return new ApiError({
    code: 429,
    reason: 'TooManyRequests',
    message: VIOLATION,
    details: { ...(retryAfterSeconds ? { retryAfterSeconds } : {}), causes: [{ reason: 'DisruptionBudget', message: cause }] },
  });
}

/** The budget has not seen its latest spec yet (`createTooManyRequestsError`). */
const stillProcessing = (name: string) => tooManyRequests(`The disruption budget ${name} is still being processed by the server.`, 10);

/** Pods that may go without asking a budget: finished, pending or already terminating (`canIgnorePDB`). */
function canIgnoreBudget(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return phase === 'Succeeded' || phase === 'Failed' || phase === 'Pending' || !!pod.metadata?.deletionTimestamp;
}

/** Whether a delete must pin the pod's resourceVersion, so it cannot become ready meanwhile (`shouldEnforceResourceVersion`). */
function pinsResourceVersion(pod: Pod): boolean {
  const phase = pod.status?.phase;
  return !(phase === 'Succeeded' || phase === 'Failed' || pod.metadata?.deletionTimestamp);
}

const isReady = (pod: Pod) => pod.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;
const hasResourceVersionPrecondition = (o: DeleteOptions) => o.preconditions?.resourceVersion !== undefined;
const pinned = (o: DeleteOptions, resourceVersion: string | undefined): DeleteOptions => ({
  ...o,
  preconditions: { ...o.preconditions, resourceVersion },
});

/** The eviction's delete options, with the request's dry run carried into them (`propagateDryRun`). */
function deleteOptionsOf(eviction: Eviction, dryRun: boolean): DeleteOptions {
  const options = { ...(eviction.deleteOptions ?? {}) } as DeleteOptions;
  delete (options as Record<string, unknown>).kind;
  delete (options as Record<string, unknown>).apiVersion;
  if (dryRun && !options.dryRun?.length) options.dryRun = ['All'];
  return options;
}

/** The budgets of the pod's namespace whose selector (non-empty and valid) selects it. */
async function budgetsOf(pod: Pod, ctx: ActionContext): Promise<PodDisruptionBudget[]> {
  let items: PodDisruptionBudget[];
  try {
    const res = await ctx.request({ verb: 'list', resource: BUDGETS, namespace: pod.metadata!.namespace });
    items = ((res.body as { items?: PodDisruptionBudget[] }).items ?? []) as PodDisruptionBudget[];
  } catch (e) {
    // A cluster without the policy group has no budgets.
    if (isApiError(e, 'NotFound')) return [];
    throw e;
  }
  return items.filter((pdb) => {
    try {
      const selector = labelSelectorFromObject(pdb.spec?.selector as LabelSelectorObject | undefined);
      return !selector.empty() && selector.matches(pod.metadata?.labels);
    } catch (e) {
      if (e instanceof SelectorParseError) return false;
      throw e;
    }
  });
}

/** The condition a budget gets when an eviction uses up its last disruption (`UpdateDisruptionAllowedCondition`). */
function withInsufficientPods(pdb: PodDisruptionBudget, now: string): void {
  const status = pdb.status!;
  const conditions = [...(status.conditions ?? [])];
  const i = conditions.findIndex((c) => c.type === 'DisruptionAllowed');
  const next = { type: 'DisruptionAllowed', status: 'False', reason: 'InsufficientPods', message: '', observedGeneration: status.observedGeneration ?? 0 };
  if (i < 0) conditions.push({ ...next, lastTransitionTime: now });
  else conditions[i] = { ...next, lastTransitionTime: conditions[i]!.status === 'False' ? conditions[i]!.lastTransitionTime : now };
  status.conditions = conditions;
}

/** Uses one disruption of `pdb` for the pod, or refuses (`checkAndDecrement`). Answers false after a conflicting write. */
async function useDisruption(pdb: PodDisruptionBudget, podName: string, dryRun: boolean, ctx: ActionContext): Promise<boolean> {
  const name = pdb.metadata?.name ?? '';
  const status = (pdb.status ??= {});
  if ((status.observedGeneration ?? 0) < (pdb.metadata?.generation ?? 0)) throw stillProcessing(name);
  const gr = { group: 'policy', resource: 'poddisruptionbudget' };
  if ((status.disruptionsAllowed ?? 0) < 0) throw forbidden(gr, name, 'pdb disruptions allowed is negative');
  if (Object.keys(status.disruptedPods ?? {}).length > MAX_DISRUPTED_PODS) {
    throw forbidden(gr, name, 'DisruptedPods map too big - too many evictions not confirmed by PDB controller');
  }
  if ((status.disruptionsAllowed ?? 0) === 0) {
    throw tooManyRequests(`The disruption budget ${name} needs ${status.desiredHealthy ?? 0} healthy pods and has ${status.currentHealthy ?? 0} currently`, 0);
  }
  const now = formatTime(ctx.now());
  status.disruptionsAllowed = (status.disruptionsAllowed ?? 0) - 1;
  if (status.disruptionsAllowed === 0) withInsufficientPods(pdb, now);
  if (dryRun) return true;
  status.disruptedPods = { ...status.disruptedPods, [podName]: now };
  try {
    await ctx.request({ verb: 'update', resource: BUDGETS, subresource: 'status', namespace: pdb.metadata?.namespace, name, body: pdb });
    return true;
  } catch (e) {
    if (isApiError(e, 'Conflict')) return false;
    throw e;
  }
}

async function evict(body: KubeObject, target: { readonly namespace?: string; readonly name: string }, ctx: ActionContext) {
  const eviction = body as Eviction;
  if (eviction.metadata?.name !== target.name) throw badRequest('name in URL does not match name in Eviction object');
  const options = deleteOptionsOf(eviction, ctx.dryRun);
  const dryRun = !!options.dryRun?.length;
  const podRequest = { resource: PODS, namespace: target.namespace, name: target.name };
  const remove = (o: DeleteOptions) => ctx.request({ ...podRequest, verb: 'delete', deleteOptions: o } as Omit<ApiRequest, 'user'>);
  const success = { code: 201, body: SUCCESS, warnings: [] };

  // A pod that already stopped (or never started) disrupts nothing: it is deleted without a budget.
  let pod: Pod | undefined;
  for (let attempt = 1; ; attempt++) {
    pod = (await ctx.request({ ...podRequest, verb: 'get' })).body as Pod;
    if (!canIgnoreBudget(pod)) break;
    const pin = pinsResourceVersion(pod) && !hasResourceVersionPrecondition(options);
    try {
      await remove(pin ? pinned(options, pod.metadata?.resourceVersion) : options);
      return success;
    } catch (e) {
      if (!isApiError(e, 'Conflict') || hasResourceVersionPrecondition(options) || attempt >= ATTEMPTS) throw e;
    }
  }

  const budgets = await budgetsOf(pod, ctx);
  if (budgets.length > 1) {
    const message = 'This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.';
    return { code: 500, body: { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 }, warnings: [] };
  }
  let pinToReadiness = false;
  const budget = budgets[0];
  if (budget) {
    const unhealthy = !isReady(pod);
    const status = budget.status ?? {};
    if (unhealthy && budget.spec?.unhealthyPodEvictionPolicy === 'AlwaysAllow') pinToReadiness = true;
    else if (unhealthy && (status.currentHealthy ?? 0) >= (status.desiredHealthy ?? 0) && (status.desiredHealthy ?? 0) > 0) pinToReadiness = true;
    else {
      let current = budget;
      for (let attempt = 1; !(await useDisruption(current, target.name, dryRun, ctx)); attempt++) {
        if (attempt >= ATTEMPTS)
          throw new ApiError({
            code: 504,
            reason: 'Timeout',
            message: `Timeout: couldn't update PodDisruptionBudget ${JSON.stringify(budget.metadata?.name ?? '')} due to conflicts`,
            details: { retryAfterSeconds: 10 },
          });
        current = (await ctx.request({ verb: 'get', resource: BUDGETS, namespace: budget.metadata?.namespace, name: budget.metadata?.name }))
          .body as PodDisruptionBudget;
      }
    }
  }
  try {
    await remove(pinToReadiness ? pinned(options, pod.metadata?.resourceVersion) : options);
  } catch (e) {
    // The pod changed (perhaps became ready) since it was judged: the client should try again.
    if (isApiError(e, 'Conflict') && pinToReadiness && !hasResourceVersionPrecondition(options)) throw stillProcessing(budget?.metadata?.name ?? '');
    throw e;
  }
  return success;
}

/** The `pods/eviction` action (policy/v1 Eviction; policy/v1beta1 bodies are accepted too). */
export const podEviction: ActionSubresource = {
  kind: { group: 'policy', version: 'v1', kind: 'Eviction' },
  alsoAccepts: ['policy/v1beta1'],
  get schema() {
    return EvictionSchema();
  },
  run: evict,
};
