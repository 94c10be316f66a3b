import { describe, expect, it } from 'vitest';
import { PodGroupKind, WorkloadKind } from '../../../src/kinds/scheduling/index.js';
import { testCluster, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
const NS = { namespace: 'default' };

describe('Workload and PodGroup (scheduling.k8s.io/v1alpha2)', () => {
  it('are served namespaced; PodGroup status changes only through /status', async () => {
    const w = await cluster.client
      .resource(WorkloadKind)
      .create({ metadata: { name: 'train' }, spec: { podGroupTemplates: [{ name: 'workers', schedulingPolicy: { gang: { minCount: 4 } } }] } }, NS);
    expect(w).toMatchObject({ apiVersion: 'scheduling.k8s.io/v1alpha2', metadata: { namespace: 'default' } });
    const groups = cluster.client.resource(PodGroupKind);
    const status = { conditions: [{ type: 'Scheduled', status: 'True', reason: 'Done', message: '', lastTransitionTime: '2026-01-01T00:00:00Z' }] };
    const pg = await groups.create(
      {
        metadata: { name: 'train-workers' },
        spec: { schedulingPolicy: { gang: { minCount: 4 } }, podGroupTemplateRef: { workload: { workloadName: 'train', podGroupTemplateName: 'workers' } } },
        status,
      },
      NS,
    );
    expect(pg.status).toBeUndefined();
    const written = await groups.updateStatus({ ...pg, status }, NS);
    expect(written.status).toEqual(status);
  });

  it('are not served without GenericWorkload', async () => {
    const c = await testCluster({ featureGates: { GenericWorkload: false } });
    try {
      expect((await c.fetch(new Request('http://memkube/apis/scheduling.k8s.io/v1alpha2/namespaces/default/workloads'))).status).toBe(404);
      expect((await c.fetch(new Request('http://memkube/apis/scheduling.k8s.io/v1alpha2/namespaces/default/podgroups'))).status).toBe(404);
    } finally {
      await c.close();
    }
  });
});
