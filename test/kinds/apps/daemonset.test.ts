import { describe, expect, it } from 'vitest';
import { DaemonSetKind, type DaemonSet } from '../../../src/kinds/apps/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';
import { causesOf, tableOf } from './workload-helpers.js';

const cluster = useTestCluster();
const daemonSets = () => cluster.client.resource(DaemonSetKind);

type Spec = NonNullable<DaemonSet['spec']>;
const TEMPLATE_GENERATION = 'deprecated.daemonset.template.generation';

/** A DaemonSet `agent` selecting `app=agent`, changed by `patch`. */
function agent(patch: (ds: DaemonSet & { spec: Spec }) => void = () => {}): DaemonSet {
  const ds: DaemonSet & { spec: Spec } = {
    metadata: { name: 'agent' },
    spec: {
      selector: { matchLabels: { app: 'agent' } },
      template: { metadata: { labels: { app: 'agent' } }, spec: { containers: [{ name: 'agent', image: 'fluentd:1' }] } },
    },
  };
  patch(ds);
  return ds;
}

/** The 422 of creating `ds`. */
async function rejected(ds: DaemonSet) {
  const status = await statusOf(() => daemonSets().create(ds));
  expect(status.code).toBe(422);
  expect((await daemonSets().list()).items).toHaveLength(0);
  return status;
}

describe('DaemonSet defaults', () => {
  it('fills the update strategy, revisionHistoryLimit, the template defaults, the template generation and the zero status', async () => {
    const created = await daemonSets().create(agent());
    expect(created.metadata?.annotations).toEqual({ [TEMPLATE_GENERATION]: '1' });
    expect(created.metadata?.generation).toBe(1);
    expect(created.spec).toEqual({
      selector: { matchLabels: { app: 'agent' } },
      template: {
        metadata: { labels: { app: 'agent' } },
        spec: {
          containers: [
            {
              name: 'agent',
              image: 'fluentd:1',
              resources: {},
              terminationMessagePath: '/dev/termination-log',
              terminationMessagePolicy: 'File',
              imagePullPolicy: 'IfNotPresent',
            },
          ],
          restartPolicy: 'Always',
          terminationGracePeriodSeconds: 30,
          dnsPolicy: 'ClusterFirst',
          securityContext: {},
          schedulerName: 'default-scheduler',
        },
      },
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      revisionHistoryLimit: 10,
    });
    expect(created.status).toEqual({ currentNumberScheduled: 0, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: 0 });
  });

  it('leaves OnDelete alone', async () => {
    const created = await daemonSets().create(agent((ds) => (ds.spec.updateStrategy = { type: 'OnDelete' })));
    expect(created.spec?.updateStrategy).toEqual({ type: 'OnDelete' });
  });

  it('starts the template generation at the annotation sent, at least 1', async () => {
    const five = await daemonSets().create(agent((ds) => (ds.metadata!.annotations = { [TEMPLATE_GENERATION]: '005' })));
    expect(five.metadata?.annotations?.[TEMPLATE_GENERATION]).toBe('5');
    const low = await daemonSets().create(agent((ds) => ((ds.metadata!.name = 'low'), (ds.metadata!.annotations = { [TEMPLATE_GENERATION]: '-4' }))));
    expect(low.metadata?.annotations?.[TEMPLATE_GENERATION]).toBe('1');
  });

  it('answers a template generation that is no int64 with 400', async () => {
    const status = await statusOf(() => daemonSets().create(agent((ds) => (ds.metadata!.annotations = { [TEMPLATE_GENERATION]: 'one' }))));
    expect(status).toMatchObject({
      code: 400,
      message: 'DaemonSet in version "v1" cannot be handled as a DaemonSet: strconv.ParseInt: parsing "one": invalid syntax',
    });
    const big = await statusOf(() => daemonSets().create(agent((ds) => (ds.metadata!.annotations = { [TEMPLATE_GENERATION]: '9223372036854775808' }))));
    expect(big.message).toBe('DaemonSet in version "v1" cannot be handled as a DaemonSet: strconv.ParseInt: parsing "9223372036854775808": value out of range');
  });
});

