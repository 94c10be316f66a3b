/**
 * kubectl 1.33 against `memkube serve` for batch/v1 and autoscaling: `kubectl create job` and
 * `kubectl create cronjob` (protobuf bodies) read back like the same objects created from their
 * JSON manifests, `kubectl create job --from=cronjob/...`, the `kubectl get` columns of jobs,
 * cronjobs and HPAs, and an HPA applied at autoscaling/v2 read at autoscaling/v1.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../support/serve.js';
import { kubectlRunner } from '../support/kubectl.js';

const KUBECTL = '/usr/lib/google-cloud-sdk/bin/kubectl.1.33';

describe.skipIf(!existsSync(KUBECTL))('kubectl 1.33 with Jobs, CronJobs and HorizontalPodAutoscalers against memkube serve', () => {
  let dir: string;
  let server: ServeProcess | undefined;

  const { ok } = kubectlRunner(
    KUBECTL,
    () => join(dir, 'kubeconfig'),
    () => dir,
  );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-e2e-batch-'));
    server = await startServe(join(dir, 'kubeconfig'));
    for (const ns of ['gen', 'manifest', 'hpa']) await ok('create', 'namespace', ns);
  }, 30_000);

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  /** What the server stores, without what differs between two creations of the same object (the uid in labels and selector too). */
  function normalize(json: string): unknown {
    const o = JSON.parse(json) as { metadata: Record<string, unknown> };
    const uid = o.metadata.uid as string;
    for (const k of ['uid', 'resourceVersion', 'creationTimestamp', 'namespace', 'managedFields']) delete o.metadata[k];
    return JSON.parse(JSON.stringify(o).replaceAll(uid, 'UID')) as unknown;
  }

  const generators = [
    {
      args: ['create', 'job', 'pi', '--image=perl:5.34', '--', 'perl', '-Mbignum=bpi', '-wle', 'print bpi(20)'],
      created: 'job.batch/pi created',
      get: ['job', 'pi'],
      expected: {
        metadata: { labels: { 'job-name': 'pi', 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': 'UID', 'batch.kubernetes.io/controller-uid': 'UID' } },
        spec: {
          completions: 1,
          parallelism: 1,
          backoffLimit: 6,
          selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': 'UID' } },
          template: {
            spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34', command: ['perl', '-Mbignum=bpi', '-wle', 'print bpi(20)'] }] },
          },
        },
        status: {},
      },
    },
    {
      args: ['create', 'cronjob', 'hello', '--image=busybox:1.36', '--schedule=*/5 * * * *', '--', 'date'],
      created: 'cronjob.batch/hello created',
      get: ['cronjob', 'hello'],
      expected: {
        spec: {
          schedule: '*/5 * * * *',
          concurrencyPolicy: 'Allow',
          suspend: false,
          successfulJobsHistoryLimit: 3,
          failedJobsHistoryLimit: 1,
          jobTemplate: {
            metadata: { name: 'hello' },
            spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', command: ['date'] }] } } },
          },
        },
      },
    },
  ];

  it.each(generators)('kubectl $args.0 $args.1 $args.2 (protobuf) reads back like the JSON manifest', async ({ args, created, get, expected }) => {
    expect(await ok('-n', 'gen', ...args)).toBe(`${created}\n`);
    const file = `${get.join('-')}.json`;
    const at = args.indexOf('--');
    await writeFile(join(dir, file), await ok('-n', 'manifest', ...args.slice(0, at), '--dry-run=client', '-o', 'json', ...args.slice(at)));
    expect(await ok('-n', 'manifest', 'create', '-f', file)).toBe(`${created}\n`);
    const gen = normalize(await ok('-n', 'gen', 'get', ...get, '-o', 'json'));
    const manifest = normalize(await ok('-n', 'manifest', 'get', ...get, '-o', 'json'));
    expect(gen).toEqual(manifest);
    expect(gen).toMatchObject(expected);
  });

  it('creates a job from a cronjob, owned by it', async () => {
    expect(await ok('-n', 'gen', 'create', 'job', 'manual', '--from=cronjob/hello')).toBe('job.batch/manual created\n');
    const cronJob = JSON.parse(await ok('-n', 'gen', 'get', 'cronjob', 'hello', '-o', 'json')) as { metadata: { uid: string } };
    const job = JSON.parse(await ok('-n', 'gen', 'get', 'job', 'manual', '-o', 'json')) as Record<string, never>;
    expect(job).toMatchObject({
      metadata: {
        annotations: { 'cronjob.kubernetes.io/instantiate': 'manual' },
        ownerReferences: [{ apiVersion: 'batch/v1', kind: 'CronJob', name: 'hello', uid: cronJob.metadata.uid, controller: true }],
      },
      spec: { template: { spec: { restartPolicy: 'OnFailure', containers: [{ name: 'hello', image: 'busybox:1.36', command: ['date'] }] } } },
    });
  });

  it('prints the columns of jobs, cronjobs and hpa', async () => {
    await writeFile(
      join(dir, 'hpa.yaml'),
      [
        'apiVersion: autoscaling/v2',
        'kind: HorizontalPodAutoscaler',
        'metadata:',
        '  name: web',
        'spec:',
        '  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}',
        '  minReplicas: 2',
        '  maxReplicas: 10',
        '  metrics:',
        '  - type: Resource',
        '    resource: {name: cpu, target: {type: Utilization, averageUtilization: 60}}',
        '  - type: Pods',
        '    pods: {metric: {name: qps}, target: {type: AverageValue, averageValue: 1500m}}',
        '  behavior:',
        '    scaleDown: {stabilizationWindowSeconds: 120}',
        '',
      ].join('\n'),
    );
    expect(await ok('-n', 'gen', 'apply', '-f', 'hpa.yaml')).toBe('horizontalpodautoscaler.autoscaling/web created\n');
    const out = await ok('-n', 'gen', 'get', 'jobs,cronjobs,hpa');
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE$/);
    expect(lines[1]).toMatch(/^job\.batch\/manual\s+Running\s+0\/1\s+\d+s$/);
    expect(lines[2]).toMatch(/^job\.batch\/pi\s+Running\s+0\/1\s+\d+s$/);
    expect(lines[4]).toMatch(/^NAME\s+SCHEDULE\s+TIMEZONE\s+SUSPEND\s+ACTIVE\s+LAST SCHEDULE\s+AGE$/);
    expect(lines[5]).toMatch(/^cronjob\.batch\/hello\s+\*\/5 \* \* \* \*\s+<none>\s+False\s+0\s+<none>\s+\d+s$/);
    expect(lines[7]).toMatch(/^NAME\s+REFERENCE\s+TARGETS\s+MINPODS\s+MAXPODS\s+REPLICAS\s+AGE$/);
    expect(lines[8]).toMatch(/^horizontalpodautoscaler\.autoscaling\/web\s+Deployment\/web\s+cpu: <unknown>\/60%, <unknown>\/1500m\s+2\s+10\s+0\s+\d+s$/);
    // All three kinds are in the category all.
    const all = (await ok('-n', 'gen', 'get', 'all', '-o', 'name')).trim().split('\n');
    expect(all).toEqual(expect.arrayContaining(['job.batch/pi', 'job.batch/manual', 'cronjob.batch/hello', 'horizontalpodautoscaler.autoscaling/web']));
    const wide = (await ok('-n', 'gen', 'get', 'job', 'pi', '-o', 'wide')).split('\n');
    expect(wide[0]).toMatch(/^NAME\s+STATUS\s+COMPLETIONS\s+DURATION\s+AGE\s+CONTAINERS\s+IMAGES\s+SELECTOR$/);
    expect(wide[1]).toMatch(/^pi\s+Running\s+0\/1\s+\d+s\s+pi\s+perl:5\.34\s+batch\.kubernetes\.io\/controller-uid=[0-9a-f-]{36}$/);
  });

  it('applies an HPA at autoscaling/v2 and reads it at autoscaling/v1 with the v2-only fields in annotations', async () => {
    expect(await ok('-n', 'hpa', 'apply', '-f', 'hpa.yaml')).toBe('horizontalpodautoscaler.autoscaling/web created\n');
    // kubectl expands the short name `hpa` to `horizontalpodautoscalers.autoscaling` and drops the
    // version (its shortcut expander keeps only group and resource), so `hpa.v1.autoscaling` reads
    // the preferred version, v2, as on a real cluster; the full resource name keeps v1.
    const short = JSON.parse(await ok('-n', 'hpa', 'get', 'hpa.v1.autoscaling', 'web', '-o', 'json')) as { apiVersion: string };
    expect(short.apiVersion).toBe('autoscaling/v2');
    const old = JSON.parse(await ok('-n', 'hpa', 'get', 'horizontalpodautoscalers.v1.autoscaling', 'web', '-o', 'json')) as {
      apiVersion: string;
      metadata: { annotations: Record<string, string> };
      spec: unknown;
      status: unknown;
    };
    expect(old.apiVersion).toBe('autoscaling/v1');
    expect(old.spec).toEqual({
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'web' },
      minReplicas: 2,
      maxReplicas: 10,
      targetCPUUtilizationPercentage: 60,
    });
    expect(old.status).toEqual({ currentReplicas: 0, desiredReplicas: 0 });
    expect(JSON.parse(old.metadata.annotations['autoscaling.alpha.kubernetes.io/metrics']!)).toEqual([
      { type: 'Pods', pods: { metricName: 'qps', targetAverageValue: '1500m' } },
    ]);
    expect(JSON.parse(old.metadata.annotations['autoscaling.alpha.kubernetes.io/behavior']!)).toMatchObject({
      ScaleDown: { StabilizationWindowSeconds: 120, SelectPolicy: 'Max' },
      ScaleUp: { StabilizationWindowSeconds: 0 },
    });
    // The last-applied configuration kubectl keeps is an annotation of its own, untouched.
    expect(old.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration']).toContain('"apiVersion":"autoscaling/v2"');
    const current = JSON.parse(await ok('-n', 'hpa', 'get', 'hpa', 'web', '-o', 'json')) as {
      apiVersion: string;
      metadata: { annotations: Record<string, string> };
    };
    expect(current.apiVersion).toBe('autoscaling/v2');
    expect(Object.keys(current.metadata.annotations)).toEqual(['kubectl.kubernetes.io/last-applied-configuration']);
    // The table is printed from the stored object at either version.
    const rowOf = async (resource: string) => (await ok('-n', 'hpa', 'get', resource, '--no-headers')).replace(/\s+\S+\n$/, '');
    expect(await rowOf('horizontalpodautoscalers.v1.autoscaling')).toBe(await rowOf('horizontalpodautoscalers.v2.autoscaling'));
  });
});
