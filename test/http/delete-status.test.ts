/**
 * The HTTP status of a delete, over a real socket: 202 Accepted when the object stays (finalizers or
 * a grace period hold it) and the request asked for cascading deletion with `orphanDependents:
 * false`, in the body or the query; 200 for everything else, and always 200 for deletecollection.
 */
import { describe, expect, it } from 'vitest';
import { useServedCluster } from '../support/cluster.js';

describe('delete answers 202 Accepted where the API server does', () => {
  const served = useServedCluster();

  const url = (path: string) => `${served.server.url}${path}`;
  const CMS = '/api/v1/namespaces/default/configmaps';
  const create = async (name: string, finalizers?: string[]) => {
    const res = await fetch(url(CMS), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(finalizers ? { finalizers } : {}) } }),
    });
    expect(res.status).toBe(201);
  };
  const del = (path: string, body?: unknown) =>
    fetch(url(path), {
      method: 'DELETE',
      ...(body === undefined ? {} : { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }),
    });

  it('202 with the marked object when a finalizer holds it and DeleteOptions say orphanDependents: false', async () => {
    await create('held', ['example.com/hold']);
    const res = await del(`${CMS}/held`, { kind: 'DeleteOptions', apiVersion: 'v1', orphanDependents: false });
    expect(res.status).toBe(202);
    const body = (await res.json()) as { kind: string; metadata: { deletionTimestamp?: string; finalizers?: string[] } };
    expect(body.kind).toBe('ConfigMap');
    expect(body.metadata.deletionTimestamp).toBeDefined();
    expect(body.metadata.finalizers).toEqual(['example.com/hold']);
  });

  it('202 with orphanDependents=false in the query', async () => {
    await create('held', ['example.com/hold']);
    const res = await del(`${CMS}/held?orphanDependents=false`);
    expect(res.status).toBe(202);
  });

  it('202 for a pod held by its grace period', async () => {
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'busybox' }] } };
    const created = await fetch(url('/api/v1/namespaces/default/pods'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(pod),
    });
    expect(created.status).toBe(201);
    const res = await del('/api/v1/namespaces/default/pods/p', { orphanDependents: false, gracePeriodSeconds: 30 });
    expect(res.status).toBe(202);
    expect(((await res.json()) as { metadata: { deletionGracePeriodSeconds: number } }).metadata.deletionGracePeriodSeconds).toBe(30);
  });

  it('200 when the object is held but orphanDependents is unset, true, or replaced by a propagation policy', async () => {
    for (const [name, body] of [
      ['a', undefined],
      ['b', { orphanDependents: true }],
      ['c', { propagationPolicy: 'Background' }],
      ['d', { propagationPolicy: 'Foreground' }],
    ] as const) {
      await create(name, ['example.com/hold']);
      const res = await del(`${CMS}/${name}`, body);
      expect(res.status, name).toBe(200);
    }
  });

  it('200 when orphanDependents: false deletes the object at once', async () => {
    await create('free');
    const res = await del(`${CMS}/free`, { orphanDependents: false });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'free' } });
    expect((await fetch(url(`${CMS}/free`))).status).toBe(404);
  });

  it('200 for a second delete that finds the object already being deleted, unless orphanDependents: false', async () => {
    await create('held', ['example.com/hold']);
    expect((await del(`${CMS}/held`)).status).toBe(200);
    expect((await del(`${CMS}/held`)).status).toBe(200);
    expect((await del(`${CMS}/held`, { orphanDependents: false })).status).toBe(202);
  });

  it('deletecollection answers 200 even when objects stay', async () => {
    await create('held', ['example.com/hold']);
    await create('free');
    const res = await del(CMS, { orphanDependents: false });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { items: unknown[] }).items).toHaveLength(2);
  });
});
