import { describe, expect, it } from 'vitest';
import { appsKinds, StatefulSetKind, type StatefulSet } from '../../src/kinds/apps/index.js';
import { statusOf, useTestCluster } from '../support/cluster.js';

const cluster = useTestCluster({ kinds: appsKinds });
const sts = () => cluster.client.resource(StatefulSetKind);
const apps = () => cluster.client.resource({ group: 'apps', version: 'v1', resource: 'statefulsets' });

function web(): StatefulSet {
  return {
    metadata: { name: 'web' },
    spec: {
      serviceName: 'nginx',
      selector: { matchLabels: { app: 'web', tier: 'db' } },
      template: { metadata: { labels: { app: 'web', tier: 'db' } }, spec: { containers: [{ name: 'nginx', image: 'nginx' }] } },
    },
  };
}

describe('GET /scale', () => {
  it('answers an autoscaling/v1 Scale of the object', async () => {
    const created = await sts().create(web());
    const scale = await sts().getScale('web');
    expect(scale).toEqual({
      kind: 'Scale',
      apiVersion: 'autoscaling/v1',
      metadata: {
        name: 'web',
        namespace: 'default',
        uid: created.metadata!.uid,
        resourceVersion: created.metadata!.resourceVersion,
        creationTimestamp: '2026-01-01T00:00:00Z',
      },
      spec: { replicas: 1 },
      status: { replicas: 0, selector: 'app=web,tier=db' },
    });
  });

  it('is 404 for a missing object', async () => {
    const status = await statusOf(() => sts().getScale('nope'));
    expect(status).toMatchObject({ code: 404, reason: 'NotFound', message: 'statefulsets.apps "nope" not found' });
  });

  it('is 404 for a kind without a scale subresource', async () => {
    const status = await statusOf(() => cluster.client.resource({ version: 'v1', resource: 'configmaps' }).getScale('x'));
    expect(status).toMatchObject({ code: 404, message: 'the server could not find the requested resource' });
  });

  it('does not serve create or delete', async () => {
    await sts().create(web());
    const status = await statusOf(() =>
      cluster.request({
        verb: 'delete',
        resource: { group: 'apps', version: 'v1', resource: 'statefulsets' },
        subresource: 'scale',
        namespace: 'default',
        name: 'web',
        user: { username: 'admin', groups: ['system:masters'] },
      }),
    );
    expect(status.code).toBe(405);
  });
});

describe('PUT /scale', () => {
  it('changes only the replicas, through the update pipeline', async () => {
    await sts().create(web());
    const scale = await sts().getScale('web');
    scale.spec = { replicas: 3 };
    const answered = await sts().updateScale(scale);
    expect(answered.spec).toEqual({ replicas: 3 });
    expect(answered.metadata?.resourceVersion).not.toBe(scale.metadata?.resourceVersion);
    const s = await sts().get('web');
    expect(s.spec?.replicas).toBe(3);
    expect(s.metadata?.generation).toBe(2);
    expect(s.metadata?.resourceVersion).toBe(answered.metadata?.resourceVersion);
  });

  it('scales to zero when the Scale names no replicas', async () => {
    await sts().create(web());
    const answered = await sts().updateScale({ metadata: { name: 'web' } });
    expect(answered.spec).toEqual({});
    expect((await sts().get('web')).spec?.replicas).toBe(0);
  });

  it('honours the resourceVersion precondition', async () => {
    await sts().create(web());
    const scale = await sts().getScale('web');
    await sts().updateScale({ ...scale, spec: { replicas: 2 } });
    const status = await statusOf(() => sts().updateScale({ ...scale, spec: { replicas: 5 } }));
    expect(status).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message:
        'Operation cannot be fulfilled on statefulsets.apps "web": the object has been modified; please apply your changes to the latest version and try again',
    });
  });

  it('honours the uid precondition', async () => {
    await sts().create(web());
    const status = await statusOf(() => sts().updateScale({ metadata: { name: 'web', uid: 'other' }, spec: { replicas: 2 } }));
    expect(status.code).toBe(409);
    expect(status.message).toMatch(
      /^Operation cannot be fulfilled on statefulsets\/scale\.apps "web": Precondition failed: UID in precondition: other, UID in object meta: /,
    );
  });

  it('rejects negative replicas on the Scale', async () => {
    await sts().create(web());
    const status = await statusOf(() => sts().updateScale({ metadata: { name: 'web' }, spec: { replicas: -1 } }));
    expect(status).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -1: must be greater than or equal to 0',
      details: {
        name: 'web',
        group: 'autoscaling',
        kind: 'Scale',
        causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: -1: must be greater than or equal to 0', field: 'spec.replicas' }],
      },
    });
  });

  it('checks the name against the URL', async () => {
    await sts().create(web());
    const status = await statusOf(() =>
      cluster.request({
        verb: 'update',
        resource: { group: 'apps', version: 'v1', resource: 'statefulsets' },
        subresource: 'scale',
        namespace: 'default',
        name: 'web',
        body: { metadata: { name: 'other' } },
        user: { username: 'admin', groups: ['system:masters'] },
      }),
    );
    expect(status).toMatchObject({ code: 400, message: 'the name of the object (other) does not match the name on the URL (web)' });
  });

  it('rejects a body of another kind', async () => {
    await sts().create(web());
    const status = await statusOf(() => sts().updateScale({ apiVersion: 'apps/v1', kind: 'StatefulSet', metadata: { name: 'web' } } as never));
    expect(status.code).toBe(400);
  });

  it('is 404 for a missing object', async () => {
    const status = await statusOf(() => sts().updateScale({ metadata: { name: 'nope' }, spec: { replicas: 1 } }));
    expect(status).toMatchObject({ code: 404, message: 'statefulsets.apps "nope" not found' });
  });

  it('leaves nothing behind on a dry run', async () => {
    await sts().create(web());
    const answered = await sts().updateScale({ metadata: { name: 'web' }, spec: { replicas: 4 } }, { dryRun: true });
    expect(answered.spec).toEqual({ replicas: 4 });
    expect((await sts().get('web')).spec?.replicas).toBe(1);
  });
});

