import { describe, expect, it } from 'vitest';
import { CronJobKind, type CronJob } from '../../../src/kinds/batch/index.js';
import { parseDurationError, parseStandardError } from '../../../src/kinds/batch/cronjob/schedule.js';
import { loadLocationError } from '../../../src/kinds/batch/cronjob/time-zone.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const cronJobs = () => cluster.client.resource(CronJobKind);

/** A CronJob `hello` every five minutes, changed by `patch`. */
function hello(patch: (c: CronJob) => void = () => {}, name = 'hello'): CronJob {
  const c: CronJob = {
    metadata: { name },
    spec: {
      schedule: '*/5 * * * *',
      jobTemplate: { spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox:1.36' }] } } } },
    },
  };
  patch(c);
  return c;
}

async function rejected(c: CronJob): Promise<string[]> {
  const status = await statusOf(() => cronJobs().create(c));
  expect(status.code).toBe(422);
  return (status.details?.causes ?? []).map((x) => `${x.field}: ${x.message}`);
}

describe('CronJob defaults', () => {
  it('fills concurrencyPolicy, suspend, the history limits and the pod template defaults, not the Job defaults', async () => {
    const created = await cronJobs().create(hello());
    expect(created.metadata!.generation).toBe(1);
    expect(created.spec).toEqual({
      schedule: '*/5 * * * *',
      jobTemplate: {
        spec: {
          template: {
            spec: {
              restartPolicy: 'OnFailure',
              containers: [
                {
                  name: 'hello',
                  image: 'busybox:1.36',
                  imagePullPolicy: 'IfNotPresent',
                  terminationMessagePath: '/dev/termination-log',
                  terminationMessagePolicy: 'File',
                  resources: {},
                },
              ],
              dnsPolicy: 'ClusterFirst',
              securityContext: {},
              terminationGracePeriodSeconds: 30,
              schedulerName: 'default-scheduler',
            },
          },
        },
      },
      concurrencyPolicy: 'Allow',
      suspend: false,
      successfulJobsHistoryLimit: 3,
      failedJobsHistoryLimit: 1,
    });
    expect(created.status).toEqual({});
  });
});

describe('CronJob schedule', () => {
  it.each([['@hourly'], ['@every 1h30m'], ['0 0 1 jan,JUL MON-fri'], ['*/15 9-17 ? * 1-5'], ['5/10 * * * *'], ['0 0 29 2 *']])(
    'accepts %s',
    async (schedule) => {
      const created = await cronJobs().create(hello((c) => (c.spec.schedule = schedule)));
      expect(created.spec.schedule).toBe(schedule);
    },
  );

  it.each([
    ['61 * * * *', 'end of range (61) above maximum (59): 61'],
    ['* 5-2 * * *', 'beginning of range (5) beyond end of range (2): 5-2'],
    ['* * 0 * *', 'beginning of range (0) below minimum (1): 0'],
    ['*/0 * * * *', 'step of range should be a positive number: */0'],
    ['1-2-3 * * * *', 'too many hyphens: 1-2-3'],
    ['1/2/3 * * * *', 'too many slashes: 1/2/3'],
    ['x * * * *', 'failed to parse int from x: strconv.Atoi: parsing "x": invalid syntax'],
    ['* * * * * *', 'expected exactly 5 fields, found 6: [* * * * * *]'],
    ['* * * *', 'expected exactly 5 fields, found 4: [* * * *]'],
    ['@fortnightly', 'unrecognized descriptor: @fortnightly'],
    ['@every 5x', 'failed to parse duration @every 5x: time: unknown unit "x" in duration "5x"'],
    ['@every 5', 'failed to parse duration @every 5: time: missing unit in duration "5"'],
  ])('refuses %s with the parser message', async (schedule, message) => {
    expect(await rejected(hello((c) => (c.spec.schedule = schedule)))).toEqual([`spec.schedule: Invalid value: ${JSON.stringify(schedule)}: ${message}`]);
  });

  it('requires a schedule', async () => {
    expect(await rejected(hello((c) => (c.spec.schedule = '')))).toEqual(['spec.schedule: Required value']);
  });

  it('refuses TZ= and CRON_TZ= in the schedule, after the parser has read the zone', async () => {
    expect(await rejected(hello((c) => (c.spec.schedule = 'CRON_TZ=Europe/Paris 0 * * * *')))).toEqual([
      'spec.schedule: Invalid value: "CRON_TZ=Europe/Paris 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ]);
    expect(await rejected(hello((c) => (c.spec.schedule = 'TZ=Mars/Olympus 0 * * * *')))).toEqual([
      'spec.schedule: Invalid value: "TZ=Mars/Olympus 0 * * * *": provided bad location Mars/Olympus: unknown time zone Mars/Olympus',
      'spec.schedule: Invalid value: "TZ=Mars/Olympus 0 * * * *": cannot use TZ or CRON_TZ in schedule, use timeZone field instead',
    ]);
  });

  it('answers a TZ= prefix without a space with the 500 of the parser panic', async () => {
    const s = await statusOf(() => cronJobs().create(hello((c) => (c.spec.schedule = 'TZ=UTC'))));
    expect(s.code).toBe(500);
    expect((await cronJobs().list()).items).toEqual([]);
  });

  it('parses Go durations as time.ParseDuration does', () => {
    expect(parseDurationError('1h2m3.5s')).toBeUndefined();
    expect(parseDurationError('-1.5h')).toBeUndefined();
    expect(parseDurationError('0')).toBeUndefined();
    expect(parseDurationError('')).toBe('time: invalid duration ""');
    expect(parseDurationError('.s')).toBe('time: invalid duration ".s"');
    expect(parseDurationError('3000000h')).toBe('time: invalid duration "3000000h"');
    expect(parseStandardError('@every 10µs')).toBeUndefined();
  });
});

describe('CronJob timeZone', () => {
  it.each([['Europe/Berlin'], ['America/Argentina/Buenos_Aires'], ['Etc/GMT+5'], ['UTC'], ['US/Eastern']])('accepts %s', async (timeZone) => {
    const created = await cronJobs().create(hello((c) => (c.spec.timeZone = timeZone)));
    expect(created.spec.timeZone).toBe(timeZone);
  });

  it.each([
    ['', 'timeZone must be nil or non-empty string'],
    ['Mars/Olympus', 'unknown time zone Mars/Olympus'],
    ['europe/berlin', 'unknown time zone europe/berlin'],
    ['America/Very_Long_City_Name', 'unknown time zone America/Very_Long_City_Name'],
    ['../etc/passwd', 'unknown time zone ../etc/passwd'],
    ['Local', 'timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones'],
  ])('refuses %j', async (timeZone, message) => {
    expect(await rejected(hello((c) => (c.spec.timeZone = timeZone)))).toEqual([`spec.timeZone: Invalid value: ${JSON.stringify(timeZone)}: ${message}`]);
  });

  it('refuses a lower-case local both ways', async () => {
    expect(await rejected(hello((c) => (c.spec.timeZone = 'local')))).toEqual([
      'spec.timeZone: Invalid value: "local": timeZone must be an explicit time zone as defined in https://www.iana.org/time-zones',
      'spec.timeZone: Invalid value: "local": unknown time zone local',
    ]);
    expect(loadLocationError('Local')).toBeUndefined();
  });
});

describe('CronJob validation', () => {
  it('checks the policy, deadlines, history limits and the job template', async () => {
    const lines = await rejected(
      hello((c) => {
        c.spec.concurrencyPolicy = 'Sometimes';
        c.spec.startingDeadlineSeconds = -1;
        c.spec.successfulJobsHistoryLimit = -2;
        c.spec.failedJobsHistoryLimit = -3;
        c.spec.jobTemplate.spec!.selector = { matchLabels: { a: 'b' } };
        c.spec.jobTemplate.spec!.manualSelector = true;
        c.spec.jobTemplate.spec!.template.spec!.restartPolicy = 'Always';
      }),
    );
    expect(lines).toEqual([
      'spec.startingDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.concurrencyPolicy: Unsupported value: "Sometimes": supported values: "Allow", "Forbid", "Replace"',
      'spec.jobTemplate.spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
      'spec.jobTemplate.spec.selector: Invalid value: {"matchLabels":{"a":"b"}}: `selector` will be auto-generated',
      'spec.jobTemplate.spec.manualSelector: Unsupported value: true: supported values: "nil", "false"',
      'spec.successfulJobsHistoryLimit: Invalid value: -2: must be greater than or equal to 0',
      'spec.failedJobsHistoryLimit: Invalid value: -3: must be greater than or equal to 0',
    ]);
  });

  it('limits a new CronJob name to 52 characters, but not an update', async () => {
    const name = 'c'.repeat(53);
    expect(await rejected(hello(undefined, name))).toEqual([`metadata.name: Invalid value: "${name}": must be no more than 52 characters`]);
    const ok = await cronJobs().create(hello(undefined, 'c'.repeat(52)));
    expect(ok.metadata!.name).toHaveLength(52);
  });

  it('validates updates with the same rules and bumps the generation on spec changes', async () => {
    await cronJobs().create(hello());
    const s = await statusOf(() => cronJobs().patch('hello', { spec: { schedule: 'never' } }, { type: 'merge' }));
    expect(s.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.schedule: Invalid value: "never": expected exactly 5 fields, found 1: [never]',
    ]);
    const suspended = await cronJobs().patch('hello', { spec: { suspend: true } }, { type: 'merge' });
    expect(suspended.metadata!.generation).toBe(2);
    const labeled = await cronJobs().patch('hello', { metadata: { labels: { a: 'b' } } }, { type: 'merge' });
    expect(labeled.metadata!.generation).toBe(2);
  });

  it('keeps status on main updates and changes it through /status only', async () => {
    const created = await cronJobs().create({ ...hello(), status: { lastScheduleTime: '2026-01-01T00:00:00Z' } });
    expect(created.status).toEqual({});
    const updated = await cronJobs().updateStatus({
      ...created,
      spec: { ...created.spec, schedule: '@daily' },
      status: { lastScheduleTime: '2025-12-31T23:55:00Z' },
    });
    expect(updated.spec.schedule).toBe('*/5 * * * *');
    expect(updated.status).toEqual({ lastScheduleTime: '2025-12-31T23:55:00Z' });
  });
});

describe('CronJob columns and names', () => {
  it('prints Schedule, Timezone, Suspend, Active, Last Schedule, Age and, wide, Containers, Images, Selector', async () => {
    const created = await cronJobs().create(hello((c) => (c.spec.timeZone = 'Europe/Berlin')));
    await cronJobs().updateStatus({ ...created, status: { lastScheduleTime: '2025-12-31T23:58:00Z', active: [{ kind: 'Job', name: 'hello-1' }] } });
    await cluster.clock.advance(60_000);
    const res = await cluster.fetch(
      new Request('http://memkube/apis/batch/v1/namespaces/default/cronjobs', { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }),
    );
    const table = (await res.json()) as { columnDefinitions: { name: string; type: string; priority: number }[]; rows: { cells: unknown[] }[] };
    expect(table.columnDefinitions.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Schedule', 'string', 0],
      ['Timezone', 'string', 0],
      ['Suspend', 'boolean', 0],
      ['Active', 'integer', 0],
      ['Last Schedule', 'string', 0],
      ['Age', 'string', 0],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
      ['Selector', 'string', 1],
    ]);
    expect(table.rows[0]!.cells).toEqual(['hello', '*/5 * * * *', 'Europe/Berlin', 'False', 1, '3m', '60s', 'hello', 'busybox:1.36', '<none>']);
  });

  it('is served with the short name cj in the category all, and accepts only metadata field selectors', async () => {
    const res = await cluster.fetch(new Request('http://memkube/apis/batch/v1'));
    const list = (await res.json()) as { resources: { name: string; shortNames?: string[]; categories?: string[] }[] };
    expect(list.resources.find((r) => r.name === 'cronjobs')).toMatchObject({ shortNames: ['cj'], categories: ['all'] });
    expect(list.resources.find((r) => r.name === 'jobs')).toMatchObject({ categories: ['all'] });
    expect(list.resources.map((r) => r.name).sort()).toEqual(['cronjobs', 'cronjobs/status', 'jobs', 'jobs/status']);
    const s = await statusOf(() => cronJobs().list({ fieldSelector: 'spec.schedule=x' }));
    expect(s).toMatchObject({ code: 400, message: '"spec.schedule" is not a known field selector: only "metadata.name", "metadata.namespace"' });
  });
});
