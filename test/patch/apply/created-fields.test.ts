import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { builtinKinds } from '../../../src/kinds/index.js';
import { KindRegistry } from '../../../src/schema/registry.js';
import type { StructuralNode } from '../../../src/schema/structural.js';
import { createdFieldsV1, GENERAL_PATH, topLevelNames } from '../../../src/patch/apply/created-fields.js';
import { FieldSet, recordUpdate, STRIPPED_FIELDS } from '../../../src/patch/apply/index.js';
import { FIELDS_V1_LEAF } from '../../../src/patch/apply/field-set.js';
import { compareObjects } from '../../../src/patch/apply/update.js';
import { withGoZeroValues } from '../../../src/patch/apply/go-zero.js';

const registry = new KindRegistry({ apiDomain: 'k8s.io' });
for (const def of builtinKinds) registry.add(def);
const schemas = registry
  .kinds()
  .flatMap((k) =>
    k.definition.versions
      .filter((v) => v.served)
      .map((v) => ({ name: `${k.definition.kind} ${v.name}`, schema: k.structural(v.name), status: !!k.definition.statusSubresource })),
  );
const schemaOf = (kind: string, version = 'v1') => schemas.find((s) => s.name === `${kind} ${version}`)!.schema;
const STATUS = FieldSet.of([{ kind: 'field', name: 'status' }]);

/** The general path: compare the empty Go object with the new one, then strip and filter. */
function general(obj: Record<string, unknown>, schema: StructuralNode, ignored: FieldSet | undefined): string {
  const c = compareObjects({}, obj, schema, ignored);
  return JSON.stringify(c.modified.union(c.added).difference(STRIPPED_FIELDS).toFieldsV1());
}

function fast(obj: Record<string, unknown>, schema: StructuralNode, ignored: FieldSet | undefined): string | typeof GENERAL_PATH {
  const out = createdFieldsV1(obj, schema, withGoZeroValues({}, schema), topLevelNames(ignored)!);
  return out === GENERAL_PATH ? out : JSON.stringify(out);
}

const hostileKey = fc.constantFrom('__proto__', 'constructor', 'a.b', 'f:x', '.', 'k:{}', '', 'é');
const key = fc.oneof({ weight: 4, arbitrary: fc.string({ maxLength: 6 }) }, { weight: 1, arbitrary: hostileKey });

/** Objects shaped by a schema: mostly well typed, with zero values, nulls, empties and now and then a value of another type. */
function shaped(node: StructuralNode, depth: number): fc.Arbitrary<unknown> {
  const odd = fc.oneof(fc.constant(null), fc.string({ maxLength: 3 }), fc.integer(), fc.constant({}), fc.constant([]));
  const typed = shapedTyped(node, depth);
  return fc.oneof({ weight: 20, arbitrary: typed }, { weight: 1, arbitrary: odd });
}

