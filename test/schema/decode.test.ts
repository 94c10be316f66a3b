import { describe, expect, it } from 'vitest';
import { decodeWithSchema, missingRequired } from '../../src/schema/decode.js';
import type { StructuralNode } from '../../src/schema/structural.js';

const str: StructuralNode = { type: 'string' };
const mapOf = (values: StructuralNode): StructuralNode => ({ type: 'map', values });
const struct = (props: Record<string, StructuralNode>, required: string[] = []): StructuralNode => ({
  type: 'object',
  properties: new Map(Object.entries(props)),
  required: new Set(required),
});

const HOSTILE = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'];

describe('decodeWithSchema', () => {
  it('keeps map keys that name Object.prototype members as ordinary keys', () => {
    const schema = struct({ data: mapOf(str), nested: mapOf(mapOf(str)) });
    const text = `{"data":{${HOSTILE.map((k) => `"${k}":"v-${k}"`).join(',')}},"nested":{"__proto__":{"__proto__":"deep"}}}`;
    const { value, unknownFields } = decodeWithSchema(JSON.parse(text), schema);
    expect(unknownFields).toEqual([]);
    expect(JSON.stringify(value)).toBe(text);
    const out = value as { data: object; nested: Record<string, object> };
    expect(Object.keys(out.data)).toEqual(HOSTILE);
    expect(Object.getPrototypeOf(out.data)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(Object.getOwnPropertyDescriptor(out.nested, '__proto__')!.value)).toBe(Object.prototype);
  });

  it('reports a struct field named `__proto__` or `constructor` as unknown, never as the prototype', () => {
    const { value, unknownFields } = decodeWithSchema(JSON.parse('{"__proto__":{"a":1},"constructor":"x","name":"n"}'), struct({ name: str }));
    expect(unknownFields).toEqual(['__proto__', 'constructor']);
    expect(value).toEqual({ name: 'n' });
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });
});

describe('missingRequired', () => {
  it('does not take Object.prototype members for present fields', () => {
    // A custom resource may declare fields named like Object.prototype members.
    const schema = struct({ constructor: str, toString: struct({ valueOf: str }, ['valueOf']) }, ['constructor', 'toString']);
    expect(missingRequired({}, schema)).toEqual(['constructor', 'toString']);
    expect(missingRequired({ constructor: 'x', toString: {} }, schema)).toEqual(['toString.valueOf']);
  });
});
