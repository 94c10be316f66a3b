import { describe, expect, it } from 'vitest';
import { ConfigMapKind, NamespaceKind, ServiceAccountKind } from '../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../support/cluster.js';

const cluster = useTestCluster();

const cms = () => cluster.client.resource(ConfigMapKind);

describe('delete', () => {
  it('removes an object at once and answers a Success Status for kinds that do not return the object', async () => {
    const a = await cms().create({ metadata: { name: 'a' } });
    const res = await cms().delete('a');
    expect(res).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Success',
      details: { name: 'a', kind: 'configmaps', uid: a.metadata!.uid },
    });
    expect((await statusOf(() => cms().get('a'))).code).toBe(404);
  });

  it('answers the deleted object for kinds that return it (ServiceAccount)', async () => {
    const sas = cluster.client.resource(ServiceAccountKind);
    await sas.create({ metadata: { name: 'robot' } });
    const res = await sas.delete('robot');
    expect(res).toMatchObject({ kind: 'ServiceAccount', metadata: { name: 'robot' } });
  });

  it('answers 404 for a missing object', async () => {
    const s = await statusOf(() => cms().delete('nope'));
    expect(s).toMatchObject({ code: 404, reason: 'NotFound', message: 'configmaps "nope" not found' });
  });

  it('checks uid and resourceVersion preconditions with Kubernetes messages', async () => {
    const a = await cms().create({ metadata: { name: 'a' } });
    const uid = await statusOf(() => cms().delete('a', { preconditions: { uid: 'x' } }));
    expect(uid).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: `Operation cannot be fulfilled on ConfigMap "a": the UID in the precondition (x) does not match the UID in record (${a.metadata!.uid}). The object might have been deleted and then recreated`,
      details: { name: 'a', kind: 'ConfigMap' },
    });
    const rv = await statusOf(() => cms().delete('a', { preconditions: { resourceVersion: '1' } }));
    expect(rv.message).toBe(
      `Operation cannot be fulfilled on ConfigMap "a": the ResourceVersion in the precondition (1) does not match the ResourceVersion in record (${a.metadata!.resourceVersion}). The object might have been modified`,
    );
    await cms().delete('a', { preconditions: { uid: a.metadata!.uid, resourceVersion: a.metadata!.resourceVersion } });
    expect((await cms().list({ namespace: 'default' })).items).toHaveLength(0);
  });

  it('keeps an object with finalizers, marked for deletion, until the last finalizer is removed', async () => {
    const a = await cms().create({ metadata: { name: 'a', finalizers: ['example.com/hold'] } });
    const marked = await cms().delete('a');
    expect(marked).toMatchObject({
      kind: 'ConfigMap',
      metadata: { name: 'a', deletionTimestamp: '2026-01-01T00:00:00Z', deletionGracePeriodSeconds: 0, finalizers: ['example.com/hold'] },
    });
    // A ConfigMap has no generation, so marking it bumps none.
    expect((marked as typeof a).metadata?.generation).toBeUndefined();
    const again = await cms().delete('a');
    expect((again as typeof a).metadata?.resourceVersion).toBe((marked as typeof a).metadata?.resourceVersion);
    const current = await cms().get('a');
    const adding = await statusOf(() => cms().update({ ...current, metadata: { ...current.metadata, finalizers: ['example.com/hold', 'example.com/more'] } }));
    expect(adding.code).toBe(422);
    const final = await cms().update({ ...current, metadata: { ...current.metadata, finalizers: [] } });
    // The update that lets the object go answers it as sent.
    expect(final.metadata?.finalizers).toEqual([]);
    expect((await statusOf(() => cms().get('a'))).code).toBe(404);
    expect(a.metadata?.uid).toBeDefined();
  });

  it('adds the orphan or foregroundDeletion finalizer for those propagation policies', async () => {
    await cms().create({ metadata: { name: 'f' } });
    const fg = await cms().delete('f', { propagationPolicy: 'Foreground' });
    expect((fg as { metadata: { finalizers: string[] } }).metadata.finalizers).toEqual(['foregroundDeletion']);
    await cms().create({ metadata: { name: 'o' } });
    const orphan = await cms().delete('o', { orphanDependents: true });
    expect((orphan as { metadata: { finalizers: string[] } }).metadata.finalizers).toEqual(['orphan']);
  });

  it('validates delete options (422) and processes nothing', async () => {
    await cms().create({ metadata: { name: 'a' } });
    const both = await statusOf(() => cms().delete('a', { propagationPolicy: 'Orphan', orphanDependents: true }));
    expect(both).toMatchObject({
      code: 422,
      message:
        'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Invalid value: "Orphan": orphanDependents and deletionPropagation cannot be both set',
    });
    const bad = await statusOf(() => cms().delete('a', { propagationPolicy: 'Sideways' }));
    expect(bad.message).toBe(
      'DeleteOptions.meta.k8s.io "" is invalid: propagationPolicy: Unsupported value: "Sideways": supported values: "Foreground", "Background", "Orphan", "nil"',
    );
    const dry = await statusOf(() => cms().delete('a', { dryRun: ['x'] }));
    expect(dry.code).toBe(422);
    expect((await cms().get('a')).metadata?.name).toBe('a');
  });

  it('dryRun=All answers as a delete would but keeps the object', async () => {
    await cms().create({ metadata: { name: 'a' } });
    const res = await cms().delete('a', { dryRun: true });
    expect(res).toMatchObject({ status: 'Success' });
    expect((await cms().get('a')).metadata?.name).toBe('a');
  });
});

describe('deletecollection', () => {
  it('deletes what the selectors match and answers the list as it was', async () => {
    await cms().create({ metadata: { name: 'a', labels: { app: 'x' } } });
    await cms().create({ metadata: { name: 'b', labels: { app: 'y' } } });
    await cms().create({ metadata: { name: 'c', labels: { app: 'x' } } });
    const res = await cms().deleteCollection({ namespace: 'default', labelSelector: 'app=x' });
    expect(res.kind).toBe('ConfigMapList');
    expect(res.items.map((i) => i.metadata?.name)).toEqual(['a', 'c']);
    expect((await cms().list({ namespace: 'default' })).items.map((i) => i.metadata?.name)).toEqual(['b']);
    const byField = await cms().deleteCollection({ namespace: 'default', fieldSelector: 'metadata.name=b' });
    expect(byField.items).toHaveLength(1);
  });

  it('is not served for namespaces (405)', async () => {
    const s = await statusOf(() => cluster.client.resource(NamespaceKind).deleteCollection({}));
    expect(s).toMatchObject({ code: 405, reason: 'MethodNotAllowed' });
  });
});
