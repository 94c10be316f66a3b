import { describe, expect, it } from 'vitest';
import { LeaseCandidateKind } from '../../../src/kinds/coordination/index.js';
import { useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();

describe('LeaseCandidate at coordination.k8s.io/v1alpha2', () => {
  it('serves the same objects as v1beta1', async () => {
    const spec = { leaseName: 'kube-scheduler', binaryVersion: '1.36.0', emulationVersion: '1.35.0', strategy: 'OldestEmulationVersion' };
    const res = await cluster.fetch(
      new Request('http://memkube/apis/coordination.k8s.io/v1alpha2/namespaces/default/leasecandidates', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ apiVersion: 'coordination.k8s.io/v1alpha2', kind: 'LeaseCandidate', metadata: { name: 'a' }, spec }),
      }),
    );
    expect(res.status).toBe(201);
    expect(((await res.json()) as { apiVersion: string }).apiVersion).toBe('coordination.k8s.io/v1alpha2');
    const v1beta1 = await cluster.client.resource(LeaseCandidateKind).get('a', { namespace: 'default' });
    expect(v1beta1).toMatchObject({ apiVersion: 'coordination.k8s.io/v1beta1', spec });
    const bad = await cluster.fetch(
      new Request('http://memkube/apis/coordination.k8s.io/v1alpha2/namespaces/default/leasecandidates', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ metadata: { name: 'b' }, spec: { ...spec, pingTime: '2026-01-01T00:00:00Z' } }),
      }),
    );
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/^LeaseCandidate in version "v1alpha2" cannot be handled as a LeaseCandidate: /);
  });
});
