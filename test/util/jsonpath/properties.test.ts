import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GoPanic } from '../../../src/util/go-value.js';
import { JsonPathError, parseJsonPath, printJsonPathResults, type JsonPath } from '../../../src/util/jsonpath/index.js';

// Pieces of the grammar, so random templates get past the first character.
const piece = fc.constantFrom(
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  '?(',
  '[?(',
  '@',
  '$',
  '.',
  '..name',
  '..[*]',
  '*',
  ',',
  ':',
  '-',
  '+',
  '0',
  '1',
  '2.5',
  'a',
  'b',
  'name',
  '"',
  "'",
  '\\',
  '==',
  '!=',
  '<',
  '>=',
  ' ',
  'range',
  'end',
  'true',
  '\n',
  '\t',
  'é',
  '😀',
);
const grammarText = fc.array(piece, { maxLength: 40 }).map((parts) => parts.join(''));
const anyText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  grammarText,
  grammarText.map((t) => `{${t}}`),
);

// Well-formed templates: actions made of path segments, some inside a range.
const segment = fc.constantFrom(
  '.a',
  '.b',
  '.name',
  '.x',
  '[0]',
  '[-1]',
  '[*]',
  '[1:]',
  '[::2]',
  '[]',
  '..name',
  '..[*]',
  '.*',
  '[?(@.name)]',
  '[?(@.a==1)]',
  '[?(@.x<"b")]',
  '[?(@.b>=2.5)]',
  "['a','b']",
  '[0,1]',
  "['name']",
  ' ',
  '"t"',
  ' 7 ',
);
const action = fc.array(segment, { maxLength: 5 }).map((s) => `{${s.join('')}}`);
const block = fc.oneof(
  action,
  fc.tuple(action, fc.array(action, { maxLength: 3 })).map(([head, body]) => `{range ${head.slice(1, -1)}}${body.join('')}{end}`),
);
const wellFormed = fc.array(block, { maxLength: 4 }).map((blocks) => blocks.join('|'));

function tryParse(template: string): JsonPath | undefined {
  try {
    return parseJsonPath(template);
  } catch (e) {
    if (!(e instanceof JsonPathError)) throw e;
    return undefined;
  }
}

// JSON documents with the keys the templates above name.
const key = fc.constantFrom('a', 'b', 'name', 'x', '');
const doc = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, 1, -1, 2.5, 1e21, '', 'a', 'é😀'),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 }),
  ),
})).value;

describe('properties', () => {
  it('parsing throws nothing but JsonPathError', () => {
    fc.assert(
      fc.property(anyText, (template) => {
        tryParse(template);
      }),
      { numRuns: 3000 },
    );
  });

  it('evaluation on any JSON throws nothing but JsonPathError or GoPanic, and execute prints what findResults found', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          wellFormed,
          grammarText.map((t) => `{${t}}`),
        ),
        fc.oneof(doc, fc.jsonValue({ maxDepth: 4 })),
        fc.boolean(),
        (template, data, allowMissingKeys) => {
          const path = tryParse(template);
          if (!path) return;
          const options = { allowMissingKeys, maxSteps: 100_000 };
          let results: unknown[][];
          try {
            results = path.findResults(data, options);
          } catch (e) {
            if (e instanceof JsonPathError || e instanceof GoPanic) return;
            throw e;
          }
          expect(path.execute(data, options)).toBe(results.map((list) => printJsonPathResults(list)).join(''));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('well-formed templates parse', () => {
    fc.assert(
      fc.property(wellFormed, (template) => {
        parseJsonPath(template);
      }),
    );
  });

  it('a dotted path of plain keys finds the member it names', () => {
    const plainKey = fc.stringMatching(/^[a-z][a-zA-Z0-9_-]{0,8}$/);
    fc.assert(
      fc.property(fc.array(plainKey, { minLength: 1, maxLength: 6 }), fc.jsonValue({ maxDepth: 3 }), (keys, leaf) => {
        let data: unknown = leaf;
        for (let i = keys.length - 1; i >= 0; i--) data = { [keys[i]!]: data };
        const template = '{.' + keys.join('.') + '}';
        expect(parseJsonPath(template).findResults(data)).toEqual([[leaf]]);
        expect(parseJsonPath("{['" + keys.join('.') + "']}").findResults(data)).toEqual([[leaf]]);
      }),
    );
  });

  it('an index or slice selects what Array.prototype.slice selects', () => {
    fc.assert(
      fc.property(fc.array(fc.integer(), { maxLength: 8 }), fc.integer({ min: -10, max: 10 }), fc.integer({ min: -10, max: 10 }), (items, a, b) => {
        const path = parseJsonPath(`{[${a}:${b}]}`);
        const from = a < 0 ? a + items.length : a;
        const to = b < 0 ? b + items.length : b;
        if (from === to) {
          expect(path.findResults(items)).toEqual([[]]);
        } else if (from < 0 || from >= items.length || to < 0 || to > items.length || from > to) {
          expect(() => path.findResults(items)).toThrow(JsonPathError);
        } else {
          expect(path.findResults(items)).toEqual([items.slice(from, to)]);
        }
      }),
    );
  });
});
