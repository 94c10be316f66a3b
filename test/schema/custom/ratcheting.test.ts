import { describe, expect, it } from 'vitest';
import type { JsonSchemaProps } from '../../../src/schema/custom/index.js';
import { compile, messages } from './helpers.js';

const portItem: JsonSchemaProps = {
  type: 'object',
  properties: { name: { type: 'string' }, port: { type: 'integer', maximum: 100 } },
};

const schema = compile({
  type: 'object',
  properties: {
    kind: { type: 'string', enum: ['Widget'] },
    spec: {
      type: 'object',
      required: ['name'],
      properties: {
        name: { type: 'string', maxLength: 3 },
        other: { type: 'string' },
        count: { type: 'integer', format: 'int32' },
        ports: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['name'], items: portItem },
        tags: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'string', maxLength: 2 } },
        list: { type: 'array', items: { type: 'string', maxLength: 2 } },
        labels: { type: 'object', additionalProperties: { type: 'string', maxLength: 2 } },
        template: { type: 'object', 'x-kubernetes-embedded-resource': true, 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    status: { type: 'object', properties: { phase: { type: 'string', enum: ['Ready'] }, ready: { type: 'integer' } } },
  },
});

const update = (spec: object, oldSpec: object) => messages(schema.validateUpdate({ spec }, { spec: oldSpec }));

describe('validation ratcheting', () => {
  it('drops an error on a value unchanged from the old object', () => {
    expect(update({ name: 'toolong' }, { name: 'toolong' })).toEqual([]);
    expect(update({ name: 'toolong', other: 'b' }, { name: 'toolong', other: 'a' })).toEqual([]);
  });

  it('keeps an error on a changed value', () => {
    expect(update({ name: 'toolong2' }, { name: 'toolong' })).toEqual(['spec.name: Too long: may not be more than 3 bytes']);
    expect(update({ name: 'toolong' }, {})).toEqual(['spec.name: Too long: may not be more than 3 bytes']);
  });

  it('keeps errors that belong to a changed parent, such as a missing required field', () => {
    expect(update({ other: 'b' }, { other: 'a' })).toEqual(['spec.name: Required value']);
    expect(update({ other: 'a' }, { other: 'a' })).toEqual([]);
  });

  it('ratchets plain errors too (a value out of its format’s range)', () => {
    expect(update({ name: 'a', count: 2147483648, other: 'x' }, { name: 'a', count: 2147483648 })).toEqual([]);
    expect(update({ name: 'a', count: 2147483649 }, { name: 'a', count: 2147483648 })).toEqual([
      '<nil>: Invalid value: "": Checked value must be of type integer with format int32 in spec.count',
    ]);
  });

  it('correlates map-list items by key, wherever they moved', () => {
    const old = {
      name: 'a',
      ports: [
        { name: 'x', port: 500 },
        { name: 'y', port: 1 },
      ],
    };
    expect(
      update(
        {
          name: 'a',
          ports: [
            { name: 'y', port: 2 },
            { name: 'x', port: 500 },
          ],
        },
        old,
      ),
    ).toEqual([]);
    expect(update({ name: 'a', ports: [{ name: 'x', port: 501 }] }, old)).toEqual([
      'spec.ports[0].port: Invalid value: 501: spec.ports[0].port in body should be less than or equal to 100',
    ]);
    expect(update({ name: 'a', ports: [{ name: 'z', port: 500 }] }, old)).toEqual([
      'spec.ports[0].port: Invalid value: 500: spec.ports[0].port in body should be less than or equal to 100',
    ]);
  });

  it('does not correlate items of sets and untyped lists: only an unchanged list ratchets', () => {
    expect(update({ name: 'a', tags: ['long', 'b'] }, { name: 'a', tags: ['long', 'b'] })).toEqual([]);
    expect(update({ name: 'a', tags: ['long', 'c'] }, { name: 'a', tags: ['long', 'b'] })).toEqual(['spec.tags[0]: Too long: may not be more than 2 bytes']);
    expect(update({ name: 'a', list: ['b', 'long'] }, { name: 'a', list: ['long', 'b'] })).toEqual(['spec.list[1]: Too long: may not be more than 2 bytes']);
  });

  it('correlates map values by key', () => {
    expect(update({ name: 'a', labels: { k: 'long', j: 'x' } }, { name: 'a', labels: { k: 'long' } })).toEqual([]);
    expect(update({ name: 'a', labels: { k: 'longer' } }, { name: 'a', labels: { k: 'long' } })).toEqual([
      'spec.labels.k: Too long: may not be more than 2 bytes',
    ]);
  });

  it('never ratchets the resource’s kind and apiVersion', () => {
    const obj = { kind: 'Gadget', spec: { name: 'a', other: 'new' } };
    const old = { kind: 'Gadget', spec: { name: 'a', other: 'old' } };
    expect(messages(schema.validateUpdate(obj, old))).toEqual(['kind: Unsupported value: "Gadget": supported values: "Widget"']);
    expect(messages(schema.validateUpdate(old, old))).toEqual([]);
  });

  it('does not ratchet embedded resources, and checks list invariants only when the old object met them', () => {
    const old = { spec: { name: 'a', template: {}, tags: ['a', 'a'] } };
    expect(messages(schema.validateUpdate(old, old))).toEqual(['spec.template.apiVersion: Required value', 'spec.template.kind: Required value']);
    const clean = { spec: { name: 'a', tags: ['a'] } };
    expect(messages(schema.validateUpdate({ spec: { name: 'a', tags: ['a', 'a'] } }, clean))).toEqual(['spec.tags[1]: Duplicate value: "a"']);
  });

  it('can be turned off', () => {
    expect(messages(schema.validateUpdate({ spec: { name: 'toolong' } }, { spec: { name: 'toolong' } }, { ratcheting: false }))).toEqual([
      'spec.name: Too long: may not be more than 3 bytes',
    ]);
  });

  it('ratchets status updates against the old status', () => {
    expect(messages(schema.validateStatusUpdate({ status: { phase: 'Bad', ready: 2 } }, { status: { phase: 'Bad', ready: 1 } }))).toEqual([]);
    expect(messages(schema.validateStatusUpdate({ status: { phase: 'Worse' } }, { status: { phase: 'Bad' } }))).toEqual([
      'status.phase: Unsupported value: "Worse": supported values: "Ready"',
    ]);
  });
});

