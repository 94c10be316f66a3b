import { describe, expect, it } from 'vitest';
import { cloneJson } from '../../src/util/json-clone.js';

describe('cloneJson', () => {
  it('copies `__proto__`, `constructor` and `toString` keys as ordinary keys', () => {
    const input = JSON.parse('{"data":{"__proto__":"x","constructor":"y","toString":"z"},"l":[{"__proto__":{"a":1}}]}') as Record<string, unknown>;
    const out = cloneJson(input);
    expect(JSON.stringify(out)).toBe(JSON.stringify(input));
    expect(Object.keys(out.data as object)).toEqual(['__proto__', 'constructor', 'toString']);
    expect(Object.getPrototypeOf(out.data)).toBe(Object.prototype);
    expect(Object.getPrototypeOf((out.l as object[])[0])).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).a).toBeUndefined();
  });
});
