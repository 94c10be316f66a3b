import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { canonicalCIDR, parseCIDR, validateCIDR } from '../../../src/kinds/networking/cidr.js';

describe('CIDR parsing', () => {
  it('formats IPv6 networks as Go does (RFC 5952, like the WHATWG serializer)', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff })), { minLength: 8, maxLength: 8 }), (groups) => {
        const text = groups.map((g) => g.toString(16).padStart(4, '0')).join(':');
        const c = parseCIDR(`${text}/128`);
        expect(c).toBeDefined();
        const expected = new URL(`http://[${text}]/`).hostname.slice(1, -1);
        expect(canonicalCIDR(c!)).toBe(`${expected}/128`);
      }),
    );
  });

  it('accepts embedded IPv4 and the zero prefix', () => {
    expect(validateCIDR('f', '::/0')).toEqual([]);
    expect(validateCIDR('f', '0.0.0.0/0')).toEqual([]);
    expect(validateCIDR('f', '64:ff9b::/96')).toEqual([]);
    expect(canonicalCIDR(parseCIDR('64:ff9b::10.0.0.0/96')!)).toBe('64:ff9b::/96');
  });
});
