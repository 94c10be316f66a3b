import { describe, expect, it } from 'vitest';
import type { CustomResourceDefinition } from '../../../../src/kinds/index.js';
import type { KubeObject } from '../../../../src/schema/define-kind.js';
import { statusOf, useTestCluster } from '../../../support/cluster.js';

const cluster = useTestCluster();
const widgets = (version = 'v1') => cluster.client.resource({ group: 'example.com', version, resource: 'widgets' });

const OBJECT = { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };

async function define(extra: Partial<CustomResourceDefinition['spec']> = {}, versions?: CustomResourceDefinition['spec']['versions']): Promise<void> {
  await cluster.client.resource({ group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' }).create({
    metadata: { name: 'widgets.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', kind: 'Widget' },
      versions: versions ?? [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: { openAPIV3Schema: OBJECT },
          subresources: {
            status: {},
            scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' },
          },
        },
      ],
      ...extra,
    },
  });
  await cluster.settle();
}

describe('a custom resource', () => {
  it('keeps metadata.generation as custom resources do: 1, then one more per change outside metadata', async () => {
    await define();
    const w = await widgets().create({ metadata: { name: 'a', generation: 7 }, spec: { size: 1 } }, { namespace: 'default' });
    expect(w.metadata?.generation).toBe(1);
    const labelled = await widgets().patch('a', { metadata: { labels: { x: 'y' } } }, { namespace: 'default', type: 'merge' });
    expect(labelled.metadata?.generation).toBe(1);
    const resized = await widgets().patch('a', { spec: { size: 2 } }, { namespace: 'default', type: 'merge' });
    expect(resized.metadata?.generation).toBe(2);
  });

  it('has a status subresource: a create drops status, the main resource keeps it, /status changes only status', async () => {
    await define();
    const w = await widgets().create({ metadata: { name: 'a' }, spec: { replicas: 1 }, status: { replicas: 5 } }, { namespace: 'default' });
    expect(w['status']).toBeUndefined();
    const withStatus = await widgets().updateStatus({ ...w, spec: { replicas: 9 }, status: { replicas: 3 } } as KubeObject, { namespace: 'default' });
    expect(withStatus).toMatchObject({ spec: { replicas: 1 }, status: { replicas: 3 }, metadata: { generation: 1 } });
    const main = await widgets().update({ ...withStatus, status: { replicas: 0 } } as KubeObject, { namespace: 'default' });
    expect(main['status']).toEqual({ replicas: 3 });
  });

  it('has a scale subresource from the declared paths', async () => {
    await define();
    await widgets().create({ metadata: { name: 'a' }, spec: { replicas: 2 } }, { namespace: 'default' });
    const res = await cluster.fetch(new Request('http://memkube/apis/example.com/v1/namespaces/default/widgets/a/scale'));
    expect(await res.json()).toMatchObject({ kind: 'Scale', apiVersion: 'autoscaling/v1', spec: { replicas: 2 }, status: { replicas: 0 } });
  });

  it('refuses replica counts the scale subresource cannot read, with apimachinery messages', async () => {
    await define();
    const negative = await statusOf(() => widgets().create({ metadata: { name: 'a' }, spec: { replicas: -1 } }, { namespace: 'default' }));
    expect(negative.details?.causes).toEqual([
      { reason: 'FieldValueInvalid', message: 'Invalid value: -1: should be a non-negative integer', field: '.spec.replicas' },
    ]);
    const big = await statusOf(() => widgets().create({ metadata: { name: 'a' }, spec: { replicas: 2 ** 31 } }, { namespace: 'default' }));
    expect(big.details?.causes?.[0]?.message).toBe('Invalid value: 2147483648: should be less than or equal to 2147483647');
    const text = await statusOf(() => widgets().create({ metadata: { name: 'a' }, spec: { replicas: 'two' } }, { namespace: 'default' }));
    expect(text.details?.causes?.[0]?.message).toBe('Invalid value: 0: .spec.replicas accessor error: two is of the type string, expected int64');
    const notMap = await statusOf(() => widgets().create({ metadata: { name: 'a' }, spec: 'x' }, { namespace: 'default' }));
    expect(notMap.details?.causes?.[0]?.message).toBe('Invalid value: 0: .spec accessor error: x is of the type string, expected map[string]interface{}');
  });

  it('answers strategic merge patch with 415, as custom resources have no patch strategy', async () => {
    await define();
    await widgets().create({ metadata: { name: 'a' } }, { namespace: 'default' });
    const s = await statusOf(() => widgets().patch('a', { spec: { x: 1 } }, { namespace: 'default', type: 'strategic' }));
    expect(s).toMatchObject({ code: 415, reason: 'UnsupportedMediaType' });
  });

  it('refuses an update without resourceVersion (custom resources allow no unconditional update)', async () => {
    await define();
    await widgets().create({ metadata: { name: 'a' } }, { namespace: 'default' });
    const s = await statusOf(() =>
      widgets().update({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'a' }, spec: { x: 1 } }, { namespace: 'default' }),
    );
    expect(s.code).toBe(422);
    expect(s.message).toBe('Widget.example.com "a" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update');
  });

  it('warns about finalizers that are not domain-qualified', async () => {
    await define();
    const warnings: string[] = [];
    await widgets().create(
      { metadata: { name: 'a', finalizers: ['example.com/ok', 'plain', 'dotted.name'] } },
      { namespace: 'default', onWarning: (w) => warnings.push(...w) },
    );
    expect(warnings).toEqual([
      'metadata.finalizers: "dotted.name": prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers',
      'metadata.finalizers: "plain": prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers',
    ]);
  });
});

