/** Feature gates: on by default; a kind whose gate is off does not exist in the cluster at all. */
import { describe, expect, it } from 'vitest';
import { testCluster } from '../support/cluster.js';

async function json(c: Awaited<ReturnType<typeof testCluster>>, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await c.fetch(new Request(`http://memkube${path}`));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const coordinationVersions = (body: Record<string, unknown>) =>
  ((body.groups as { name: string; versions: { version: string }[] }[]).find((g) => g.name === 'coordination.k8s.io')?.versions ?? []).map((v) => v.version);

describe('feature gates', () => {
  it('serves a gated kind by default', async () => {
    const c = await testCluster();
    expect(coordinationVersions((await json(c, '/apis')).body)).toEqual(['v1', 'v1beta1', 'v1alpha2']);
    expect((await json(c, '/apis/coordination.k8s.io/v1beta1/namespaces/default/leasecandidates')).status).toBe(200);
    await c.close();
  });

  it('removes a kind whose gate is off from paths, discovery and OpenAPI', async () => {
    const c = await testCluster({ featureGates: { CoordinatedLeaderElection: false } });
    const list = await json(c, '/apis/coordination.k8s.io/v1beta1/namespaces/default/leasecandidates');
    expect(list).toMatchObject({ status: 404, body: { reason: 'NotFound' } });
    expect(coordinationVersions((await json(c, '/apis')).body)).toEqual(['v1']);
    const resources = (await json(c, '/apis/coordination.k8s.io/v1')).body.resources as { name: string }[];
    expect(resources.map((r) => r.name)).toEqual(['leases']);
    const v3 = (await json(c, '/openapi/v3')).body.paths as Record<string, unknown>;
    expect(Object.keys(v3)).toContain('apis/coordination.k8s.io/v1');
    expect(Object.keys(v3)).not.toContain('apis/coordination.k8s.io/v1beta1');
    // The in-process client cannot reach it either.
    await expect(
      c.client.resource({ group: 'coordination.k8s.io', version: 'v1beta1', resource: 'leasecandidates' }).list({ namespace: 'default' }),
    ).rejects.toMatchObject({ code: 404 });
    await c.close();
  });
});
