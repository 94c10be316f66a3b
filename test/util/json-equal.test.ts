import { describe, expect, it } from 'vitest';
import { goDeepEqual } from '../../src/util/go-value.js';
import { jsonEqual } from '../../src/util/json-equal.js';

describe('jsonEqual', () => {
  it('compares own members only: a `__proto__` member is not the prototype', () => {
    const withProto = JSON.parse('{"__proto__":{}}') as unknown;
    expect(jsonEqual(withProto, { x: 1 })).toBe(false);
    expect(jsonEqual({ x: 1 }, withProto)).toBe(false);
    expect(jsonEqual(withProto, JSON.parse('{"__proto__":{}}'))).toBe(true);
    expect(jsonEqual({ constructor: 'a' }, { toString: 'a' })).toBe(false);
  });

  it('counts an undefined member as absent, as JSON does', () => {
    expect(jsonEqual({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(jsonEqual({ a: undefined }, { a: null })).toBe(false);
    expect(jsonEqual([1, null], [1, undefined])).toBe(false);
  });

  it('tells arrays, objects and scalars apart', () => {
    expect(jsonEqual([], {})).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual('1', 1)).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
    expect(jsonEqual({ a: [1, { b: 'c' }] }, { a: [1, { b: 'c' }] })).toBe(true);
  });

  it('compares documents nested deeper than the stack allows recursion', () => {
    const deep = (): unknown => {
      let v: unknown = 'x';
      for (let i = 0; i < 20000; i++) v = i % 2 ? [v] : { v };
      return v;
    };
    expect(jsonEqual(deep(), deep())).toBe(true);
  });
});

describe('goDeepEqual', () => {
  it('reads a missing member (undefined) as nil, as Go reads a missing map key', () => {
    expect(goDeepEqual(undefined, null)).toBe(true);
    expect(goDeepEqual(undefined, {})).toBe(false);
    expect(goDeepEqual({ a: [1] }, { a: [1] })).toBe(true);
  });
});
