import { describe, expect, it } from 'vitest';
import type { CustomResourceDefinition } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const crds = () => cluster.client.resource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' });
const crontabs = (version = 'v1') => cluster.client.resource({ group: 'stable.example.com', version, resource: 'crontabs' });

function definition(names: Partial<CustomResourceDefinition['spec']['names']> = {}, plural = 'crontabs'): CustomResourceDefinition {
  return {
    metadata: { name: `${plural}.stable.example.com` },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural, singular: plural.replace(/s$/, ''), kind: 'CronTab', shortNames: ['ct'], ...names },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' } } } } } },
        },
      ],
    },
  };
}

const TIME = '2026-01-01T00:00:00Z';
const namesAccepted = { type: 'NamesAccepted', status: 'True', lastTransitionTime: TIME, reason: 'NoConflicts', message: 'no conflicts found' };
const established = {
  type: 'Established',
  status: 'True',
  lastTransitionTime: TIME,
  reason: 'InitialNamesAccepted',
  message: 'the initial names have been accepted',
};

async function get(name = 'crontabs.stable.example.com'): Promise<CustomResourceDefinition> {
  return (await crds().get(name)) as CustomResourceDefinition;
}

describe('a new CustomResourceDefinition', () => {
  it('gets its names accepted and becomes Established, as the naming and establishing controllers write them', async () => {
    await crds().create(definition());
    await cluster.settle();
    const crd = await get();
    expect(crd.status?.acceptedNames).toEqual({ plural: 'crontabs', singular: 'crontab', shortNames: ['ct'], kind: 'CronTab', listKind: 'CronTabList' });
    expect(Object.keys(crd.status!.acceptedNames!)).toEqual(['plural', 'singular', 'shortNames', 'kind', 'listKind']);
    // No API approval condition outside the protected groups.
    expect(crd.status?.conditions).toEqual([namesAccepted, established]);
    expect(crd.status?.storedVersions).toEqual(['v1']);
  });

  it('is served once Established: discovery, create, get, list', async () => {
    await crds().create(definition());
    await cluster.settle();
    const res = await cluster.fetch(new Request('http://memkube/apis/stable.example.com/v1'));
    expect(await res.json()).toMatchObject({
      groupVersion: 'stable.example.com/v1',
      resources: [{ name: 'crontabs', singularName: 'crontab', namespaced: true, kind: 'CronTab', shortNames: ['ct'] }],
    });
    await crontabs().create({ metadata: { name: 'a' }, spec: { cronSpec: '* * * * */5' } }, { namespace: 'default' });
    const got = await crontabs().get('a', { namespace: 'default' });
    expect(got).toMatchObject({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { generation: 1 }, spec: { cronSpec: '* * * * */5' } });
    expect((await crontabs().list({ namespace: 'default' })).items.map((i) => i.metadata?.name)).toEqual(['a']);
  });

  it('is not served before the controllers ran, nor under a name a built-in resource has', async () => {
    expect((await cluster.fetch(new Request('http://memkube/apis/stable.example.com/v1/crontabs'))).status).toBe(404);
    await crds().create({
      metadata: { name: 'storageclasses.storage.k8s.io', annotations: { 'api-approved.kubernetes.io': 'unapproved, testing only' } },
      spec: {
        group: 'storage.k8s.io',
        scope: 'Cluster',
        names: { plural: 'storageclasses', kind: 'StorageClass' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } }],
      },
    });
    await cluster.settle();
    // The definition's names are accepted (no other definition has them), but the built-in resource is served.
    expect((await get('storageclasses.storage.k8s.io')).status?.conditions).toEqual([
      namesAccepted,
      established,
      {
        type: 'KubernetesAPIApprovalPolicyConformant',
        status: 'False',
        lastTransitionTime: TIME,
        reason: 'UnapprovedAnnotation',
        message: 'not approved: "unapproved, testing only"',
      },
    ]);
    const res = await cluster.fetch(new Request('http://memkube/apis/storage.k8s.io/v1'));
    const resources = ((await res.json()) as { resources: { name: string; kind: string }[] }).resources.filter((r) => r.name === 'storageclasses');
    expect(resources).toEqual([expect.objectContaining({ kind: 'StorageClass', shortNames: ['sc'] })]);
  });
});

describe('names already in use in the group', () => {
  it('are refused with the reason and message the naming controller gives, and the definition is not served', async () => {
    await crds().create(definition());
    await cluster.settle();
    // Another plural and list kind, but the same kind.
    await crds().create(definition({ singular: 'other', shortNames: ['ot'], listKind: 'OtherList' }, 'others'));
    await cluster.settle();
    const other = await get('others.stable.example.com');
    expect(other.status?.conditions).toEqual([
      { type: 'NamesAccepted', status: 'False', lastTransitionTime: TIME, reason: 'KindConflict', message: '"CronTab" is already in use' },
      { type: 'Established', status: 'False', lastTransitionTime: TIME, reason: 'NotAccepted', message: 'not all names are accepted' },
    ]);
    // What was free was accepted; the kind stays unaccepted.
    expect(other.status?.acceptedNames).toEqual({ plural: 'others', singular: 'other', shortNames: ['ot'], kind: '', listKind: 'OtherList' });
    expect((await cluster.fetch(new Request('http://memkube/apis/stable.example.com/v1/others'))).status).toBe(404);
  });

  it('become free when the definition holding them goes', async () => {
    await crds().create(definition());
    await cluster.settle();
    await crds().create(definition({ singular: 'other', shortNames: ['ot'] }, 'others'));
    await cluster.settle();
    // Kind and list kind are both taken: each conflict replaces the reason, the last one stays.
    expect((await get('others.stable.example.com')).status?.conditions?.[0]).toMatchObject({
      reason: 'ListKindConflict',
      message: '"CronTabList" is already in use',
    });
    await crds().delete('crontabs.stable.example.com');
    await cluster.settle();
    const other = await get('others.stable.example.com');
    expect(other.status?.conditions).toEqual([namesAccepted, established]);
    expect(other.status?.acceptedNames?.kind).toBe('CronTab');
  });

  it('reports several short-name conflicts together', async () => {
    await crds().create(definition({ shortNames: ['ct', 'cr'] }));
    await cluster.settle();
    await crds().create(definition({ singular: 'other', kind: 'Other', shortNames: ['ct', 'cr'] }, 'others'));
    await cluster.settle();
    expect((await get('others.stable.example.com')).status?.conditions?.[0]).toMatchObject({
      reason: 'ShortNamesConflict',
      message: '["ct" is already in use, "cr" is already in use]',
    });
  });
});

