/** The batch/v1 group's kinds. */
import type { KindDefinition } from '../../schema/define-kind.js';
import { CronJobKind } from './cronjob.js';
import { JobKind } from './job.js';

export { CronJobKind, type CronJob } from './cronjob.js';
export { JobKind, type Job } from './job.js';

/** The kinds of the batch group, in the order the registry serves them. */
export const batchKinds: readonly KindDefinition[] = [JobKind, CronJobKind];
