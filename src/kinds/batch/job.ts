/** Job (batch/v1). */
import { badRequest } from '../../machinery/errors.js';
import { defineKind, type KindContext } from '../../schema/define-kind.js';
import { isDNS1123Label } from '../../schema/validation/names.js';
import { jsonEqual } from '../../util/json-equal.js';
import { Job as JobSchema } from '../types/batch-v1.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { QuantityDecodeError } from '../shared/resource-lists.js';
import { podCreateWarnings } from '../shared/pod-spec/warnings.js';
import { applyJobDefaults, generateSelector } from './job/defaults.js';
import { createOptions, updateOptions, validateJob, validateJobSpecUpdate } from './job/validation.js';
import { validateJobStatusUpdate } from './job/status.js';
import { ageOf, containerCells, DESCRIPTIONS, formatLabelSelector, jobCompletions, jobDuration, jobStatus } from './printers.js';
import type { JobSpec } from '../types/batch-v1.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A Job object. */
export type Job = JobSchema;

/** Decode-time defaults; a malformed quantity fails the request as Kubernetes' decoder does (400). */
function defaultJob(job: Job): void {
  try {
    applyJobDefaults(job);
  } catch (e) {
    if (e instanceof QuantityDecodeError) throw badRequest(`Job in version "v1" cannot be handled as a Job: ${e.message}`);
    throw e;
  }
}

/** `WarningsForJobSpec`: the Indexed soft limits and the pod template's warnings, at `path`. */
export function jobSpecWarnings(spec: JobSpec | undefined, path: string, reservedDomain: string): string[] {
  if (!spec) return [];
  const warnings: string[] = [];
  if (spec.completionMode === 'Indexed' && (spec.completions ?? 0) > 100000 && (spec.parallelism ?? 0) > 10000) {
    warnings.push(
      `${path}: In Indexed Jobs with a number of completions higher than 10^5 and a parallelism higher than 10^4, Kubernetes might not be able to track completedIndexes when a big number of indexes fail`,
    );
  }
  const template = spec.template;
  if (template?.spec) {
    const pod = { metadata: template.metadata ?? {}, spec: template.spec };
    for (const w of podCreateWarnings(pod, reservedDomain)) {
      warnings.push(w.replace(/^spec\./, `${path}.template.spec.`).replace(/^metadata\./, `${path}.template.metadata.`));
    }
  }
  return warnings;
}

/** The warning of a create whose name is not a DNS label (Job and CronJob strategies). */
export function nameWarnings(name: string | undefined): string[] {
  const msgs = isDNS1123Label(name ?? '');
  return msgs.length && name
    ? [`metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [${msgs.join(' ')}]`]
    : [];
}

/**
 * Job: the v1 defaults, the generated selector and labels, the validation, update rules and status
 * rules of Kubernetes v1.36, `/status`. No controller runs Jobs.
 */
export const JobKind = defineKind<Job>({
  group: 'batch',
  kind: 'Job',
  plural: 'jobs',
  categories: ['all'],
  scope: 'Namespaced',
  // Generation 1 on create, one more for each change of the spec (pkg/registry/batch/job/strategy.go).
  generation: specGeneration(JobSchema),
  versions: [lazyVersion('v1', JobSchema, { storage: true })],
  statusSubresource: true,
  // The rules check required fields in code, with Kubernetes' own paths and messages.
  schemaRequired: false,
  // pkg/apis/batch/v1/conversion.go: the Job's field label conversion.
  selectableFields: { 'status.successful': (j) => String(j.status?.succeeded ?? 0) },
  unsupportedFieldLabelMessage: (field) => `field label ${JSON.stringify(field)} not supported for batchv1.Job`,
  printerColumns: [
    { name: 'Status', type: 'string', description: 'Status of the job.', value: (j) => jobStatus(j) },
    {
      name: 'Completions',
      type: 'string',
      description:
        'The number of pods which reached phase Succeeded. The value increases monotonically for a given spec. However, it may decrease in reaction to scale down of elastic indexed jobs.',
      value: (j) => jobCompletions(j),
    },
    { name: 'Duration', type: 'string', description: 'Time required to complete the job.', value: (j, now) => jobDuration(j, now) },
    { name: 'Age', type: 'string', description: DESCRIPTIONS.age, value: (j, now) => ageOf(j.metadata?.creationTimestamp, now) },
    {
      name: 'Containers',
      type: 'string',
      priority: 1,
      description: DESCRIPTIONS.containers,
      value: (j) => containerCells(j.spec?.template?.spec?.containers).names,
    },
    { name: 'Images', type: 'string', priority: 1, description: DESCRIPTIONS.images, value: (j) => containerCells(j.spec?.template?.spec?.containers).images },
    { name: 'Selector', type: 'string', priority: 1, description: DESCRIPTIONS.jobSelector, value: (j) => formatLabelSelector(j.spec?.selector) },
  ],
  strategy: {
    prepareForCreate(job) {
      job.status = {};
      const spec = job.spec!;
      const meta = job.metadata!;
      // SetDefaults_Job gave the Job its template's labels (the same Go map, so the generated
      // labels reach both); a Job with labels of its own keeps them.
      const shared = meta.labels !== undefined && jsonEqual(meta.labels, spec.template?.metadata?.labels);
      generateSelector(job);
      if (shared) meta.labels = { ...spec.template!.metadata!.labels };
    },
    defaults(job) {
      defaultJob(job);
    },
    validate(job, ctx) {
      // On update the rules run in validateUpdate, with the options the stored job gives.
      if (ctx.operation !== 'create') return [];
      return validateJob(job, createOptions(ctx.reservedDomain));
    },
    validateUpdate(job, old, ctx) {
      if (ctx.subresource === 'status') return validateJobStatusUpdate(job, old);
      const opts = updateOptions(old, ctx.reservedDomain);
      return [...validateJob(job, opts), ...validateJobSpecUpdate(job, old, opts)];
    },
    warnings(job, old, ctx: KindContext) {
      if (ctx.subresource === 'status') return [];
      if (!old) return [...nameWarnings(job.metadata?.name), ...jobSpecWarnings(job.spec, 'spec', ctx.reservedDomain)];
      return job.metadata?.generation !== old.metadata?.generation ? jobSpecWarnings(job.spec, 'spec', ctx.reservedDomain) : [];
    },
  },
});
