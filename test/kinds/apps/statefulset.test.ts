import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { appsKinds, StatefulSetKind, type StatefulSet } from '../../../src/kinds/apps/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: appsKinds });
const sts = () => cluster.client.resource(StatefulSetKind);

/** A StatefulSet `web` selecting `app=web`, changed by `patch`. */
function web(patch: (s: StatefulSet) => void = () => {}): StatefulSet {
  const s: StatefulSet = {
    metadata: { name: 'web' },
    spec: {
      serviceName: 'nginx',
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
    },
  };
  patch(s);
  return s;
}

/** The causes and message of a 422 for `s`. */
async function rejected(s: StatefulSet) {
  const status = await statusOf(() => sts().create(s));
  expect(status.code).toBe(422);
  expect(status.reason).toBe('Invalid');
  return status;
}

describe('StatefulSet defaults', () => {
  it('fills the v1 defaults, the pod template defaults and the zero status', async () => {
    const created = await sts().create(web());
    expect(created).toEqual({
      kind: 'StatefulSet',
      apiVersion: 'apps/v1',
      metadata: {
        name: 'web',
        namespace: 'default',
        uid: created.metadata!.uid,
        resourceVersion: created.metadata!.resourceVersion,
        generation: 1,
        creationTimestamp: '2026-01-01T00:00:00Z',
        managedFields: created.metadata!.managedFields,
      },
      spec: {
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
        serviceName: 'nginx',
        podManagementPolicy: 'OrderedReady',
        updateStrategy: { type: 'RollingUpdate', rollingUpdate: { partition: 0, maxUnavailable: 1 } },
        revisionHistoryLimit: 10,
        persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Retain', whenScaled: 'Retain' },
      },
      status: { replicas: 0, availableReplicas: 0 },
    });
    expect(created.metadata?.uid).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('gives the template only the PodSpec defaults: no requests from limits, no host ports, no enableServiceLinks, a negative grace period kept', async () => {
    const created = await sts().create(
      web((s) => {
        const spec = s.spec!.template.spec!;
        spec.terminationGracePeriodSeconds = -1;
        spec.hostNetwork = true;
        spec.containers[0]!.resources = { limits: { cpu: '1', memory: '1Gi' } };
        spec.containers[0]!.ports = [{ containerPort: 8080 }];
      }),
    );
    const spec = created.spec!.template.spec!;
    expect(spec.terminationGracePeriodSeconds).toBe(-1);
    expect(spec.containers[0]!.resources).toEqual({ limits: { cpu: '1', memory: '1Gi' } });
    expect(spec.containers[0]!.ports).toEqual([{ containerPort: 8080, protocol: 'TCP' }]);
    expect(spec.enableServiceLinks).toBeUndefined();
  });

  it('keeps a negative grace period and absent requests in the template through PUT and patch', async () => {
    const created = await sts().create(web());
    const put = structuredClone(created);
    put.spec!.template.spec!.terminationGracePeriodSeconds = -1;
    put.spec!.template.spec!.containers[0]!.resources = { limits: { cpu: '1' } };
    const updated = await sts().update(put);
    expect(updated.spec!.template.spec!.terminationGracePeriodSeconds).toBe(-1);
    expect(updated.spec!.template.spec!.containers[0]!.resources).toEqual({ limits: { cpu: '1' } });

    const patched = await sts().patch(
      'web',
      { spec: { template: { spec: { terminationGracePeriodSeconds: -2, containers: [{ name: 'nginx', resources: { limits: { memory: '1Gi' } } }] } } } },
      { type: 'strategic' },
    );
    expect(patched.spec!.template.spec!.terminationGracePeriodSeconds).toBe(-2);
    expect(patched.spec!.template.spec!.containers[0]!.resources).toEqual({ limits: { cpu: '1', memory: '1Gi' } });
    const merged = await sts().patch('web', { spec: { template: { spec: { terminationGracePeriodSeconds: -3 } } } }, { type: 'merge' });
    expect(merged.spec!.template.spec!.terminationGracePeriodSeconds).toBe(-3);
    expect(merged.spec!.template.spec!.containers[0]!.resources).toEqual({ limits: { cpu: '1', memory: '1Gi' } });
  });

  it('drops maxUnavailable when MaxUnavailableStatefulSet is off', async () => {
    const { createCluster } = await import('../../../src/cluster.js');
    const c = await createCluster({ clock: new Date('2026-01-01T00:00:00Z'), kinds: appsKinds, featureGates: { MaxUnavailableStatefulSet: false } });
    try {
      const s = await c.client.resource(StatefulSetKind).create(web((s) => (s.spec!.updateStrategy = { rollingUpdate: { maxUnavailable: 3 } })));
      expect(s.spec?.updateStrategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { partition: 0 } });
    } finally {
      await c.close();
    }
  });

  it('keeps an explicit RollingUpdate without rollingUpdate as is, and OnDelete without one', async () => {
    const a = await sts().create(web((s) => (s.spec!.updateStrategy = { type: 'RollingUpdate' })));
    expect(a.spec?.updateStrategy).toEqual({ type: 'RollingUpdate' });
    const b = await sts().create(web((s) => ((s.metadata!.name = 'b'), (s.spec!.updateStrategy = { type: 'OnDelete' }))));
    expect(b.spec?.updateStrategy).toEqual({ type: 'OnDelete' });
  });

  it('defaults each volumeClaimTemplate as a PersistentVolumeClaim', async () => {
    const created = await sts().create(
      web((s) => {
        s.spec!.volumeClaimTemplates = [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
        s.spec!.template.spec!.containers[0]!.volumeMounts = [{ name: 'www', mountPath: '/usr/share/nginx/html' }];
      }),
    );
    expect(created.spec?.volumeClaimTemplates).toEqual([
      {
        metadata: { name: 'www' },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } }, volumeMode: 'Filesystem' },
        status: { phase: 'Pending' },
      },
    ]);
  });

  it('drops the status a create sends', async () => {
    const created = await sts().create(web((s) => (s.status = { replicas: 5, readyReplicas: 5 })));
    expect(created.status).toEqual({ replicas: 0, availableReplicas: 0 });
  });
});

