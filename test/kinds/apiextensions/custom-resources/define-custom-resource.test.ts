import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineCustomResource, kinds } from '../../../../src/index.js';
import { useTestCluster } from '../../../support/cluster.js';

const cluster = useTestCluster();

const widgets = defineCustomResource({
  group: 'example.com',
  kind: 'Widget',
  shortNames: ['wd'],
  versions: [
    {
      name: 'v1',
      status: true,
      schema: z.object({
        spec: z.object({ size: z.number().int(), color: z.enum(['red', 'blue']).optional(), tags: z.array(z.string()).optional() }),
        status: z.object({ ready: z.boolean() }).optional(),
      }),
    },
  ],
});

describe('defineCustomResource', () => {
  it('writes the CustomResourceDefinition from the zod schema', () => {
    expect(widgets.definition.metadata?.name).toBe('widgets.example.com');
    expect(widgets.definition.spec.names).toEqual({ plural: 'widgets', kind: 'Widget', shortNames: ['wd'] });
    expect(widgets.definition.spec.versions[0]).toMatchObject({ name: 'v1', served: true, storage: true, subresources: { status: {} } });
    expect(widgets.definition.spec.versions[0]!.schema?.openAPIV3Schema).toEqual({
      type: 'object',
      properties: {
        spec: {
          type: 'object',
          properties: {
            size: { type: 'integer', format: 'int64' },
            color: { type: 'string', enum: ['red', 'blue'] },
            tags: { type: 'array', items: { type: 'string' } },
          },
          required: ['size'],
        },
        status: { type: 'object', properties: { ready: { type: 'boolean' } }, required: ['ready'] },
      },
      required: ['spec'],
    });
  });

  it('installs, and the typed client answers typed objects', async () => {
    await cluster.client.resource(kinds.CustomResourceDefinitionKind).create(widgets.definition);
    await cluster.settle();
    const client = cluster.client.resource(widgets.target);
    const created = await client.create({ metadata: { name: 'a' }, spec: { size: 3, color: 'red' } }, { namespace: 'default' });
    expectTypeOf(created.spec.size).toEqualTypeOf<number>();
    expect(created).toMatchObject({ apiVersion: 'example.com/v1', kind: 'Widget', spec: { size: 3, color: 'red' } });
    const listed = await client.list({ namespace: 'default' });
    expect(listed.items.map((w) => w.spec.size)).toEqual([3]);
  });
});
