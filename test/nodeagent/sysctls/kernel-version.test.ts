import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { getKernelVersion, KernelVersion, KernelVersionError } from '../../../src/nodeagent/sysctls/kernel-version.js';

describe('KernelVersion.parse (version.ParseGeneric)', () => {
  it.each([
    ['5.15.0-91-generic', '5.15.0'],
    ['4.18.0-372.9.1.el8.x86_64', '4.18.0'],
    ['6.1.0-13-amd64', '6.1.0'],
    ['5.10.102.1-microsoft-standard-WSL2', '5.10.102.1'],
    ['4.19.0+', '4.19.0'],
    ['3.10.0-1160.el7.x86_64', '3.10.0'],
    ['6.8.0-1015-aws', '6.8.0'],
    ['5.4', '5.4'],
    ['v5.4.0', '5.4.0'],
    ['  4.15.0  ', '4.15.0'],
    ['6.5.0_custom', '6.5.0'],
    ['0.1', '0.1'],
    ['5.04.3', '5.4.3'],
  ])('%s reads as %s', (text, expected) => {
    expect(KernelVersion.parse(text).toString()).toBe(expected);
  });

  it.each([
    ['', 'could not parse "" as version'],
    ['linux', 'could not parse "linux" as version'],
    ['-5.15.0', 'could not parse "-5.15.0" as version'],
    ['5', 'illegal version string "5"'],
    ['5-generic', 'illegal version string "5-generic"'],
    ['05.15', 'illegal zero-prefixed version component "05" in "05.15"'],
    ['5.15.0\nextra', 'could not parse "5.15.0\\nextra" as version'],
    [
      '5.99999999999999999999',
      'illegal non-numeric version component "99999999999999999999" in "5.99999999999999999999": strconv.ParseUint: parsing "99999999999999999999": value out of range',
    ],
  ])('%j is refused: %s', (text, message) => {
    expect(() => KernelVersion.parse(text)).toThrow(new KernelVersionError(message));
  });

  it('keeps 64-bit components exactly', () => {
    const v = KernelVersion.parse('18446744073709551615.1');
    expect(v.components[0]).toBe(18446744073709551615n);
    expect(v.atLeast('18446744073709551614.9')).toBe(true);
  });

  it('compares component by component, a missing component as zero', () => {
    const v = KernelVersion.parse('4.15.0-20-generic');
    expect(v.atLeast('4.15')).toBe(true);
    expect(v.atLeast('4.16')).toBe(false);
    expect(v.atLeast('4.5')).toBe(true);
    expect(KernelVersion.parse('4.9').atLeast('4.15')).toBe(false);
    expect(KernelVersion.parse('4.5').compare(KernelVersion.parse('4.5.0'))).toBe(0);
    expect(KernelVersion.parse('4.5.1').compare(KernelVersion.parse('4.5'))).toBe(1);
  });

  it('getKernelVersion trims the release text and prefixes its errors', () => {
    expect(getKernelVersion('6.1.0-13-amd64\n').toString()).toBe('6.1.0');
    expect(() => getKernelVersion('garbage')).toThrow('failed to parse kernel version: could not parse "garbage" as version');
    // The running kernel parses (Linux and macOS release strings both start with numbers).
    expect(getKernelVersion().components.length).toBeGreaterThanOrEqual(2);
  });

  it('never throws anything but KernelVersionError, on any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        try {
          const v = KernelVersion.parse(text);
          expect(v.components.length).toBeGreaterThanOrEqual(2);
        } catch (e) {
          expect(e).toBeInstanceOf(KernelVersionError);
        }
      }),
    );
  });

  it('reads back any version it prints, whatever suffix follows', () => {
    fc.assert(
      fc.property(
        fc.array(fc.bigInt({ min: 0n, max: (1n << 64n) - 1n }), { minLength: 2, maxLength: 6 }),
        fc.constantFrom('', '-generic', '.el8.x86_64', '+', '-1-amd64', '_x'),
        (components, suffix) => {
          const text = components.join('.') + suffix;
          expect(KernelVersion.parse(text).components).toEqual(components);
        },
      ),
    );
  });
});