describe('DaemonSet validation', () => {
  it('reports a missing selector only as matching no labels', async () => {
    const status = await rejected(agent((ds) => delete (ds.spec as Partial<Spec>).selector));
    expect(causesOf(status)).toEqual(['spec.template.metadata.labels: Invalid value: {"app":"agent"}: `selector` does not match template `labels`']);
  });

  it('rejects an empty selector', async () => {
    const status = await rejected(agent((ds) => (ds.spec.selector = {})));
    expect(status.message).toBe('DaemonSet.apps "agent" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for daemonset');
  });

  it('checks the template even when the selector does not parse', async () => {
    const status = await rejected(
      agent((ds) => {
        ds.spec.selector = { matchExpressions: [{ key: 'app', operator: 'In' }] };
        ds.spec.template.spec!.containers[0]!.image = '';
      }),
    );
    expect(causesOf(status)).toEqual([
      "spec.selector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
      'spec.template.spec.containers[0].image: Required value',
    ]);
  });

  it('allows only restartPolicy Always and no activeDeadlineSeconds', async () => {
    const status = await rejected(
      agent((ds) => {
        ds.spec.template.spec!.restartPolicy = 'OnFailure';
        ds.spec.template.spec!.activeDeadlineSeconds = 10;
      }),
    );
    expect(causesOf(status)).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in DaemonSet is not Supported',
    ]);
  });

  it('rejects negative minReadySeconds and revisionHistoryLimit', async () => {
    const status = await rejected(agent((ds) => Object.assign(ds.spec, { minReadySeconds: -1, revisionHistoryLimit: -1 })));
    expect(causesOf(status)).toEqual([
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.revisionHistoryLimit: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it.each([
    [{ maxUnavailable: 1, maxSurge: 1 }, ['spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: 1: may not be set when maxUnavailable is non-zero']],
    [{ maxUnavailable: 0, maxSurge: 0 }, ['spec.updateStrategy.rollingUpdate.maxUnavailable: Required value: cannot be 0 when maxSurge is 0']],
    [
      { maxUnavailable: '101%', maxSurge: '200%' },
      [
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: "101%": must not be greater than 100%',
        'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "200%": must not be greater than 100%',
        'spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: "200%": may not be set when maxUnavailable is non-zero',
      ],
    ],
    [
      { maxUnavailable: -1, maxSurge: 'x%' },
      [
        'spec.updateStrategy.rollingUpdate.maxUnavailable: Invalid value: -1: must be greater than or equal to 0',
        "spec.updateStrategy.rollingUpdate.maxSurge: Invalid value: \"x%\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ],
    ],
  ])('checks rollingUpdate %j', async (rollingUpdate, causes) => {
    const status = await rejected(agent((ds) => (ds.spec.updateStrategy = { type: 'RollingUpdate', rollingUpdate })));
    expect(causesOf(status)).toEqual(causes);
  });

  it.each([{ maxUnavailable: 0, maxSurge: '10%' }, { maxUnavailable: '100%' }, { maxSurge: 0 }])('accepts rollingUpdate %j', async (ru) => {
    const created = await daemonSets().create(agent((ds) => (ds.spec.updateStrategy = { rollingUpdate: ru })));
    expect(created.spec?.updateStrategy?.rollingUpdate).toMatchObject(ru);
  });

  it('refuses an unknown update strategy, and allows rollingUpdate with OnDelete', async () => {
    const status = await rejected(agent((ds) => (ds.spec.updateStrategy = { type: 'Surge' })));
    expect(status.message).toBe(
      'DaemonSet.apps "agent" is invalid: spec.updateStrategy: Unsupported value: {"type":"Surge"}: supported values: "RollingUpdate", "OnDelete"',
    );
    const onDelete = await daemonSets().create(agent((ds) => (ds.spec.updateStrategy = { type: 'OnDelete', rollingUpdate: { maxSurge: 5 } })));
    expect(onDelete.spec?.updateStrategy).toEqual({ type: 'OnDelete', rollingUpdate: { maxSurge: 5 } });
  });

  it('validates the PodSpec of the template', async () => {
    const status = await rejected(agent((ds) => (ds.spec.template.spec!.containers[0]!.ports = [{ containerPort: 0 }])));
    expect(causesOf(status)).toEqual(['spec.template.spec.containers[0].ports[0].containerPort: Required value']);
  });
});

describe('DaemonSet updates', () => {
  it('bumps the template generation with the template, and the generation with any spec change', async () => {
    const created = await daemonSets().create(agent());
    const tuned = await daemonSets().patch('agent', { spec: { minReadySeconds: 5 } }, { type: 'merge' });
    expect(tuned.metadata?.generation).toBe(2);
    expect(tuned.metadata?.annotations?.[TEMPLATE_GENERATION]).toBe('1');
    const next = structuredClone(tuned);
    next.spec!.template.spec!.containers[0]!.image = 'fluentd:2';
    next.metadata!.annotations = { [TEMPLATE_GENERATION]: '40', other: 'x' };
    const updated = await daemonSets().update(next);
    expect(updated.metadata?.generation).toBe(3);
    expect(updated.metadata?.annotations).toEqual({ [TEMPLATE_GENERATION]: '2', other: 'x' });
    const same = await daemonSets().update({ ...updated, metadata: { ...updated.metadata, annotations: {} } });
    expect(same.metadata?.annotations).toEqual({ [TEMPLATE_GENERATION]: '2' });
    expect(same.metadata?.generation).toBe(3);
    expect(created.metadata?.uid).toBe(same.metadata?.uid);
  });

  it('refuses a template change once the template generation would overflow int64, as Go wraps it', async () => {
    const created = await daemonSets().create(agent((ds) => (ds.metadata!.annotations = { [TEMPLATE_GENERATION]: '9223372036854775807' })));
    const next = structuredClone(created);
    next.spec!.template.spec!.containers[0]!.image = 'fluentd:2';
    const status = await statusOf(() => daemonSets().update(next));
    const negative = 'spec.templateGeneration: Invalid value: -9223372036854775808: must be greater than or equal to 0';
    expect(causesOf(status)).toEqual([negative, 'spec.templateGeneration: Invalid value: -9223372036854775808: must not be decremented', negative]);
    expect((await daemonSets().get('agent')).metadata?.annotations?.[TEMPLATE_GENERATION]).toBe('9223372036854775807');
  });

  it('reports the spec rules twice in the causes, then the immutable selector', async () => {
    const created = await daemonSets().create(agent());
    const next = structuredClone(created);
    next.spec!.selector = { matchLabels: { app: 'agent' }, matchExpressions: [{ key: 'tier', operator: 'Exists' }] };
    const status = await statusOf(() => daemonSets().update(next));
    const mismatch = 'spec.template.metadata.labels: Invalid value: {"app":"agent"}: `selector` does not match template `labels`';
    expect(causesOf(status)).toEqual([
      mismatch,
      mismatch,
      'spec.selector: Invalid value: {"matchLabels":{"app":"agent"},"matchExpressions":[{"key":"tier","operator":"Exists"}]}: field is immutable',
    ]);
  });

  it('warns about the template on update only when the template changes', async () => {
    const created = await daemonSets().create(agent((ds) => (ds.spec.template.spec!.nodeSelector = { 'beta.kubernetes.io/arch': 'arm64' })));
    const warnings: string[] = [];
    const onWarning = (w: readonly string[]) => warnings.push(...w);
    await daemonSets().update({ ...created, spec: { ...created.spec!, minReadySeconds: 3 } }, { onWarning });
    expect(warnings).toEqual([]);
    await daemonSets().patch('agent', { spec: { template: { metadata: { labels: { app: 'agent', v: '2' } } } } }, { type: 'strategic', onWarning });
    expect(warnings).toEqual(['spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead']);
  });
});

describe('DaemonSet /status', () => {
  it('changes only the status', async () => {
    const created = await daemonSets().create(agent());
    const status = {
      currentNumberScheduled: 3,
      numberMisscheduled: 0,
      desiredNumberScheduled: 3,
      numberReady: 2,
      updatedNumberScheduled: 3,
      numberAvailable: 2,
      numberUnavailable: 1,
      observedGeneration: 1,
    };
    const updated = await daemonSets().updateStatus({ ...created, spec: { ...created.spec!, minReadySeconds: 9 }, status });
    expect(updated.status).toEqual(status);
    expect(updated.spec?.minReadySeconds).toBeUndefined();
    expect(updated.metadata?.generation).toBe(1);
  });

  it('validates the status and its collisionCount', async () => {
    const created = await daemonSets().create(agent());
    const bad = await statusOf(() =>
      daemonSets().updateStatus({ ...created, status: { currentNumberScheduled: -1, numberMisscheduled: 0, desiredNumberScheduled: 0, numberReady: -2 } }),
    );
    expect(causesOf(bad)).toEqual([
      'status.currentNumberScheduled: Invalid value: -1: must be greater than or equal to 0',
      'status.numberReady: Invalid value: -2: must be greater than or equal to 0',
    ]);
    const counted = await daemonSets().updateStatus({ ...created, status: { ...created.status!, collisionCount: 3 } });
    const down = await statusOf(() => daemonSets().updateStatus({ ...counted, status: { ...counted.status!, collisionCount: 2 } }));
    expect(down.message).toBe('DaemonSet.apps "agent" is invalid: status.collisionCount: Invalid value: 2: cannot be decremented');
  });

  it('has no /scale', async () => {
    await daemonSets().create(agent());
    const status = await statusOf(() => daemonSets().getScale('agent'));
    expect(status.code).toBe(404);
  });
});

describe('DaemonSet reads', () => {
  it('prints DESIRED, CURRENT, READY, UP-TO-DATE, AVAILABLE, NODE SELECTOR, AGE and, wide, CONTAINERS, IMAGES, SELECTOR', async () => {
    const created = await daemonSets().create(agent((ds) => (ds.spec.template.spec!.nodeSelector = { 'kubernetes.io/os': 'linux', disk: 'ssd' })));
    await daemonSets().updateStatus({
      ...created,
      status: { currentNumberScheduled: 4, numberMisscheduled: 0, desiredNumberScheduled: 5, numberReady: 3, updatedNumberScheduled: 2, numberAvailable: 1 },
    });
    await daemonSets().create(agent((ds) => (ds.metadata!.name = 'plain')));
    const table = await tableOf(cluster, 'daemonsets');
    expect(table.columnDefinitions.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Desired', 'integer', 0],
      ['Current', 'integer', 0],
      ['Ready', 'integer', 0],
      ['Up-to-date', 'integer', 0],
      ['Available', 'integer', 0],
      ['Node Selector', 'string', 0],
      ['Age', 'string', 0],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
      ['Selector', 'string', 1],
    ]);
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['agent', 5, 4, 3, 2, 1, 'disk=ssd,kubernetes.io/os=linux', '0s', 'agent', 'fluentd:1', 'app=agent'],
      ['plain', 0, 0, 0, 0, 0, '<none>', '0s', 'agent', 'fluentd:1', 'app=agent'],
    ]);
  });

  it('selects by metadata only', async () => {
    const status = await statusOf(() => daemonSets().list({ fieldSelector: 'spec.updateStrategy.type=OnDelete' }));
    expect(status.message).toBe('"spec.updateStrategy.type" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });

  it('is in the all category with the short name ds', () => {
    expect(DaemonSetKind.shortNames).toEqual(['ds']);
    expect(DaemonSetKind.categories).toEqual(['all']);
  });
});

describe('DaemonSet hostile input', () => {
  it.each([
    ['an updateStrategy as a string', { updateStrategy: 'RollingUpdate' }],
    ['a nodeSelector value that is a list', { template: { spec: { nodeSelector: { disk: ['ssd'] }, containers: [{ name: 'c', image: 'i' }] } } }],
    ['a revisionHistoryLimit beyond int32', { revisionHistoryLimit: 2 ** 40 }],
    ['a template name with a NUL', { template: { metadata: { labels: { app: 'agent\u0000' } }, spec: { containers: [{ name: 'c', image: 'i' }] } } }],
  ])('answers %s with a 4xx and stores nothing', async (_, over) => {
    const ds = agent();
    Object.assign(ds.spec!, over);
    const status = await statusOf(() => daemonSets().create(ds));
    expect(status.code).toBeGreaterThanOrEqual(400);
    expect(status.code).toBeLessThan(500);
    expect((await daemonSets().list()).items).toHaveLength(0);
  });
});
