/**
 * The batch/v1 defaults of Kubernetes v1.36 (`pkg/apis/batch/v1/defaults.go`: `SetDefaults_Job`,
 * `SetDefaults_CronJob`, `SetDefaults_PodFailurePolicyOnPodConditionsPattern`, and the pod template
 * defaults `SetObjectDefaults_Job` / `SetObjectDefaults_CronJob` apply to the embedded PodSpec), and
 * the selector the Job strategy generates (`pkg/registry/batch/job/strategy.go` `generateSelector`).
 * Idempotent: they run on every write, as decoding does.
 */
import type { CronJob, Job, JobSpec, PodFailurePolicy } from '../../types/batch-v1.js';
import { applyPodTemplateDefaults } from '../../shared/pod-spec/defaults.js';

/** `batch.LegacyJobNameLabel`. */
export const LEGACY_JOB_NAME_LABEL = 'job-name';
/** `batch.JobNameLabel`. */
export const JOB_NAME_LABEL = 'batch.kubernetes.io/job-name';
/** `batch.LegacyControllerUidLabel`. */
export const LEGACY_CONTROLLER_UID_LABEL = 'controller-uid';
/** `batch.ControllerUidLabel`. */
export const CONTROLLER_UID_LABEL = 'batch.kubernetes.io/controller-uid';

const INT32_MAX = 2147483647;

/** `SetDefaults_PodFailurePolicyOnPodConditionsPattern`: an empty status means `True`. */
function defaultPodFailurePolicy(policy: PodFailurePolicy | undefined): void {
  for (const rule of policy?.rules ?? []) {
    for (const pattern of rule.onPodConditions ?? []) if (!pattern.status) pattern.status = 'True';
  }
}

/** The defaults every JobSpec gets, a Job's or a CronJob's job template's (its pod template). */
function defaultEmbedded(spec: JobSpec): void {
  defaultPodFailurePolicy(spec.podFailurePolicy);
  spec.template ??= {};
  applyPodTemplateDefaults(spec.template);
}

/** `SetObjectDefaults_Job`. Throws `QuantityDecodeError` for a malformed quantity. */
export function applyJobDefaults(job: Job): void {
  const spec = (job.spec ??= { template: {} });
  // A non-parallel job may leave both unset: both become 1.
  if (spec.completions == null && spec.parallelism == null) {
    spec.completions = 1;
    spec.parallelism = 1;
  }
  spec.parallelism ??= 1;
  spec.backoffLimit ??= spec.backoffLimitPerIndex != null ? INT32_MAX : 6;
  const templateLabels = spec.template?.metadata?.labels;
  const meta = (job.metadata ??= {});
  if (templateLabels && Object.keys(templateLabels).length > 0 && Object.keys(meta.labels ?? {}).length === 0) meta.labels = { ...templateLabels };
  spec.completionMode ??= 'NonIndexed';
  spec.suspend ??= false;
  spec.podReplacementPolicy ??= spec.podFailurePolicy ? 'Failed' : 'TerminatingOrFailed';
  spec.manualSelector ??= false;
  defaultEmbedded(spec);
}

/** `SetObjectDefaults_CronJob`: the CronJob's own defaults and its job template's pod template. */
export function applyCronJobDefaults(cronJob: CronJob): void {
  const spec = (cronJob.spec ??= { schedule: '', jobTemplate: {} });
  if (!spec.concurrencyPolicy) spec.concurrencyPolicy = 'Allow';
  spec.suspend ??= false;
  spec.successfulJobsHistoryLimit ??= 3;
  spec.failedJobsHistoryLimit ??= 1;
  spec.jobTemplate ??= {};
  // The job template's JobSpec gets no Job defaults (completions, backoffLimit, ...): those are
  // `SetDefaults_Job`'s, which only a Job gets.
  if (spec.jobTemplate.spec) defaultEmbedded(spec.jobTemplate.spec);
}

/**
 * `generateSelector`: unless the selector is manual, the template gets the job-name and
 * controller-uid labels (legacy and `batch.kubernetes.io/` ones; a label already there is kept,
 * and validation reports a wrong one) and the selector matches `batch.kubernetes.io/controller-uid`.
 */
export function generateSelector(job: Job): void {
  const spec = job.spec!;
  if (spec.manualSelector) return;
  const template = (spec.template ??= {});
  const labels = ((template.metadata ??= {}).labels ??= {});
  const name = job.metadata?.name ?? '';
  const uid = job.metadata?.uid ?? '';
  for (const key of [LEGACY_JOB_NAME_LABEL, JOB_NAME_LABEL]) if (!Object.hasOwn(labels, key)) labels[key] = name;
  for (const key of [LEGACY_CONTROLLER_UID_LABEL, CONTROLLER_UID_LABEL]) if (!Object.hasOwn(labels, key)) labels[key] = uid;
  const selector = (spec.selector ??= {});
  const matchLabels = (selector.matchLabels ??= {});
  if (!Object.hasOwn(matchLabels, CONTROLLER_UID_LABEL)) matchLabels[CONTROLLER_UID_LABEL] = uid;
}
