import { describe, expect, it } from 'vitest';
import { randomUuid } from '../../src/util/uuid.js';

const V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('randomUuid', () => {
  it('makes version 4 UUIDs of the RFC 9562 variant, all different, across many refills of its random pool', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 5_000; i++) {
      const id = randomUuid();
      expect(id).toMatch(V4);
      seen.add(id);
    }
    expect(seen.size).toBe(5_000);
  });

  it('draws every hex digit it does not fix: each position takes many values', () => {
    const ids = Array.from({ length: 2_000 }, () => randomUuid());
    for (let pos = 0; pos < 36; pos++) {
      if ([8, 13, 14, 18, 23].includes(pos)) continue;
      const values = new Set(ids.map((id) => id[pos]));
      // Position 19 holds the variant: 8, 9, a or b.
      expect(values.size).toBe(pos === 19 ? 4 : 16);
    }
  });

  it('answers a string that does not change when the next one is made', () => {
    const a = randomUuid();
    const copy = `${a}`;
    randomUuid();
    expect(a).toBe(copy);
  });
});
