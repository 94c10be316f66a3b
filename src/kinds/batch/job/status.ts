/**
 * Job status validation of Kubernetes v1.36 (`pkg/apis/batch/validation/validation.go`
 * `validateJobStatus`, `ValidateJobStatusUpdate`), with the options the status strategy passes
 * when JobManagedBy is on (`pkg/registry/batch/job/strategy.go` `getStatusValidationOptions`): most
 * rules apply only when the fields they look at changed, so a bad status can still be fixed.
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import { validateNonnegativeField } from '../../../schema/validation/object-meta.js';
import { GoPrinted } from '../../../machinery/field-errors.js';
import type { Job, JobCondition, JobStatus } from '../../types/batch-v1.js';
import { failedOverlapsCompleted, validateIndexesFormat } from './indexes.js';
import { jsonEqual } from '../../../util/json-equal.js';

const conditionTrue = (conditions: readonly JobCondition[] | undefined, type: string) => (conditions ?? []).some((c) => c.type === type && c.status === 'True');
const isComplete = (j: Readonly<Job>) => conditionTrue(j.status?.conditions, 'Complete');
const isFailed = (j: Readonly<Job>) => conditionTrue(j.status?.conditions, 'Failed');
const isFinished = (j: Readonly<Job>) => isComplete(j) || isFailed(j);
const isFailureTarget = (j: Readonly<Job>) => conditionTrue(j.status?.conditions, 'FailureTarget');
const isSuccessCriteriaMet = (j: Readonly<Job>) => conditionTrue(j.status?.conditions, 'SuccessCriteriaMet');

/** A time as Go's `time.Time.String()` prints it (`2026-01-01 00:00:00 +0000 UTC`), for messages. */
function goTime(value: string): GoPrinted {
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) return new GoPrinted(value);
  const d = new Date(ms);
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  const frac = d.getUTCMilliseconds() ? `.${p(d.getUTCMilliseconds(), 3).replace(/0+$/, '')}` : '';
  return new GoPrinted(
    `${p(d.getUTCFullYear(), 4)}-${p(d.getUTCMonth() + 1)}-${p(d.getUTCDate())} ${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}${frac} +0000 UTC`,
  );
}

const sameTime = (a: string | undefined, b: string | undefined) => (a == null || b == null ? a == b : Date.parse(a) === Date.parse(b));

/** Which rules of `validateJobStatus` apply (`JobStatusValidationOptions`). */
interface StatusOptions {
  rejectDecreasingSucceededCounter: boolean;
  rejectInvalidCompletedIndexes: boolean;
  rejectInvalidFailedIndexes: boolean;
  rejectCompletedIndexesForNonIndexedJob: boolean;
  rejectFailedIndexesForNoBackoffLimitPerIndex: boolean;
  rejectFailedIndexesOverlappingCompleted: boolean;
  rejectFinishedJobWithActivePods: boolean;
  rejectFinishedJobWithoutStartTime: boolean;
  rejectFinishedJobWithUncountedTerminatedPods: boolean;
  rejectStartTimeUpdateForUnsuspendedJob: boolean;
  rejectCompletionTimeBeforeStartTime: boolean;
  rejectNotCompleteJobWithCompletionTime: boolean;
  rejectCompleteJobWithoutCompletionTime: boolean;
  rejectCompleteJobWithFailedCondition: boolean;
  rejectCompleteJobWithFailureTargetCondition: boolean;
  rejectFailedJobWithoutFailureTarget: boolean;
  rejectCompleteJobWithoutSuccessCriteriaMet: boolean;
  rejectFinishedJobWithTerminatingPods: boolean;
  rejectMoreReadyThanActivePods: boolean;
}

