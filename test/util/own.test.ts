import { describe, expect, it } from 'vitest';
import { getOwn, hasOwn, setOwn } from '../../src/util/own.js';

describe('own-property helpers', () => {
  it('read only own members, whatever their name', () => {
    const o = JSON.parse('{"__proto__":"p","a":1}') as Record<string, unknown>;
    expect(hasOwn(o, '__proto__')).toBe(true);
    expect(getOwn(o, '__proto__')).toBe('p');
    for (const k of ['constructor', 'toString', 'hasOwnProperty', 'valueOf', 'prototype']) {
      expect(hasOwn(o, k)).toBe(false);
      expect(getOwn(o, k)).toBeUndefined();
    }
  });

  it('set `__proto__` as an own enumerable member without touching the prototype', () => {
    const o: Record<string, unknown> = {};
    setOwn(o, '__proto__', { polluted: true });
    setOwn(o, 'constructor', 'c');
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
    expect(JSON.stringify(o)).toBe('{"__proto__":{"polluted":true},"constructor":"c"}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});
