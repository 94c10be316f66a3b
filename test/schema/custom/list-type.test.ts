import { describe, expect, it } from 'vitest';
import type { JsonSchemaProps } from '../../../src/schema/custom/index.js';
import { specErrors } from './helpers.js';

const obj = (properties: Record<string, JsonSchemaProps>): JsonSchemaProps => ({ type: 'object', properties });
const set = (items: JsonSchemaProps) => obj({ l: { type: 'array', 'x-kubernetes-list-type': 'set', items } });
const mapList = (keys: string[]) =>
  obj({
    l: {
      type: 'array',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': keys,
      items: { type: 'object', properties: { name: { type: 'string' }, port: { type: 'integer' }, v: { type: 'string' } } },
    },
  });

describe('x-kubernetes-list-type: set', () => {
  it('reports each repeated item once, where it first repeats', () => {
    expect(specErrors(set({ type: 'string' }), { l: ['a', 'b', 'a', 'a', 'b'] })).toEqual([
      'spec.l[2]: Duplicate value: "a"',
      'spec.l[4]: Duplicate value: "b"',
    ]);
  });

  it('compares numbers by Go type and compound items by JSON', () => {
    expect(specErrors(set({ 'x-kubernetes-int-or-string': true }), { l: [1, '1'] })).toEqual([]);
    expect(
      specErrors(set({ type: 'object', 'x-kubernetes-preserve-unknown-fields': true }), {
        l: [
          { a: 1, b: 2 },
          { b: 2, a: 1 },
        ],
      }),
    ).toEqual(['spec.l[1]: Duplicate value: {"a":1,"b":2}']);
  });
});

describe('x-kubernetes-list-type: map', () => {
  it('reports items with the same key, showing the key', () => {
    expect(
      specErrors(mapList(['name']), {
        l: [
          { name: 'a', v: 'x' },
          { name: 'a', v: 'y' },
        ],
      }),
    ).toEqual(['spec.l[1]: Duplicate value: {"name":"a"}']);
    expect(
      specErrors(mapList(['name', 'port']), {
        l: [
          { port: 80, name: 'a' },
          { name: 'a', port: 80 },
          { name: 'a', port: 81 },
        ],
      }),
    ).toEqual(['spec.l[1]: Duplicate value: {"name":"a","port":80}']);
  });

  it('takes items without the key as having the same unspecified key', () => {
    expect(specErrors(mapList(['name']), { l: [{ v: 'x' }, { v: 'y' }] })).toEqual(['spec.l[1]: Duplicate value: {}']);
  });

  it('requires the items to be objects', () => {
    expect(
      specErrors(
        obj({
          l: {
            type: 'array',
            'x-kubernetes-list-type': 'map',
            'x-kubernetes-list-map-keys': ['name'],
            items: { 'x-kubernetes-preserve-unknown-fields': true },
          },
        }),
        { l: [{ name: 'a' }, 'x'] },
      ),
    ).toEqual(['spec.l[1]: Invalid value: "x": must be an object for an array of list-type map']);
  });

  it('checks lists nested in list items', () => {
    const nested = obj({
      outer: {
        type: 'array',
        items: { type: 'object', properties: { inner: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } } } },
      },
    });
    expect(specErrors(nested, { outer: [{ inner: [1, 1] }] })).toEqual(['spec.outer[0].inner[1]: Duplicate value: 1']);
  });
});
