/**
 * The structural schema written straight from zod's definitions is the one zod's `toJSONSchema`
 * gives: for every version of every built-in kind, for generated schemas of every shape the direct
 * path covers, and, through the fallback, for every schema it does not.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinKinds } from '../../src/kinds/index.js';
import { structuralFromJsonSchema, structuralOf, structuralOfJsonSchema, type StructuralNode } from '../../src/schema/structural.js';
import { NotWrittenHere, structuralJsonOf } from '../../src/schema/zod-structural-json.js';

/** A structural tree as plain data: maps and sets in order, a node met again on its own path as `#n`. */
function canonical(node: StructuralNode, path = new Map<object, number>()): unknown {
  const seen = path.get(node);
  if (seen !== undefined) return `#${seen}`;
  path.set(node, path.size);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(node).sort()) {
    const value = (node as unknown as Record<string, unknown>)[key];
    if (value instanceof Map) out[key] = [...value].map(([name, child]) => [name, canonical(child as StructuralNode, path)]);
    else if (value instanceof Set) out[key] = [...value].sort();
    else if (key === 'items' || key === 'values') out[key] = canonical(value as StructuralNode, path);
    else out[key] = value;
  }
  path.delete(node);
  return out;
}

const direct = (schema: z.ZodType): StructuralNode => structuralFromJsonSchema(structuralJsonOf(schema));
const viaZod = (schema: z.ZodType): StructuralNode => structuralOfJsonSchema(schema);

