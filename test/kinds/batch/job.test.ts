import { describe, expect, it } from 'vitest';
import { JobKind, type Job } from '../../../src/kinds/batch/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const jobs = () => cluster.client.resource(JobKind);

/** A Job `pi` running one perl container, changed by `patch`. */
function pi(patch: (j: Job) => void = () => {}, name = 'pi'): Job {
  const j: Job = {
    metadata: { name },
    spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'pi', image: 'perl:5.34' }] } } },
  };
  patch(j);
  return j;
}

/** The `<field>: <message>` lines of the 422 answering the create of `j`. */
async function rejected(j: Job): Promise<string[]> {
  const status = await statusOf(() => jobs().create(j));
  expect(status.code).toBe(422);
  expect(status.reason).toBe('Invalid');
  return (status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
}

describe('Job defaults', () => {
  it('fills the v1 defaults, generates the selector and labels, and starts with an empty status', async () => {
    const created = await jobs().create(pi());
    const uid = created.metadata!.uid!;
    const labels = { 'job-name': 'pi', 'batch.kubernetes.io/job-name': 'pi', 'controller-uid': uid, 'batch.kubernetes.io/controller-uid': uid };
    expect(created.metadata).toMatchObject({ generation: 1, labels });
    expect(created.spec).toEqual({
      template: {
        metadata: { labels },
        spec: {
          restartPolicy: 'Never',
          containers: [
            {
              name: 'pi',
              image: 'perl:5.34',
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
      completions: 1,
      parallelism: 1,
      backoffLimit: 6,
      completionMode: 'NonIndexed',
      suspend: false,
      podReplacementPolicy: 'TerminatingOrFailed',
      manualSelector: false,
      selector: { matchLabels: { 'batch.kubernetes.io/controller-uid': uid } },
    });
    expect(created.status).toEqual({});
  });

  it('gives the job its template labels (with the generated ones) unless it has labels of its own', async () => {
    const a = await jobs().create(pi((j) => (j.spec!.template.metadata = { labels: { app: 'pi' } }), 'a'));
    expect(Object.keys(a.metadata!.labels!).sort()).toEqual([
      'app',
      'batch.kubernetes.io/controller-uid',
      'batch.kubernetes.io/job-name',
      'controller-uid',
      'job-name',
    ]);
    const b = await jobs().create(
      pi((j) => {
        j.metadata!.labels = { team: 'x' };
        j.spec!.template.metadata = { labels: { app: 'pi' } };
      }, 'b'),
    );
    expect(b.metadata!.labels).toEqual({ team: 'x' });
  });

  it('keeps only parallelism when completions is unset, and backoffLimit is max int32 with backoffLimitPerIndex', async () => {
    const created = await jobs().create(
      pi((j) => {
        j.spec!.parallelism = 3;
        j.spec!.completionMode = 'Indexed';
        j.spec!.completions = 4;
        j.spec!.backoffLimitPerIndex = 1;
      }),
    );
    expect(created.spec).toMatchObject({ parallelism: 3, completions: 4, backoffLimit: 2147483647 });
    const open = await jobs().create(pi((j) => (j.spec!.parallelism = 2), 'open'));
    expect(open.spec!.completions).toBeUndefined();
    expect(open.spec!.parallelism).toBe(2);
  });

  it('defaults podReplacementPolicy to Failed with a pod failure policy, and an empty pattern status to True', async () => {
    const created = await jobs().create(
      pi((j) => (j.spec!.podFailurePolicy = { rules: [{ action: 'Ignore', onPodConditions: [{ type: 'DisruptionTarget' }] }] })),
    );
    expect(created.spec!.podReplacementPolicy).toBe('Failed');
    expect(created.spec!.podFailurePolicy!.rules[0]!.onPodConditions).toEqual([{ type: 'DisruptionTarget', status: 'True' }]);
  });

  it('generates nothing with a manual selector', async () => {
    const created = await jobs().create(
      pi((j) => {
        j.spec!.manualSelector = true;
        j.spec!.selector = { matchLabels: { app: 'pi' } };
        j.spec!.template.metadata = { labels: { app: 'pi' } };
      }),
    );
    expect(created.spec!.selector).toEqual({ matchLabels: { app: 'pi' } });
    expect(created.spec!.template.metadata!.labels).toEqual({ app: 'pi' });
  });
});

describe('Job validation', () => {
  it('requires restartPolicy OnFailure or Never (the template default Always is refused)', async () => {
    expect(await rejected(pi((j) => delete j.spec!.template.spec!.restartPolicy))).toEqual([
      'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]);
    expect(await rejected(pi((j) => (j.spec!.template.spec!.restartPolicy = 'Always')))).toEqual([
      'spec.template.spec.restartPolicy: Required value: valid values: "OnFailure", "Never"',
    ]);
    expect(await rejected(pi((j) => (j.spec!.template.spec!.restartPolicy = 'Sometimes')))).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"',
      'spec.template.spec.restartPolicy: Unsupported value: "Sometimes": supported values: "OnFailure", "Never"',
    ]);
  });

  it('validates the pod template with the Pod rules, at template paths', async () => {
    expect(await rejected(pi((j) => (j.spec!.template.spec!.containers = [])))).toEqual(['spec.template.spec.containers: Required value']);
    expect(
      await rejected(
        pi((j) => {
          j.spec!.template.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox' }];
          j.spec!.template.metadata = { labels: { 'bad key!': 'x' } };
        }),
      ),
    ).toEqual([
      // SetDefaults_Job copied the template's labels to the job: its metadata is refused too.
      `metadata.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      `spec.template.labels: Invalid value: "bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template',
    ]);
  });

  it('refuses negative counts', async () => {
    expect(
      await rejected(
        pi((j) => {
          j.spec!.parallelism = -1;
          j.spec!.completions = -2;
          j.spec!.activeDeadlineSeconds = -3;
          j.spec!.backoffLimit = -4;
          j.spec!.ttlSecondsAfterFinished = -5;
        }),
      ),
    ).toEqual([
      'spec.parallelism: Invalid value: -1: must be greater than or equal to 0',
      'spec.completions: Invalid value: -2: must be greater than or equal to 0',
      'spec.activeDeadlineSeconds: Invalid value: -3: must be greater than or equal to 0',
      'spec.backoffLimit: Invalid value: -4: must be greater than or equal to 0',
      'spec.ttlSecondsAfterFinished: Invalid value: -5: must be greater than or equal to 0',
    ]);
  });

  it('checks the Indexed completion mode rules', async () => {
    expect(
      await rejected(
        pi((j) => {
          j.spec!.completionMode = 'Indexed';
          j.spec!.parallelism = 100001;
        }),
      ),
    ).toEqual([
      'spec.completions: Required value: when completion mode is Indexed',
      'spec.parallelism: Invalid value: 100001: must be less than or equal to 100000 when completion mode is Indexed',
    ]);
    expect(await rejected(pi((j) => (j.spec!.completionMode = 'Sometimes')))).toEqual([
      'spec.completionMode: Unsupported value: "Sometimes": supported values: "NonIndexed", "Indexed"',
    ]);
    expect(
      await rejected(
        pi((j) => {
          j.spec!.backoffLimitPerIndex = 1;
          j.spec!.maxFailedIndexes = 1;
        }),
      ),
    ).toEqual([
      'spec.backoffLimitPerIndex: Invalid value: 1: requires indexed completion mode',
      'spec.maxFailedIndexes: Invalid value: 1: requires indexed completion mode',
    ]);
    expect(
      await rejected(
        pi((j) => {
          j.spec!.completionMode = 'Indexed';
          j.spec!.completions = 2;
          j.spec!.maxFailedIndexes = 3;
        }),
      ),
    ).toEqual([
      'spec.backoffLimitPerIndex: Required value: when maxFailedIndexes is specified',
      'spec.maxFailedIndexes: Invalid value: 3: must be less than or equal to completions',
    ]);
  });

  it('needs a name whose last indexed pod hostname is a DNS label', async () => {
    const name = 'a'.repeat(62);
    expect(
      await rejected(
        pi((j) => {
          j.spec!.completionMode = 'Indexed';
          j.spec!.completions = 100;
        }, name),
      ),
    ).toEqual([`metadata.name: Invalid value: "${name}": will not able to create pod with invalid DNS label: ${name}-99`]);
  });

  it('checks the pod failure policy', async () => {
    const lines = await rejected(
      pi((j) => {
        j.spec!.template.spec!.restartPolicy = 'OnFailure';
        j.spec!.podFailurePolicy = {
          rules: [
            { action: 'Explode', onExitCodes: { operator: 'In', values: [0, 3, 3, 1] }, onPodConditions: [{ type: 'X', status: 'Maybe' }] },
            { action: 'FailIndex' },
            { action: '', onExitCodes: { containerName: 'nope', operator: 'Between', values: [] } },
          ],
        };
      }),
    );
    expect(lines).toEqual([
      'spec.podFailurePolicy.rules[0].action: Unsupported value: "Explode": supported values: "Count", "FailIndex", "FailJob", "Ignore"',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[0]: Invalid value: 0: must not be 0 for the In operator',
      'spec.podFailurePolicy.rules[0].onExitCodes.values[2]: Duplicate value: 3',
      'spec.podFailurePolicy.rules[0].onExitCodes.values: Invalid value: [0,3,3,1]: must be ordered',
      'spec.podFailurePolicy.rules[0].onPodConditions[0].status: Unsupported value: "Maybe": supported values: "False", "True", "Unknown"',
      'spec.podFailurePolicy.rules[0]: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported',
      'spec.podFailurePolicy.rules[1].action: Invalid value: "FailIndex": requires the backoffLimitPerIndex to be set',
      'spec.podFailurePolicy.rules[1]: Invalid value: specifying one of OnExitCodes and OnPodConditions is required',
      'spec.podFailurePolicy.rules[2].action: Required value: valid values: ["Count" "FailIndex" "FailJob" "Ignore"]',
      'spec.podFailurePolicy.rules[2].onExitCodes.operator: Unsupported value: "Between": supported values: "In", "NotIn"',
      'spec.podFailurePolicy.rules[2].onExitCodes.containerName: Invalid value: "nope": must be one of the container or initContainer names in the pod template',
      'spec.podFailurePolicy.rules[2].onExitCodes.values: Invalid value: []: at least one value is required',
      'spec.template.spec.restartPolicy: Invalid value: "OnFailure": only "Never" is supported when podFailurePolicy is specified',
    ]);
  });

  it('limits podReplacementPolicy', async () => {
    expect(await rejected(pi((j) => (j.spec!.podReplacementPolicy = 'Sometimes')))).toEqual([
      'spec.podReplacementPolicy: Unsupported value: "Sometimes": supported values: "Failed", "TerminatingOrFailed"',
    ]);
    expect(
      await rejected(
        pi((j) => {
          j.spec!.podFailurePolicy = { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [1] } }] };
          j.spec!.podReplacementPolicy = 'TerminatingOrFailed';
        }),
      ),
    ).toEqual(['spec.podReplacementPolicy: Unsupported value: "TerminatingOrFailed": supported values: "Failed"']);
  });

  it('checks the success policy of an Indexed job', async () => {
    expect(await rejected(pi((j) => (j.spec!.successPolicy = { rules: [{ succeededCount: 1 }] })))).toEqual([
      'spec.successPolicy: Invalid value: {"rules":[{"succeededCount":1}]}: requires indexed completion mode',
    ]);
    const indexed = (rules: NonNullable<Job['spec']>['successPolicy']) =>
      pi((j) => {
        j.spec!.completionMode = 'Indexed';
        j.spec!.completions = 5;
        j.spec!.successPolicy = rules;
      });
    expect(await rejected(indexed({ rules: [] }))).toEqual([
      'spec.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified',
    ]);
    expect(
      await rejected(indexed({ rules: [{}, { succeededIndexes: '1-3,3', succeededCount: 6 }, { succeededIndexes: '0,2-x' }, { succeededIndexes: '1-9' }] })),
    ).toEqual([
      'spec.successPolicy.rules[0]: Required value: at least one of succeededCount or succeededIndexes must be specified',
      'spec.successPolicy.rules[1].succeededIndexes: Invalid value: "1-3,3": error parsing succeededIndexes: non-increasing order, previous: 3, current: 3',
      'spec.successPolicy.rules[1].succeededCount: Invalid value: 6: must be less than or equal to 5 (the number of specified completions)',
      'spec.successPolicy.rules[1].succeededCount: Invalid value: 6: must be less than or equal to 0 (the number of indexes in the specified succeededIndexes field)',
      'spec.successPolicy.rules[2].succeededIndexes: Invalid value: "0,2-x": error parsing succeededIndexes: cannot convert string to integer for index: "x"',
      'spec.successPolicy.rules[3].succeededIndexes: Invalid value: "1-9": error parsing succeededIndexes: too large index: "9"',
    ]);
    const ok = await jobs().create(indexed({ rules: [{ succeededIndexes: '0,2-4', succeededCount: 4 }] }));
    expect(ok.spec!.successPolicy).toEqual({ rules: [{ succeededIndexes: '0,2-4', succeededCount: 4 }] });
  });

  it('checks managedBy', async () => {
    expect(await rejected(pi((j) => (j.spec!.managedBy = 'nodomain')))).toEqual([
      'spec.managedBy: Invalid value: "nodomain": must be a domain-prefixed path (such as "acme.io/foo")',
    ]);
    expect(await rejected(pi((j) => (j.spec!.managedBy = `example.com/${'x'.repeat(60)}`)))).toEqual([
      'spec.managedBy: Too long: may not be more than 63 bytes',
    ]);
  });

  it('checks a manual selector against the template, and a generated one against the job', async () => {
    expect(
      await rejected(
        pi((j) => {
          j.spec!.manualSelector = true;
          j.spec!.selector = { matchLabels: { app: 'other' } };
        }),
      ),
    ).toEqual(['spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`']);
    expect(await rejected(pi((j) => (j.spec!.manualSelector = true)))).toEqual([
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`',
    ]);
    const lines = await rejected(pi((j) => (j.spec!.template.metadata = { labels: { 'job-name': 'other' } })));
    expect(lines[0]).toMatch(/^spec\.template\.metadata\.labels\[job-name\]: Invalid value: \{.*\}: must be 'pi'$/);
  });
});

describe('Job update', () => {
  it('keeps the template immutable and bumps the generation on spec changes only', async () => {
    const created = await jobs().create(pi());
    const changed = structuredClone(created);
    changed.spec!.template.spec!.containers[0]!.image = 'perl:5.36';
    const status = await statusOf(() => jobs().update(changed));
    expect(status.code).toBe(422);
    expect(status.details?.causes?.map((c) => [c.field, (c.message ?? '').replace(/\{.*\}/, '{...}')])).toEqual([
      ['spec.template', 'Invalid value: {...}: field is immutable'],
    ]);

    const relabeled = await jobs().update({ ...created, metadata: { ...created.metadata, labels: { ...created.metadata!.labels, x: 'y' } } });
    expect(relabeled.metadata!.generation).toBe(1);
    const suspended = await jobs().patch('pi', { spec: { suspend: true } }, { type: 'merge' });
    expect(suspended.metadata!.generation).toBe(2);
  });

  it('lets a suspended job that never started change its scheduling directives', async () => {
    const created = await jobs().create(pi((j) => (j.spec!.suspend = true)));
    const patched = await jobs().patch('pi', { spec: { template: { spec: { nodeSelector: { zone: 'a' } } } } }, { type: 'strategic' });
    expect(patched.spec!.template.spec!.nodeSelector).toEqual({ zone: 'a' });
    const started = { ...patched, status: { startTime: '2026-01-01T00:00:00Z' } };
    await jobs().updateStatus(started);
    const s = await statusOf(() => jobs().patch('pi', { spec: { template: { spec: { nodeSelector: { zone: 'b' } } } } }, { type: 'strategic' }));
    expect(s.details?.causes?.[0]?.field).toBe('spec.template');
    expect(created.metadata!.uid).toBeDefined();
  });

  it('keeps completions, selector, completionMode, podFailurePolicy, backoffLimitPerIndex, managedBy and successPolicy', async () => {
    await jobs().create(pi((j) => (j.spec!.completions = 2)));
    const s = await statusOf(() => jobs().patch('pi', { spec: { completions: 3, completionMode: 'Indexed', managedBy: 'example.com/x' } }, { type: 'merge' }));
    expect(s.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.completions: Invalid value: 3: can only be modified in tandem with spec.parallelism',
      'spec.completionMode: Invalid value: "Indexed": field is immutable',
      'spec.managedBy: Invalid value: "example.com/x": field is immutable',
    ]);
    const t = await statusOf(() => jobs().patch('pi', { spec: { completions: 3 } }, { type: 'merge' }));
    expect(t.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual(['spec.completions: Invalid value: 3: field is immutable']);
  });

  it('keeps a manual selector, the pod failure policy and the success policy', async () => {
    await jobs().create(
      pi((j) => {
        j.spec!.manualSelector = true;
        j.spec!.selector = { matchLabels: { app: 'pi' } };
        j.spec!.template.metadata = { labels: { app: 'pi', tier: 'batch' } };
        j.spec!.completionMode = 'Indexed';
        j.spec!.completions = 3;
        j.spec!.podFailurePolicy = { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: [42] } }] };
      }),
    );
    const s = await statusOf(() =>
      jobs().patch(
        'pi',
        {
          spec: {
            selector: { matchLabels: { tier: 'batch' } },
            podFailurePolicy: { rules: [{ action: 'Ignore', onExitCodes: { operator: 'In', values: [1] } }] },
            successPolicy: { rules: [{ succeededCount: 1 }] },
          },
        },
        { type: 'merge' },
      ),
    );
    expect(s.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.selector: Invalid value: {"matchLabels":{"app":"pi","tier":"batch"}}: field is immutable',
      'spec.podFailurePolicy: Invalid value: {"rules":[{"action":"Ignore","onExitCodes":{"operator":"In","values":[1]}}]}: field is immutable',
      'spec.successPolicy: Invalid value: {"rules":[{"succeededCount":1}]}: field is immutable',
    ]);
  });

  it('lets an Indexed job change completions together with parallelism', async () => {
    await jobs().create(
      pi((j) => {
        j.spec!.completionMode = 'Indexed';
        j.spec!.completions = 2;
        j.spec!.parallelism = 2;
      }),
    );
    const scaled = await jobs().patch('pi', { spec: { completions: 5, parallelism: 5 } }, { type: 'merge' });
    expect(scaled.spec).toMatchObject({ completions: 5, parallelism: 5 });
  });
});

describe('Job status', () => {
  it('ignores a status sent on create and on updates of the main resource', async () => {
    const created = await jobs().create({ ...pi(), status: { succeeded: 3 } });
    expect(created.status).toEqual({});
    const updated = await jobs().update({ ...created, status: { succeeded: 4 } });
    expect(updated.status).toEqual({});
  });

  it('changes only the status through /status, with the status rules', async () => {
    const created = await jobs().create(pi());
    const running = await jobs().updateStatus({
      ...created,
      spec: { ...created.spec!, parallelism: 9 },
      status: { startTime: '2026-01-01T00:00:00Z', active: 1, failed: 2 },
    });
    expect(running.spec!.parallelism).toBe(1);
    expect(running.status).toMatchObject({ active: 1, failed: 2 });

    const s = await statusOf(() =>
      jobs().updateStatus({
        ...running,
        status: { ...running.status, failed: 1, active: 1, conditions: [{ type: 'Complete', status: 'True' }], completionTime: '2025-12-31T00:00:00Z' },
      }),
    );
    expect(s.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'status.completionTime: Invalid value: 2025-12-31 00:00:00 +0000 UTC: completionTime cannot be set before startTime',
      'status.conditions: Invalid value: cannot set Complete=True condition without the SuccessCriteriaMet=true condition',
      'status.active: Invalid value: 1: active>0 is invalid for finished job',
      'status.failed: Invalid value: 1: cannot decrease the failed counter',
    ]);
    const ok = await jobs().updateStatus({
      ...running,
      status: {
        ...running.status,
        active: 0,
        succeeded: 1,
        completionTime: '2026-01-01T00:01:00Z',
        conditions: [
          { type: 'SuccessCriteriaMet', status: 'True' },
          { type: 'Complete', status: 'True' },
        ],
      },
    });
    const gone = await statusOf(() => jobs().updateStatus({ ...ok, status: { ...ok.status, conditions: [] } }));
    expect(gone.details?.causes?.map((c) => c.message)).toContain('Invalid value: cannot disable the terminal Complete=True condition');
  });
});

describe('Job field selectors, columns and warnings', () => {
  it('selects on status.successful and words other fields as Kubernetes does', async () => {
    const a = await jobs().create(pi(undefined, 'a'));
    await jobs().create(pi(undefined, 'b'));
    await jobs().updateStatus({ ...a, status: { succeeded: 1 } });
    expect((await jobs().list({ fieldSelector: 'status.successful=1' })).items.map((j) => j.metadata!.name)).toEqual(['a']);
    expect((await jobs().list({ fieldSelector: 'status.successful=0' })).items.map((j) => j.metadata!.name)).toEqual(['b']);
    const s = await statusOf(() => jobs().list({ fieldSelector: 'status.succeeded=1' }));
    expect(s).toMatchObject({ code: 400, message: 'field label "status.succeeded" not supported for batchv1.Job' });
  });

  it('prints Status, Completions, Duration, Age and, wide, Containers, Images, Selector', async () => {
    const created = await jobs().create(pi());
    await cluster.clock.advance(90_000);
    const table = async () => {
      const res = await cluster.fetch(
        new Request('http://memkube/apis/batch/v1/namespaces/default/jobs', { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }),
      );
      return (await res.json()) as { columnDefinitions: { name: string; type: string; priority: number }[]; rows: { cells: unknown[] }[] };
    };
    const t = await table();
    expect(t.columnDefinitions.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Status', 'string', 0],
      ['Completions', 'string', 0],
      ['Duration', 'string', 0],
      ['Age', 'string', 0],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
      ['Selector', 'string', 1],
    ]);
    const uid = created.metadata!.uid!;
    expect(t.rows[0]!.cells).toEqual(['pi', 'Running', '0/1', '', '90s', 'pi', 'perl:5.34', `batch.kubernetes.io/controller-uid=${uid}`]);
    await jobs().updateStatus({ ...created, status: { startTime: '2026-01-01T00:00:30Z', active: 1 } });
    expect((await table()).rows[0]!.cells.slice(1, 4)).toEqual(['Running', '0/1', '60s']);
    await jobs().updateStatus({
      ...(await jobs().get('pi')),
      status: {
        startTime: '2026-01-01T00:00:30Z',
        completionTime: '2026-01-01T00:00:50Z',
        succeeded: 1,
        conditions: [
          { type: 'SuccessCriteriaMet', status: 'True' },
          { type: 'Complete', status: 'True' },
        ],
      },
    });
    expect((await table()).rows[0]!.cells.slice(1, 4)).toEqual(['Complete', '1/1', '20s']);
  });

  it('warns about a name that is not a DNS label', async () => {
    const warnings: string[] = [];
    await cluster.client
      .withWarnings((w) => warnings.push(...w))
      .resource(JobKind)
      .create(pi(undefined, 'pi.v2'));
    expect(warnings).toEqual([
      'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
    ]);
  });
});

describe('Job hostile input', () => {
  it.each([
    ['a string as spec', { metadata: { name: 'x' }, spec: 'run' }],
    ['a string as parallelism', { metadata: { name: 'x' }, spec: { parallelism: 'two', template: {} } }],
    [
      'a malformed quantity',
      {
        metadata: { name: 'x' },
        spec: { template: { spec: { restartPolicy: 'Never', containers: [{ name: 'a', image: 'b', resources: { limits: { cpu: 'lots' } } }] } } },
      },
    ],
    [
      'a huge exit code list',
      { metadata: { name: 'x' }, spec: { podFailurePolicy: { rules: [{ action: 'FailJob', onExitCodes: { operator: 'In', values: 'all' } }] }, template: {} } },
    ],
  ])('answers %s with a 4xx and stores nothing', async (_, body) => {
    const s = await statusOf(() => jobs().create(body as unknown as Job));
    expect(s.code).toBeGreaterThanOrEqual(400);
    expect(s.code).toBeLessThan(500);
    expect((await jobs().list()).items).toEqual([]);
  });
});
