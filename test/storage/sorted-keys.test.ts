import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SortedKeys } from '../../src/storage/sorted-keys.js';

/** The model: a plain sorted array. */
function lowerBound(keys: readonly string[], key: string): number {
  const i = keys.findIndex((k) => k >= key);
  return i < 0 ? keys.length : i;
}

describe('SortedKeys', () => {
  it('agrees with a sorted array across chunk splits and merges (thousands of keys)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(9), fc.integer({ min: 0, max: 3000 })), { minLength: 1500, maxLength: 4000 }),
        fc.array(fc.string({ maxLength: 3 }), { maxLength: 20 }),
        (ops, probes) => {
          const keys = new SortedKeys();
          const model = new Set<string>();
          for (const [op, n] of ops) {
            const k = `ns${n % 7}/n${n}`;
            if (op < 3) {
              keys.remove(k);
              model.delete(k);
            } else {
              keys.insert(k);
              model.add(k);
            }
          }
          const sorted = [...model].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
          expect(keys.size).toBe(sorted.length);
          for (let i = 0; i < sorted.length; i++) expect(keys.at(i)).toBe(sorted[i]);
          expect(keys.at(sorted.length)).toBeUndefined();
          for (const p of [...probes, 'ns3/', 'ns3/n1', 'ns9/', '']) {
            expect(keys.lowerBound(p)).toBe(lowerBound(sorted, p));
            expect(keys.upperBound(p)).toBe(lowerBound(sorted, p) + (sorted.includes(p) ? 1 : 0));
          }
          expect([...keys.range('ns3/')]).toEqual(sorted.filter((k) => k.startsWith('ns3/')));
        },
      ),
      { numRuns: 20 },
    );
  });

  it('keeps its order when keys arrive in order and leave in order (one chunk after another)', () => {
    const keys = new SortedKeys();
    const all = Array.from({ length: 5000 }, (_, i) => `default/c${String(i).padStart(5, '0')}`);
    for (const k of all) keys.insert(k);
    expect([...keys.range('default/')]).toEqual(all);
    for (const k of all.slice(0, 4000)) keys.remove(k);
    expect(keys.size).toBe(1000);
    expect(keys.at(0)).toBe(all[4000]);
    expect([...keys.range('default/c04')]).toEqual(all.slice(4000, 5000));
  });
});
