/**
 * A kind declared with defineKind applies what its zod schema publishes, as a custom resource's
 * OpenAPI schema is applied: `.default()` on every decode (requests and stored objects), value
 * validations (bounds, enums, patterns, lengths, sizes, formats) answered as one 422 Invalid with
 * kube-openapi's messages, on every write path; the built-in kinds keep their own rules only.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError, createCluster, defineKind, fieldError, ObjectMetaSchema, type Cluster, type KindDefinition } from '../../src/index.js';
import { builtinKinds } from '../../src/kinds/index.js';
import { compileZodRules } from '../../src/schema/zod-rules.js';

const Spec = z
  .object({
    size: z.int32().min(1).max(5).optional(),
    ratio: z.number().gt(0).lte(1).optional(),
    color: z.enum(['red', 'blue']).default('red'),
    label: z
      .string()
      .regex(/^[a-z]+$/)
      .min(2)
      .max(8)
      .optional(),
    tags: z.array(z.string().max(3)).max(2).optional(),
    owner: z.email().optional(),
    shape: z.object({ sides: z.int().min(3).default(4) }).default({ sides: 4 }),
    extra: z.record(z.string(), z.unknown()).optional(),
  })
  .meta({ id: 'com.example.toys.v1.WidgetSpec' });

const WidgetSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.optional(),
  spec: Spec,
  status: z.object({ ready: z.boolean().optional(), level: z.int().max(3).optional() }).optional(),
});
type Widget = z.infer<typeof WidgetSchema>;

const seen: string[] = [];
const WidgetKind = defineKind<Widget>({
  group: 'toys.example.com',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced',
  versions: [{ name: 'v1', schema: WidgetSchema, served: true, storage: true }],
  statusSubresource: true,
  scale: { specReplicasPath: '.spec.size', statusReplicasPath: '.status.level' },
  strategy: {
    // The schema's defaults are there before the strategy's.
    defaults: (w) => {
      seen.push(`defaults saw color ${w.spec.color}`);
      if (w.spec.color === 'blue') w.spec.label ??= 'navy';
    },
    validate: (w) => (w.spec.label === 'bad' ? [fieldError.invalid('spec.label', w.spec.label, 'is not a good label')] : []),
  },
});

/** The same kind before its schema had rules: what a cluster stored before the schema changed. */
const LooseWidgetKind = defineKind<Widget>({
  group: 'toys.example.com',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced',
  versions: [
    {
      name: 'v1',
      schema: z.object({
        apiVersion: z.string().optional(),
        kind: z.string().optional(),
        metadata: ObjectMetaSchema.optional(),
        spec: z.object({ size: z.int32().optional(), color: z.string().optional(), label: z.string().optional() }),
      }) as unknown as z.ZodType<Widget>,
      served: true,
      storage: true,
    },
  ],
});

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error('expected the request to fail');
}

async function withCluster(fn: (cluster: Cluster) => Promise<void>, kind: KindDefinition = WidgetKind): Promise<void> {
  const cluster = await createCluster({ kinds: [kind] });
  try {
    await fn(cluster);
  } finally {
    await cluster.close();
  }
}