describe('StatefulSet validation', () => {
  it('requires the selector', async () => {
    const status = await rejected(web((s) => delete (s.spec as Partial<NonNullable<StatefulSet['spec']>>).selector));
    expect(status.details?.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'spec.selector' },
      {
        reason: 'FieldValueInvalid',
        message: 'Invalid value: {"app":"web"}: `selector` does not match template `labels`',
        field: 'spec.template.metadata.labels',
      },
    ]);
  });

  it('rejects an empty selector', async () => {
    const status = await rejected(web((s) => (s.spec!.selector = {})));
    expect(status.message).toBe('StatefulSet.apps "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for statefulset');
  });

  it('rejects a selector that does not match the template labels', async () => {
    const status = await rejected(web((s) => (s.spec!.selector = { matchLabels: { app: 'db' } })));
    expect(status.message).toBe(
      'StatefulSet.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    );
    expect(status.details).toMatchObject({ name: 'web', group: 'apps', kind: 'StatefulSet' });
  });

  it('accepts matchExpressions that match', async () => {
    await sts().create(web((s) => (s.spec!.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'x'] }] })));
  });

  it('allows only restartPolicy Always in the template', async () => {
    const status = await rejected(web((s) => (s.spec!.template.spec!.restartPolicy = 'OnFailure')));
    expect(status.message).toBe(
      'StatefulSet.apps "web" is invalid: spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
    );
  });

  it('forbids activeDeadlineSeconds in the template', async () => {
    const status = await rejected(web((s) => (s.spec!.template.spec!.activeDeadlineSeconds = 10)));
    expect(status.message).toBe(
      'StatefulSet.apps "web" is invalid: spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in StatefulSet is not Supported',
    );
  });

  it.each([[-1, 'spec.replicas']])('rejects negative replicas', async (value, field) => {
    const status = await rejected(web((s) => (s.spec!.replicas = value)));
    expect(status.details?.causes).toEqual([{ reason: 'FieldValueInvalid', message: `Invalid value: ${value}: must be greater than or equal to 0`, field }]);
  });

  it('rejects negative minReadySeconds, partition and ordinals.start', async () => {
    const status = await rejected(
      web((s) => {
        s.spec!.minReadySeconds = -1;
        s.spec!.ordinals = { start: -2 };
        s.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { partition: -3 } };
      }),
    );
    expect(status.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'spec.updateStrategy.rollingUpdate.partition: Invalid value: -3: must be greater than or equal to 0',
      'spec.minReadySeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.ordinals.start: Invalid value: -2: must be greater than or equal to 0',
    ]);
  });

  it('rejects an unknown podManagementPolicy and updateStrategy type', async () => {
    const status = await rejected(
      web((s) => {
        s.spec!.podManagementPolicy = 'Random';
        s.spec!.updateStrategy = { type: 'Recreate' };
      }),
    );
    expect(status.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      "spec.podManagementPolicy: Invalid value: \"Random\": must be 'OrderedReady' or 'Parallel'",
      'spec.updateStrategy: Invalid value: {"type":"Recreate"}: must be \'RollingUpdate\' or \'OnDelete\'',
    ]);
  });

  it('rejects rollingUpdate with OnDelete', async () => {
    const status = await rejected(web((s) => (s.spec!.updateStrategy = { type: 'OnDelete', rollingUpdate: { partition: 1 } })));
    expect(status.message).toBe(
      'StatefulSet.apps "web" is invalid: spec.updateStrategy.rollingUpdate: Invalid value: {"partition":1}: only allowed for updateStrategy \'RollingUpdate\'',
    );
  });

  it.each([
    [0, ['Invalid value: 0: cannot be 0']],
    ['0%', ['Invalid value: "0%": cannot be 0']],
    [-1, ['Invalid value: -1: must be greater than or equal to 0']],
    ['101%', ['Invalid value: "101%": must not be greater than 100%']],
    [
      'abc',
      [
        "Invalid value: \"abc\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
        'Invalid value: "abc": cannot be 0',
      ],
    ],
  ] as const)('rejects maxUnavailable %j', async (value, messages) => {
    const status = await rejected(web((s) => (s.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: value } })));
    expect(status.details?.causes).toEqual(
      messages.map((message) => ({ reason: 'FieldValueInvalid', message, field: 'spec.updateStrategy.rollingUpdate.maxUnavailable' })),
    );
  });

  it.each([1, 5, '1%', '50%', '100%'])('accepts maxUnavailable %j', async (value) => {
    const created = await sts().create(web((s) => (s.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: value } })));
    expect(created.spec?.updateStrategy?.rollingUpdate).toEqual({ maxUnavailable: value, partition: 0 });
  });

  it('accepts any non-zero percentage up to 100% (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 0, max: 200 }), async (n) => {
        const value = `${n}%`;
        const name = `p${n}-${Math.random().toString(36).slice(2, 7)}`;
        const ok = n > 0 && n <= 100;
        const attempt = sts().create(
          web((s) => ((s.metadata!.name = name), (s.spec!.updateStrategy = { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: value } }))),
        );
        if (ok) await attempt;
        else expect((await statusOf(() => attempt)).code).toBe(422);
      }),
      { numRuns: 30 },
    );
  });

  it('rejects an unknown retention policy', async () => {
    const status = await rejected(web((s) => (s.spec!.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Keep', whenScaled: 'Delete' })));
    expect(status.message).toBe(
      'StatefulSet.apps "web" is invalid: spec.persistentVolumeClaimRetentionPolicy.whenDeleted: Unsupported value: "Keep": supported values: "Retain", "Delete"',
    );
  });

  it('checks the template labels and annotations', async () => {
    const status = await rejected(
      web((s) => {
        s.spec!.selector = { matchLabels: { app: 'web' } };
        s.spec!.template.metadata = { labels: { app: 'web', 'bad key!': 'x' }, annotations: { 'no good/x/y': 'v' } };
      }),
    );
    expect(status.details?.causes?.map((c) => c.field)).toEqual(['spec.template.labels', 'spec.template.annotations']);
  });

  it('names StatefulSets with DNS labels', async () => {
    const status = await rejected(web((s) => (s.metadata!.name = 'web.v1')));
    expect(status.details?.causes?.[0]).toMatchObject({ field: 'metadata.name', reason: 'FieldValueInvalid' });
    expect(status.details?.causes?.[0]?.message).toBe('Invalid value: "web.v1": must not contain dots');
  });

  it('does not validate the template PodSpec (as Kubernetes, which validates pods when they are created)', async () => {
    await sts().create(
      web((s) => {
        s.spec!.volumeClaimTemplates = [{ metadata: { name: 'www' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
        s.spec!.template.spec!.containers[0]!.volumeMounts = [{ name: 'www', mountPath: '/data' }];
      }),
    );
  });
});

describe('StatefulSet volumeClaimTemplates must be mounted', () => {
  const claim = (name: string) => ({ metadata: { name }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
  const unmounted = (i: number, name: string) => ({
    reason: 'FieldValueInvalid',
    message: `Invalid value: ${JSON.stringify(name)}: must match the name of a volumeMount in the pod template`,
    field: `spec.volumeClaimTemplates[${i}].metadata.name`,
  });

  it('accepts claims mounted by a container or by an init container', async () => {
    const created = await sts().create(
      web((s) => {
        s.spec!.volumeClaimTemplates = [claim('data'), claim('seed')];
        s.spec!.template.spec!.containers[0]!.volumeMounts = [{ name: 'data', mountPath: '/data' }];
        s.spec!.template.spec!.initContainers = [{ name: 'init', image: 'busybox', volumeMounts: [{ name: 'seed', mountPath: '/seed' }] }];
      }),
    );
    expect(created.spec?.volumeClaimTemplates?.map((c) => c.metadata?.name)).toEqual(['data', 'seed']);
  });

  it('rejects each claim no container mounts, naming its metadata.name, and stores nothing', async () => {
    const status = await rejected(
      web((s) => {
        s.spec!.volumeClaimTemplates = [claim('lost'), claim('www'), claim('other')];
        s.spec!.template.spec!.containers[0]!.volumeMounts = [{ name: 'www', mountPath: '/www' }];
      }),
    );
    expect(status.details?.causes).toEqual([unmounted(0, 'lost'), unmounted(2, 'other')]);
    expect(status.message).toBe(
      'StatefulSet.apps "web" is invalid: [spec.volumeClaimTemplates[0].metadata.name: Invalid value: "lost": must match the name of a volumeMount in the pod template, spec.volumeClaimTemplates[2].metadata.name: Invalid value: "other": must match the name of a volumeMount in the pod template]',
    );
    expect((await sts().list()).items).toEqual([]);
  });

  it('does not count a pod volume of the same name as a mount', async () => {
    const status = await rejected(
      web((s) => {
        s.spec!.volumeClaimTemplates = [claim('data')];
        s.spec!.template.spec!.volumes = [{ name: 'data', emptyDir: {} }];
      }),
    );
    expect(status.details?.causes).toEqual([unmounted(0, 'data')]);
  });

  it('checks the rule on update: a template change that drops the mount is rejected', async () => {
    const created = await sts().create(
      web((s) => {
        s.spec!.volumeClaimTemplates = [claim('data')];
        s.spec!.template.spec!.containers[0]!.volumeMounts = [{ name: 'data', mountPath: '/data' }];
      }),
    );
    const next = structuredClone(created);
    next.spec!.template.spec!.containers[0]!.volumeMounts = [{ name: 'elsewhere', mountPath: '/data' }];
    const status = await statusOf(() => sts().update(next));
    expect(status.code).toBe(422);
    expect(status.details?.causes).toEqual([unmounted(0, 'data')]);
    expect((await sts().get('web')).metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    // Moving the mount to another container keeps the claim mounted.
    const moved = structuredClone(created);
    moved.spec!.template.spec!.containers = [
      { ...moved.spec!.template.spec!.containers[0]!, volumeMounts: [] },
      { name: 'sidecar', image: 'busybox', volumeMounts: [{ name: 'data', mountPath: '/data' }] },
    ];
    const updated = await sts().update(moved);
    expect(updated.metadata?.generation).toBe(2);
  });
});

describe('StatefulSet updates', () => {
  it('allows replicas, template, updateStrategy, minReadySeconds, ordinals and the retention policy to change, and bumps generation', async () => {
    const created = await sts().create(web());
    const next = structuredClone(created);
    next.spec!.replicas = 3;
    next.spec!.minReadySeconds = 5;
    next.spec!.ordinals = { start: 2 };
    next.spec!.updateStrategy = { type: 'OnDelete' };
    next.spec!.persistentVolumeClaimRetentionPolicy = { whenDeleted: 'Delete', whenScaled: 'Retain' };
    next.spec!.template.spec!.containers[0]!.image = 'nginx:1.28';
    const updated = await sts().update(next);
    expect(updated.metadata?.generation).toBe(2);
    expect(updated.spec?.replicas).toBe(3);
    expect(updated.status).toEqual({ replicas: 0, availableReplicas: 0 });
  });

  it('keeps the generation when the spec is semantically unchanged (empty maps and lists, equal quantities)', async () => {
    const created = await sts().create(web((s) => (s.spec!.template.spec!.containers[0]!.resources = { limits: { cpu: '1' } })));
    const next = structuredClone(created);
    next.spec!.template.spec!.nodeSelector = {};
    next.spec!.template.spec!.tolerations = [];
    next.spec!.template.spec!.containers[0]!.resources = { limits: { cpu: '1000m' } };
    const updated = await sts().update(next);
    expect(updated.metadata?.generation).toBe(1);
  });

  it.each([
    ['serviceName', (s: StatefulSet) => (s.spec!.serviceName = 'other')],
    ['podManagementPolicy', (s: StatefulSet) => (s.spec!.podManagementPolicy = 'Parallel')],
    ['revisionHistoryLimit', (s: StatefulSet) => (s.spec!.revisionHistoryLimit = 3)],
    [
      'volumeClaimTemplates',
      (s: StatefulSet) => {
        s.spec!.volumeClaimTemplates = [{ metadata: { name: 'x' }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } }];
        s.spec!.template.spec!.containers[0]!.volumeMounts = [{ name: 'x', mountPath: '/x' }];
      },
    ],
  ])('forbids changing %s', async (_field, change) => {
    const created = await sts().create(web());
    const next = structuredClone(created);
    change(next);
    const status = await statusOf(() => sts().update(next));
    expect(status.code).toBe(422);
    expect(status.message).toBe(
      "StatefulSet.apps \"web\" is invalid: spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden",
    );
  });

  it('takes an empty list or map for an absent one in the fields that may not change', async () => {
    const created = await sts().create(web());
    const next = structuredClone(created);
    next.spec!.volumeClaimTemplates = [];
    next.spec!.selector = { ...next.spec!.selector, matchExpressions: [] };
    const updated = await sts().update(next);
    expect(updated.metadata?.generation).toBe(1);
  });

  it('forbids changing the selector, after the spec rules', async () => {
    const created = await sts().create(web());
    const next = structuredClone(created);
    next.spec!.selector = { matchLabels: { app: 'db' } };
    const status = await statusOf(() => sts().update(next));
    expect(status.details?.causes?.map((c) => c.field)).toEqual(['spec.template.metadata.labels', 'spec']);
  });

  it('keeps the status on an update of the main resource', async () => {
    const created = await sts().create(web());
    const next = structuredClone(created);
    next.status = { replicas: 4 };
    const updated = await sts().update(next);
    expect(updated.status).toEqual({ replicas: 0, availableReplicas: 0 });
  });
});

describe('StatefulSet /status', () => {
  it('changes only the status and keeps generation', async () => {
    const created = await sts().create(web());
    const next = structuredClone(created);
    next.spec!.replicas = 7;
    next.status = { replicas: 2, readyReplicas: 2, availableReplicas: 1, currentReplicas: 2, updatedReplicas: 2, observedGeneration: 1 };
    const updated = await sts().updateStatus(next);
    expect(updated.spec?.replicas).toBe(1);
    expect(updated.metadata?.generation).toBe(1);
    expect(updated.status).toEqual({ replicas: 2, readyReplicas: 2, availableReplicas: 1, currentReplicas: 2, updatedReplicas: 2, observedGeneration: 1 });
  });

  it('validates the status', async () => {
    const created = await sts().create(web());
    const next = structuredClone(created);
    next.status = { replicas: 1, readyReplicas: 2, availableReplicas: 3, observedGeneration: -1 };
    const status = await statusOf(() => sts().updateStatus(next));
    expect(status.details?.causes?.map((c) => `${c.field}: ${c.message}`)).toEqual([
      'status.observedGeneration: Invalid value: -1: must be greater than or equal to 0',
      'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than status.readyReplicas',
    ]);
  });

  it('does not let collisionCount go down', async () => {
    const created = await sts().create(web());
    const a = await sts().updateStatus({ ...structuredClone(created), status: { replicas: 0, collisionCount: 2 } });
    const status = await statusOf(() => sts().updateStatus({ ...structuredClone(a), status: { replicas: 0, collisionCount: 1 } }));
    expect(status.message).toBe('StatefulSet.apps "web" is invalid: status.collisionCount: Invalid value: 1: cannot be decremented');
  });
});
