import { describe, expect, it } from 'vitest';
import { ReplicationControllerKind, type ReplicationController } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const rcs = () => cluster.client.resource(ReplicationControllerKind);

/** An RC `web` whose template is labelled `app=web`, changed by `patch`. */
function web(patch: (rc: ReplicationController) => void = () => {}): ReplicationController {
  const rc: ReplicationController = {
    metadata: { name: 'web' },
    spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'nginx', image: 'nginx:1.27' }] } } },
  };
  patch(rc);
  return rc;
}

async function causes(rc: ReplicationController) {
  const status = await statusOf(() => rcs().create(rc));
  expect(status.code).toBe(422);
  return (status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`);
}

async function table(path: string, wide = false) {
  const res = await cluster.fetch(
    new Request(`http://memkube${path}${wide ? '?includeObject=None' : ''}`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }),
  );
  return (await res.json()) as { columnDefinitions: { name: string; priority: number; type: string }[]; rows: { cells: unknown[] }[] };
}

describe('ReplicationController defaults', () => {
  it('defaults the selector and the labels from the template, one replica, the template PodSpec and the zero status', async () => {
    const created = await rcs().create(web());
    expect(created.metadata?.labels).toEqual({ app: 'web' });
    expect(created.metadata?.generation).toBe(1);
    expect(created.spec?.selector).toEqual({ app: 'web' });
    expect(created.spec?.replicas).toBe(1);
    expect(created.spec?.template?.spec?.restartPolicy).toBe('Always');
    expect(created.spec?.template?.spec?.dnsPolicy).toBe('ClusterFirst');
    expect(created.spec?.template?.spec?.terminationGracePeriodSeconds).toBe(30);
    expect(created.spec?.template?.spec?.containers[0]?.imagePullPolicy).toBe('IfNotPresent');
    expect(created.status).toEqual({ replicas: 0 });
  });

  it('keeps a selector and labels that were given, and 0 replicas', async () => {
    const created = await rcs().create(
      web((rc) => {
        rc.metadata!.labels = { team: 'a' };
        rc.spec!.selector = { app: 'web' };
        rc.spec!.replicas = 0;
        rc.spec!.template!.metadata!.labels = { app: 'web', tier: 'fe' };
      }),
    );
    expect(created.metadata?.labels).toEqual({ team: 'a' });
    expect(created.spec?.selector).toEqual({ app: 'web' });
    expect(created.spec?.replicas).toBe(0);
  });

  it('drops a status sent on create', async () => {
    const created = await rcs().create(web((rc) => (rc.status = { replicas: 4, readyReplicas: 2 })));
    expect(created.status).toEqual({ replicas: 0 });
  });
});

describe('ReplicationController validation', () => {
  it('requires a selector and a template', async () => {
    expect(await causes({ metadata: { name: 'x' }, spec: {} })).toEqual(['spec.selector: Required value', 'spec.template: Required value']);
  });

  it('rejects a selector that does not match the template labels', async () => {
    expect(await causes(web((rc) => (rc.spec!.selector = { app: 'other' })))).toEqual([
      'spec.template.metadata.labels: Invalid value: {"app":"web"}: `selector` does not match template `labels`',
    ]);
  });

  it('rejects negative replicas and minReadySeconds', async () => {
    expect(
      await causes(
        web((rc) => {
          rc.spec!.replicas = -1;
          rc.spec!.minReadySeconds = -2;
        }),
      ),
    ).toEqual([
      'spec.minReadySeconds: Invalid value: -2: must be greater than or equal to 0',
      'spec.replicas: Invalid value: -1: must be greater than or equal to 0',
    ]);
  });

  it('allows only restartPolicy Always and no activeDeadlineSeconds', async () => {
    expect(
      await causes(
        web((rc) => {
          rc.spec!.template!.spec!.restartPolicy = 'OnFailure';
          rc.spec!.template!.spec!.activeDeadlineSeconds = 5;
        }),
      ),
    ).toEqual([
      'spec.template.spec.restartPolicy: Unsupported value: "OnFailure": supported values: "Always"',
      'spec.template.spec.activeDeadlineSeconds: Invalid value: 5: must not be specified',
    ]);
  });

  it('validates the pod template as a PodSpec, with paths under spec.template', async () => {
    expect(
      await causes(
        web((rc) => {
          rc.spec!.template!.spec!.containers = [{ name: 'Bad_Name', image: 'nginx', ports: [{ containerPort: 70000 }] }];
          rc.spec!.template!.metadata!.labels = { app: 'web', 'bad key!': 'x' };
        }),
      ),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^spec\.template\.labels: Invalid value: "bad key!": /),
        expect.stringMatching(/^spec\.template\.spec\.containers\[0\]\.name: Invalid value: "Bad_Name": /),
        'spec.template.spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive',
      ]),
    );
  });

  it('forbids ephemeral containers in the template', async () => {
    const list = await causes(web((rc) => (rc.spec!.template!.spec!.ephemeralContainers = [{ name: 'debug', image: 'busybox' }])));
    expect(list).toContain('spec.template.spec.ephemeralContainers: Forbidden: ephemeral containers not allowed in pod template');
  });

  it('checks the spec again on update and bumps the generation only when the spec changes', async () => {
    const created = await rcs().create(web());
    const relabelled = await rcs().update({ ...created, metadata: { ...created.metadata, labels: { app: 'web', x: 'y' } } });
    expect(relabelled.metadata?.generation).toBe(1);
    const scaled = await rcs().update({ ...relabelled, spec: { ...relabelled.spec, replicas: 3 } });
    expect(scaled.metadata?.generation).toBe(2);
    const status = await statusOf(() => rcs().update({ ...scaled, spec: { ...scaled.spec, replicas: -3 } }));
    expect(status.code).toBe(422);
    expect(status.message).toContain('spec.replicas: Invalid value: -3: must be greater than or equal to 0');
  });
});

