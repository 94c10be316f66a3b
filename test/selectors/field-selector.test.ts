import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  SelectorParseError,
  checkSupportedFields,
  escapeFieldValue,
  everythingFieldSelector,
  fieldLabelNotSupportedMessage,
  fieldSelectorFromRequirements,
  parseFieldSelector,
  unescapeFieldValue,
  unknownFieldSelectorMessage,
  type FieldSelector,
} from '../../src/selectors/field-selector.js';

function parseError(text: string): string {
  try {
    parseFieldSelector(text);
  } catch (e) {
    expect(e).toBeInstanceOf(SelectorParseError);
    expect((e as SelectorParseError).selectorKind).toBe('field');
    return (e as SelectorParseError).message;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

const getter =
  (fields: Record<string, string>) =>
  (f: string): string | undefined =>
    Object.prototype.hasOwnProperty.call(fields, f) ? fields[f] : undefined;

describe('parseFieldSelector: valid selectors', () => {
  it.each([
    ['', ''],
    ['a=b', 'a=b'],
    ['a==b', 'a=b'],
    ['a!=b', 'a!=b'],
    ['metadata.name=foo,metadata.namespace!=kube-system', 'metadata.name=foo,metadata.namespace!=kube-system'],
    ['z=1,a!=2,m==3', 'a!=2,m=3,z=1'],
    ['a=', 'a='],
    ['a!=', 'a!='],
    ['=b', '=b'],
    ['a=b,,', 'a=b'],
    [',,a=b,', 'a=b'],
    [',', ''],
    ['=', ''],
    ['==', ''],
    ['!=', ''],
    ['=,!=,a=b', 'a=b'],
    ['a = b', 'a = b'],
    [' a=b ', ' a=b '],
    ['a=x\\,y', 'a=x\\,y'],
    ['a=x\\=y', 'a=x\\=y'],
    ['a=x\\\\y', 'a=x\\\\y'],
    ['a=\\,\\=\\\\', 'a=\\,\\=\\\\'],
    ['a=!b', 'a=!b'],
    ['a!b=c', 'a!b=c'],
    ['a=é日本\u{1F600}', 'a=é日本\u{1F600}'],
    ['spec.nodeName=', 'spec.nodeName='],
    ['a==', 'a='],
  ])('%j -> %j', (input, canonical) => {
    const sel = parseFieldSelector(input);
    expect(sel.toString()).toBe(canonical);
    expect(parseFieldSelector(sel.toString()).toString()).toBe(canonical);
  });

  it('exposes requirements (== reported as =), whitespace kept verbatim, values unescaped', () => {
    expect(parseFieldSelector('b==1, a != 2 ,c=x\\,y\\=z\\\\').requirements).toEqual([
      { field: ' a ', operator: '!=', value: ' 2 ' },
      { field: 'b', operator: '=', value: '1' },
      { field: 'c', operator: '=', value: 'x,y=z\\' },
    ]);
  });

  it('splits the term at the first operator; the field is never unescaped', () => {
    expect(parseFieldSelector('a\\b=c').requirements).toEqual([{ field: 'a\\b', operator: '=', value: 'c' }]);
    expect(parseFieldSelector('a\\,b=c').requirements).toEqual([{ field: 'a\\,b', operator: '=', value: 'c' }]);
    expect(parseFieldSelector('a!b=c!').requirements).toEqual([{ field: 'a!b', operator: '=', value: 'c!' }]);
    expect(parseFieldSelector('a!=b!').requirements).toEqual([{ field: 'a', operator: '!=', value: 'b!' }]);
    expect(parseFieldSelector('a==!').requirements).toEqual([{ field: 'a', operator: '=', value: '!' }]);
    expect(parseError('a=b!=c')).toBe('invalid field selector: unescaped character in value: 61');
  });

  it('empty selectors', () => {
    for (const text of ['', ',,,', '=', '!=']) {
      const sel = parseFieldSelector(text);
      expect(sel.empty()).toBe(true);
      expect(sel.requirements).toEqual([]);
      expect(sel.matches(() => undefined)).toBe(true);
    }
    expect(everythingFieldSelector().empty()).toBe(true);
    expect(parseFieldSelector('=x').empty()).toBe(false);
  });
});

describe('parseFieldSelector: matching', () => {
  it('= and !=, a missing field counting as ""', () => {
    const f = getter({ 'metadata.name': 'foo', 'status.phase': 'Running' });
    expect(parseFieldSelector('metadata.name=foo').matches(f)).toBe(true);
    expect(parseFieldSelector('metadata.name==foo').matches(f)).toBe(true);
    expect(parseFieldSelector('metadata.name=bar').matches(f)).toBe(false);
    expect(parseFieldSelector('metadata.name!=bar').matches(f)).toBe(true);
    expect(parseFieldSelector('metadata.name!=foo').matches(f)).toBe(false);
    expect(parseFieldSelector('spec.nodeName=').matches(f)).toBe(true);
    expect(parseFieldSelector('spec.nodeName!=').matches(f)).toBe(false);
    expect(parseFieldSelector('spec.nodeName!=x').matches(f)).toBe(true);
    expect(parseFieldSelector('metadata.name=foo,status.phase!=Pending').matches(f)).toBe(true);
    expect(parseFieldSelector('metadata.name=foo,status.phase!=Running').matches(f)).toBe(false);
    expect(parseFieldSelector('a=x\\,y').matches(getter({ a: 'x,y' }))).toBe(true);
  });

  it('exactValue (RequiresExactMatch)', () => {
    expect(parseFieldSelector('metadata.name=foo').exactValue('metadata.name')).toBe('foo');
    expect(parseFieldSelector('metadata.name==foo').exactValue('metadata.name')).toBe('foo');
    expect(parseFieldSelector('metadata.name!=foo').exactValue('metadata.name')).toBeUndefined();
    expect(parseFieldSelector('a=1').exactValue('metadata.name')).toBeUndefined();
    expect(parseFieldSelector('metadata.name!=x,metadata.name=foo').exactValue('metadata.name')).toBe('foo');
    expect(parseFieldSelector('x=1,x=2').exactValue('x')).toBe('1');
    expect(parseFieldSelector('').exactValue('x')).toBeUndefined();
  });

  it('fieldSelectorFromRequirements keeps the order given', () => {
    const sel = fieldSelectorFromRequirements([
      { field: 'b', operator: '=', value: 'x,y' },
      { field: 'a', operator: '!=', value: '' },
    ]);
    expect(sel.toString()).toBe('b=x\\,y,a!=');
    expect(fieldSelectorFromRequirements([]).empty()).toBe(true);
  });
});

describe('parseFieldSelector: error messages (exact Kubernetes text)', () => {
  it.each([
    ['a', "invalid selector: 'a'; can't understand 'a'"],
    ['a=b,c', "invalid selector: 'a=b,c'; can't understand 'c'"],
    ['a!b', "invalid selector: 'a!b'; can't understand 'a!b'"],
    ['a<b', "invalid selector: 'a<b'; can't understand 'a<b'"],
    ['a in (b)', "invalid selector: 'a in (b)'; can't understand 'a in (b)'"],
    ['!a', "invalid selector: '!a'; can't understand '!a'"],
    [' ', "invalid selector: ' '; can't understand ' '"],
    ['a\\', "invalid selector: 'a\\'; can't understand 'a\\'"],
    ['a\\,b', "invalid selector: 'a\\,b'; can't understand 'a\\,b'"],
    ['a=b\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a=\\\\\\', 'invalid field selector: invalid escape sequence: \\'],
    ['a=\\a', 'invalid field selector: invalid escape sequence: \\a'],
    ['a=x\\ y', 'invalid field selector: invalid escape sequence: \\ '],
    ['a=\\é', 'invalid field selector: invalid escape sequence: \\é'],
    ['a=\\\u{1F600}', 'invalid field selector: invalid escape sequence: \\\u{1F600}'],
    ['a=b=c', 'invalid field selector: unescaped character in value: 61'],
    ['a===b', 'invalid field selector: unescaped character in value: 61'],
    ['a!==b', 'invalid field selector: unescaped character in value: 61'],
    ['a=!=b', 'invalid field selector: unescaped character in value: 61'],
  ])('%j', (input, message) => {
    expect(parseError(input)).toBe(message);
  });

  it('terms are sorted before parsing, so the smallest bad term is reported', () => {
    expect(parseError('b=x\\q,a')).toBe("invalid selector: 'b=x\\q,a'; can't understand 'a'");
    expect(parseError('a=x\\q,b')).toBe('invalid field selector: invalid escape sequence: \\q');
    expect(parseError('z,y')).toBe("invalid selector: 'z,y'; can't understand 'y'");
    expect(parseError('b=c=d,a=\\x')).toBe('invalid field selector: invalid escape sequence: \\x');
    // U+FFFF sorts before U+10000 in byte order (but not in UTF-16 order)
    expect(parseError('\u{10000},\uffff')).toBe("invalid selector: '\u{10000},\uffff'; can't understand '\uffff'");
  });

  it('hostile input', () => {
    const big = 'x'.repeat(100_000);
    expect(parseError(big)).toBe(`invalid selector: '${big}'; can't understand '${big}'`);
    expect(parseFieldSelector(`a=${big}`).requirements[0]!.value).toBe(big);
    expect(parseFieldSelector(','.repeat(100_000)).empty()).toBe(true);
    expect(parseError(`a=${'\\'.repeat(99_999)}`)).toBe('invalid field selector: invalid escape sequence: \\');
    expect(parseFieldSelector(`a=${'\\,'.repeat(50_000)}`).requirements[0]!.value).toBe(','.repeat(50_000));
    const many = Array.from({ length: 10_000 }, (_, i) => `f${i}=v${i}`).join(',');
    expect(parseFieldSelector(many).requirements).toHaveLength(10_000);
    expect(parseFieldSelector('a=\u0000\u0001\n\t').requirements[0]!.value).toBe('\u0000\u0001\n\t');
    expect(parseError('a\u0000')).toBe("invalid selector: 'a\u0000'; can't understand 'a\u0000'");
  });
});

describe('escaping', () => {
  it('escapeFieldValue / unescapeFieldValue', () => {
    expect(escapeFieldValue('a,b=c\\d')).toBe('a\\,b\\=c\\\\d');
    expect(unescapeFieldValue('a\\,b\\=c\\\\d')).toBe('a,b=c\\d');
    expect(unescapeFieldValue('plain')).toBe('plain');
    expect(() => unescapeFieldValue('a,b')).toThrow('invalid field selector: unescaped character in value: 44');
    expect(() => unescapeFieldValue('a=b')).toThrow('invalid field selector: unescaped character in value: 61');
  });
});

describe('supported fields', () => {
  const supported = new Set(['metadata.name', 'metadata.namespace', 'status.phase']);

  it('returns the first unsupported field in requirement order', () => {
    expect(checkSupportedFields(parseFieldSelector(''), supported)).toBeUndefined();
    expect(checkSupportedFields(parseFieldSelector('metadata.name=a,status.phase!=b'), supported)).toBeUndefined();
    expect(checkSupportedFields(parseFieldSelector('spec.foo=x,metadata.name=a'), supported)).toBe('spec.foo');
    expect(checkSupportedFields(parseFieldSelector('z.z=1,spec.foo=x'), supported)).toBe('spec.foo');
    expect(checkSupportedFields(parseFieldSelector('=x'), supported)).toBe('');
    expect(checkSupportedFields(parseFieldSelector('=,metadata.name=a'), supported)).toBeUndefined();
  });

  it('builds both Kubernetes messages', () => {
    expect(fieldLabelNotSupportedMessage('spec.foo')).toBe('field label not supported: spec.foo');
    expect(fieldLabelNotSupportedMessage('')).toBe('field label not supported: ');
    expect(unknownFieldSelectorMessage('spec.foo')).toBe('"spec.foo" is not a known field selector: only "metadata.name", "metadata.namespace"');
    expect(unknownFieldSelectorMessage('a"b\n')).toBe('"a\\"b\\n" is not a known field selector: only "metadata.name", "metadata.namespace"');
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const fieldName = fc.array(fc.constantFrom(...'abcXY09._-/ é'.split('')), { minLength: 1, maxLength: 10 }).map((a) => a.join(''));
const fieldValue = fc.oneof(
  fc.array(fc.constantFrom(...'ab9,=\\!. é'.split(''), '\u{1F600}'), { maxLength: 8 }).map((a) => a.join('')),
  fc.string({ maxLength: 8 }),
);
const requirement = fc.record({ field: fieldName, operator: fc.constantFrom('=' as const, '!=' as const), value: fieldValue });

function sameMatches(a: FieldSelector, b: FieldSelector, objects: Record<string, string>[]): void {
  for (const o of objects) expect(b.matches(getter(o))).toBe(a.matches(getter(o)));
}

describe('properties', () => {
  it('parse(sel.toString()) is a fixpoint and matches the same objects', () => {
    fc.assert(
      fc.property(
        fc.array(requirement, { maxLength: 6 }),
        fc.array(fc.dictionary(fieldName, fieldValue, { maxKeys: 4 }), { maxLength: 8 }),
        (reqs, objects) => {
          const text = reqs.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');
          const sel = parseFieldSelector(text);
          expect(sel.requirements).toHaveLength(reqs.length);
          const again = parseFieldSelector(sel.toString());
          expect(again.toString()).toBe(sel.toString());
          expect(again.requirements).toEqual(sel.requirements);
          sameMatches(sel, again, objects);
          // A selector built from an object's own fields matches it.
          const obj = Object.fromEntries(reqs.filter((r) => r.operator === '=').map((r) => [r.field, r.value]));
          const own = parseFieldSelector(
            Object.entries(obj)
              .map(([f, v]) => `${f}=${escapeFieldValue(v)}`)
              .join(','),
          );
          expect(own.matches(getter(obj))).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('escape / unescape round-trip', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 20 }), (v) => {
        expect(unescapeFieldValue(escapeFieldValue(v))).toBe(v);
      }),
    );
  });

  it('random strings only ever throw SelectorParseError', () => {
    const alphabet = fc.constantFrom(...'ab=!,\\ \t\0é'.split(''), '\u{1F600}', '==', '!=', '\\,', '\\=');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 40 }),
          fc.array(alphabet, { maxLength: 30 }).map((a) => a.join('')),
        ),
        (text) => {
          try {
            const sel = parseFieldSelector(text);
            expect(typeof sel.toString()).toBe('string');
          } catch (e) {
            expect(e).toBeInstanceOf(SelectorParseError);
            expect((e as Error).message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});