describe('defaults of a declared kind', () => {
  it('fills .default() on create, nested defaults included, before the strategy defaults', async () => {
    await withCluster(async (cluster) => {
      seen.length = 0;
      const widgets = cluster.client.resource(WidgetKind);
      const w = await widgets.create({ metadata: { name: 'a' }, spec: {} } as Widget);
      expect(w.spec).toEqual({ color: 'red', shape: { sides: 4 } });
      expect(seen[0]).toBe('defaults saw color red');
      const partial = await widgets.create({ metadata: { name: 'b' }, spec: { color: 'blue', shape: {} } } as Widget);
      expect(partial.spec).toEqual({ color: 'blue', shape: { sides: 4 }, label: 'navy' });
      expect((await widgets.get('b')).spec).toEqual(partial.spec);
    });
  });

  it('fills defaults on update, merge patch, JSON patch and apply', async () => {
    await withCluster(async (cluster) => {
      const widgets = cluster.client.resource(WidgetKind);
      const a = await widgets.create({ metadata: { name: 'a' }, spec: { color: 'blue' } } as Widget);
      const updated = await widgets.update({ ...a, spec: { size: 2 } as Widget['spec'] });
      expect(updated.spec).toEqual({ size: 2, color: 'red', shape: { sides: 4 } });
      const merged = await widgets.patch('a', { spec: { color: null, shape: null } } as never, { type: 'merge' });
      expect(merged.spec).toEqual({ size: 2, color: 'red', shape: { sides: 4 } });
      const jsonPatched = await widgets.patch('a', [{ op: 'remove', path: '/spec/shape/sides' }], { type: 'json' });
      expect(jsonPatched.spec.shape).toEqual({ sides: 4 });
      const applied = await widgets.apply({ apiVersion: 'toys.example.com/v1', kind: 'Widget', metadata: { name: 'c' }, spec: { size: 3 } } as never, {
        fieldManager: 'tester',
      });
      expect(applied.spec).toEqual({ size: 3, color: 'red', shape: { sides: 4 } });
    });
  });

  it('fills defaults when objects stored before the schema had them are read and listed', async () => {
    const before = await createCluster({ kinds: [LooseWidgetKind] });
    await before.client.resource(LooseWidgetKind).create({ metadata: { name: 'old' }, spec: { size: 9 } } as Widget);
    const snapshot = before.snapshot();
    await before.close();

    const cluster = await createCluster({ kinds: [WidgetKind], from: snapshot });
    try {
      const widgets = cluster.client.resource(WidgetKind);
      expect((await widgets.get('old')).spec).toEqual({ size: 9, color: 'red', shape: { sides: 4 } });
      expect((await widgets.list()).items.map((w) => w.spec)).toEqual([{ size: 9, color: 'red', shape: { sides: 4 } }]);
      // A stored value a newer rule refuses stays as long as an update leaves it unchanged (ratcheting).
      const relabeled = await widgets.patch('old', { metadata: { labels: { a: 'b' } } }, { type: 'merge' });
      expect(relabeled.spec.size).toBe(9);
      const changed = await rejection(widgets.patch('old', { spec: { size: 8 } }, { type: 'merge' }));
      expect(changed.message).toBe(
        'Widget.toys.example.com "old" is invalid: spec.size: Invalid value: 8: spec.size in body should be less than or equal to 5',
      );
    } finally {
      await cluster.close();
    }
  });
});