describe('several versions', () => {
  const version = (name: string, storage: boolean, served = true) => ({ name, served, storage, schema: { openAPIV3Schema: OBJECT } });

  it('are served preferred first, by Kubernetes version priority, sharing the storage version (apiVersion rewritten)', async () => {
    await define({}, [version('v1beta1', false), version('v1', true), version('v2alpha1', false)]);
    const res = await cluster.fetch(new Request('http://memkube/apis/example.com'));
    expect(await res.json()).toMatchObject({
      versions: [{ version: 'v1' }, { version: 'v1beta1' }, { version: 'v2alpha1' }],
      preferredVersion: { groupVersion: 'example.com/v1', version: 'v1' },
    });
    await widgets('v1beta1').create({ metadata: { name: 'a' }, spec: { x: 1 } }, { namespace: 'default' });
    expect(await widgets('v1').get('a', { namespace: 'default' })).toMatchObject({ apiVersion: 'example.com/v1', spec: { x: 1 } });
    expect(await widgets('v2alpha1').get('a', { namespace: 'default' })).toMatchObject({ apiVersion: 'example.com/v2alpha1' });
    // Items of a custom resource list keep apiVersion and kind (unstructured lists), at the list's version.
    const listed = await widgets('v1beta1').list({ namespace: 'default' });
    expect(listed.items.map((i) => [i.apiVersion, i.kind])).toEqual([['example.com/v1beta1', 'Widget']]);
  });

  it('an unserved version answers 404', async () => {
    await define({}, [version('v1', true), version('v1beta1', false, false)]);
    expect((await cluster.fetch(new Request('http://memkube/apis/example.com/v1beta1/widgets'))).status).toBe(404);
    expect((await cluster.fetch(new Request('http://memkube/apis/example.com/v1/widgets'))).status).toBe(200);
  });
});

