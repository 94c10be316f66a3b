/**
 * The `kubectl get` cells of Jobs and CronJobs (`pkg/printers/internalversion/printers.go`
 * `printJob`, `printCronJob`, `layoutContainerCells`, `metav1.FormatLabelSelector`).
 */
import { labelSelectorFromObject, SelectorParseError } from '../../selectors/label-selector.js';
import { humanDuration } from '../../util/human-duration.js';
import type { CronJob, Job, JobCondition } from '../types/batch-v1.js';
import type { Container } from '../types/core-v1.js';

/** Descriptions of the columns, as the server sends them in the Table. */
export const DESCRIPTIONS = {
  containers: 'Names of each container in the template.',
  images: 'Images referenced by each container in the template.',
  age: 'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
  jobSelector:
    'A label query over pods that should match the pod count. Normally, the system sets this field for you. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/labels/#label-selectors',
};

/** `layoutContainerCells`: names and images, comma-separated. */
export function containerCells(containers: readonly Container[] | undefined): { names: string; images: string } {
  const list = containers ?? [];
  return { names: list.map((c) => c.name).join(','), images: list.map((c) => c.image ?? '').join(',') };
}

/** `metav1.FormatLabelSelector`: the selector's text, `<none>` when it selects everything or nothing, `<error>` when invalid. */
export function formatLabelSelector(selector: Parameters<typeof labelSelectorFromObject>[0]): string {
  try {
    return labelSelectorFromObject(selector).toString() || '<none>';
  } catch (e) {
    if (e instanceof SelectorParseError) return '<error>';
    throw e;
  }
}

/** `translateTimestampSince`: the age of a timestamp, `<unknown>` for none. */
export function ageOf(timestamp: string | undefined | null, now: number): string {
  if (!timestamp) return '<unknown>';
  const t = Date.parse(timestamp);
  return Number.isNaN(t) ? '<unknown>' : humanDuration(now - t);
}

const hasCondition = (conditions: readonly JobCondition[] | undefined, type: string) => (conditions ?? []).some((c) => c.type === type && c.status === 'True');

/** The Status cell of a Job. */
export function jobStatus(job: Readonly<Job>): string {
  const conditions = job.status?.conditions;
  if (hasCondition(conditions, 'Complete')) return 'Complete';
  if (hasCondition(conditions, 'Failed')) return 'Failed';
  if (job.metadata?.deletionTimestamp) return 'Terminating';
  if (hasCondition(conditions, 'Suspended')) return 'Suspended';
  if (hasCondition(conditions, 'FailureTarget')) return 'FailureTarget';
  return 'Running';
}

/** The Completions cell: `succeeded/completions`, or `n/1` (`n/1 of p` when parallel) without completions. */
export function jobCompletions(job: Readonly<Job>): string {
  const succeeded = job.status?.succeeded ?? 0;
  const completions = job.spec?.completions;
  if (completions != null) return `${succeeded}/${completions}`;
  const parallelism = job.spec?.parallelism ?? 0;
  return parallelism > 1 ? `${succeeded}/1 of ${parallelism}` : `${succeeded}/1`;
}

/** The Duration cell: from start to completion, or to now while running; empty before the start. */
export function jobDuration(job: Readonly<Job>, now: number): string {
  const start = job.status?.startTime ? Date.parse(job.status.startTime) : NaN;
  if (Number.isNaN(start)) return '';
  const end = job.status?.completionTime ? Date.parse(job.status.completionTime) : now;
  return humanDuration((Number.isNaN(end) ? now : end) - start);
}

/** `printBoolPtr`. */
export function boolPtr(value: boolean | undefined | null): string {
  if (value == null) return '<unset>';
  return value ? 'True' : 'False';
}

/** The Last Schedule cell of a CronJob. */
export function lastSchedule(cronJob: Readonly<CronJob>, now: number): string {
  const t = cronJob.status?.lastScheduleTime;
  return t ? ageOf(t, now) : '<none>';
}
