/**
 * defineKind takes zod 4 schemas only. A zod 3 schema (or anything else) is refused when the kind
 * is declared, with a message naming the kind, the version and the fix, rather than failing later
 * inside the engine with an internal error.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { createCluster, defineKind, ObjectMetaSchema, type KindVersion } from '../../src/index.js';

const declaration = (versions: KindVersion<Widget>[]) => ({
  group: 'toys.example.com',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced' as const,
  versions,
});

const zod4Widget = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.optional(),
  spec: z.object({ color: z.string() }),
});
type Widget = z.infer<typeof zod4Widget>;
const zod3Widget = z3.object({
  apiVersion: z3.string().optional(),
  kind: z3.string().optional(),
  metadata: z3.object({ name: z3.string() }).partial(),
  spec: z3.object({ color: z3.string() }),
});

describe('defineKind schemas', () => {
  it('refuses a zod 3 schema, naming the version and the fix', () => {
    expect(() =>
      defineKind(
        declaration([
          { name: 'v1', schema: zod4Widget, served: true, storage: true },
          { name: 'v1beta1', schema: zod3Widget as never, served: true, storage: false },
        ]),
      ),
    ).toThrow(
      new Error(
        "defineKind(Widget): the schema of version v1beta1 is not a zod 4 schema (zod 3 schemas are not supported: import { z } from 'zod' version 4, or from 'zod/v4')",
      ),
    );
  });

  it('refuses what is not a zod schema at all', () => {
    const jsonSchema = { type: 'object', properties: { spec: { type: 'object' } } };
    expect(() => defineKind(declaration([{ name: 'v1', schema: jsonSchema as never, served: true, storage: true }]))).toThrow(
      new Error('defineKind(Widget): the schema of version v1 is not a zod 4 schema'),
    );
    expect(() => defineKind(declaration([{ name: 'v1', schema: undefined as never, served: true, storage: true }]))).toThrow(
      new Error('defineKind(Widget): the schema of version v1 is not a zod 4 schema'),
    );
  });

  it('takes zod 4 schemas, from zod and from zod/v4', async () => {
    const { z: zv4 } = await import('zod/v4');
    const fromV4 = zv4.object({
      apiVersion: zv4.string().optional(),
      kind: zv4.string().optional(),
      metadata: ObjectMetaSchema.optional(),
      spec: zv4.object({ color: zv4.string() }),
    });
    for (const schema of [zod4Widget, fromV4]) {
      const Widget = defineKind(declaration([{ name: 'v1', schema, served: true, storage: true }]));
      const cluster = await createCluster({ kinds: [Widget] });
      const created = await cluster.client.resource(Widget).create({ metadata: { name: 'w' }, spec: { color: 'red' } }, { namespace: 'default' });
      expect(created).toMatchObject({ apiVersion: 'toys.example.com/v1', kind: 'Widget', spec: { color: 'red' } });
      await cluster.close();
    }
  });

  it('reads a schema declared as a getter when a cluster adds the kind, not at declaration', async () => {
    let reads = 0;
    const Widget = defineKind(
      declaration([
        {
          name: 'v1',
          get schema() {
            reads++;
            return zod4Widget;
          },
          served: true,
          storage: true,
        },
      ]),
    );
    expect(reads).toBe(0);
    const cluster = await createCluster({ kinds: [Widget] });
    expect(reads).toBeGreaterThan(0);
    const created = await cluster.client.resource(Widget).create({ metadata: { name: 'w' }, spec: { color: 'red' } }, { namespace: 'default' });
    expect(created).toMatchObject({ apiVersion: 'toys.example.com/v1', kind: 'Widget', spec: { color: 'red' } });
    await cluster.close();
  });

  it('refuses a zod 3 schema behind a getter when a cluster adds the kind', async () => {
    const Widget = defineKind(
      declaration([
        {
          name: 'v1',
          get schema() {
            return zod3Widget as never;
          },
          served: true,
          storage: true,
        },
      ]),
    );
    await expect(createCluster({ kinds: [Widget] })).rejects.toThrow(
      "defineKind(Widget): the schema of version v1 is not a zod 4 schema (zod 3 schemas are not supported: import { z } from 'zod' version 4, or from 'zod/v4')",
    );
  });
});