describe('printer columns and selectable fields', () => {
  async function table(
    path: string,
  ): Promise<{ columnDefinitions: { name: string; type: string; description: string; priority: number }[]; rows: { cells: unknown[] }[] }> {
    const res = await cluster.fetch(new Request(`http://memkube${path}`, { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } }));
    return (await res.json()) as never;
  }
  const withColumns = (columns: unknown[], selectableFields?: unknown[]) =>
    define({}, [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: {
          openAPIV3Schema: {
            ...OBJECT,
            properties: {
              spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true, properties: { color: { type: 'string' }, size: { type: 'integer' } } },
            },
          },
        },
        additionalPrinterColumns: columns as never,
        ...(selectableFields ? { selectableFields: selectableFields as never } : {}),
      },
    ]);

  it('print the declared JSONPath columns, typed as declared, null where nothing is found', async () => {
    await withColumns([
      { name: 'Weight', type: 'integer', jsonPath: '.spec.weight' },
      { name: 'Ratio', type: 'number', jsonPath: '.spec.ratio', priority: 1 },
      { name: 'Ready', type: 'string', jsonPath: '.status.conditions[?(@.type=="Ready")].status', description: 'Whether it is ready' },
      { name: 'On', type: 'boolean', jsonPath: '.spec.on' },
      { name: 'Images', type: 'string', jsonPath: '.spec.images' },
      { name: 'Started', type: 'date', jsonPath: '.spec.started' },
    ]);
    await widgets().create(
      {
        metadata: { name: 'a' },
        spec: { weight: 2.9, ratio: 1, on: 'yes', images: ['x', 'y'], started: '2025-12-31T23:00:00Z' },
        status: { conditions: [{ type: 'Ready', status: 'True' }] },
      },
      { namespace: 'default' },
    );
    await widgets().create({ metadata: { name: 'b' }, spec: { started: 'yesterday' } }, { namespace: 'default' });
    const t = await table('/apis/example.com/v1/namespaces/default/widgets');
    expect(t.columnDefinitions.map((c) => [c.name, c.type, c.priority])).toEqual([
      ['Name', 'string', 0],
      ['Weight', 'integer', 0],
      ['Ratio', 'number', 1],
      ['Ready', 'string', 0],
      ['On', 'boolean', 0],
      ['Images', 'string', 0],
      ['Started', 'date', 0],
    ]);
    expect(t.columnDefinitions[1]!.description).toBe('Custom resource definition column (in JSONPath format): .spec.weight');
    expect(t.columnDefinitions[3]!.description).toBe('Whether it is ready');
    // status is dropped on create (status subresource absent here keeps it).
    expect(t.rows.map((r) => r.cells)).toEqual([
      ['a', 2, 1, 'True', null, '["x","y"]', '60m'],
      ['b', null, null, null, null, null, '<invalid>'],
    ]);
  });

  it('print Name and Age when none are declared', async () => {
    await withColumns([]);
    await widgets().create({ metadata: { name: 'a' } }, { namespace: 'default' });
    const t = await table('/apis/example.com/v1/namespaces/default/widgets');
    expect(t.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Age', 'date'],
    ]);
    expect(t.rows[0]!.cells).toEqual(['a', '0s']);
  });

  it('fall back to the default table (Name, Created At) when a column path does not parse', async () => {
    await withColumns([{ name: 'Bad', type: 'string', jsonPath: '.spec[' }]);
    await widgets().create({ metadata: { name: 'a' } }, { namespace: 'default' });
    const t = await table('/apis/example.com/v1/namespaces/default/widgets');
    expect(t.columnDefinitions.map((c) => [c.name, c.type])).toEqual([
      ['Name', 'string'],
      ['Created At', 'date'],
    ]);
  });

  it('select by the declared fields, and refuse others with "field label not supported"', async () => {
    await withColumns([], [{ jsonPath: '.spec.color' }, { jsonPath: '.spec.size' }]);
    await widgets().create({ metadata: { name: 'red' }, spec: { color: 'red', size: 1 } }, { namespace: 'default' });
    await widgets().create({ metadata: { name: 'blue' }, spec: { color: 'blue', size: 2 } }, { namespace: 'default' });
    await widgets().create({ metadata: { name: 'none' } }, { namespace: 'default' });
    const names = async (fieldSelector: string) => (await widgets().list({ namespace: 'default', fieldSelector })).items.map((i) => i.metadata?.name);
    expect(await names('spec.color=red')).toEqual(['red']);
    expect(await names('spec.size=2')).toEqual(['blue']);
    expect(await names('spec.color=')).toEqual(['none']);
    expect(await names('metadata.name=none')).toEqual(['none']);
    const bad = await statusOf(() => widgets().list({ namespace: 'default', fieldSelector: 'spec.other=x' }));
    expect(bad).toMatchObject({ code: 400, reason: 'BadRequest', message: 'field label not supported: spec.other' });
  });
});
