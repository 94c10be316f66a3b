import { describe, expect, it } from 'vitest';
import { compileGoRegexp } from '../../src/util/go-regexp.js';

function matches(pattern: string, s: string): boolean {
  const r = compileGoRegexp(pattern);
  if (!r.ok) throw new Error(r.error);
  return r.regexp.test(s);
}

function error(pattern: string): string {
  const r = compileGoRegexp(pattern);
  return r.ok ? 'compiled' : r.error;
}

describe('compileGoRegexp: matching as Go does', () => {
  it.each([
    ['^[a-z]+$', 'abc', true],
    ['^[a-z]+$', 'ab1', false],
    ['b', 'abc', true], // unanchored search
    ['a.c', 'a\nc', false],
    ['a.c', 'a\rc', true],
    ['(?s)a.c', 'a\nc', true],
    ['^\\s$', '\t', true],
    ['^\\s$', '\v', false],
    ['^\\s$', '\u00a0', false],
    ['^\\d$', '\u0661', false],
    ['^\\w+$', 'héllo', false],
    ['^\\pL+$', 'héllo', true],
    ['^\\p{Greek}+$', 'αβγ', true],
    ['^\\P{Greek}$', 'a', true],
    ['^[\\p{Lu}]$', 'É', true],
    ['^[[:alpha:]]+$', 'abc', true],
    ['^[[:^digit:]]+$', 'abc', true],
    ['\\Qa.b\\E', 'xa.by', true],
    ['\\Qa.b\\E', 'xazby', false],
    ['^a{2}$', 'aa', true],
    ['^a{2,}$', 'aaaa', true],
    ['^a{1,2}$', 'aaa', false],
    ['^a{01}$', 'a{01}', true],
    ['a{', 'a{', true],
    ['^a{,2}$', 'a{,2}', true],
    ['\\101', 'A', true],
    ['\\x{1F600}', '😀', true],
    ['\\x41', 'A', true],
    ['(?P<name>a)b', 'ab', true],
    ['(?<name>a)b', 'ab', true],
    ['(?i)ABC', 'xabcx', true],
    ['(?i)k', '\u212a', true],
    ['(?i)s', '\u017f', true],
    ['(?i)[a-z]', 'K', true],
    ['a(?i)b|C', 'c', true],
    ['(?i:a)b', 'AB', false],
    ['\\bfoo\\b', 'a foo b', true],
    ['\\bfoo\\b', 'afoob', false],
    ['\\Bfoo', 'afoo', true],
    ['(?m)^b$', 'a\nb\nc', true],
    ['^b$', 'a\nb\nc', false],
    ['a$', 'a\n', false],
    ['\\Aa\\z', 'a', true],
    ['[]a]', ']', true],
    ['[^a]', '\n', true],
    ['[a-]', '-', true],
    ['^[\\d-]+$', '1-2', true],
    ['x*', '', true],
    ['(a|b)*c', 'ababc', true],
    ['^$', '', true],
    ['^(?:)$', '', true],
    ['\\.\\-\\:', '.-:', true],
  ])('%s on %j is %s', (pattern, s, want) => {
    expect(matches(pattern, s)).toBe(want);
  });

  it('takes linear time where a backtracking engine would not return', () => {
    const start = Date.now();
    expect(matches('^(a+)+$', 'a'.repeat(20000) + '!')).toBe(false);
    expect(matches('^(a|a)*b$', 'a'.repeat(20000))).toBe(false);
    expect(matches('(x+x+)+y', 'x'.repeat(5000))).toBe(false);
    expect(Date.now() - start).toBeLessThan(10000);
  });
});

describe('compileGoRegexp: Go’s errors', () => {
  it.each([
    ['(', 'error parsing regexp: missing closing ): `(`'],
    ['a)', 'error parsing regexp: unexpected ): `a)`'],
    ['[a', 'error parsing regexp: missing closing ]: `[a`'],
    ['*a', 'error parsing regexp: missing argument to repetition operator: `*`'],
    ['a|*', 'error parsing regexp: missing argument to repetition operator: `*`'],
    ['a**', 'error parsing regexp: invalid nested repetition operator: `**`'],
    ['a{2}{3}', 'error parsing regexp: invalid nested repetition operator: `{2}{3}`'],
    ['a{2,1}', 'error parsing regexp: invalid repeat count: `{2,1}`'],
    ['a{1001}', 'error parsing regexp: invalid repeat count: `{1001}`'],
    ['(a{500}){3}', 'error parsing regexp: invalid repeat count: `{3}`'],
    ['\\1', 'error parsing regexp: invalid escape sequence: `\\1`'],
    ['\\C', 'error parsing regexp: invalid escape sequence: `\\C`'],
    ['(?=a)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`'],
    ['(?-)', 'error parsing regexp: invalid or unsupported Perl syntax: `(?-)`'],
    ['(?P<a-b>x)', 'error parsing regexp: invalid named capture: `(?P<a-b>`'],
    ['[z-a]', 'error parsing regexp: invalid character class range: `z-a`'],
    ['\\p{Foo}', 'error parsing regexp: invalid character class range: `\\p{Foo}`'],
    ['[[:foo:]]', 'error parsing regexp: invalid character class range: `[:foo:]`'],
    ['\\', 'error parsing regexp: trailing backslash at end of expression: ``'],
  ])('%s: %s', (pattern, message) => {
    expect(error(pattern)).toBe(message);
  });

  it('refuses nesting deeper than Go allows, without exhausting the stack', () => {
    expect(error('('.repeat(1001) + ')'.repeat(1001))).toBe(`error parsing regexp: expression nests too deeply: \`${'('.repeat(1001)}${')'.repeat(1001)}\``);
    expect(error('('.repeat(100) + 'a' + ')'.repeat(100))).toBe('compiled');
  });
});
