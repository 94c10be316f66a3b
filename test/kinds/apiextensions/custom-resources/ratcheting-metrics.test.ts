import { describe, expect, it } from 'vitest';
import { RATCHETING_BUCKETS } from '../../../../src/kinds/apiextensions/custom-resources/ratcheting-metrics.js';
import type { CustomResourceDefinition } from '../../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../../support/cluster.js';

const HISTOGRAM = 'apiextensions_apiserver_validation_ratcheting_seconds';

const cluster = useTestCluster();
const crds = () => cluster.client.resource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' });
const widgets = () => cluster.client.resource({ group: 'example.com', version: 'v1', resource: 'widgets' });

const definition: CustomResourceDefinition = {
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        subresources: { status: {} },
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: { type: 'object', properties: { size: { type: 'integer', maximum: 10 }, color: { type: 'string' } } },
              status: { type: 'object', properties: { ready: { type: 'boolean' } } },
            },
          },
        },
      },
    ],
  },
};

describe('apiextensions_apiserver_validation_ratcheting_seconds', () => {
  it('observes each update of a custom resource, its /status included, and no create', async () => {
    await crds().create(definition);
    await cluster.settle();
    const made = await widgets().create({ metadata: { name: 'w', namespace: 'default' }, spec: { size: 3 } });
    expect(await cluster.metrics.value(HISTOGRAM)).toBe(0);
    const updated = await widgets().update({ ...made, spec: { size: 4, color: 'red' } });
    expect(await cluster.metrics.value(HISTOGRAM)).toBe(1);
    const withStatus = await widgets().updateSubresource('status', { ...updated, status: { ready: true } });
    expect(await cluster.metrics.value(HISTOGRAM)).toBe(2);
    // A refused update is observed too: the comparison ran before the refusal.
    const status = await statusOf(() => widgets().update({ ...withStatus, spec: { size: 11 } }));
    expect(status.code).toBe(422);
    expect(await cluster.metrics.value(HISTOGRAM)).toBe(3);
    expect(await cluster.metrics.value(`${HISTOGRAM}_sum`)).toBeGreaterThanOrEqual(0);
  });

  it("uses upstream's buckets, 10 µs times powers of 4", async () => {
    expect(RATCHETING_BUCKETS).toEqual([0.00001, 0.00004, 0.00016, 0.00064, 0.00256, 0.01024, 0.04096, 0.16384, 0.65536, 2.62144]);
    await crds().create(definition);
    await cluster.settle();
    const made = await widgets().create({ metadata: { name: 'w', namespace: 'default' }, spec: { size: 3 } });
    await widgets().update({ ...made, spec: { size: 5 } });
    const text = await cluster.metrics.text();
    expect(text).toContain(
      `# HELP ${HISTOGRAM} [ALPHA] Time for comparison of old to new for the purposes of CRDValidationRatcheting during an UPDATE in seconds.`,
    );
    expect(text).toContain(`${HISTOGRAM}_bucket{le="2.62144"} 1`);
    expect(text).toContain(`${HISTOGRAM}_bucket{le="+Inf"} 1`);
  });
});
