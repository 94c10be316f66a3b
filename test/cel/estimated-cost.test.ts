/**
 * Estimated costs against the numbers apiextensions-apiserver's TestCostEstimation pins: each rule
 * on a schema without bounds ("calc": sizes estimated from the 3 MiB request limit) and with
 * maxItems/maxProperties/maxLength set.
 */
import { describe, expect, it } from 'vitest';
import { compileOk } from './helpers.js';
import { costErrorMessage, STATIC_ESTIMATED_COST_LIMIT, type CelSchema } from '../../src/cel/index.js';

function item(t: string): CelSchema {
  if (t === 'int-or-string') return { 'x-kubernetes-int-or-string': true };
  if (['date', 'date-time', 'duration'].includes(t)) return { type: 'string', format: t };
  return { type: t };
}
const array =
  (t: string) =>
  (max?: number): CelSchema => ({ type: 'array', items: item(t), ...(max === undefined ? {} : { maxItems: max }) });
const map =
  (t: string) =>
  (max?: number): CelSchema => ({ type: 'object', additionalProperties: item(t), ...(max === undefined ? {} : { maxProperties: max }) });
const str = (max?: number): CelSchema => ({ type: 'string', ...(max === undefined ? {} : { maxLength: max }) });

interface Case {
  readonly name: string;
  readonly gen: (max?: number) => CelSchema;
  readonly rule: string;
  readonly calc?: number;
  readonly max: number;
  readonly set: number;
}

const cases: Case[] = [
  { name: 'number array with all', gen: array('number'), rule: 'self.all(x, true)', calc: 4718591, max: 10, set: 32 },
  { name: 'string array with all', gen: array('string'), rule: 'self.all(x, true)', calc: 3145727, max: 20, set: 62 },
  { name: 'boolean array with all', gen: array('boolean'), rule: 'self.all(x, true)', calc: 1887437, max: 5, set: 17 },
  { name: 'map of numbers with all', gen: map('number'), rule: 'self.all(x, true)', calc: 1348169, max: 10, set: 32 },
  // Upstream lists `has(self.x)` with 0 but does not check zeros; cel-go's estimator counts the operand.
  { name: 'map of numbers with has', gen: map('number'), rule: 'has(self.x)', calc: 1, max: 100, set: 1 },
  { name: 'map of strings with all', gen: map('string'), rule: 'self.all(x, true)', calc: 1179647, max: 3, set: 11 },
  { name: 'map of booleans with all', gen: map('boolean'), rule: 'self.all(x, true)', calc: 943718, max: 100, set: 302 },
  { name: 'string with contains', gen: str, rule: "self.contains('test')", calc: 314574, max: 10, set: 5 },
  { name: 'string with startsWith', gen: str, rule: "self.startsWith('test')", calc: 2, max: 15, set: 2 },
  { name: 'concat string', gen: str, rule: 'size(self + "hello") > size("hello")', calc: 314578, max: 4, set: 7 },
  { name: 'index of array with numbers', gen: array('number'), rule: 'self[1] == 0.0', calc: 2, max: 5000, set: 2 },
  { name: 'index of array with strings', gen: array('string'), rule: 'self[1] == self[1]', calc: 314577, max: 8, set: 314577 },
  { name: 'O(n^2) loop with numbers', gen: array('number'), rule: 'self.all(x, self.all(y, true))', max: 10, set: 352 },
  { name: 'O(n^3) loop with numbers', gen: array('number'), rule: 'self.all(x, self.all(y, self.all(z, true)))', max: 10, set: 3552 },
  { name: 'regex matches simple', gen: str, rule: 'self.matches("x")', calc: 314574, max: 50, set: 22 },
  { name: 'regex matches empty string', gen: str, rule: '"".matches("(((((((((())))))))))[0-9]")', calc: 7, max: 10, set: 7 },
  { name: 'regex matches empty regex', gen: str, rule: 'self.matches("")', calc: 1, max: 100, set: 1 },
  { name: 'set array maxLength to zero', gen: array('number'), rule: 'self[3] == 0.0', calc: 2, max: 0, set: 2 },
  { name: 'set map maxLength to zero', gen: map('number'), rule: 'self["x"] == 0.0', calc: 2, max: 0, set: 2 },
  { name: 'set string maxLength to zero', gen: str, rule: 'self == "x"', calc: 2, max: 0, set: 1 },
  {
    name: 'set maxLength greater than estimated maxLength',
    gen: array('number'),
    rule: 'self.all(x, x == 0.0)',
    calc: 6291454,
    max: 3 * 1024 * 2048,
    set: 25165826,
  },
  { name: 'int-or-string array with all', gen: array('int-or-string'), rule: 'self.all(x, true)', calc: 4718591, max: 10, set: 32 },
  { name: 'index of array with int-or-strings', gen: array('int-or-string'), rule: 'self[0] == 5', calc: 3, max: 10, set: 3 },
  { name: 'index of array with booleans', gen: array('boolean'), rule: 'self[0] == false', calc: 2, max: 25, set: 2 },
  { name: 'duration array with all', gen: array('duration'), rule: 'self.all(x, true)', calc: 2359295, max: 5, set: 17 },
  { name: 'index of duration array', gen: array('duration'), rule: 'self[0].getHours() == 2', calc: 4, max: 525, set: 4 },
  { name: 'date array with all', gen: array('date'), rule: 'self.all(x, true)', calc: 725936, max: 15, set: 47 },
  { name: 'date-time array with all', gen: array('date-time'), rule: 'self.all(x, true)', calc: 428963, max: 25, set: 77 },
  { name: 'map of int-or-strings with all', gen: map('int-or-string'), rule: 'self.all(x, true)', calc: 1348169, max: 15, set: 47 },
  { name: 'map of durations with all', gen: map('duration'), rule: 'self.all(x, true)', calc: 1048577, max: 5, set: 17 },
  { name: 'map of dates with all', gen: map('date'), rule: 'self.all(x, true)', calc: 524288, max: 10, set: 32 },
  { name: 'map of date-times with all', gen: map('date-time'), rule: 'self.all(x, true)', calc: 349526, max: 25, set: 77 },
  { name: 'extended library regex find', gen: str, rule: "self.find('[0-9]+') == ''", calc: 629147, max: 10, set: 11 },
  { name: 'extended library lowerAscii', gen: str, rule: "self.lowerAscii() == 'lower!'", calc: 314575, max: 10, set: 6 },
  { name: 'check cost of size call', gen: map('integer'), rule: 'oldSelf.size() == self.size()', calc: 5, max: 10, set: 5 },
  { name: 'check cost of timestamp comparison', gen: map('date-time'), rule: 'self["a"] == self["b"]', calc: 8, max: 7, set: 8 },
  { name: 'check cost of duration comparison', gen: map('duration'), rule: 'self["c"] == self["d"]', calc: 8, max: 42, set: 8 },
];