describe('deleting a CustomResourceDefinition', () => {
  it('first marks it with the cleanup finalizer and a Terminating condition', async () => {
    await crds().create(definition());
    await cluster.settle();
    const marked = (await crds().delete('crontabs.stable.example.com')) as CustomResourceDefinition;
    expect(marked.metadata?.finalizers).toEqual(['customresourcecleanup.apiextensions.k8s.io']);
    // Kubernetes' definition storage marks it itself: the generation stays.
    expect(marked.metadata?.generation).toBe(1);
    expect(marked.status?.conditions?.at(-1)).toEqual({
      type: 'Terminating',
      status: 'True',
      lastTransitionTime: TIME,
      reason: 'InstanceDeletionPending',
      message: 'CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon',
    });
  });

  it('deletes every custom resource, then the definition, and stops serving it', async () => {
    await crds().create(definition());
    await cluster.settle();
    await crontabs().create({ metadata: { name: 'a' } }, { namespace: 'default' });
    await crontabs().create({ metadata: { name: 'b' } }, { namespace: 'kube-system' });
    await crds().delete('crontabs.stable.example.com');
    await cluster.settle();
    expect((await statusOf(() => get())).code).toBe(404);
    expect((await cluster.fetch(new Request('http://memkube/apis/stable.example.com/v1/crontabs'))).status).toBe(404);
    // Defined again, the resource holds nothing: the objects were deleted, not just hidden.
    await crds().create(definition());
    await cluster.settle();
    expect((await crontabs().list()).items).toEqual([]);
  });

  it('waits for custom resources held by finalizers, refusing creates meanwhile', async () => {
    await crds().create(definition());
    await cluster.settle();
    await crontabs().create({ metadata: { name: 'held', finalizers: ['example.com/hold'] } }, { namespace: 'default' });
    await crds().delete('crontabs.stable.example.com');
    await cluster.settle();
    const crd = await get();
    expect(crd.status?.conditions?.find((c) => c.type === 'Terminating')).toMatchObject({
      status: 'True',
      reason: 'InstanceDeletionInProgress',
      message: 'CustomResource deletion is in progress',
    });
    const refused = await statusOf(() => crontabs().create({ metadata: { name: 'new' } }, { namespace: 'default' }));
    expect(refused).toMatchObject({ code: 405, reason: 'MethodNotAllowed', message: 'create not allowed while custom resource definition is terminating' });
    expect((await crontabs().get('held', { namespace: 'default' })).metadata?.deletionTimestamp).toBe(TIME);
    await crontabs().patch('held', { metadata: { finalizers: null } }, { namespace: 'default', type: 'merge' });
    await cluster.settle();
    expect((await statusOf(() => get())).code).toBe(404);
  });

  it('ends the watches of its resources once it goes, after their deletions', async () => {
    await crds().create(definition());
    await cluster.settle();
    await crontabs().create({ metadata: { name: 'a' } }, { namespace: 'default' });
    const watch = await crontabs().watch({ namespace: 'default' });
    const events: string[] = [];
    const done = (async () => {
      for await (const e of watch) events.push(`${e.type} ${(e.object as { metadata?: { name?: string } }).metadata?.name}`);
    })();
    await crds().delete('crontabs.stable.example.com');
    await cluster.settle();
    await done;
    expect(events).toEqual(['ADDED a', 'DELETED a']);
    expect(cluster.activeWatchers).toBe(0);
  });

  it('a changed spec ends the watches of the old one; status changes do not', async () => {
    await crds().create(definition());
    await cluster.settle();
    const watch = await crontabs().watch({ namespace: 'default' });
    let ended = false;
    const done = (async () => {
      for await (const _ of watch) void _;
      ended = true;
    })();
    const crd = await get();
    await crds().updateStatus({ ...crd, status: { ...crd.status, conditions: [...(crd.status?.conditions ?? []), { type: 'Custom', status: 'True' }] } });
    await cluster.settle();
    expect(ended).toBe(false);
    await crds().patch('crontabs.stable.example.com', { spec: { names: { shortNames: ['ct', 'cts'] } } }, { type: 'merge' });
    await cluster.settle();
    await done;
    expect(ended).toBe(true);
  });

  it('never established: it goes at once', async () => {
    await crds().create(definition());
    await crds().delete('crontabs.stable.example.com');
    await cluster.settle();
    expect((await statusOf(() => get())).code).toBe(404);
  });
});
