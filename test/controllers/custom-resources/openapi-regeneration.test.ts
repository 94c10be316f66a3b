import { describe, expect, it } from 'vitest';
import { openApiRegenerationCounter } from '../../../src/controllers/custom-resources/openapi-regeneration.js';
import type { CustomResourceDefinition } from '../../../src/kinds/index.js';
import { MetricsRegistry } from '../../../src/metrics/registry.js';
import type { StorageEvent } from '../../../src/storage/storage.js';
import { useTestCluster } from '../../support/cluster.js';

const V2 = 'apiextensions_openapi_v2_regeneration_count';
const V3 = 'apiextensions_openapi_v3_regeneration_count';
const GROUP = 'stable.example.com';

const cluster = useTestCluster();
const crds = () => cluster.client.resource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' });

function definition(plural: string, kind: string, versions: string[] = ['v1'], properties: Record<string, unknown> = {}): CustomResourceDefinition {
  return {
    metadata: { name: `${plural}.${GROUP}` },
    spec: {
      group: GROUP,
      scope: 'Namespaced',
      names: { plural, singular: plural.replace(/s$/, ''), kind },
      versions: versions.map((name, i) => ({
        name,
        served: true,
        storage: i === 0,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' }, ...properties } } } } },
      })),
    },
  };
}

const v2 = (crd: string, reason: string) => cluster.metrics.value(V2, { crd, reason });
const v3 = (crd: string, version: string, reason: string) => cluster.metrics.value(V3, { crd, group: GROUP, version, reason });

describe('OpenAPI regeneration counts of CustomResourceDefinitions', () => {
  it('count an established definition as added, a schema change as an update, its deletion as a removal', async () => {
    const name = `crontabs.${GROUP}`;
    await crds().create(definition('crontabs', 'CronTab', ['v1', 'v2']));
    await cluster.settle();
    expect(await v2(name, 'add')).toBe(1);
    expect(await v3(name, 'v1', 'add')).toBe(1);
    expect(await v3(name, 'v2', 'add')).toBe(1);
    expect(await cluster.metrics.value(V3, { reason: 'update' })).toBe(0);

    const stored = (await crds().get(name)) as CustomResourceDefinition;
    const changed = definition('crontabs', 'CronTab', ['v1', 'v2'], { image: { type: 'string' } });
    await crds().update({ ...stored, spec: changed.spec });
    await cluster.settle();
    expect(await v3(name, 'v1', 'update')).toBe(1);
    expect(await v3(name, 'v2', 'update')).toBe(1);
    const updates = await v2(name, 'update');
    expect(updates).toBeGreaterThanOrEqual(1);

    // A change that leaves the schema alone rebuilds the v2 part (upstream replaces it on every
    // sync) but no v3 document.
    const again = (await crds().get(name)) as CustomResourceDefinition;
    await crds().update({ ...again, metadata: { ...again.metadata, labels: { team: 'a' } } });
    await cluster.settle();
    expect(await v2(name, 'update')).toBe(updates + 1);
    expect(await v3(name, 'v1', 'update')).toBe(1);

    await crds().delete(name);
    await cluster.settle();
    expect(
      await crds()
        .list()
        .then((l) => l.items.length),
    ).toBe(0);
    expect(await v2(name, 'remove')).toBe(1);
    expect(await v3(name, 'v1', 'remove')).toBe(1);
    expect(await v3(name, 'v2', 'remove')).toBe(1);
  });

  it('count a second definition of a group-version as an update of its v3 document', async () => {
    await crds().create(definition('crontabs', 'CronTab'));
    await crds().create(definition('backups', 'Backup'));
    await cluster.settle();
    const adds = await cluster.metrics.value(V3, { version: 'v1', reason: 'add' });
    const updates = await cluster.metrics.value(V3, { version: 'v1', reason: 'update' });
    expect([adds, updates]).toEqual([1, 1]);
    expect(await cluster.metrics.value(V2, { reason: 'add' })).toBe(2);
  });

  it('are exposed with upstream help texts', async () => {
    await crds().create(definition('crontabs', 'CronTab'));
    await cluster.settle();
    const text = await cluster.metrics.text();
    expect(text).toContain(`# HELP ${V2} [ALPHA] Counter of OpenAPI v2 spec regeneration count broken down by causing CRD name and reason.`);
    expect(text).toContain(`# HELP ${V3} [ALPHA] Counter of OpenAPI v3 spec regeneration count broken down by group, version, causing CRD and reason.`);
    expect(text).toContain(`${V3}{crd="crontabs.${GROUP}",group="${GROUP}",reason="add",version="v1"} 1`);
  });
});

describe('the regeneration counter', () => {
  const event = (type: StorageEvent['type'], object: object): StorageEvent => ({
    type,
    bucket: 'apiextensions.k8s.io/customresourcedefinitions',
    namespace: '',
    name: 'widgets.example.com',
    revision: 1,
    object: object as never,
  });
  const crd = (established: boolean): CustomResourceDefinition => ({
    ...definition('widgets', 'Widget'),
    status: { conditions: [{ type: 'Established', status: established ? 'True' : 'False', reason: 'x', message: '' }] },
  });

  it('ignores a definition until it is established, and one never established when it goes', async () => {
    const metrics = new MetricsRegistry();
    const counter = openApiRegenerationCounter(metrics);
    counter.observe(event('ADDED', crd(false)));
    counter.observe(event('DELETED', crd(false)));
    expect(await metrics.samples()).toEqual([]);
    counter.observe(event('MODIFIED', crd(true)));
    counter.observe(event('MODIFIED', crd(false)));
    expect(await metrics.value(V2, { reason: 'add' })).toBe(1);
    expect(await metrics.value(V2, { reason: 'remove' })).toBe(1);
    expect(await metrics.value(V3, { reason: 'remove', group: GROUP, version: 'v1' })).toBe(1);
  });
});