describe('estimated cost (apiextensions TestCostEstimation)', () => {
  for (const c of cases) {
    if (c.calc !== undefined) {
      it(`${c.name}: ${c.calc} without bounds`, () => {
        expect(compileOk(c.gen(undefined), c.rule).maxCost).toBe(BigInt(c.calc!));
      });
    }
    it(`${c.name}: ${c.set} with bounds of ${c.max}`, () => {
      expect(compileOk(c.gen(c.max), c.rule).maxCost).toBe(BigInt(c.set));
    });
  }

  it('prices an enum string by its longest value', () => {
    const gen = (max?: number): CelSchema => ({ type: 'string', enum: ['A', 'B', 'C', 'LongValue'], ...(max === undefined ? {} : { maxLength: max }) });
    expect(compileOk(gen(undefined), "self.contains('A')").maxCost).toBe(2n);
    expect(compileOk(gen(1000), "self.contains('A')").maxCost).toBe(401n);
  });

  it('prices a join and isSorted of bounded strings', () => {
    const gen = (rule: string, max?: number): CelSchema => ({
      type: 'array',
      items: { type: 'string', ...(max === undefined ? {} : { maxLength: max }) },
      ...(max === undefined ? {} : { maxItems: max }),
    });
    expect(compileOk(gen('', 10), "self.join(' ') == 'aa bb'").maxCost).toBe(43n);
    expect(compileOk(gen(''), "self.join(' ') == 'aa bb'").maxCost).toBe(329853068905n);
    expect(compileOk(gen('', 10), 'self.isSorted() == true').maxCost).toBe(52n);
    expect(compileOk(gen(''), 'self.isSorted() == true').maxCost).toBe(329854432052n);
  });

  it('says by how much a rule exceeds the budget, as apiextensions does', () => {
    const tail = '(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
    expect(costErrorMessage('estimated rule cost', 12_000_000, STATIC_ESTIMATED_COST_LIMIT)).toBe(
      `estimated rule cost exceeds budget by factor of 1.200000x ${tail}`,
    );
    expect(costErrorMessage('estimated rule cost', 25_000_000, STATIC_ESTIMATED_COST_LIMIT)).toBe(
      `estimated rule cost exceeds budget by factor of 2.5x ${tail}`,
    );
    expect(costErrorMessage('estimated rule cost', 2n ** 64n - 1n, STATIC_ESTIMATED_COST_LIMIT)).toBe(
      `estimated rule cost exceeds budget by factor of more than 100x ${tail}`,
    );
    const big = compileOk(array('number')(), 'self.all(x, self.all(y, true))').maxCost;
    expect(big > BigInt(STATIC_ESTIMATED_COST_LIMIT)).toBe(true);
  });
});
