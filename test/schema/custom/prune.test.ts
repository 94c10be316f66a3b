import { describe, expect, it } from 'vitest';
import { fieldErrorMessage } from '../../../src/machinery/field-errors.js';
import { pruneNonNullableNulls, pruneUnknownFields } from '../../../src/schema/custom/index.js';
import { compile, deepFreeze } from './helpers.js';

const schema = compile({
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        name: { type: 'string' },
        list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
        map: { type: 'object', additionalProperties: { type: 'object', properties: { v: { type: 'integer' } } } },
        free: {
          type: 'object',
          'x-kubernetes-preserve-unknown-fields': true,
          properties: { known: { type: 'object', properties: { x: { type: 'string' } } } },
        },
        anything: { 'x-kubernetes-preserve-unknown-fields': true },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, properties: { spec: { type: 'object', properties: { x: { type: 'string' } } } } },
        opaque: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
        nullable: { type: 'string', nullable: true },
        defaulted: { type: 'string', default: 'd' },
      },
    },
  },
});

describe('prune', () => {
  it('drops unknown fields at every level and reports their paths sorted', () => {
    const { value, unknownFields, error } = schema.prune({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      zeta: 1,
      spec: { name: 'n', bogus: true, list: [{ a: 'x', b: 1 }, { c: 2 }], map: { k1: { v: 1, w: 2 } } },
    });
    expect(unknownFields).toEqual(['spec.bogus', 'spec.list[0].b', 'spec.list[1].c', 'spec.map.k1.w', 'zeta']);
    expect(error).toBeUndefined();
    expect(value).toEqual({
      apiVersion: 'example.com/v1',
      kind: 'Widget',
      metadata: { name: 'w' },
      spec: { name: 'n', list: [{ a: 'x' }, {}], map: { k1: { v: 1 } } },
    });
  });

  it('leaves the resource’s apiVersion, kind and metadata to the engine', () => {
    const { value, unknownFields } = schema.prune({ apiVersion: 1, kind: [], metadata: { anything: true } });
    expect(unknownFields).toEqual([]);
    expect(value).toEqual({ apiVersion: 1, kind: [], metadata: { anything: true } });
  });

  it('keeps unknown fields under x-kubernetes-preserve-unknown-fields, but prunes known ones', () => {
    const { value, unknownFields } = schema.prune({ spec: { free: { extra: { deep: 1 }, known: { x: 'y', z: 1 } }, anything: { a: [{ b: 1 }] } } });
    expect(unknownFields).toEqual(['spec.free.known.z']);
    expect(value).toEqual({ spec: { free: { extra: { deep: 1 }, known: { x: 'y' } }, anything: { a: [{ b: 1 }] } } });
  });

  it('empties an object found where the schema expects a scalar, and objects in lists there', () => {
    const { value, unknownFields } = schema.prune({ spec: { name: { a: 1 }, defaulted: [[{ b: 1 }], 2] } });
    expect(value).toEqual({ spec: { name: {}, defaulted: [[{}], 2] } });
    expect(unknownFields).toEqual(['spec.defaulted[0][0].b', 'spec.name.a']);
  });

  it('keeps an embedded resource’s apiVersion and kind, and reads its metadata as ObjectMeta', () => {
    const { value, unknownFields, error } = schema.prune({
      spec: {
        template: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p', labels: {}, annotations: { a: 'b' }, creationTimestamp: null, foo: 1, ownerReferences: [{ name: 'o', bar: 2 }] },
          spec: { x: 'y', z: 1 },
          status: {},
        },
      },
    });
    expect(error).toBeUndefined();
    expect(unknownFields).toEqual([
      'spec.template.spec.z',
      'spec.template.status',
      'spec.template.metadata.foo',
      'spec.template.metadata.ownerReferences[0].bar',
    ]);
    expect(value).toEqual({
      spec: {
        template: {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'p', annotations: { a: 'b' }, ownerReferences: [{ apiVersion: '', kind: '', name: 'o', uid: '' }] },
          spec: { x: 'y' },
        },
      },
    });
  });

  it('writes embedded metadata times as Go marshals them', () => {
    const { value } = schema.prune({ spec: { opaque: { metadata: { creationTimestamp: '2024-01-02T03:04:05.678+01:00', generation: 0 } } } });
    expect(value).toEqual({ spec: { opaque: { metadata: { creationTimestamp: '2024-01-02T02:04:05Z' } } } });
  });

  it('fails on an embedded resource that cannot be decoded, unless dropping', () => {
    const bad = { spec: { opaque: { kind: 1, metadata: { labels: 'x', name: 'n' } } } };
    expect(fieldErrorMessage(schema.prune(bad).error!)).toBe('spec.opaque.kind: Invalid value: 1: must be a string');
    expect(fieldErrorMessage(schema.prune({ spec: { opaque: { metadata: { labels: 'x' } } } }).error!)).toBe(
      'spec.opaque.metadata: Invalid value: {"labels":"x"}: json: cannot unmarshal string into Go struct field ObjectMeta.labels of type map[string]string',
    );
    const dropped = schema.prune(bad, { dropInvalidMetadata: true });
    expect(dropped.error).toBeUndefined();
    expect(dropped.value).toEqual({ spec: { opaque: { metadata: { name: 'n' } } } });
  });

  it('removes nulls the schema does not allow, unless a default will fill them', () => {
    const { value } = schema.prune({ spec: { name: null, nullable: null, defaulted: null, anything: { x: null } } });
    expect(value).toEqual({ spec: { nullable: null, defaulted: null, anything: { x: null } } });
  });

  it('never changes its input, and shares what it keeps', () => {
    const input = deepFreeze({ spec: { name: 'n', bogus: 1, list: [{ a: 'x' }] } });
    const { value } = schema.prune(input);
    expect(value).toEqual({ spec: { name: 'n', list: [{ a: 'x' }] } });
    expect((value as typeof input).spec.list).toBe(input.spec.list);
    const clean = deepFreeze({ spec: { name: 'n' } });
    expect(schema.prune(clean).value).toBe(clean);
  });

  it('treats keys named like Object.prototype members as ordinary keys', () => {
    const input = JSON.parse('{"spec":{"__proto__":{"polluted":true},"constructor":1,"map":{"__proto__":{"v":1,"x":2}}}}');
    const { value, unknownFields } = schema.prune(input);
    expect(unknownFields).toEqual(['spec.__proto__', 'spec.constructor', 'spec.map.__proto__.x']);
    expect(JSON.stringify(value)).toBe('{"spec":{"map":{"__proto__":{"v":1}}}}');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('prunes lists nested 10000 deep without exhausting the stack', () => {
    let deep: unknown = { x: 1 };
    for (let i = 0; i < 10000; i++) deep = [deep];
    const { value, unknownFields } = schema.prune({ spec: { name: deep } });
    expect(unknownFields).toEqual([`spec.name${'[0]'.repeat(10000)}.x`]);
    let inner = (value as { spec: { name: unknown } }).spec.name;
    for (let i = 0; i < 10000; i++) inner = (inner as unknown[])[0];
    expect(inner).toEqual({});
  });
});

describe('pruneUnknownFields and pruneNonNullableNulls on their own', () => {
  it('follows Go when a resource root has no schema at all', () => {
    expect(pruneUnknownFields({ apiVersion: 'v1', kind: 'K', metadata: {}, spec: {} }, undefined, true)).toEqual({
      value: { apiVersion: 'v1', kind: 'K', metadata: {} },
      unknownFields: ['spec'],
    });
    expect(pruneUnknownFields([{ a: 1 }], undefined, false).unknownFields).toEqual(['[0].a']);
  });

  it('reports a root-level apiVersion where the resource is not a root', () => {
    const node = compile({ type: 'object', properties: { a: { type: 'string' } } }).root;
    expect(pruneUnknownFields({ a: 'x', apiVersion: 'v1', b: 1 }, node, false).unknownFields).toEqual(['b']);
    expect(pruneUnknownFields({ c: { apiVersion: 'v1' } }, node, false).unknownFields).toEqual(['c']);
  });

  it('keeps what it does not know how to judge', () => {
    expect(pruneNonNullableNulls({ a: null }, undefined)).toEqual({ a: null });
  });
});