/** `getStatusValidationOptions` with JobManagedBy on (GA). */
function statusOptions(job: Readonly<Job>, old: Readonly<Job>): StatusOptions {
  const s = job.status ?? {};
  const o = old.status ?? {};
  const indexed = job.spec?.completionMode === 'Indexed';
  const finishedChanged = isFinished(old) !== isFinished(job);
  const completeChanged = isComplete(old) !== isComplete(job);
  const failedChanged = isFailed(old) !== isFailed(job);
  const failureTargetChanged = isFailureTarget(old) !== isFailureTarget(job);
  const successCriteriaChanged = isSuccessCriteriaMet(old) !== isSuccessCriteriaMet(job);
  const completedIndexesChanged = (o.completedIndexes ?? '') !== (s.completedIndexes ?? '');
  const failedIndexesChanged = (o.failedIndexes ?? null) !== (s.failedIndexes ?? null);
  const activeChanged = (o.active ?? 0) !== (s.active ?? 0);
  const readyChanged = (o.ready ?? null) !== (s.ready ?? null);
  const terminatingChanged = (o.terminating ?? null) !== (s.terminating ?? null);
  const startTimeChanged = !sameTime(o.startTime, s.startTime);
  const completionTimeChanged = !sameTime(o.completionTime, s.completionTime);
  const uncountedChanged = !jsonEqual(normalizedUncounted(o), normalizedUncounted(s));
  return {
    // Succeeded may go down for an Indexed job that is scaled down (completions = parallelism).
    rejectDecreasingSucceededCounter: !indexed || (job.spec?.completions ?? null) !== (job.spec?.parallelism ?? null),
    rejectInvalidCompletedIndexes: completedIndexesChanged,
    rejectInvalidFailedIndexes: failedIndexesChanged,
    rejectCompletedIndexesForNonIndexedJob: completedIndexesChanged,
    rejectFailedIndexesForNoBackoffLimitPerIndex: failedIndexesChanged,
    rejectFailedIndexesOverlappingCompleted: failedIndexesChanged || completedIndexesChanged,
    rejectFinishedJobWithActivePods: finishedChanged || activeChanged,
    rejectFinishedJobWithoutStartTime: finishedChanged || startTimeChanged,
    rejectFinishedJobWithUncountedTerminatedPods: finishedChanged || uncountedChanged,
    rejectStartTimeUpdateForUnsuspendedJob: startTimeChanged,
    rejectCompletionTimeBeforeStartTime: startTimeChanged || completionTimeChanged,
    rejectNotCompleteJobWithCompletionTime: completeChanged || completionTimeChanged,
    rejectCompleteJobWithoutCompletionTime: completeChanged || completionTimeChanged,
    rejectCompleteJobWithFailedCondition: completeChanged || failedChanged,
    rejectCompleteJobWithFailureTargetCondition: completeChanged || failureTargetChanged,
    rejectFailedJobWithoutFailureTarget: failedChanged || failureTargetChanged,
    rejectCompleteJobWithoutSuccessCriteriaMet: completeChanged || successCriteriaChanged,
    rejectFinishedJobWithTerminatingPods: finishedChanged || terminatingChanged,
    rejectMoreReadyThanActivePods: readyChanged || activeChanged,
  };
}

/** `uncountedTerminatedPods` as Go compares it semantically (nil and empty lists alike). */
function normalizedUncounted(s: JobStatus): unknown {
  const u = s.uncountedTerminatedPods;
  if (u == null) return null;
  return { succeeded: u.succeeded ?? [], failed: u.failed ?? [] };
}

