import { describe, expect, it } from 'vitest';
import { createCluster } from '../../../src/cluster.js';
import { ReplicaSetKind, type ReplicaSet } from '../../../src/kinds/apps/index.js';
import { statusOf, T0, useTestCluster } from '../../support/cluster.js';
import { causesOf, tableOf } from './workload-helpers.js';

const cluster = useTestCluster();
const replicaSets = () => cluster.client.resource(ReplicaSetKind);

type Spec = NonNullable<ReplicaSet['spec']>;

/** A ReplicaSet `web` selecting `app=web`, changed by `patch`. */
function web(patch: (rs: ReplicaSet & { spec: Spec & { template: NonNullable<Spec['template']> } }) => void = () => {}): ReplicaSet {
  const rs: ReplicaSet & { spec: Spec & { template: NonNullable<Spec['template']> } } = {
    metadata: { name: 'web' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
    },
  };
  patch(rs);
  return rs;
}

/** The 422 of creating `rs`. */
async function rejected(rs: ReplicaSet) {
  const status = await statusOf(() => replicaSets().create(rs));
  expect(status.code).toBe(422);
  expect((await replicaSets().list()).items).toHaveLength(0);
  return status;
}

describe('ReplicaSet defaults', () => {
  it('fills replicas, the pod template defaults and the zero status', async () => {
    const created = await replicaSets().create(web());
    expect(created.spec).toEqual({
      replicas: 1,
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' } },
        spec: {
          containers: [
            {
              name: 'nginx',
              image: 'nginx:1.27',
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
    });
    expect(created.status).toEqual({ replicas: 0 });
    expect(created.metadata?.generation).toBe(1);
  });

  it('drops the status a create sends', async () => {
    const created = await replicaSets().create(web((rs) => (rs.status = { replicas: 3, readyReplicas: 2 })));
    expect(created.status).toEqual({ replicas: 0 });
  });
});

describe('ReplicaSet validation', () => {
  it('requires the selector and a template with containers', async () => {
    const status = await rejected({ metadata: { name: 'web' }, spec: {} as Spec });
    expect(causesOf(status)).toEqual([
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: null: `selector` does not match template `labels`',
      'spec.template.spec.containers: Required value',
    ]);
  });

  it('says deployment in the empty-selector message, as Kubernetes does', async () => {
    const status = await rejected(web((rs) => (rs.spec.selector = { matchLabels: {} })));
    expect(status.message).toBe('ReplicaSet.apps "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment');
  });

  it('rejects a selector that does not match the template labels', async () => {
    const status = await rejected(
      web((rs) => {
        rs.spec.template.metadata!.labels = { tier: 'b', app: 'web' };
        rs.spec.selector = { matchLabels: { app: 'db' } };
      }),
    );
    expect(status.message).toBe(
      'ReplicaSet.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"web","tier":"b"}: `selector` does not match template `labels`',
    );
  });

  it('checks the template: restart policy, active deadline, the PodSpec', async () => {
    const status = await rejected(
      web((rs) => {
        rs.spec.template.spec!.restartPolicy = 'Never';
        rs.spec.template.spec!.activeDeadlineSeconds = 5;
        rs.spec.template.spec!.dnsPolicy = 'Sometimes';
      }),
    );
    expect(causesOf(status)).toEqual([
      'spec.template.spec.dnsPolicy: Unsupported value: "Sometimes": supported values: "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None"',
      'spec.template.spec.restartPolicy: Unsupported value: "Never": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
    ]);
  });

  it('checks the template annotations at spec.template.annotations', async () => {
    const status = await rejected(web((rs) => (rs.spec.template.metadata!.annotations = { 'controller.kubernetes.io/pod-deletion-cost': 'high' })));
    expect(causesOf(status)).toEqual(['spec.template.annotations[controller.kubernetes.io/pod-deletion-cost]: Invalid value: "high": must be a 32bit integer']);
  });

  it('rejects negative replicas and minReadySeconds', async () => {
    const status = await rejected(web((rs) => Object.assign(rs.spec, { replicas: -1, minReadySeconds: -1 })));
    expect(causesOf(status)).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });
});

describe('ReplicaSet updates', () => {
  it('bumps the generation for a spec change only', async () => {
    const created = await replicaSets().create(web());
    const annotated = await replicaSets().update({ ...created, metadata: { ...created.metadata, annotations: { a: 'b' } } });
    expect(annotated.metadata?.generation).toBe(1);
    const scaled = await replicaSets().patch('web', { spec: { replicas: 2 } }, { type: 'merge' });
    expect(scaled.metadata?.generation).toBe(2);
  });

  it('reports the spec rules twice in the causes (once in the message), then the selector rule', async () => {
    const created = await replicaSets().create(web());
    const next = structuredClone(created);
    next.spec!.selector = { matchLabels: { app: 'db' } };
    next.spec!.minReadySeconds = -1;
    const status = await statusOf(() => replicaSets().update(next));
    const spec = [
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    ];
    expect(causesOf(status)).toEqual([...spec, ...spec, 'spec.selector: Invalid value: {"matchLabels":{"app":"db"}}: field is immutable']);
    expect(status.message).toBe(
      `ReplicaSet.apps "web" is invalid: [${[...spec, 'spec.selector: Invalid value: {"matchLabels":{"app":"db"}}: field is immutable'].join(', ')}]`,
    );
  });

  it('takes an empty matchExpressions for an absent one in the selector', async () => {
    const created = await replicaSets().create(web());
    const updated = await replicaSets().update({ ...created, spec: { ...created.spec!, selector: { matchLabels: { app: 'web' }, matchExpressions: [] } } });
    expect(updated.metadata?.generation).toBe(1);
  });
});

describe('ReplicaSet /status and /scale', () => {
  it('changes only the status and validates it', async () => {
    const created = await replicaSets().create(web());
    const updated = await replicaSets().updateStatus({
      ...created,
      spec: { ...created.spec!, replicas: 7 },
      status: { replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 },
    });
    expect(updated.spec?.replicas).toBe(1);
    expect(updated.status).toEqual({ replicas: 2, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 1, observedGeneration: 1 });
    const status = await statusOf(() =>
      replicaSets().updateStatus({
        ...updated,
        status: { replicas: 1, fullyLabeledReplicas: 2, readyReplicas: 1, availableReplicas: 2, terminatingReplicas: -1 },
      }),
    );
    expect(causesOf(status)).toEqual([
      'status.terminatingReplicas: Invalid value: -1: must be greater than or equal to 0',
      'status.fullyLabeledReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas',
    ]);
  });

  it('gives a written status its replicas count', async () => {
    const created = await replicaSets().create(web());
    const updated = await replicaSets().updateStatus({ ...created, status: { readyReplicas: 0 } as NonNullable<ReplicaSet['status']> });
    expect(updated.status).toEqual({ replicas: 0, readyReplicas: 0 });
  });

  it('keeps terminatingReplicas only while its gate is on or the stored status has it', async () => {
    const c = await createCluster({ clock: T0, featureGates: { DeploymentReplicaSetTerminatingReplicas: false } });
    try {
      const r = c.client.resource(ReplicaSetKind);
      const created = await r.create(web());
      expect((await r.updateStatus({ ...created, status: { replicas: 1, terminatingReplicas: 1 } })).status).toEqual({ replicas: 1 });
    } finally {
      await c.close();
    }
    const created = await replicaSets().create(web());
    expect((await replicaSets().updateStatus({ ...created, status: { replicas: 1, terminatingReplicas: 1 } })).status).toEqual({
      replicas: 1,
      terminatingReplicas: 1,
    });
  });

  it('scales', async () => {
    await replicaSets().create(web());
    expect(await replicaSets().getScale('web')).toMatchObject({ spec: { replicas: 1 }, status: { replicas: 0, selector: 'app=web' } });
    await replicaSets().patchScale('web', { spec: { replicas: 0 } }, { type: 'merge' });
    const rs = await replicaSets().get('web');
    expect(rs.spec?.replicas).toBe(0);
    expect(rs.metadata?.generation).toBe(2);
  });
});

describe('ReplicaSet reads', () => {
  it('prints DESIRED, CURRENT, READY, AGE and, wide, CONTAINERS, IMAGES, SELECTOR', async () => {
    const created = await replicaSets().create(web((rs) => (rs.spec.replicas = 3)));
    await replicaSets().updateStatus({ ...created, status: { replicas: 2, readyReplicas: 1 } });
    const table = await tableOf(cluster, 'replicasets');
    expect(table.columnDefinitions.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Desired', 'integer', 0],
      ['Current', 'integer', 0],
      ['Ready', 'integer', 0],
      ['Age', 'string', 0],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
      ['Selector', 'string', 1],
    ]);
    expect(table.rows.map((r) => r.cells)).toEqual([['web', 3, 2, 1, '0s', 'nginx', 'nginx:1.27', 'app=web']]);
  });

  it('refuses the status.replicas field selector, which apps/v1 does not convert', async () => {
    await replicaSets().create(web());
    const status = await statusOf(() => replicaSets().list({ fieldSelector: 'status.replicas=0' }));
    expect(status).toMatchObject({ code: 400, message: '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"' });
    expect((await replicaSets().list({ fieldSelector: 'metadata.namespace=default' })).items).toHaveLength(1);
  });

  it('is in the all category with the short name rs', () => {
    expect(ReplicaSetKind.shortNames).toEqual(['rs']);
    expect(ReplicaSetKind.categories).toEqual(['all']);
  });
});

describe('ReplicaSet hostile input', () => {
  it.each([
    ['a selector as a string', { selector: 'app=web' }],
    ['containers as an object', { template: { spec: { containers: { name: 'x' } } } }],
    ['a template label value too long', { template: { metadata: { labels: { app: 'x'.repeat(64) } }, spec: { containers: [{ name: 'c', image: 'i' }] } } }],
    ['minReadySeconds as a float', { minReadySeconds: 1.5 }],
  ])('answers %s with a 4xx and stores nothing', async (_, over) => {
    const rs = web();
    Object.assign(rs.spec!, over);
    const status = await statusOf(() => replicaSets().create(rs));
    expect(status.code).toBeGreaterThanOrEqual(400);
    expect(status.code).toBeLessThan(500);
    expect((await replicaSets().list()).items).toHaveLength(0);
  });
});