describe('the structural schema written from zod definitions', () => {
  it("is zod's for every version of every built-in kind, and for their actions' bodies", () => {
    const schemas: Array<[string, z.ZodType]> = [];
    for (const kind of builtinKinds) {
      for (const v of kind.versions) schemas.push([`${kind.kind} ${v.name}`, v.schema]);
      for (const [name, action] of Object.entries(kind.actions ?? {})) schemas.push([`${kind.kind}/${name}`, action.schema]);
    }
    expect(schemas.length).toBeGreaterThan(100);
    for (const [name, schema] of schemas) expect(canonical(direct(schema)), name).toEqual(canonical(viaZod(schema)));
  });

  it('refuses what it does not write, and structuralOf takes zod’s for it', () => {
    const others: z.ZodType[] = [
      z.object({ size: z.int32().default(1) }),
      z.object({ color: z.enum(['red', 'blue']) }),
      z.object({ kind: z.literal('Widget') }),
      z.object({ note: z.string().nullable() }),
      z.object({ name: z.string().min(1) }),
      z.object({ when: z.iso.datetime() }),
      z.object({ n: z.number().int() }),
      z.object({ later: z.lazy(() => z.string()) }),
      z.object({ piped: z.string().transform((s) => s.length) }),
      z.object({ m: z.record(z.enum(['a', 'b']), z.string()) }),
      z.object({ t: z.tuple([z.string()]) }),
      z.string().meta({ id: 'example.com/with/slash' }).optional(),
    ];
    for (const schema of others) {
      expect(() => structuralJsonOf(z.object({ wrapped: schema }))).toThrow(NotWrittenHere);
      expect(canonical(structuralOf(schema))).toEqual(canonical(viaZod(schema)));
    }
  });

  it('refuses two schemas with one id, as zod does', () => {
    const a = z.object({ x: z.string() }).meta({ id: 'example.com.v1.Same' });
    const b = z.object({ y: z.int32() }).meta({ id: 'example.com.v1.Same' });
    const both = z.object({ a, b });
    expect(() => structuralJsonOf(both)).toThrow(NotWrittenHere);
    expect(() => viaZod(both)).toThrow();
    expect(() => structuralOf(both)).toThrow();
  });

  it('refuses a cycle through schemas without an id instead of recursing without end', () => {
    const Tree = z.object({
      name: z.string(),
      get children(): z.ZodOptional<z.ZodArray<typeof Tree>> {
        return z.array(Tree).optional();
      },
    });
    expect(() => structuralJsonOf(Tree)).toThrow(NotWrittenHere);
    const node = structuralOf(Tree);
    expect(node.type).toBe('object');
    expect(canonical(node)).toEqual(canonical(viaZod(Tree)));
  });

  it('follows a cycle through a schema with an id, as a definition of its own', () => {
    const Node = z
      .object({
        value: z.string(),
        get next(): z.ZodOptional<typeof Node> {
          return Node.optional();
        },
      })
      .meta({ id: 'example.com.v1.Node' });
    const node = direct(Node);
    expect(node.type === 'object' && node.properties.get('next')).toBe(node);
    expect(canonical(node)).toEqual(canonical(viaZod(Node)));
    // Referred to from a schema around it, the same.
    const around = z.object({ head: Node, tail: z.array(Node) });
    expect(canonical(direct(around))).toEqual(canonical(viaZod(around)));
  });

  it('keeps a field named __proto__ as a field', () => {
    const schema = z.object({ ['__proto__']: z.string(), other: z.int32() });
    const node = direct(schema);
    expect(node.type === 'object' && [...node.properties.keys()]).toEqual(['__proto__', 'other']);
    expect(canonical(node)).toEqual(canonical(viaZod(schema)));
  });

  it("is zod's for generated schemas of every shape it writes: ids, copies with metadata, lists, maps, unions", () => {
    let ids = 0;
    const facts = fc.record(
      {
        'x-kubernetes-list-type': fc.constantFrom('atomic', 'set', 'map'),
        'x-kubernetes-list-map-keys': fc.constant(['name']),
        'x-kubernetes-patch-strategy': fc.constantFrom('merge', 'replace', 'retainKeys'),
        'x-kubernetes-patch-merge-key': fc.constant('name'),
        'x-kubernetes-map-type': fc.constantFrom('atomic', 'granular'),
        'x-kubernetes-preserve-unknown-fields': fc.constant(true),
        format: fc.constantFrom('byte', 'date-time'),
      },
      { requiredKeys: [] },
    );
    const withMeta = (schema: z.ZodType, meta: Record<string, unknown>, id: boolean): z.ZodType => {
      const all = id ? { ...meta, id: `example.com.v1.T${ids++}` } : meta;
      return Object.keys(all).length ? schema.meta(all) : schema;
    };
    const { schema } = fc.letrec<{ schema: z.ZodType; leaf: z.ZodType }>((tie) => ({
      leaf: fc.constantFrom<z.ZodType>(z.string(), z.int(), z.int32(), z.number(), z.boolean(), z.unknown(), z.union([z.int32(), z.string()])),
      schema: fc
        .tuple(
          fc.oneof(
            { depthSize: 'small' },
            tie('leaf'),
            fc
              .dictionary(fc.constantFrom('a', 'b', 'spec', 'items', '__proto__'), fc.tuple(tie('schema'), fc.boolean()))
              .map((fields) => z.object(Object.fromEntries(Object.entries(fields).map(([k, [s, optional]]) => [k, optional ? s.optional() : s])))),
            tie('schema').map((s) => z.array(s)),
            tie('schema').map((s) => z.record(z.string(), s)),
            fc.tuple(tie('schema'), tie('schema')).map(([a, b]) => z.union([a, b])),
          ),
          facts,
          fc.boolean(),
          fc.boolean(),
        )
        .map(([s, meta, id, copy]) => {
          const made = withMeta(s, meta, id);
          // A copy with metadata of its own over a shared schema, as the generated types make them.
          return copy ? made.meta({ 'x-kubernetes-map-type': 'atomic' }) : made;
        }),
    }));
    fc.assert(
      fc.property(schema, (s) => {
        const root = z.object({ spec: s, other: s.optional() });
        expect(canonical(direct(root))).toEqual(canonical(viaZod(root)));
      }),
      { numRuns: 300 },
    );
  });
});
