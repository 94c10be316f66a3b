import { describe, expect, it } from 'vitest';
import { extended } from '../../src/util/extended.js';

describe('extended', () => {
  it('copies the base with the extra properties, the extra ones winning, and leaves the base alone', () => {
    const base = Object.freeze({ a: 1, b: 'two' });
    const out = extended(base, { b: 'three', c: true });
    expect(out).toEqual({ a: 1, b: 'three', c: true });
    expect(out).not.toBe(base);
    expect(base).toEqual({ a: 1, b: 'two' });
    expect(Object.isFrozen(out)).toBe(false);
    // An own property set to undefined is kept, as a spread keeps it.
    expect(Object.keys(extended({ a: 1 }, { b: undefined }))).toEqual(['a', 'b']);
  });
});