describe('PATCH /scale', () => {
  it.each([
    ['merge', { spec: { replicas: 3 } }],
    ['strategic', { spec: { replicas: 3 } }],
    ['json', [{ op: 'replace', path: '/spec/replicas', value: 3 }]],
    ['apply', { apiVersion: 'autoscaling/v1', kind: 'Scale', metadata: { name: 'web' }, spec: { replicas: 3 } }],
  ] as const)('%s patches the Scale', async (type, patch) => {
    await sts().create(web());
    const answered = await sts().patchScale('web', patch, { type, fieldManager: 'tester' });
    expect(answered).toMatchObject({ kind: 'Scale', spec: { replicas: 3 }, status: { replicas: 0, selector: 'app=web,tier=db' } });
    expect((await sts().get('web')).spec?.replicas).toBe(3);
  });

  it('works through the generic patch with subresource scale', async () => {
    await sts().create(web());
    const answered = await apps().patch('web', { spec: { replicas: 2 } }, { type: 'merge', subresource: 'scale' });
    expect(answered).toMatchObject({ kind: 'Scale', spec: { replicas: 2 } });
  });

  it('records the scale write in managedFields', async () => {
    await sts().create(web(), { fieldManager: 'creator' });
    await sts().patchScale('web', { spec: { replicas: 2 } }, { type: 'merge', fieldManager: 'scaler' });
    const s = await sts().get('web');
    const entry = (s.metadata?.managedFields ?? []).find((m) => (m as { manager?: string }).manager === 'scaler');
    expect(entry).toMatchObject({ manager: 'scaler', operation: 'Update', subresource: 'scale', fieldsV1: { 'f:spec': { 'f:replicas': {} } } });
  });

  it('rejects negative replicas', async () => {
    await sts().create(web());
    const status = await statusOf(() => sts().patchScale('web', { spec: { replicas: -2 } }, { type: 'merge' }));
    expect(status.message).toBe('Scale.autoscaling "web" is invalid: spec.replicas: Invalid value: -2: must be greater than or equal to 0');
  });

  it('a resourceVersion in the patch is a precondition', async () => {
    await sts().create(web());
    const status = await statusOf(() => sts().patchScale('web', { metadata: { resourceVersion: '1' }, spec: { replicas: 2 } }, { type: 'merge' }));
    expect(status.code).toBe(409);
  });

  it('answers 415 for an unknown patch type', async () => {
    await sts().create(web());
    const status = await statusOf(() => sts().patchScale('web', {}, { type: 'yaml' as never }));
    expect(status.code).toBe(415);
  });

  it('is 404 for a missing object', async () => {
    const status = await statusOf(() => sts().patchScale('nope', { spec: { replicas: 2 } }, { type: 'merge' }));
    expect(status.code).toBe(404);
  });
});

describe('/scale over HTTP', () => {
  it('is listed in discovery as autoscaling/v1 Scale', async () => {
    const res = await cluster.fetch(new Request('http://memkube/apis/apps/v1'));
    const body = (await res.json()) as { resources: { name: string }[] };
    expect(body.resources.find((r) => r.name === 'statefulsets/scale')).toEqual({
      name: 'statefulsets/scale',
      singularName: '',
      namespaced: true,
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
      verbs: ['get', 'patch', 'update'],
    });
    expect(body.resources.map((r) => r.name)).toEqual([
      'controllerrevisions',
      'daemonsets',
      'daemonsets/status',
      'deployments',
      'deployments/scale',
      'deployments/status',
      'replicasets',
      'replicasets/scale',
      'replicasets/status',
      'statefulsets',
      'statefulsets/scale',
      'statefulsets/status',
    ]);
  });

  it('is listed in aggregated discovery with its response kind', async () => {
    const res = await cluster.fetch(
      new Request('http://memkube/apis', { headers: { accept: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' } }),
    );
    const body = (await res.json()) as { items: { metadata: { name: string }; versions: { resources: { resource: string; subresources?: unknown[] }[] }[] }[] };
    const apps = body.items.find((g) => g.metadata.name === 'apps')!;
    const resource = apps.versions[0]!.resources.find((r) => r.resource === 'statefulsets')!;
    expect(resource.subresources).toEqual([
      { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
      { subresource: 'status', responseKind: { group: 'apps', version: 'v1', kind: 'StatefulSet' }, verbs: ['get', 'patch', 'update'] },
    ]);
  });

  it('GET and PATCH /scale answer a Scale', async () => {
    await sts().create(web());
    const url = 'http://memkube/apis/apps/v1/namespaces/default/statefulsets/web/scale';
    const patched = await cluster.fetch(
      new Request(url, { method: 'PATCH', headers: { 'content-type': 'application/merge-patch+json' }, body: JSON.stringify({ spec: { replicas: 3 } }) }),
    );
    expect(patched.status).toBe(200);
    expect(await patched.json()).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 3 } });
    const got = await cluster.fetch(new Request(url));
    expect(await got.json()).toMatchObject({ kind: 'Scale', spec: { replicas: 3 }, status: { replicas: 0, selector: 'app=web,tier=db' } });
  });
});