/** `validateJobStatus`. */
function jobStatusErrors(job: Readonly<Job>, opts: StatusOptions): FieldError[] {
  const errs: FieldError[] = [];
  const s = job.status ?? {};
  const path = 'status';
  const at = (f: string) => child(path, f);
  const active = s.active ?? 0;
  errs.push(...validateNonnegativeField(active, at('active')), ...validateNonnegativeField(s.succeeded ?? 0, at('succeeded')));
  errs.push(...validateNonnegativeField(s.failed ?? 0, at('failed')));
  if (s.ready != null) errs.push(...validateNonnegativeField(s.ready, at('ready')));
  if (s.terminating != null) errs.push(...validateNonnegativeField(s.terminating, at('terminating')));
  if (s.uncountedTerminatedPods != null) {
    const p = at('uncountedTerminatedPods');
    const seen = new Set<string>();
    for (const list of ['succeeded', 'failed'] as const) {
      (s.uncountedTerminatedPods[list] ?? []).forEach((uid, i) => {
        const q = index(child(p, list), i);
        if (uid === '') errs.push(fieldError.invalid(q, uid, 'must not be empty'));
        else if (seen.has(uid)) errs.push(fieldError.duplicate(q, uid));
        else seen.add(uid);
      });
    }
  }
  const conditions = at('conditions');
  const complete = isComplete(job);
  if (opts.rejectCompleteJobWithFailedCondition && complete && isFailed(job)) {
    errs.push(fieldError.invalid(conditions, undefined, 'cannot set Complete=True and Failed=true conditions'));
  }
  if (opts.rejectCompleteJobWithFailureTargetCondition && complete && isFailureTarget(job)) {
    errs.push(fieldError.invalid(conditions, undefined, 'cannot set Complete=True and FailureTarget=true conditions'));
  }
  if (opts.rejectNotCompleteJobWithCompletionTime && s.completionTime != null && !complete) {
    errs.push(fieldError.invalid(at('completionTime'), goTime(s.completionTime), 'cannot set completionTime when there is no Complete=True condition'));
  }
  if (opts.rejectCompleteJobWithoutCompletionTime && s.completionTime == null && complete) {
    errs.push(fieldError.required(at('completionTime'), 'completionTime is required for Complete jobs'));
  }
  if (opts.rejectCompletionTimeBeforeStartTime && s.startTime != null && s.completionTime != null && Date.parse(s.completionTime) < Date.parse(s.startTime)) {
    errs.push(fieldError.invalid(at('completionTime'), goTime(s.completionTime), 'completionTime cannot be set before startTime'));
  }
  if (opts.rejectFailedJobWithoutFailureTarget && isFailed(job) && !isFailureTarget(job)) {
    errs.push(fieldError.invalid(conditions, undefined, 'cannot set Failed=True condition without the FailureTarget=true condition'));
  }
  if (opts.rejectCompleteJobWithoutSuccessCriteriaMet && complete && !isSuccessCriteriaMet(job)) {
    errs.push(fieldError.invalid(conditions, undefined, 'cannot set Complete=True condition without the SuccessCriteriaMet=true condition'));
  }
  const finished = isFinished(job);
  if (opts.rejectFinishedJobWithActivePods && active > 0 && finished)
    errs.push(fieldError.invalid(at('active'), active, 'active>0 is invalid for finished job'));
  if (opts.rejectFinishedJobWithoutStartTime && s.startTime == null && finished)
    errs.push(fieldError.required(at('startTime'), 'startTime is required for finished job'));
  const uncounted = s.uncountedTerminatedPods;
  if (
    opts.rejectFinishedJobWithUncountedTerminatedPods &&
    finished &&
    uncounted != null &&
    (uncounted.failed ?? []).length + (uncounted.succeeded ?? []).length > 0
  ) {
    errs.push(fieldError.invalid(at('uncountedTerminatedPods'), uncounted, 'uncountedTerminatedPods needs to be empty for finished job'));
  }
  const completions = job.spec?.completions;
  if (opts.rejectInvalidCompletedIndexes && completions != null) {
    const r = validateIndexesFormat(s.completedIndexes ?? '', completions);
    if ('error' in r) errs.push(fieldError.invalid(at('completedIndexes'), s.completedIndexes ?? '', `error parsing completedIndexes: ${r.error}`));
  }
  if (opts.rejectInvalidFailedIndexes && completions != null && job.spec?.backoffLimitPerIndex != null && s.failedIndexes != null) {
    const r = validateIndexesFormat(s.failedIndexes, completions);
    if ('error' in r) errs.push(fieldError.invalid(at('failedIndexes'), s.failedIndexes, `error parsing failedIndexes: ${r.error}`));
  }
  const indexed = job.spec?.completionMode === 'Indexed';
  if (opts.rejectCompletedIndexesForNonIndexedJob && (s.completedIndexes ?? '') !== '' && !indexed) {
    errs.push(fieldError.invalid(at('completedIndexes'), s.completedIndexes, 'cannot set non-empty completedIndexes when non-indexed completion mode'));
  }
  if (opts.rejectFailedIndexesForNoBackoffLimitPerIndex && job.spec?.backoffLimitPerIndex == null && s.failedIndexes != null) {
    errs.push(fieldError.invalid(at('failedIndexes'), s.failedIndexes, 'cannot set non-null failedIndexes when backoffLimitPerIndex is null'));
  }
  if (opts.rejectFailedIndexesOverlappingCompleted && completions != null && s.failedIndexes != null) {
    const overlap = failedOverlapsCompleted(s.completedIndexes ?? '', s.failedIndexes, completions);
    if (overlap) errs.push(fieldError.invalid(at('failedIndexes'), s.failedIndexes, overlap));
  }
  if (opts.rejectFinishedJobWithTerminatingPods && s.terminating != null && s.terminating > 0 && finished) {
    errs.push(fieldError.invalid(at('terminating'), s.terminating, 'terminating>0 is invalid for finished job'));
  }
  if (opts.rejectMoreReadyThanActivePods && s.ready != null && s.ready > active) {
    errs.push(fieldError.invalid(at('ready'), s.ready, 'cannot set more ready pods than active'));
  }
  const met = isSuccessCriteriaMet(job);
  if (met && isFailed(job)) errs.push(fieldError.invalid(conditions, undefined, 'cannot set SuccessCriteriaMet=True and Failed=true conditions'));
  if (met && isFailureTarget(job)) errs.push(fieldError.invalid(conditions, undefined, 'cannot set SuccessCriteriaMet=True and FailureTarget=true conditions'));
  if (job.spec?.successPolicy != null && !met && complete) {
    errs.push(fieldError.invalid(conditions, undefined, 'cannot set Complete=True for Job with SuccessPolicy unless SuccessCriteriaMet=True'));
  }
  return errs;
}

