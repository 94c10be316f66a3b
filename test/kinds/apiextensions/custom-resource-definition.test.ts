import { describe, expect, it } from 'vitest';
import { apiextensionsKinds, CustomResourceDefinitionKind, type CustomResourceDefinition } from '../../../src/kinds/apiextensions/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster({ kinds: apiextensionsKinds });
const crds = () => cluster.client.resource(CustomResourceDefinitionKind);

function widgets(name = 'widgets.example.com'): CustomResourceDefinition {
  return {
    metadata: { name },
    spec: {
      group: 'example.com',
      names: { plural: 'widgets', kind: 'Widget' },
      scope: 'Namespaced',
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
    },
  };
}

describe('CustomResourceDefinition', () => {
  it('is stored and listed, its status reset and the storage version recorded', async () => {
    const created = await crds().create({ ...widgets(), status: { storedVersions: ['v9'], acceptedNames: { plural: 'x', kind: 'X' } } });
    expect(created.status).toEqual({ acceptedNames: { plural: '', kind: '' }, storedVersions: ['v1'] });
    expect(created.metadata?.generation).toBe(1);
    expect((await crds().list()).items.map((c) => c.metadata?.name)).toEqual(['widgets.example.com']);
  });

  it('keeps every storage version it ever had, and bumps the generation with the spec', async () => {
    const created = await crds().create(widgets());
    const next = structuredClone(created);
    next.spec.versions = [
      { name: 'v1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } },
      { name: 'v2', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } },
    ];
    const updated = await crds().update(next);
    expect(updated.status?.storedVersions).toEqual(['v1', 'v2']);
    expect(updated.metadata?.generation).toBe(2);
  });

  it('refuses a name other than <plural>.<group>', async () => {
    const status = await statusOf(() => crds().create(widgets('gadgets.example.com')));
    expect(status.code).toBe(422);
    expect(status.details?.causes).toContainEqual({
      reason: 'FieldValueInvalid',
      field: 'metadata.name',
      message: 'Invalid value: "gadgets.example.com": must be spec.names.plural+"."+spec.group',
    });
    expect((await crds().list()).items).toEqual([]);
  });
});