describe('value validations of a declared kind', () => {
  it('answers every schema error and the strategy errors in one 422, and stores nothing', async () => {
    await withCluster(async (cluster) => {
      const widgets = cluster.client.resource(WidgetKind);
      const e = await rejection(
        widgets.create({
          metadata: { name: 'bad' },
          spec: { size: 9, ratio: 0, color: 'green', label: 'Bad1', tags: ['a', 'bcde', 'f'], owner: 'nobody' },
        } as never),
      );
      expect(e.code).toBe(422);
      expect(e.status.reason).toBe('Invalid');
      expect(e.status.details).toEqual({
        name: 'bad',
        group: 'toys.example.com',
        kind: 'Widget',
        causes: [
          { reason: 'FieldValueInvalid', message: 'Invalid value: 9: spec.size in body should be less than or equal to 5', field: 'spec.size' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: 0: spec.ratio in body should be greater than 0', field: 'spec.ratio' },
          { reason: 'FieldValueNotSupported', message: 'Unsupported value: "green": supported values: "red", "blue"', field: 'spec.color' },
          { reason: 'FieldValueInvalid', message: 'Invalid value: "Bad1": spec.label in body should match \'^[a-z]+$\'', field: 'spec.label' },
          { reason: 'FieldValueTooLong', message: 'Too long: may not be more than 3 bytes', field: 'spec.tags[1]' },
          { reason: 'FieldValueTooMany', message: 'Too many: 3: must have at most 2 items', field: 'spec.tags' },
          // z.email() publishes a pattern and the `email` format: both hold.
          expect.objectContaining({ reason: 'FieldValueInvalid', field: 'spec.owner' }),
          { reason: 'FieldValueTypeInvalid', message: 'Invalid value: "nobody": spec.owner in body must be of type email: "nobody"', field: 'spec.owner' },
        ],
      });
      expect(e.message.startsWith('Widget.toys.example.com "bad" is invalid: [spec.size: Invalid value: 9: spec.size in body should be')).toBe(true);
      expect((await rejection(widgets.get('bad'))).code).toBe(404);

      const both = await rejection(widgets.create({ metadata: { name: 'both' }, spec: { size: 0, label: 'bad' } } as Widget));
      expect(both.message).toBe(
        'Widget.toys.example.com "both" is invalid: [spec.size: Invalid value: 0: spec.size in body should be greater than or equal to 1, spec.label: Invalid value: "bad": is not a good label]',
      );
    });
  });

  it('answers an HTTP create with the 422 Status kube-apiserver sends, and an apply of a bad value alike', async () => {
    await withCluster(async (cluster) => {
      const url = 'http://x/apis/toys.example.com/v1/namespaces/default/widgets';
      const headers = { authorization: `Bearer ${cluster.adminToken}` };
      const body = JSON.stringify({ apiVersion: 'toys.example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 6, color: 'green' } });
      const created = await cluster.fetch(new Request(url, { method: 'POST', body, headers: { ...headers, 'content-type': 'application/json' } }));
      expect(created.status).toBe(422);
      expect(await created.json()).toEqual({
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message:
          'Widget.toys.example.com "w" is invalid: [spec.size: Invalid value: 6: spec.size in body should be less than or equal to 5, spec.color: Unsupported value: "green": supported values: "red", "blue"]',
        reason: 'Invalid',
        details: {
          name: 'w',
          group: 'toys.example.com',
          kind: 'Widget',
          causes: [
            { reason: 'FieldValueInvalid', message: 'Invalid value: 6: spec.size in body should be less than or equal to 5', field: 'spec.size' },
            { reason: 'FieldValueNotSupported', message: 'Unsupported value: "green": supported values: "red", "blue"', field: 'spec.color' },
          ],
        },
        code: 422,
      });
      const applied = await cluster.fetch(
        new Request(`${url}/w?fieldManager=kubectl`, { method: 'PATCH', body, headers: { ...headers, 'content-type': 'application/apply-patch+yaml' } }),
      );
      expect(applied.status).toBe(422);
      const listed = await cluster.fetch(new Request(url, { headers }));
      expect(((await listed.json()) as { items: unknown[] }).items).toEqual([]);
    });
  });

  it('checks minimum length and nested defaults against their own rules', async () => {
    await withCluster(async (cluster) => {
      const widgets = cluster.client.resource(WidgetKind);
      const e = await rejection(widgets.create({ metadata: { name: 'short' }, spec: { label: 'a', shape: { sides: 2 } } } as Widget));
      expect(e.message).toBe(
        'Widget.toys.example.com "short" is invalid: [spec.label: Invalid value: "a": spec.label in body should be at least 2 chars long, spec.shape.sides: Invalid value: 2: spec.shape.sides in body should be greater than or equal to 3]',
      );
    });
  });

  it('refuses a bad value on update, patch, apply, /status and /scale, leaving the stored object as it was', async () => {
    await withCluster(async (cluster) => {
      const widgets = cluster.client.resource(WidgetKind);
      const a = await widgets.create({ metadata: { name: 'a' }, spec: { size: 2 } } as Widget);
      const tooBig = 'Widget.toys.example.com "a" is invalid: spec.size: Invalid value: 6: spec.size in body should be less than or equal to 5';
      expect((await rejection(widgets.update({ ...a, spec: { ...a.spec, size: 6 } }))).message).toBe(tooBig);
      expect((await rejection(widgets.patch('a', { spec: { size: 6 } }, { type: 'merge' }))).message).toBe(tooBig);
      expect((await rejection(widgets.patch('a', { spec: { size: 6 } }, { type: 'strategic' }))).message).toBe(tooBig);
      expect((await rejection(widgets.patch('a', [{ op: 'replace', path: '/spec/size', value: 6 }], { type: 'json' }))).message).toBe(tooBig);
      const applied = await rejection(
        widgets.apply({ apiVersion: 'toys.example.com/v1', kind: 'Widget', metadata: { name: 'a' }, spec: { size: 6 } } as never, {
          fieldManager: 'tester',
          force: true,
        }),
      );
      expect(applied.message).toBe(tooBig);
      const created = await rejection(
        widgets.apply({ apiVersion: 'toys.example.com/v1', kind: 'Widget', metadata: { name: 'n' }, spec: { color: 'gold' } } as never, {
          fieldManager: 'tester',
        }),
      );
      expect(created.message).toBe('Widget.toys.example.com "n" is invalid: spec.color: Unsupported value: "gold": supported values: "red", "blue"');
      // Through /status the status is checked against its own schema, named from there, as for a custom resource.
      const status = await rejection(widgets.updateStatus({ ...a, status: { level: 4 } }));
      expect(status.message).toBe('Widget.toys.example.com "a" is invalid: status.level: Invalid value: 4: level in body should be less than or equal to 3');
      const scale = await widgets.getScale('a');
      expect((await rejection(widgets.updateScale({ ...scale, spec: { replicas: 7 } }))).code).toBe(422);
      const stored = await widgets.get('a');
      expect(stored.spec).toEqual(a.spec);
      expect(stored.metadata?.resourceVersion).toBe(a.metadata?.resourceVersion);
      await expect(widgets.get('n')).rejects.toMatchObject({ code: 404 });
    });
  });

  it('answers hostile values with a 4xx, never a 500', async () => {
    await withCluster(async (cluster) => {
      const widgets = cluster.client.resource(WidgetKind);
      const codes = async (spec: unknown) => (await rejection(widgets.create({ metadata: { name: 'h' }, spec } as never))).code;
      expect(await codes({ size: 1e308 })).toBe(400); // not an int32: Go's decoder refuses it
      expect(await codes({ size: 'NaN' })).toBe(400);
      expect(await codes({ ratio: 1e308 })).toBe(422);
      expect(await codes({ ratio: 'Infinity' })).toBe(400);
      expect(await codes({ label: 'x'.repeat(200_000) })).toBe(422);
      expect(await codes({ tags: Array.from({ length: 20_000 }, () => 'abcd') })).toBe(422);
      let deep: unknown = 'leaf';
      for (let i = 0; i < 5_000; i++) deep = { d: deep };
      // Deep nesting where the schema says nothing is kept as it is, and checked only where the schema has rules.
      expect(await codes({ size: 6, extra: { deep } })).toBe(422);
      expect((await rejection(widgets.get('h'))).code).toBe(404);
    });
  });
});

describe('rules a declared kind states with .meta() and zod', () => {
  const Part = z.object({ name: z.string(), count: z.int().optional() });
  const Node: z.ZodType<{ label?: string; child?: unknown }> = z.lazy(() =>
    z.object({ label: z.string().max(3).optional(), child: Node.optional() }).meta({ id: 'com.example.toys.v1.Node' }),
  );
  const GadgetSchema = z.object({
    apiVersion: z.string().optional(),
    kind: z.string().optional(),
    metadata: ObjectMetaSchema.optional(),
    spec: z.object({
      parts: z
        .array(Part)
        .meta({
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          'x-kubernetes-patch-merge-key': 'name',
          'x-kubernetes-patch-strategy': 'merge',
        })
        .optional(),
      flavours: z.array(z.string()).meta({ 'x-kubernetes-list-type': 'set' }).optional(),
      tree: Node.optional(),
      odd: z
        .int()
        .refine((n) => n % 2 === 1)
        .optional(),
    }),
  });
  type Gadget = z.infer<typeof GadgetSchema>;
  const GadgetKind = defineKind<Gadget>({
    group: 'toys.example.com',
    kind: 'Gadget',
    plural: 'gadgets',
    scope: 'Namespaced',
    versions: [{ name: 'v1', schema: GadgetSchema, served: true, storage: true }],
  });

  it('refuses two items alike in a set list and two items of one key in a map list', async () => {
    await withCluster(async (cluster) => {
      const gadgets = cluster.client.resource(GadgetKind);
      const e = await rejection(
        gadgets.create({ metadata: { name: 'g' }, spec: { parts: [{ name: 'a' }, { name: 'a', count: 2 }], flavours: ['x', 'y', 'x'] } }),
      );
      expect(e.message).toBe('Gadget.toys.example.com "g" is invalid: [spec.parts[1]: Duplicate value: {"name":"a"}, spec.flavours[2]: Duplicate value: "x"]');
    }, GadgetKind);
  });

  it("holds a recursive schema's rules down to the first repetition, and runs no .refine()", async () => {
    await withCluster(async (cluster) => {
      const gadgets = cluster.client.resource(GadgetKind);
      const e = await rejection(gadgets.create({ metadata: { name: 'g' }, spec: { tree: { label: 'long' } } }));
      expect(e.message).toBe('Gadget.toys.example.com "g" is invalid: spec.tree.label: Too long: may not be more than 3 bytes');
      // Beneath the first repetition the value is kept as it is.
      const deep = await gadgets.create({ metadata: { name: 'd' }, spec: { tree: { label: 'ok', child: { label: 'longer' } }, odd: 2 } });
      expect(deep.spec).toEqual({ tree: { label: 'ok', child: { label: 'longer' } }, odd: 2 });
    }, GadgetKind);
  });
});

describe('what a declared kind may publish', () => {
  it('publishes the defaults and validations it applies', async () => {
    await withCluster(async (cluster) => {
      const response = await cluster.fetch(
        new Request('http://x/openapi/v3/apis/toys.example.com/v1', { headers: { authorization: `Bearer ${cluster.adminToken}` } }),
      );
      const doc = (await response.json()) as { components: { schemas: Record<string, { properties: Record<string, unknown> }> } };
      const spec = doc.components.schemas['com.example.toys.v1.WidgetSpec']!.properties;
      expect(spec.size).toEqual({ type: 'integer', minimum: 1, maximum: 5, format: 'int32' });
      expect(spec.color).toEqual({ type: 'string', enum: ['red', 'blue'], default: 'red' });
      expect(spec.label).toEqual({ type: 'string', pattern: '^[a-z]+$', minLength: 2, maxLength: 8 });
      expect(spec.tags).toMatchObject({ type: 'array', maxItems: 2, items: { type: 'string', maxLength: 3 } });
    });
  });

  it('refuses, when the cluster starts, a pattern that is not RE2 and CEL rules it would not apply', async () => {
    const kindWith = (spec: z.ZodType) =>
      defineKind({
        group: 'toys.example.com',
        kind: 'Gadget',
        plural: 'gadgets',
        scope: 'Namespaced',
        versions: [{ name: 'v1', schema: z.object({ metadata: ObjectMetaSchema.optional(), spec }), served: true, storage: true }],
      });
    await expect(createCluster({ kinds: [kindWith(z.object({ code: z.string().regex(/^(?=a)\w+$/) }))] })).rejects.toThrow(
      'defineKind(Gadget): spec.code: the pattern "^(?=a)\\\\w+$" is not RE2 syntax',
    );
    await expect(createCluster({ kinds: [kindWith(z.object({ n: z.int() }).meta({ 'x-kubernetes-validations': [{ rule: 'self.n > 1' }] }))] })).rejects.toThrow(
      'defineKind(Gadget): spec: x-kubernetes-validations (CEL rules) are not applied to a declared kind; write the rule in strategy.validate',
    );
  });

  it('leaves the built-in kinds to their own rules: their schemas state list types Kubernetes does not enforce from them', async () => {
    // A Pod's env is published as a `map` list keyed by name, and kube-apiserver still accepts two
    // variables of one name (its Go validation allows it); applied as a custom resource's schema
    // it would refuse them as a duplicate.
    const Pod = builtinKinds.find((k) => k.kind === 'Pod' && k.group === '')!;
    expect(compileZodRules(Pod.storageVersion.schema, 'Pod')).toBeDefined();
    const cluster = await createCluster();
    try {
      const pod = await cluster.client.resource(Pod).create({
        metadata: { name: 'p' },
        spec: {
          containers: [
            {
              name: 'c',
              image: 'busybox',
              env: [
                { name: 'A', value: '1' },
                { name: 'A', value: '2' },
              ],
            },
          ],
        },
      } as never);
      expect((pod.spec as { containers: { env: unknown[] }[] }).containers[0]!.env).toHaveLength(2);
      expect(cluster.registry.lookup({ group: '', version: 'v1', resource: 'pods' })!.schemaRules('v1')).toBeUndefined();
    } finally {
      await cluster.close();
    }
  });
});