describe('Correlation', () => {
  it('walks new and old values down the schema', () => {
    const obj = {
      spec: {
        name: 'a',
        ports: [
          { name: 'y', port: 2 },
          { name: 'x', port: 1 },
        ],
        labels: { k: 'v' },
      },
    };
    const old = { spec: { name: 'b', ports: [{ name: 'x', port: 1 }], labels: { k: 'w' } } };
    const c = schema.correlate(obj, old);
    const spec = c.key('spec')!;
    expect(spec.key('name')!.oldValue).toBe('b');
    expect(spec.key('missing')).toBeUndefined();
    const ports = spec.key('ports')!;
    expect(ports.index(0)).toBeUndefined(); // y is new
    expect(ports.index(1)!.oldValue).toEqual({ name: 'x', port: 1 });
    expect(ports.index(1)!.deepEqual()).toBe(true);
    expect(ports.index(5)).toBeUndefined();
    expect(spec.key('labels')!.key('k')!.oldValue).toBe('w');
    expect(spec.key('name')!.schema).toBe(schema.root.properties!.get('spec')!.properties!.get('name'));
    expect(c.deepEqual()).toBe(false);
  });

  it('finds a reordered map list unchanged, a reordered set changed', () => {
    const c = schema.correlate(
      { spec: { ports: [{ name: 'b' }, { name: 'a' }], tags: ['b', 'a'] } },
      { spec: { ports: [{ name: 'a' }, { name: 'b' }], tags: ['a', 'b'] } },
    );
    expect(c.key('spec')!.key('ports')!.deepEqual()).toBe(true);
    expect(c.key('spec')!.key('tags')!.deepEqual()).toBe(false);
  });

  it('tells an int64 from a float64, as Go’s DeepEqual does', () => {
    expect(schema.correlate({ spec: { count: 1 } }, { spec: { count: 1 } }).deepEqual()).toBe(true);
    expect(schema.correlate({ spec: { count: 1 } }, { spec: { count: 1.5 } }).deepEqual()).toBe(false);
  });
});

describe('the comparison time of a correlation', () => {
  it('is summed over the whole tree, each comparison timed once', () => {
    const big = { spec: { name: 'abc', list: Array.from({ length: 2000 }, (_, i) => `v${i}`) } };
    const root = schema.correlate(big, structuredClone(big));
    expect(root.comparisonSeconds).toBe(0);
    const spec = root.key('spec')!;
    expect(spec.deepEqual()).toBe(true);
    // Children share the root's timer: the time the child's comparison took is the tree's.
    expect(spec.comparisonSeconds).toBe(root.comparisonSeconds);
    const afterChild = root.comparisonSeconds;
    expect(afterChild).toBeGreaterThan(0);
    // The root's comparison reuses the child's cached answer, and adds only its own time.
    expect(root.deepEqual()).toBe(true);
    expect(root.comparisonSeconds).toBeGreaterThanOrEqual(afterChild);
    const cached = root.comparisonSeconds;
    root.deepEqual();
    expect(root.comparisonSeconds).toBe(cached);
  });
});
