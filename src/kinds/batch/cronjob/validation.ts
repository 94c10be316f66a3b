/**
 * CronJob validation of Kubernetes v1.36 (`pkg/apis/batch/validation/validation.go`:
 * `ValidateCronJobCreate`, `ValidateCronJobUpdate`, `validateCronJobSpec`, `validateScheduleFormat`,
 * `validateTimeZone`, `validateConcurrencyPolicy`), in Kubernetes' order. ObjectMeta is checked by the engine.
 */
import { child, fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { validateNonnegativeField } from '../../../schema/validation/object-meta.js';
import type { CronJob, CronJobSpec } from '../../types/batch-v1.js';
import { validateJobTemplateSpec } from '../job/validation.js';
import { parseStandardError, type ScheduleError } from './schedule.js';
import { loadLocationError } from './time-zone.js';

/** A schedule that makes robfig/cron panic; Kubernetes answers the request with a 500. */
export class SchedulePanic extends Error {}

/** `validateScheduleFormat`. */
function scheduleErrors(schedule: string, allowTZ: boolean, timeZone: string | undefined | null, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const err: ScheduleError | undefined = parseStandardError(schedule);
  if (err?.panic) throw new SchedulePanic(err.message);
  if (err) errs.push(fieldError.invalid(path, schedule, err.message));
  const hasTZ = schedule.includes('TZ');
  if (allowTZ && hasTZ && timeZone != null) errs.push(fieldError.invalid(path, schedule, 'cannot use both timeZone field and TZ or CRON_TZ in schedule'));
  else if (!allowTZ && hasTZ) errs.push(fieldError.invalid(path, schedule, 'cannot use TZ or CRON_TZ in schedule, use timeZone field instead'));
  return errs;
}

/** `validTimeZoneCharacters`: one `/`-separated part of a zone name. */
const ZONE_PART = /^[A-Za-z.\-_0-9+]{1,14}$/;

/** `validateTimeZone`. */
function timeZoneErrors(timeZone: string | undefined | null, path: string): FieldError[] {
  if (timeZone == null) return [];
  if (timeZone.length === 0) return [fieldError.invalid(path, timeZone, 'timeZone must be nil or non-empty string')];
  for (const part of timeZone.split('/')) {
    if (part === '.' || part === '..' || part.startsWith('-') || !ZONE_PART.test(part)) {
      return [fieldError.invalid(path, timeZone, `unknown time zone ${timeZone}`)];
    }
  }
  const errs: FieldError[] = [];
  if (timeZone.toLowerCase() === 'local') {
    errs.push(fieldError.invalid(path, timeZone, 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'));
  }
  const err = loadLocationError(timeZone);
  if (err) errs.push(fieldError.invalid(path, timeZone, err));
  return errs;
}

/** `validateCronJobSpec`; `old` on update. */
export function validateCronJobSpec(spec: CronJobSpec, old: Readonly<CronJobSpec> | undefined, reservedDomain: string, path = 'spec'): FieldError[] {
  const errs: FieldError[] = [];
  const at = (f: string) => child(path, f);
  const schedule = spec.schedule ?? '';
  if (schedule.length === 0) errs.push(fieldError.required(at('schedule')));
  else errs.push(...scheduleErrors(schedule, old ? (old.schedule ?? '').includes('TZ') : false, spec.timeZone, at('schedule')));
  if (spec.startingDeadlineSeconds != null) errs.push(...validateNonnegativeField(spec.startingDeadlineSeconds, at('startingDeadlineSeconds')));
  if (!old || (old.timeZone ?? null) !== (spec.timeZone ?? null)) errs.push(...timeZoneErrors(spec.timeZone, at('timeZone')));
  const policy = spec.concurrencyPolicy ?? '';
  if (policy === '') errs.push(fieldError.required(at('concurrencyPolicy')));
  else if (!['Allow', 'Forbid', 'Replace'].includes(policy))
    errs.push(fieldError.notSupported(at('concurrencyPolicy'), policy, ['Allow', 'Forbid', 'Replace']));
  errs.push(...validateJobTemplateSpec(spec.jobTemplate ?? {}, at('jobTemplate'), reservedDomain));
  if (spec.successfulJobsHistoryLimit != null) errs.push(...validateNonnegativeField(spec.successfulJobsHistoryLimit, at('successfulJobsHistoryLimit')));
  if (spec.failedJobsHistoryLimit != null) errs.push(...validateNonnegativeField(spec.failedJobsHistoryLimit, at('failedJobsHistoryLimit')));
  return errs;
}

/** The longest CronJob name: its Jobs are named `<name>-<11 characters>` and must be DNS-1035 labels. */
export const MAX_CRONJOB_NAME_LENGTH = 52;

/** `ValidateCronJobCreate` (without ObjectMeta). */
export function validateCronJobCreate(cronJob: CronJob, reservedDomain: string): FieldError[] {
  const errs = validateCronJobSpec(cronJob.spec ?? ({ jobTemplate: {}, schedule: '' } as CronJobSpec), undefined, reservedDomain);
  const name = cronJob.metadata?.name ?? '';
  if (name.length > MAX_CRONJOB_NAME_LENGTH) errs.push(fieldError.invalid('metadata.name', name, `must be no more than ${MAX_CRONJOB_NAME_LENGTH} characters`));
  return errs;
}

/** `ValidateCronJobUpdate` (without ObjectMeta; the name limit does not apply to updates). */
export function validateCronJobUpdate(cronJob: CronJob, old: Readonly<CronJob>, reservedDomain: string): FieldError[] {
  const spec = cronJob.spec ?? ({ jobTemplate: {}, schedule: '' } as CronJobSpec);
  return validateCronJobSpec(spec, old.spec ?? ({ jobTemplate: {}, schedule: '' } as CronJobSpec), reservedDomain);
}