function shapedTyped(node: StructuralNode, depth: number): fc.Arbitrary<unknown> {
  switch (node.type) {
    case 'object': {
      if (depth <= 0) return fc.constant({});
      const names = [...node.properties.keys()];
      return fc.subarray(names, { maxLength: Math.min(5, names.length) }).chain((picked) => {
        const parts: Record<string, fc.Arbitrary<unknown>> = {};
        for (const n of picked) parts[n] = shaped(node.properties.get(n)!, depth - 1);
        return fc.record(parts);
      });
    }
    case 'map':
      return depth <= 0 ? fc.constant({}) : fc.dictionary(key, shaped(node.values, depth - 1), { maxKeys: 3 });
    case 'array': {
      if (depth <= 0) return fc.constant([]);
      const item = shaped(node.items, depth - 1);
      // Items that repeat (duplicate keys or values) as well as distinct ones.
      return fc.array(item, { maxLength: 3 }).chain((items) => fc.constantFrom(items, [...items, ...items.slice(0, 1)]));
    }
    case 'string':
      return node.format === 'date-time'
        ? fc.constantFrom(null, '2026-01-01T00:00:00Z')
        : fc.oneof(fc.constant(''), fc.constantFrom('a', 'TCP', 'UDP', 'name'), fc.string({ maxLength: 4 }));
    case 'integer':
    case 'number':
      return fc.oneof(fc.constant(0), fc.integer({ min: -3, max: 100 }));
    case 'boolean':
      return fc.boolean();
    case 'int-or-string':
      return fc.oneof(fc.constant(0), fc.constant('0'), fc.integer({ min: 0, max: 9 }), fc.string({ maxLength: 3 }));
    case 'any':
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function objectOf(kind: string, schema: StructuralNode): fc.Arbitrary<Record<string, unknown>> {
  return shapedTyped(schema, 6).map((o) => ({
    ...(o as Record<string, unknown>),
    kind,
    metadata: { name: 'n', namespace: 'default', ...((o as { metadata?: object }).metadata ?? {}) },
  }));
}

describe('createdFieldsV1', () => {
  it('writes every leaf, and every `.` of a level, as the one frozen empty object, on both paths', () => {
    const leaves: unknown[] = [];
    const collect = (doc: Record<string, unknown>): void => {
      for (const v of Object.values(doc)) {
        if (Object.keys(v as object).length === 0) leaves.push(v);
        else collect(v as Record<string, unknown>);
      }
    };
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', labels: { a: 'b' } }, data: { x: '1', y: '2' } };
    const schema = schemaOf('ConfigMap');
    const walked = createdFieldsV1(cm, schema, withGoZeroValues({}, schema), new Set());
    expect(walked).not.toBe(GENERAL_PATH);
    collect(walked as Record<string, unknown>);
    const c = compareObjects({}, cm, schema, undefined);
    collect(c.added.difference(STRIPPED_FIELDS).toFieldsV1());
    // f:labels' `.` and f:a, f:data's `.`, f:x and f:y, on each path.
    expect(leaves).toHaveLength(10);
    for (const leaf of leaves) expect(leaf).toBe(FIELDS_V1_LEAF);
    expect(Object.isFrozen(FIELDS_V1_LEAF)).toBe(true);
    expect(() => {
      (FIELDS_V1_LEAF as Record<string, unknown>)['f:x'] = {};
    }).toThrow(TypeError);
    expect(FIELDS_V1_LEAF).toEqual({});
  });

  it('owns what the general comparison owns, key order included, for every built-in kind', () => {
    let walked = 0;
    let general_ = 0;
    for (const { name, schema, status } of schemas) {
      const ignored = status ? STATUS : undefined;
      fc.assert(
        fc.property(objectOf(name.split(' ')[0]!, schema), (obj) => {
          const got = fast(obj, schema, ignored);
          if (got === GENERAL_PATH) general_++;
          else {
            walked++;
            expect(got).toBe(general(obj, schema, ignored));
          }
        }),
        { numRuns: 40 },
      );
    }
    // The walk must cover most objects, or the general path is doing the work.
    expect(walked).toBeGreaterThan(general_);
  });

  it('covers what kubectl sends, with the fields Kubernetes shows', () => {
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'p', namespace: 'default', creationTimestamp: null, labels: { run: 'p' } },
      spec: {
        containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }], resources: {} }],
        dnsPolicy: 'ClusterFirst',
        restartPolicy: 'Always',
      },
      status: {},
    };
    const schema = schemaOf('Pod');
    const got = fast(pod, schema, STATUS);
    expect(got).toBe(general(pod, schema, STATUS));
    expect(JSON.parse(got as string)).toEqual({
      'f:metadata': { 'f:labels': { '.': {}, 'f:run': {} } },
      'f:spec': {
        'f:containers': {
          'k:{"name":"c"}': {
            '.': {},
            'f:image': {},
            'f:name': {},
            'f:ports': { '.': {}, 'k:{"containerPort":80,"protocol":"TCP"}': { '.': {}, 'f:containerPort': {} } },
            'f:resources': {},
          },
        },
        'f:dnsPolicy': {},
        'f:restartPolicy': {},
      },
    });
  });

  it('orders keys as Go orders strings, whatever order the object had', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { b: '1', a: '2', B: '3', 'a-10': '4', 'a-9': '5' } };
    const got = fast(cm, schemaOf('ConfigMap'), undefined);
    expect(Object.keys((JSON.parse(got as string) as { 'f:data': object })['f:data'])).toEqual(['.', 'f:B', 'f:a', 'f:a-10', 'f:a-9', 'f:b']);
  });

  it('names map keys right however many distinct keys came before, and the same when they repeat', () => {
    const schema = schemaOf('ConfigMap');
    const keysOf = (data: Record<string, string>): string[] =>
      Object.keys(
        (JSON.parse(fast({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data }, schema, undefined) as string) as { 'f:data': object })[
          'f:data'
        ],
      );
    // More distinct keys than any memo of recent keys would hold, in objects of 1,000 keys.
    for (let round = 0; round < 10; round++) {
      const data = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`r${round}-${i}`, 'v']));
      const got = keysOf(data);
      expect(got).toHaveLength(1001);
      expect(new Set(got)).toEqual(new Set(['.', ...Object.keys(data).map((k) => `f:${k}`)]));
    }
    expect(keysOf({ 'r0-1': 'v', __proto__x: 'v' })).toEqual(['.', 'f:__proto__x', 'f:r0-1']);
  });

  it('owns nothing for an object holding only what the server owns', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'd', uid: 'u', generation: 1 } };
    expect(fast(cm, schemaOf('ConfigMap'), undefined)).toBe('{}');
    expect(recordUpdate({ live: undefined, updated: cm, manager: 'm', apiVersion: 'v1', schema: schemaOf('ConfigMap'), now: 0 })).toEqual([]);
  });

  it('leaves metadata.managedFields out, as the general path does', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', managedFields: [{ manager: 'x' }] }, data: { a: 'b' } };
    expect(fast(cm, schemaOf('ConfigMap'), undefined)).toBe('{"f:data":{".":{},"f:a":{}}}');
  });

  it('gives the general path what it does not cover', () => {
    const cm = schemaOf('ConfigMap');
    // A field the schema does not know, and a value of another type than declared.
    expect(fast({ metadata: { name: 'c' }, extra: 1 }, cm, undefined)).toBe(GENERAL_PATH);
    expect(fast({ metadata: { name: 'c' }, data: 'text' }, cm, undefined)).toBe(GENERAL_PATH);
    // A map-list item without its required key: the Go form fills the key in.
    const pod = schemaOf('Pod');
    expect(fast({ metadata: { name: 'p' }, spec: { containers: [{ image: 'nginx' }] } }, pod, STATUS)).toBe(GENERAL_PATH);
    // A reset-fields set deeper than the top level.
    expect(
      topLevelNames(
        FieldSet.of([
          { kind: 'field', name: 'spec' },
          { kind: 'field', name: 'x' },
        ]),
      ),
    ).toBeUndefined();
  });

  it('is what recordUpdate writes on create, the general path taken when it gives up', () => {
    const schema = schemaOf('ConfigMap');
    const covered = recordUpdate({ live: undefined, updated: { metadata: { name: 'c' }, data: { a: 'b' } }, manager: '', apiVersion: 'v1', schema, now: 0 });
    expect(covered).toEqual([
      {
        manager: 'unknown',
        operation: 'Update',
        apiVersion: 'v1',
        time: '1970-01-01T00:00:00Z',
        fieldsType: 'FieldsV1',
        fieldsV1: { 'f:data': { '.': {}, 'f:a': {} } },
      },
    ]);
    expect(Object.keys(covered[0]!)).toEqual(['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1']);
    const odd = recordUpdate({
      live: undefined,
      updated: { metadata: { name: 'c' }, data: { a: 'b' }, extra: { x: 1 } },
      manager: 'm',
      apiVersion: 'v1',
      schema,
      now: 0,
    });
    expect(odd[0]!.fieldsV1).toEqual({ 'f:data': { '.': {}, 'f:a': {} }, 'f:extra': { '.': {}, 'f:x': {} } });
  });
});
