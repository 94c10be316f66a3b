import { describe, expect, it } from 'vitest';
import { goFormatFloat } from '../../src/util/go-format.js';
import { goPrintString, goPrintValue } from '../../src/util/go-print.js';

describe('goFormatFloat', () => {
  it("writes strconv.FormatFloat(f, 'g', -1, 64)", () => {
    expect(goFormatFloat(1.5)).toBe('1.5');
    expect(goFormatFloat(123456)).toBe('123456');
    expect(goFormatFloat(1e6)).toBe('1e+06');
    expect(goFormatFloat(1234567.5)).toBe('1.2345675e+06');
    expect(goFormatFloat(0.0001)).toBe('0.0001');
    expect(goFormatFloat(0.00001)).toBe('1e-05');
    expect(goFormatFloat(-2.5e-300)).toBe('-2.5e-300');
    expect(goFormatFloat(1e21)).toBe('1e+21');
    expect(goFormatFloat(-0)).toBe('-0');
    expect(goFormatFloat(Number.NaN)).toBe('NaN');
    expect(goFormatFloat(Infinity)).toBe('+Inf');
    expect(goFormatFloat(-Infinity)).toBe('-Inf');
  });
});

describe('goPrintValue and goPrintString', () => {
  it("print as fmt's %v and %s", () => {
    expect(goPrintValue({ b: [1, 'x'], a: null, c: 1.5 })).toBe('map[a:<nil> b:[1 x] c:1.5]');
    expect(goPrintValue(1e6)).toBe('1000000');
    expect(goPrintValue(1e6 + 0.5)).toBe('1.0000005e+06');
    expect(goPrintString('s')).toBe('s');
    expect(goPrintString(5)).toBe('%!s(int64=5)');
    expect(goPrintString(true)).toBe('%!s(bool=true)');
    expect(goPrintString(null)).toBe('%!s(<nil>)');
  });
});
