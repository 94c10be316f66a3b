import { describe, expect, it } from 'vitest';
import { deepFreeze, freezeFresh } from '../../src/storage/freeze.js';

describe('freezeFresh', () => {
  it('copies unfrozen parts into frozen plain objects and keeps frozen parts as they are', () => {
    const shared = Object.freeze({ a: Object.freeze([1, 2]) });
    const input = { keep: shared, list: [{ x: 1 }], n: null, s: 'v' };
    const out = freezeFresh(input);
    expect(out).toEqual(input);
    expect(out).not.toBe(input);
    expect(out.keep).toBe(shared);
    expect(out.list).not.toBe(input.list);
    expect(Object.isFrozen(out) && Object.isFrozen(out.list) && Object.isFrozen(out.list[0])).toBe(true);
    expect(Object.isFrozen(input)).toBe(false);
  });

  it('keeps a `__proto__` key as an ordinary key (a ConfigMap may hold one)', () => {
    const input = JSON.parse('{"data":{"__proto__":"x","k":"v"}}') as { data: Record<string, string> };
    const out = freezeFresh(input);
    expect(Object.keys(out.data)).toEqual(['__proto__', 'k']);
    expect(JSON.stringify(out)).toBe('{"data":{"__proto__":"x","k":"v"}}');
    expect(Object.getPrototypeOf(out.data)).toBe(Object.prototype);
  });
});

describe('deepFreeze', () => {
  it('freezes every object and array inside, under any key, in place', () => {
    const value = JSON.parse('{"a":[{"b":{"c":[1,{"d":2}]}}],"__proto__":{"e":{"f":3}},"n":null}') as Record<string, unknown>;
    expect(deepFreeze(value)).toBe(value);
    const all: unknown[] = [];
    const visit = (v: unknown) => {
      if (v === null || typeof v !== 'object') return;
      all.push(v);
      for (const k of Object.keys(v)) visit((v as Record<string, unknown>)[k]);
    };
    visit(value);
    expect(all).toHaveLength(8);
    expect(all.every((v) => Object.isFrozen(v))).toBe(true);
    expect(JSON.stringify(value)).toBe('{"a":[{"b":{"c":[1,{"d":2}]}}],"__proto__":{"e":{"f":3}},"n":null}');
  });

  it('does not walk into what is frozen already', () => {
    const inner = { x: {} };
    const shared = Object.freeze({ inner });
    deepFreeze({ shared });
    expect(Object.isFrozen(inner)).toBe(false);
  });
});
