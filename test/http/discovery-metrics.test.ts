import { describe, expect, it } from 'vitest';
import { AGGREGATED_V2, AGGREGATED_V2BETA1 } from '../../src/http/discovery.js';
import { useTestCluster } from '../support/cluster.js';

const COUNT = 'aggregator_discovery_aggregation_count_total';
const BASE = 'http://memkube';

const cluster = useTestCluster();
const get = (path: string, accept?: string) => cluster.fetch(new Request(BASE + path, { headers: accept ? { Accept: accept } : {} }));

describe('aggregator_discovery_aggregation_count_total', () => {
  it('counts a build of the aggregated document, not the requests the cache answers', async () => {
    const before = await cluster.metrics.value(COUNT);
    const first = await (await get('/apis', AGGREGATED_V2)).json();
    expect(await cluster.metrics.value(COUNT)).toBe(before + 1);
    // The same document again (in either version) is answered from the cache.
    const second = await (await get('/apis', AGGREGATED_V2)).json();
    expect(second).toEqual(first);
    const beta = (await (await get('/apis', AGGREGATED_V2BETA1)).json()) as { apiVersion: string };
    expect(beta.apiVersion).toBe('apidiscovery.k8s.io/v2beta1');
    expect(await cluster.metrics.value(COUNT)).toBe(before + 1);
    // The core group's document is built on its own; the legacy documents are not aggregated.
    await get('/api', AGGREGATED_V2);
    await get('/apis');
    await get('/api');
    expect(await cluster.metrics.value(COUNT)).toBe(before + 2);
  });

  it('counts a rebuild once a new kind is served', async () => {
    await get('/apis', AGGREGATED_V2);
    const before = await cluster.metrics.value(COUNT);
    await cluster.client.resource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' }).create({
      metadata: { name: 'widgets.example.com' },
      spec: {
        group: 'example.com',
        scope: 'Namespaced',
        names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
        versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
      },
    });
    await cluster.settle();
    const doc = (await (await get('/apis', AGGREGATED_V2)).json()) as { items: Array<{ metadata: { name: string } }> };
    expect(doc.items.map((g) => g.metadata.name)).toContain('example.com');
    expect(await cluster.metrics.value(COUNT)).toBe(before + 1);
    await get('/apis', AGGREGATED_V2);
    expect(await cluster.metrics.value(COUNT)).toBe(before + 1);
    const text = await cluster.metrics.text();
    expect(text).toContain(`# HELP ${COUNT} [ALPHA] Counter of number of times discovery was aggregated`);
    expect(text).toContain(`# TYPE ${COUNT} counter`);
  });
});
