import { describe, expect, it } from 'vitest';
import { isFloatLiteral, rawTextOf, setRawText, writtenAsFloat, writtenText } from '../../src/util/json-raw.js';

describe('isFloatLiteral', () => {
  it('is true exactly where PreserveInts decodes a float64', () => {
    for (const t of ['80.0', '1e2', '1E2', '-0.0', '0.5', '9223372036854775808', '-9223372036854775809']) expect(isFloatLiteral(t)).toBe(true);
    for (const t of ['80', '-0', '0', '9223372036854775807', '-9223372036854775808']) expect(isFloatLiteral(t)).toBe(false);
  });
});

describe('raw text records', () => {
  it('stand beside the value they spell, and fall back to JSON.stringify', () => {
    const holder = { n: 80, s: 'a', l: [1] };
    setRawText(holder, 'n', '80.0');
    setRawText(holder, 's', '"\\u0061"');
    expect(writtenText(holder, 'n', 80)).toBe('80.0');
    expect(writtenAsFloat(holder, 'n', 80)).toBe(true);
    expect(writtenText(holder, 's', 'a')).toBe('"\\u0061"');
    expect(writtenText(holder.l, 0, 1)).toBe('1');
    expect(writtenText(undefined, 'x', 'a<b')).toBe('"a<b"');
    // A record that does not spell the value (the member changed since) is not used.
    expect(rawTextOf(holder, 'n', 81)).toBeUndefined();
    expect(rawTextOf(holder, 's', 'b')).toBeUndefined();
    setRawText(holder, 'n', undefined);
    expect(writtenAsFloat(holder, 'n', 80)).toBe(false);
  });
});