/** `ValidateJobStatusUpdate` (ObjectMeta is the engine's). */
export function validateJobStatusUpdate(job: Readonly<Job>, old: Readonly<Job>): FieldError[] {
  const opts = statusOptions(job, old);
  const errs = jobStatusErrors(job, opts);
  const conditions = 'status.conditions';
  for (const type of ['Failed', 'Complete', 'FailureTarget']) {
    if (conditionTrue(old.status?.conditions, type) && !conditionTrue(job.status?.conditions, type)) {
      errs.push(fieldError.invalid(conditions, undefined, `cannot disable the terminal ${type}=True condition`));
    }
  }
  const s = job.status ?? {};
  const o = old.status ?? {};
  if ((s.failed ?? 0) < (o.failed ?? 0)) errs.push(fieldError.invalid('status.failed', s.failed ?? 0, 'cannot decrease the failed counter'));
  if (opts.rejectDecreasingSucceededCounter && (s.succeeded ?? 0) < (o.succeeded ?? 0)) {
    errs.push(fieldError.invalid('status.succeeded', s.succeeded ?? 0, 'cannot decrease the succeeded counter'));
  }
  if (s.completionTime != null && o.completionTime != null && !sameTime(s.completionTime, o.completionTime)) {
    errs.push(fieldError.invalid('status.completionTime', goTime(s.completionTime), 'completionTime cannot be mutated'));
  }
  if (opts.rejectStartTimeUpdateForUnsuspendedJob && o.startTime != null && !sameTime(o.startTime, s.startTime) && job.spec?.suspend !== true) {
    errs.push(fieldError.required('status.startTime', 'startTime cannot be removed for unsuspended job'));
  }
  if (isSuccessCriteriaMet(old) && !isSuccessCriteriaMet(job)) {
    errs.push(fieldError.invalid(conditions, undefined, 'cannot disable the SuccessCriteriaMet=True condition'));
  }
  if (isComplete(old) && !isSuccessCriteriaMet(old) && isSuccessCriteriaMet(job)) {
    errs.push(fieldError.invalid(conditions, undefined, 'cannot set SuccessCriteriaMet=True for Job already has Complete=true conditions'));
  }
  return errs;
}
