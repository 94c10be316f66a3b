import { describe, expect, it } from 'vitest';
import { createCluster } from '../../../src/cluster.js';
import { DeploymentKind, type Deployment } from '../../../src/kinds/apps/index.js';
import { statusOf, T0, useTestCluster } from '../../support/cluster.js';
import { causesOf, tableOf } from './workload-helpers.js';

const cluster = useTestCluster();
const deployments = () => cluster.client.resource(DeploymentKind);

type Spec = NonNullable<Deployment['spec']>;

/** A Deployment `web` selecting `app=web`, changed by `patch`. */
function web(patch: (d: Deployment & { spec: Spec }) => void = () => {}): Deployment {
  const d: Deployment & { spec: Spec } = {
    metadata: { name: 'web' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } },
    },
  };
  patch(d);
  return d;
}

/** The 422 of creating `d`. */
async function rejected(d: Deployment) {
  const status = await statusOf(() => deployments().create(d));
  expect(status.code).toBe(422);
  expect(status.reason).toBe('Invalid');
  expect((await deployments().list()).items).toHaveLength(0);
  return status;
}

describe('Deployment defaults', () => {
  it('fills the v1 defaults, the pod template defaults and the empty status', async () => {
    const created = await deployments().create(web());
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
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: '25%' } },
      revisionHistoryLimit: 10,
      progressDeadlineSeconds: 600,
    });
    expect(created.status).toEqual({});
    expect(created.metadata?.generation).toBe(1);
  });

  it('fills only the missing half of rollingUpdate, and nothing for Recreate', async () => {
    const a = await deployments().create(web((d) => (d.spec.strategy = { rollingUpdate: { maxSurge: 0 } })));
    expect(a.spec?.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxUnavailable: '25%', maxSurge: 0 } });
    const b = await deployments().create(web((d) => ((d.metadata!.name = 'b'), (d.spec.strategy = { type: 'Recreate' }))));
    expect(b.spec?.strategy).toEqual({ type: 'Recreate' });
  });

  it('keeps replicas 0 and the values it was sent', async () => {
    const created = await deployments().create(
      web((d) => Object.assign(d.spec, { replicas: 0, revisionHistoryLimit: 0, progressDeadlineSeconds: 30, minReadySeconds: 5, paused: true })),
    );
    expect(created.spec).toMatchObject({ replicas: 0, revisionHistoryLimit: 0, progressDeadlineSeconds: 30, minReadySeconds: 5, paused: true });
  });

  it('gives the template the PodSpec defaults only (no requests from limits, no enableServiceLinks)', async () => {
    const created = await deployments().create(web((d) => (d.spec.template.spec!.containers[0]!.resources = { limits: { cpu: '1' } })));
    expect(created.spec?.template.spec?.containers[0]?.resources).toEqual({ limits: { cpu: '1' } });
    expect(created.spec?.template.spec?.enableServiceLinks).toBeUndefined();
  });

  it('drops the status a create sends', async () => {
    const created = await deployments().create(web((d) => (d.status = { replicas: 3, readyReplicas: 3 })));
    expect(created.status).toEqual({});
  });

  it('answers a malformed quantity in the template with 400', async () => {
    const status = await statusOf(() => deployments().create(web((d) => (d.spec.template.spec!.containers[0]!.resources = { limits: { cpu: '1x' } }))));
    expect(status.code).toBe(400);
    expect(status.message).toMatch(/^Deployment in version "v1" cannot be handled as a Deployment: /);
  });
});

