/** CronJob (batch/v1). */
import { badRequest, internalError } from '../../machinery/errors.js';
import { defineKind } from '../../schema/define-kind.js';
import type { FieldError } from '../../machinery/field-errors.js';
import { CronJob as CronJobSchema } from '../types/batch-v1.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { QuantityDecodeError } from '../shared/resource-lists.js';
import { applyCronJobDefaults } from './job/defaults.js';
import { SchedulePanic, validateCronJobCreate, validateCronJobUpdate } from './cronjob/validation.js';
import { jobSpecWarnings, nameWarnings } from './job.js';
import { boolPtr, containerCells, DESCRIPTIONS, ageOf, formatLabelSelector, lastSchedule } from './printers.js';
import { lazyVersion } from '../shared/lazy-version.js';

const TIME_ZONE_DESCRIPTION =
  'The time zone name for the given schedule, see https://en.wikipedia.org/wiki/List_of_tz_database_time_zones. If not specified, this will default to the time zone of the kube-controller-manager process. The set of valid time zone names and the time zone offset is loaded from the system-wide time zone database by the API server during CronJob validation and the controller manager during execution. If no system-wide time zone database can be found a bundled version of the database is used instead. If the time zone name becomes invalid during the lifetime of a CronJob or due to a change in host configuration, the controller will stop creating new new Jobs and will create a system event with the reason UnknownTimeZone. More information can be found in https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/#time-zones';

/** A CronJob object. */
export type CronJob = CronJobSchema;

function defaultCronJob(cronJob: CronJob): void {
  try {
    applyCronJobDefaults(cronJob);
  } catch (e) {
    if (e instanceof QuantityDecodeError) throw badRequest(`CronJob in version "v1" cannot be handled as a CronJob: ${e.message}`);
    throw e;
  }
}

/** Runs rules that may hit a robfig/cron panic, which Kubernetes answers with a 500. */
function guarded(rules: () => FieldError[]): FieldError[] {
  try {
    return rules();
  } catch (e) {
    if (e instanceof SchedulePanic) throw internalError(e);
    throw e;
  }
}

/**
 * CronJob: the v1 defaults (the job template's pod template too), the schedule, time zone and job
 * template rules of Kubernetes v1.36, `/status`. No controller creates Jobs from it.
 */
export const CronJobKind = defineKind<CronJob>({
  group: 'batch',
  kind: 'CronJob',
  plural: 'cronjobs',
  shortNames: ['cj'],
  categories: ['all'],
  scope: 'Namespaced',
  // Generation 1 on create, one more for each change of the spec (pkg/registry/batch/cronjob/strategy.go).
  generation: specGeneration(CronJobSchema),
  versions: [lazyVersion('v1', CronJobSchema, { storage: true })],
  statusSubresource: true,
  schemaRequired: false,
  printerColumns: [
    {
      name: 'Schedule',
      type: 'string',
      description: 'The schedule in Cron format, see https://en.wikipedia.org/wiki/Cron.',
      value: (c) => c.spec?.schedule ?? '',
    },
    { name: 'Timezone', type: 'string', description: TIME_ZONE_DESCRIPTION, value: (c) => c.spec?.timeZone ?? '<none>' },
    {
      name: 'Suspend',
      type: 'boolean',
      description: 'This flag tells the controller to suspend subsequent executions, it does not apply to already started executions.  Defaults to false.',
      value: (c) => boolPtr(c.spec?.suspend),
    },
    { name: 'Active', type: 'integer', description: 'A list of pointers to currently running jobs.', value: (c) => (c.status?.active ?? []).length },
    {
      name: 'Last Schedule',
      type: 'string',
      description: 'Information when was the last time the job was successfully scheduled.',
      value: (c, now) => lastSchedule(c, now),
    },
    { name: 'Age', type: 'string', description: DESCRIPTIONS.age, value: (c, now) => ageOf(c.metadata?.creationTimestamp, now) },
    {
      name: 'Containers',
      type: 'string',
      priority: 1,
      description: DESCRIPTIONS.containers,
      value: (c) => containerCells(c.spec?.jobTemplate?.spec?.template?.spec?.containers).names,
    },
    {
      name: 'Images',
      type: 'string',
      priority: 1,
      description: DESCRIPTIONS.images,
      value: (c) => containerCells(c.spec?.jobTemplate?.spec?.template?.spec?.containers).images,
    },
    {
      name: 'Selector',
      type: 'string',
      priority: 1,
      description: DESCRIPTIONS.jobSelector,
      value: (c) => formatLabelSelector(c.spec?.jobTemplate?.spec?.selector),
    },
  ],
  strategy: {
    prepareForCreate(cronJob) {
      cronJob.status = {};
    },
    defaults(cronJob) {
      defaultCronJob(cronJob);
    },
    validate(cronJob, ctx) {
      if (ctx.operation !== 'create') return [];
      return guarded(() => validateCronJobCreate(cronJob, ctx.reservedDomain));
    },
    validateUpdate(cronJob, old, ctx) {
      // pkg/registry/batch/cronjob/strategy.go: the status strategy validates nothing.
      if (ctx.subresource === 'status') return [];
      return guarded(() => validateCronJobUpdate(cronJob, old, ctx.reservedDomain));
    },
    warnings(cronJob, old, ctx) {
      if (ctx.subresource === 'status') return [];
      const path = 'spec.jobTemplate.spec';
      if (!old) return [...nameWarnings(cronJob.metadata?.name), ...jobSpecWarnings(cronJob.spec?.jobTemplate?.spec, path, ctx.reservedDomain)];
      const warnings =
        cronJob.metadata?.generation !== old.metadata?.generation ? jobSpecWarnings(cronJob.spec?.jobTemplate?.spec, path, ctx.reservedDomain) : [];
      if ((cronJob.spec?.schedule ?? '').includes('TZ')) {
        // Kubernetes names the field `spec.spec.schedule` in this warning.
        warnings.push(
          'cannot use TZ or CRON_TZ in spec.spec.schedule, use timeZone instead, see https://kubernetes.io/docs/concepts/workloads/controllers/cron-jobs/ for more details',
        );
      }
      return warnings;
    },
  },
});
