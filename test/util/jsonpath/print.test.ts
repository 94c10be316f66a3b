import { describe, expect, it } from 'vitest';
import {
  goMarshal,
  GoNumber,
  JsonPathError,
  parseJsonPath,
  printJsonPathResults,
  printJsonPathValue,
  sprintJsonPathValue,
} from '../../../src/util/jsonpath/index.js';

describe('printJsonPathResults (client-go PrintResults)', () => {
  it('prints scalars as fmt prints an int64, a float64, a bool, a string', () => {
    expect(printJsonPathResults([1, -7, 1.5, 1e21, 2 ** 63, 1e6, 0.000001, 1e-7, true, false, 'a b', ''])).toBe(
      '1 -7 1.5 1e+21 9.223372036854776e+18 1000000 1e-06 1e-07 true false a b ',
    );
  });

  it('prints a null member as null and no value as <no value>', () => {
    expect(printJsonPathResults([null, undefined])).toBe('null <no value>');
    expect(printJsonPathResults([])).toBe('');
  });

  it('prints maps and slices as json.Marshal does: keys in byte order, HTML-safe strings', () => {
    expect(printJsonPathResults([{ b: 1, a: [1.5, '<x>&'], 10: null, 9: true }])).toBe('{"10":null,"9":true,"a":[1.5,"\\u003cx\\u003e\\u0026"],"b":1}');
    expect(printJsonPathResults([{ z: { y: {}, x: [] } }])).toBe('{"z":{"x":[],"y":{}}}');
    expect(printJsonPathResults([['\u2028', 'é', '\n\t"\\', '\u0001']])).toBe('["\\u2028","é","\\n\\t\\"\\\\","\\u0001"]');
    expect(printJsonPathResults([[1e21, 1e20, -0, 0.1]])).toBe('[1e+21,100000000000000000000,0,0.1]');
    // Keys in UTF-8 byte order: a supplementary character sorts after U+FFFD.
    expect(printJsonPathResults([{ '😀': 1, '\ufffd': 2, z: 3 }])).toBe('{"z":3,"\ufffd":2,"😀":1}');
  });

  it('prints Go-typed numbers', () => {
    expect(printJsonPathResults([new GoNumber('int', 5), new GoNumber('float64', 2), new GoNumber('float64', 1e6), new GoNumber('uint8', 200)])).toBe(
      '5 2 1e+06 200',
    );
  });

  it('marshals documents of any depth', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20000; i++) deep = i % 2 ? [deep] : { k: deep };
    expect(goMarshal(deep)).toBe('[{"k":'.repeat(10000) + '1' + '}]'.repeat(10000));
  });

  it('refuses numbers JSON cannot write, as json.Marshal does', () => {
    expect(() => goMarshal([Infinity])).toThrow(new JsonPathError('json: unsupported value: +Inf'));
    expect(() => goMarshal({ a: NaN })).toThrow('json: unsupported value: NaN');
  });
});

describe('printJsonPathValue (a CRD table cell of type string)', () => {
  it('prints a nil as no value, since Kubernetes re-wraps the value in reflect.ValueOf', () => {
    expect(printJsonPathValue(null)).toBe('<no value>');
    expect(printJsonPathValue(undefined)).toBe('<no value>');
    expect(printJsonPathValue('Running')).toBe('Running');
    expect(printJsonPathValue(3)).toBe('3');
    expect(printJsonPathValue({ b: 1, a: 2 })).toBe('{"a":2,"b":1}');
  });
});

describe('sprintJsonPathValue (a selectable field value)', () => {
  it('prints as fmt.Sprint does', () => {
    expect(sprintJsonPathValue('x')).toBe('x');
    expect(sprintJsonPathValue(7)).toBe('7');
    expect(sprintJsonPathValue(2.5)).toBe('2.5');
    expect(sprintJsonPathValue(true)).toBe('true');
    expect(sprintJsonPathValue({ b: [1, 'x'], a: null })).toBe('map[a:<nil> b:[1 x]]');
    expect(sprintJsonPathValue(new GoNumber('float64', 3))).toBe('3');
  });
});

describe('execute', () => {
  it('joins the values of one action with a space and the actions with nothing', () => {
    expect(parseJsonPath('{.a[*]}{.b}|{.c}').execute({ a: [1, 2], b: 'x', c: [] })).toBe('1 2x|[]');
  });

  it('fails past the output limit', () => {
    const path = parseJsonPath('{range .a[*]}{@}{end}');
    expect(() => path.execute({ a: ['x'.repeat(60), 'y'.repeat(60)] }, { maxOutputLength: 100 })).toThrow(
      new JsonPathError('jsonpath: output exceeds 100 characters'),
    );
    expect(path.execute({ a: ['x'.repeat(60)] }, { maxOutputLength: 100 })).toBe('x'.repeat(60));
  });
});