describe('Deployment validation', () => {
  it('requires the selector, which then matches no labels', async () => {
    const status = await rejected(web((d) => delete (d.spec as Partial<Spec>).selector));
    expect(causesOf(status)).toEqual([
      'spec.selector: Required value',
      'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    ]);
  });

  it('rejects an empty selector', async () => {
    const status = await rejected(web((d) => (d.spec.selector = {})));
    expect(status.message).toBe('Deployment.apps "web" is invalid: spec.selector: Invalid value: {}: empty selector is invalid for deployment');
  });

  it('rejects a selector that does not match the template labels', async () => {
    const status = await rejected(web((d) => (d.spec.selector = { matchLabels: { app: 'db' } })));
    expect(status.message).toBe(
      'Deployment.apps "web" is invalid: spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    );
  });

  it('accepts a matchExpressions selector that matches', async () => {
    const d = await deployments().create(web((d) => (d.spec.selector = { matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'x'] }] })));
    expect(d.spec?.selector).toEqual({ matchExpressions: [{ key: 'app', operator: 'In', values: ['web', 'x'] }] });
  });

  it('skips the template rules when the selector does not parse', async () => {
    const status = await rejected(
      web((d) => {
        d.spec.selector = { matchExpressions: [{ key: 'app', operator: 'Near', values: ['web'] }] };
        d.spec.template.spec!.containers[0]!.image = '';
      }),
    );
    expect(causesOf(status)).toEqual([
      'spec.selector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator',
      'spec.selector: Invalid value: {"matchExpressions":[{"key":"app","operator":"Near","values":["web"]}]}: invalid label selector',
    ]);
  });

  it('validates the pod template as a pod template', async () => {
    const status = await rejected(
      web((d) => {
        d.spec.template.metadata!.labels!['bad key'] = 'x';
        d.spec.template.spec!.containers.push({ name: 'Side_Car', image: '' });
      }),
    );
    expect(causesOf(status)).toEqual([
      "spec.template.labels: Invalid value: \"bad key\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      "spec.template.spec.containers[1].name: Invalid value: \"Side_Car\": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
      'spec.template.spec.containers[1].image: Required value',
    ]);
  });

  it('allows only restartPolicy Always, after the PodSpec rules', async () => {
    const status = await rejected(web((d) => (d.spec.template.spec!.restartPolicy = 'OnFailure')));
    expect(status.message).toBe(
      'Deployment.apps "web" is invalid: spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
    );
  });

  it('forbids activeDeadlineSeconds, naming ReplicaSet as Kubernetes does', async () => {
    const status = await rejected(web((d) => (d.spec.template.spec!.activeDeadlineSeconds = 30)));
    expect(status.message).toBe(
      'Deployment.apps "web" is invalid: spec.template.spec.activeDeadlineSeconds: Forbidden: activeDeadlineSeconds in ReplicaSet is not Supported',
    );
  });

  it('forbids ephemeral containers in the template', async () => {
    const status = await rejected(web((d) => (d.spec.template.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox' }])));
    expect(causesOf(status)).toContain('spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template');
  });

  it('rejects negative replicas, minReadySeconds and revisionHistoryLimit', async () => {
    const status = await rejected(web((d) => Object.assign(d.spec, { replicas: -1, minReadySeconds: -2, revisionHistoryLimit: -3 })));
    expect(causesOf(status)).toEqual([
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      'spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0',
      'spec.revisionHistoryLimit: Invalid value: -3: must be greater than or equal to 0',
    ]);
  });

  it('wants progressDeadlineSeconds above minReadySeconds', async () => {
    const status = await rejected(web((d) => Object.assign(d.spec, { minReadySeconds: 10, progressDeadlineSeconds: 10 })));
    expect(status.message).toBe('Deployment.apps "web" is invalid: spec.progressDeadlineSeconds: Invalid value: 10: must be greater than minReadySeconds');
    const negative = await rejected(web((d) => Object.assign(d.spec, { progressDeadlineSeconds: -1 })));
    expect(causesOf(negative)).toEqual([
      'spec.progressDeadlineSeconds: Invalid value: -1: must be greater than or equal to 0',
      'spec.progressDeadlineSeconds: Invalid value: -1: must be greater than minReadySeconds',
    ]);
  });

  it('forbids rollingUpdate with Recreate and refuses an unknown strategy type', async () => {
    const recreate = await rejected(web((d) => (d.spec.strategy = { type: 'Recreate', rollingUpdate: { maxSurge: 1 } })));
    expect(recreate.message).toBe(
      'Deployment.apps "web" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is \'Recreate\'',
    );
    const unknown = await rejected(web((d) => (d.spec.strategy = { type: 'Canary' })));
    expect(unknown.message).toBe(
      'Deployment.apps "web" is invalid: spec.strategy: Unsupported value: {"type":"Canary"}: supported values: "Recreate", "RollingUpdate"',
    );
  });

  it.each([
    [{ maxUnavailable: 0, maxSurge: 0 }, ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: 0: may not be 0 when `maxSurge` is 0']],
    [{ maxUnavailable: '0%', maxSurge: '0%' }, ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "0%": may not be 0 when `maxSurge` is 0']],
    [{ maxUnavailable: '150%' }, ['spec.strategy.rollingUpdate.maxUnavailable: Invalid value: "150%": must not be greater than 100%']],
    [{ maxSurge: -1 }, ['spec.strategy.rollingUpdate.maxSurge: Invalid value: -1: must be greater than or equal to 0']],
    [
      { maxUnavailable: 'half' },
      [
        "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: \"half\": a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
      ],
    ],
  ])('checks rollingUpdate %j', async (rollingUpdate, causes) => {
    const status = await rejected(web((d) => (d.spec.strategy = { type: 'RollingUpdate', rollingUpdate })));
    expect(causesOf(status)).toEqual(causes);
  });

  it.each([{ maxSurge: '200%' }, { maxUnavailable: 0, maxSurge: 1 }, { maxUnavailable: '100%', maxSurge: 0 }])('accepts rollingUpdate %j', async (ru) => {
    const created = await deployments().create(web((d) => (d.spec.strategy = { rollingUpdate: ru })));
    expect(created.spec?.strategy?.rollingUpdate).toMatchObject(ru);
  });

  it('reads the deprecated rollback annotation as Kubernetes converts it', async () => {
    const ann = 'deprecated.deployment.rollback.to';
    const negative = await rejected(web((d) => (d.metadata!.annotations = { [ann]: '-1' })));
    expect(negative.message).toBe('Deployment.apps "web" is invalid: spec.rollback.version: Invalid value: -1: must be greater than or equal to 0');
    const malformed = await statusOf(() => deployments().create(web((d) => (d.metadata!.annotations = { [ann]: 'two' }))));
    expect(malformed).toMatchObject({
      code: 400,
      message:
        'Deployment in version "v1" cannot be handled as a Deployment: failed to parse annotation[deprecated.deployment.rollback.to]=two as int64: strconv.ParseInt: parsing "two": invalid syntax',
    });
    const empty = await deployments().create(web((d) => (d.metadata!.annotations = { [ann]: '', keep: 'x' })));
    expect(empty.metadata?.annotations).toEqual({ keep: 'x' });
    const kept = await deployments().create(web((d) => ((d.metadata!.name = 'w2'), (d.metadata!.annotations = { [ann]: '3' }))));
    expect(kept.metadata?.annotations).toEqual({ [ann]: '3' });
  });

  it('takes DNS subdomain names and warns about those that are no DNS label', async () => {
    const warnings: string[] = [];
    await deployments().create(
      web((d) => (d.metadata!.name = 'web.v1')),
      { onWarning: (w) => warnings.push(...w) },
    );
    expect(warnings).toEqual([
      'metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]',
    ]);
    const status = await statusOf(() => deployments().create(web((d) => (d.metadata!.name = 'Web'))));
    expect(causesOf(status)[0]).toMatch(/^metadata\.name: Invalid value: "Web": a lowercase RFC 1123 subdomain/);
  });

  it('warns about the pod template under spec.template', async () => {
    const warnings: string[] = [];
    await deployments().create(
      web((d) => (d.spec.template.spec!.nodeSelector = { 'beta.kubernetes.io/arch': 'amd64' })),
      { onWarning: (w) => warnings.push(...w) },
    );
    expect(warnings).toEqual(['spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use "kubernetes.io/arch" instead']);
  });
});

describe('Deployment updates', () => {
  it('bumps the generation for a spec or an annotation change, not for labels', async () => {
    const created = await deployments().create(web());
    const relabelled = await deployments().update({ ...created, metadata: { ...created.metadata, labels: { tier: 'front' } } });
    expect(relabelled.metadata?.generation).toBe(1);
    const annotated = await deployments().update({ ...relabelled, metadata: { ...relabelled.metadata, annotations: { note: 'x' } } });
    expect(annotated.metadata?.generation).toBe(2);
    const scaled = await deployments().patch('web', { spec: { replicas: 4 } }, { type: 'merge' });
    expect(scaled.metadata?.generation).toBe(3);
    const same = await deployments().patch('web', { spec: { selector: { matchExpressions: [] } } }, { type: 'merge' });
    expect(same.metadata?.generation).toBe(3);
  });

  it('forbids changing the selector, after the spec rules', async () => {
    const created = await deployments().create(web());
    const next = structuredClone(created);
    next.spec!.selector = { matchLabels: { app: 'db' } };
    const status = await statusOf(() => deployments().update(next));
    expect(causesOf(status)).toEqual([
      'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
      'spec.selector: Invalid value: {"matchLabels":{"app":"db"}}: field is immutable',
    ]);
    next.spec!.template.metadata!.labels = { app: 'db' };
    const only = await statusOf(() => deployments().update(next));
    expect(only.message).toBe('Deployment.apps "web" is invalid: spec.selector: Invalid value: {"matchLabels":{"app":"db"}}: field is immutable');
  });

  it('switches to Recreate with the $retainKeys patch kubectl apply sends', async () => {
    await deployments().create(web());
    const patched = await deployments().patch('web', { spec: { strategy: { $retainKeys: ['type'], type: 'Recreate' } } }, { type: 'strategic' });
    expect(patched.spec?.strategy).toEqual({ type: 'Recreate' });
    await deployments().patch('web', { spec: { strategy: { type: 'RollingUpdate' } } }, { type: 'merge' });
    const kept = await statusOf(() => deployments().patch('web', { spec: { strategy: { type: 'Recreate' } } }, { type: 'merge' }));
    expect(kept.message).toBe(
      'Deployment.apps "web" is invalid: spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is \'Recreate\'',
    );
  });

  it('keeps the status on an update of the main resource', async () => {
    const created = await deployments().create(web());
    const updated = await deployments().update({ ...created, status: { replicas: 4 } });
    expect(updated.status).toEqual({});
  });

  it('runs the create rules on update', async () => {
    const created = await deployments().create(web());
    const status = await statusOf(() => deployments().update({ ...created, spec: { ...created.spec!, replicas: -1 } }));
    expect(status.message).toBe('Deployment.apps "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });

  it('warns about the template on an update only when the generation moves', async () => {
    const created = await deployments().create(web((d) => (d.spec.template.spec!.nodeSelector = { 'beta.kubernetes.io/os': 'linux' })));
    const warnings: string[] = [];
    const onWarning = (w: readonly string[]) => warnings.push(...w);
    await deployments().update({ ...created, metadata: { ...created.metadata, labels: { a: 'b' } } }, { onWarning });
    expect(warnings).toEqual([]);
    await deployments().patch('web', { spec: { replicas: 2 } }, { type: 'merge', onWarning });
    expect(warnings).toEqual(['spec.template.spec.nodeSelector[beta.kubernetes.io/os]: deprecated since v1.14; use "kubernetes.io/os" instead']);
  });
});

describe('Deployment /status', () => {
  it('changes only the status, keeping spec and generation', async () => {
    const created = await deployments().create(web());
    const next = structuredClone(created);
    next.spec!.replicas = 9;
    next.status = { observedGeneration: 1, replicas: 1, updatedReplicas: 1, readyReplicas: 1, availableReplicas: 1, terminatingReplicas: 0 };
    const updated = await deployments().updateStatus(next);
    expect(updated.spec?.replicas).toBe(1);
    expect(updated.metadata?.generation).toBe(1);
    expect(updated.status).toEqual(next.status);
  });

  it('validates the status', async () => {
    const created = await deployments().create(web());
    const status = await statusOf(() =>
      deployments().updateStatus({
        ...created,
        status: {
          replicas: 1,
          updatedReplicas: 2,
          readyReplicas: 1,
          availableReplicas: 2,
          unavailableReplicas: -1,
          terminatingReplicas: -1,
          collisionCount: -1,
        },
      }),
    );
    expect(causesOf(status)).toEqual([
      'status.unavailableReplicas: Invalid value: -1: must be greater than or equal to 0',
      'status.terminatingReplicas: Invalid value: -1: must be greater than or equal to 0',
      'status.collisionCount: Invalid value: -1: must be greater than or equal to 0',
      'status.updatedReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 2: cannot be greater than readyReplicas',
    ]);
  });

  it('refuses a collisionCount that goes down', async () => {
    const created = await deployments().create(web());
    const counted = await deployments().updateStatus({ ...created, status: { collisionCount: 2 } });
    const status = await statusOf(() => deployments().updateStatus({ ...counted, status: { collisionCount: 1 } }));
    expect(status.message).toBe('Deployment.apps "web" is invalid: status.collisionCount: Invalid value: 1: cannot be decremented');
    const dropped = await statusOf(() => deployments().updateStatus({ ...counted, status: {} }));
    expect(dropped.message).toBe('Deployment.apps "web" is invalid: status.collisionCount: Invalid value: 0: cannot be decremented');
  });

  it('drops a new terminatingReplicas when DeploymentReplicaSetTerminatingReplicas is off', async () => {
    const c = await createCluster({ clock: T0, featureGates: { DeploymentReplicaSetTerminatingReplicas: false } });
    try {
      const r = c.client.resource(DeploymentKind);
      const created = await r.create(web());
      const updated = await r.updateStatus({ ...created, status: { replicas: 1, terminatingReplicas: 1 } });
      expect(updated.status).toEqual({ replicas: 1 });
    } finally {
      await c.close();
    }
  });
});

describe('Deployment /scale', () => {
  it('reads and writes the replicas, with the selector as a string', async () => {
    await deployments().create(web((d) => (d.spec.replicas = 2)));
    const scale = await deployments().getScale('web');
    expect(scale).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 2 }, status: { replicas: 0, selector: 'app=web' } });
    const scaled = await deployments().patchScale('web', { spec: { replicas: 5 } }, { type: 'merge' });
    expect(scaled.spec?.replicas).toBe(5);
    const d = await deployments().get('web');
    expect(d.spec?.replicas).toBe(5);
    expect(d.metadata?.generation).toBe(2);
  });

  it('rejects negative replicas', async () => {
    await deployments().create(web());
    const status = await statusOf(() => deployments().patchScale('web', { spec: { replicas: -1 } }, { type: 'merge' }));
    expect(status.message).toBe('Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0');
  });
});

describe('Deployment reads', () => {
  it('prints READY, UP-TO-DATE, AVAILABLE, AGE and, wide, CONTAINERS, IMAGES, SELECTOR', async () => {
    const created = await deployments().create(
      web((d) => {
        d.spec.replicas = 3;
        d.spec.template.spec!.containers.push({ name: 'sidecar', image: 'busybox' });
      }),
    );
    await deployments().updateStatus({ ...created, status: { replicas: 3, updatedReplicas: 2, readyReplicas: 1, availableReplicas: 1 } });
    const table = await tableOf(cluster, 'deployments');
    expect(table.columnDefinitions.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Ready', 'string', 0],
      ['Up-to-date', 'string', 0],
      ['Available', 'string', 0],
      ['Age', 'string', 0],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
      ['Selector', 'string', 1],
    ]);
    expect(table.columnDefinitions[1]!.description).toBe('Number of the pod with ready state');
    expect(table.rows.map((r) => r.cells)).toEqual([['web', '1/3', 2, 1, '0s', 'nginx,sidecar', 'nginx:1.27,busybox', 'app=web']]);
  });

  it('prints a set-based selector as Kubernetes writes it', async () => {
    await deployments().create(
      web((d) => (d.spec.selector = { matchLabels: { app: 'web' }, matchExpressions: [{ key: 'tier', operator: 'NotIn', values: ['db', 'cache'] }] })),
    );
    const table = await tableOf(cluster, 'deployments');
    expect(table.rows[0]!.cells[7]).toBe('app=web,tier notin (cache,db)');
  });

  it('selects by metadata only', async () => {
    await deployments().create(web());
    expect((await deployments().list({ fieldSelector: 'metadata.name=web' })).items).toHaveLength(1);
    const status = await statusOf(() => deployments().list({ fieldSelector: 'status.replicas=0' }));
    expect(status).toMatchObject({ code: 400, message: '"status.replicas" is not a known field selector: only "metadata.name", "metadata.namespace"' });
  });

  it('is in the all category with the short name deploy', () => {
    expect(DeploymentKind.shortNames).toEqual(['deploy']);
    expect(DeploymentKind.categories).toEqual(['all']);
  });
});

describe('Deployment hostile input', () => {
  it.each([
    ['replicas as a string', { replicas: 'three' }],
    ['the template as a list', { template: [] }],
    ['a selector label that is a number', { selector: { matchLabels: { app: 5 } } }],
    ['a maxSurge that is an object', { strategy: { rollingUpdate: { maxSurge: { n: 1 } } } }],
    ['replicas beyond int32', { replicas: 2 ** 31 }],
    ['a selector key with a slash too many', { selector: { matchLabels: { 'a/b/c': 'x' } } }],
    ['a progressDeadlineSeconds below minReadySeconds', { minReadySeconds: 100, progressDeadlineSeconds: 50 }],
  ])('answers %s with a 4xx and stores nothing', async (_, over) => {
    const d = web();
    Object.assign(d.spec!, over);
    const status = await statusOf(() => deployments().create(d));
    expect(status.code).toBeGreaterThanOrEqual(400);
    expect(status.code).toBeLessThan(500);
    expect((await deployments().list()).items).toHaveLength(0);
  });
});
