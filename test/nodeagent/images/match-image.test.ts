import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BadPatternError, goFilepathMatch, urlsMatchStr } from '../../../src/nodeagent/images/match-image.js';

describe('urlsMatchStr (URLsMatchStr)', () => {
  it.each([
    ['*.kubernetes.io', 'prefix.kubernetes.io', true],
    ['prefix.*.io', 'prefix.kubernetes.io', true],
    ['*-good.kubernetes.io', 'prefix-good.kubernetes.io', true],
    ['*.*.io', 'prefix.kubernetes.io', true],
    ['prefix.*.io', 'prefix.kubernetes.io/path/image', true],
    ['*.io', 'prefix.kubernetes.io', false], // label count differs
    ['*.kubernetes.io', 'kubernetes.io', false],
    ['kubernetes.io', 'kubernetes.io:443', false], // port must be equal
    ['kubernetes.io:5000', 'kubernetes.io:5000/image', true],
    ['kubernetes.io:5000', 'kubernetes.io:5001/image', false],
    ['registry.io/team', 'registry.io/team/app', true],
    ['registry.io/team', 'registry.io/other/app', false],
    ['registry.io/team/app', 'registry.io/team', false],
    // A `?` starts the URL's query, as in the kubelet: the host is only `registry-`.
    ['registry-?.io', 'registry-1.io', false],
    ['registry-*.io', 'registry-1.io', true],
    ['registry-[0-9].io', 'registry-a.io', false],
    ['registry-[a-c].io', 'registry-b.io', true],
    ['*', 'docker.io', false],
    ['*', 'localhost', true],
  ])('%s vs %s: %s', (glob, image, expected) => {
    expect(urlsMatchStr(glob, image)).toBe(expected);
  });

  it('throws for a malformed glob or URL', () => {
    expect(() => urlsMatchStr('a[.io', 'ab.io')).toThrow(BadPatternError);
    expect(() => urlsMatchStr('registry-[^a].io', 'a.io')).toThrow('parse "https://registry-[^a].io": invalid character "^" in host name');
    expect(() => urlsMatchStr('a b.io', 'a.io')).toThrow(/^parse "https:\/\/a b.io": invalid character " " in host name$/);
  });
});

describe('goFilepathMatch', () => {
  it.each([
    ['abc', 'abc', true],
    ['*', 'abc', true],
    ['*c', 'abc', true],
    ['a*', 'a', true],
    ['a*/b', 'abc/b', true],
    ['a*/b', 'a/c/b', false],
    ['a*b*c*d*e*/f', 'axbxcxdxe/f', true],
    ['ab[c]', 'abc', true],
    ['ab[b-d]', 'abc', true],
    ['ab[^c]', 'abc', false],
    ['ab[^b-d]', 'abe', true],
    ['a\\*b', 'a*b', true],
    ['a\\*b', 'ab', false],
    ['a?b', 'a☺b', true],
    ['a???b', 'a☺b', false],
    ['[\\-]', '-', true],
    ['a[', 'x', 'bad'],
    ['[]a]', ']', 'bad'],
    ['[-]', '-', 'bad'],
    ['[x-]', 'x', 'bad'],
    ['a\\', 'a', 'bad'],
    ['[a-z', 'q', 'bad'],
  ])('%j matches %j: %s', (pattern, name, expected) => {
    if (expected === 'bad') expect(() => goFilepathMatch(pattern, name)).toThrow('syntax error in pattern');
    else expect(goFilepathMatch(pattern, name)).toBe(expected);
  });

  it('is total on hostile patterns, and fast on star storms', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40, unit: fc.constantFrom('a', '*', '?', '[', ']', '^', '-', '\\', '/') }), fc.string({ maxLength: 40 }), (p, s) => {
        try {
          expect(typeof goFilepathMatch(p, s)).toBe('boolean');
        } catch (e) {
          expect(e).toBeInstanceOf(BadPatternError);
        }
      }),
    );
    const start = performance.now();
    expect(goFilepathMatch('*a'.repeat(50) + 'b', 'a'.repeat(200))).toBe(false);
    expect(performance.now() - start).toBeLessThan(500);
  });
});
