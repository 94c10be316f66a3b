/**
 * The pod strategy's `PrepareForCreate` (kubernetes pkg/registry/core/pod/strategy.go): status
 * (phase, QoS class, the scheduling-gated condition) and matchLabelKeys merged into selectors. It
 * runs after admission (src/admission/) has named the service account, mounted the token and
 * resolved the priority.
 */
import type { Pod, PodAffinityTerm } from '../../types/core-v1.js';
import type { LabelSelector } from '../../types/meta-v1.js';
import { quantityValue } from '../../shared/resource-lists.js';

/** `qos.ComputePodQOS`. */
export function computeQOSClass(pod: Pod): 'Guaranteed' | 'Burstable' | 'BestEffort' {
  const spec = pod.spec!;
  const requests = new Map<string, bigint>();
  const limits = new Map<string, bigint>();
  let guaranteed = true;
  const positive = (list: Record<string, string | number> | undefined): [string, bigint][] =>
    Object.entries(list ?? {})
      .filter(([name]) => name === 'cpu' || name === 'memory')
      .map(([name, v]): [string, bigint] => [name, quantityValue(v)?.nanos ?? 0n])
      .filter(([, n]) => n > 0n);
  const add = (into: Map<string, bigint>, entries: [string, bigint][]) => {
    for (const [name, n] of entries) into.set(name, (into.get(name) ?? 0n) + n);
  };
  if (spec.resources) {
    add(requests, positive(spec.resources.requests));
    if (Object.keys(spec.resources.limits ?? {}).length > 0) {
      const found = positive(spec.resources.limits);
      add(limits, found);
      if (!(found.some(([n]) => n === 'cpu') && found.some(([n]) => n === 'memory'))) guaranteed = false;
    }
  } else {
    for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
      add(requests, positive(c.resources?.requests));
      const found = positive(c.resources?.limits);
      add(limits, found);
      if (!(found.some(([n]) => n === 'cpu') && found.some(([n]) => n === 'memory'))) guaranteed = false;
    }
  }
  if (requests.size === 0 && limits.size === 0) return 'BestEffort';
  if (guaranteed) {
    for (const [name, req] of requests) {
      if (limits.get(name) !== req) {
        guaranteed = false;
        break;
      }
    }
  }
  return guaranteed && requests.size === limits.size ? 'Guaranteed' : 'Burstable';
}

/** The pod strategy's `PrepareForCreate`, after defaulting and admission. */
export function preparePodStatus(pod: Pod): void {
  pod.status = { phase: 'Pending', qosClass: computeQOSClass(pod) };
  if (pod.spec?.schedulingGates?.length) {
    pod.status.conditions = [
      { type: 'PodScheduled', status: 'False', reason: 'SchedulingGated', message: 'Scheduling is blocked due to non-empty scheduling gates' },
    ];
  }
  mergeMatchLabelKeys(pod);
}

/** Appends `key In/NotIn (pod's value)` for each listed key the pod has, as the strategy does. */
function applyLabelKeys(selector: LabelSelector, keys: readonly string[] | undefined, operator: 'In' | 'NotIn', labels: Record<string, string>): void {
  for (const key of keys ?? []) {
    const value = labels[key];
    if (value !== undefined) (selector.matchExpressions ??= []).push({ key, operator, values: [value] });
  }
}

/** `mutatePodAffinity` and `mutateTopologySpreadConstraints` (MatchLabelKeys features, on by default). */
function mergeMatchLabelKeys(pod: Pod): void {
  const labels = pod.metadata?.labels ?? {};
  const term = (t: PodAffinityTerm) => {
    if ((!t.matchLabelKeys?.length && !t.mismatchLabelKeys?.length) || !t.labelSelector) return;
    applyLabelKeys(t.labelSelector, t.matchLabelKeys, 'In', labels);
    applyLabelKeys(t.labelSelector, t.mismatchLabelKeys, 'NotIn', labels);
  };
  for (const affinity of [pod.spec?.affinity?.podAffinity, pod.spec?.affinity?.podAntiAffinity]) {
    for (const weighted of affinity?.preferredDuringSchedulingIgnoredDuringExecution ?? []) term(weighted.podAffinityTerm);
    for (const required of affinity?.requiredDuringSchedulingIgnoredDuringExecution ?? []) term(required);
  }
  for (const constraint of pod.spec?.topologySpreadConstraints ?? []) {
    if (constraint.matchLabelKeys?.length && constraint.labelSelector) applyLabelKeys(constraint.labelSelector, constraint.matchLabelKeys, 'In', labels);
  }
}