describe('ReplicationController /status and /scale', () => {
  it('changes only the status through /status and checks the counts', async () => {
    const created = await rcs().create(web());
    const updated = await rcs().updateStatus({ ...created, spec: { ...created.spec, replicas: 9 }, status: { replicas: 2, readyReplicas: 1 } });
    expect(updated.spec?.replicas).toBe(1);
    expect(updated.status).toEqual({ replicas: 2, readyReplicas: 1 });
    const status = await statusOf(() => rcs().updateStatus({ ...updated, status: { replicas: 1, readyReplicas: 2, availableReplicas: 3 } }));
    expect(status.code).toBe(422);
    expect((status.details?.causes ?? []).map((c) => `${c.field}: ${c.message}`)).toEqual([
      'status.readyReplicas: Invalid value: 2: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than status.replicas',
      'status.availableReplicas: Invalid value: 3: cannot be greater than readyReplicas',
    ]);
  });

  it('reads and writes replicas through /scale, with the selector as a string', async () => {
    await rcs().create(web((rc) => (rc.spec!.selector = { app: 'web' })));
    const scale = await rcs().getScale('web');
    expect(scale.spec).toEqual({ replicas: 1 });
    expect(scale.status).toEqual({ replicas: 0, selector: 'app=web' });
    await rcs().updateScale({ ...scale, spec: { replicas: 5 } });
    expect((await rcs().get('web')).spec?.replicas).toBe(5);
  });
});

describe('ReplicationController listing', () => {
  it('selects on status.replicas and rejects other fields', async () => {
    await rcs().create(web());
    const other = await rcs().create(web((rc) => (rc.metadata!.name = 'other')));
    await rcs().updateStatus({ ...other, status: { replicas: 3 } });
    expect((await rcs().list({ fieldSelector: 'status.replicas=3' })).items.map((r) => r.metadata?.name)).toEqual(['other']);
    const status = await statusOf(() => rcs().list({ fieldSelector: 'spec.replicas=1' }));
    expect(status.code).toBe(400);
    expect(status.message).toContain('field label not supported: spec.replicas');
  });

  it('prints Desired, Current, Ready, Age and the wide Containers, Images, Selector', async () => {
    await rcs().create(
      web((rc) => {
        rc.spec!.replicas = 2;
        rc.spec!.template!.spec!.containers.push({ name: 'side', image: 'busybox' });
      }),
    );
    const t = await table('/api/v1/namespaces/default/replicationcontrollers');
    expect(t.columnDefinitions.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Desired', 'integer', 0],
      ['Current', 'integer', 0],
      ['Ready', 'integer', 0],
      ['Age', 'string', 0],
      ['Containers', 'string', 1],
      ['Images', 'string', 1],
      ['Selector', 'string', 1],
    ]);
    expect(t.rows[0]!.cells).toEqual(['web', 2, 0, 0, '0s', 'nginx,side', 'nginx:1.27,busybox', 'app=web']);
  });

  it('is in the all category with the short name rc', () => {
    expect(ReplicationControllerKind.shortNames).toEqual(['rc']);
    expect(ReplicationControllerKind.categories).toEqual(['all']);
  });
});
