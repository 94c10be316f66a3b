import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { formatQuantity, parseQuantity, QUANTITY_FORMAT_ERROR, QUANTITY_SUFFIX_ERROR, quantityParseError } from '../../src/schema/quantity.js';

describe('quantities', () => {
  it('reports the error Kubernetes reports for each kind of bad text', () => {
    expect(quantityParseError('1ki')).toBe(QUANTITY_SUFFIX_ERROR);
    expect(quantityParseError('abc')).toBe(QUANTITY_FORMAT_ERROR);
    expect(quantityParseError('')).toBe(QUANTITY_FORMAT_ERROR);
    expect(quantityParseError('1 Gi')).toBe(QUANTITY_FORMAT_ERROR);
    for (const ok of ['1', '100m', '1.5Gi', '1e3', '2E-2', '.5', '.', '+', 'Ki', '-1']) expect(quantityParseError(ok)).toBeUndefined();
  });

  it('reads a missing number as zero, as Go does', () => {
    expect(formatQuantity(parseQuantity('.')!)).toBe('0');
  });

  it('never throws on random text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (t) => {
        const e = quantityParseError(t);
        expect(e === undefined || typeof e === 'string').toBe(true);
      }),
    );
  });
});
