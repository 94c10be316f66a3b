import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  FlagValueError,
  parseColonMultimap,
  parseConfigurationMap,
  parseCsvLine,
  parseFlagDuration,
  parseFlagIP,
  parseGoBool,
  parseGoInt,
  parseMapStringBool,
  parseMapStringString,
  parseTaints,
} from '../../../src/nodeagent/config/flag-values.js';

describe('strconv', () => {
  it.each(['1', 't', 'T', 'TRUE', 'true', 'True'])('ParseBool(%j) is true', (s) => expect(parseGoBool(s)).toBe(true));
  it.each(['0', 'f', 'F', 'FALSE', 'false', 'False'])('ParseBool(%j) is false', (s) => expect(parseGoBool(s)).toBe(false));
  it('refuses other booleans', () => expect(() => parseGoBool('yes')).toThrow(new FlagValueError('strconv.ParseBool: parsing "yes": invalid syntax')));

  it.each([
    ['10250', 10250],
    ['-1', -1],
    ['+7', 7],
    ['0x10', 16],
    ['0o17', 15],
    ['017', 15],
    ['0b101', 5],
    ['1_000', 1000],
    ['2147483647', 2147483647],
    ['-2147483648', -2147483648],
    ['0', 0],
  ])('ParseInt(%j, 0, 32) is %d', (s, n) => expect(parseGoInt(s, 32)).toBe(n));

  it.each([
    ['x', 'invalid syntax'],
    ['', 'invalid syntax'],
    ['-', 'invalid syntax'],
    ['1.5', 'invalid syntax'],
    ['08', 'invalid syntax'],
    ['1__0', 'invalid syntax'],
    ['_1', 'invalid syntax'],
    ['0x', 'invalid syntax'],
    ['2147483648', 'value out of range'],
    ['-2147483649', 'value out of range'],
    ['99999999999999999999999', 'value out of range'],
  ])('ParseInt(%j, 0, 32) fails: %s', (s, why) => expect(() => parseGoInt(s, 32)).toThrow(`strconv.ParseInt: parsing ${JSON.stringify(s)}: ${why}`));

  it('reads 64-bit integers', () => {
    expect(parseGoInt('4294967296', 64)).toBe(4294967296);
    expect(() => parseGoInt('9223372036854775808', 64)).toThrow('value out of range');
  });

  it('agrees with decimal integers in range', () => {
    fc.assert(
      fc.property(fc.integer({ min: -2147483648, max: 2147483647 }), (n) => {
        expect(parseGoInt(String(n), 32)).toBe(n);
      }),
    );
  });
});

describe('durations, IPs and lists', () => {
  it('parses durations to their String() form', () => {
    expect(parseFlagDuration('90s')).toBe('1m30s');
    expect(() => parseFlagDuration('5')).toThrow('time: missing unit in duration "5"');
  });

  it('accepts IPs and empty, refuses names', () => {
    expect(parseFlagIP('10.0.0.1')).toBe('10.0.0.1');
    expect(parseFlagIP('::')).toBe('::');
    expect(parseFlagIP('')).toBe('');
    expect(() => parseFlagIP('localhost')).toThrow('"localhost" is not a valid IP address');
  });

  it('reads comma-separated values as CSV', () => {
    expect(parseCsvLine('')).toEqual([]);
    expect(parseCsvLine('a,b')).toEqual(['a', 'b']);
    expect(parseCsvLine('a,')).toEqual(['a', '']);
    expect(parseCsvLine('"a,b",c')).toEqual(['a,b', 'c']);
    expect(parseCsvLine('"say ""hi"""')).toEqual(['say "hi"']);
    expect(() => parseCsvLine('a"b')).toThrow('parse error on line 1, column 2: bare " in non-quoted-field');
    expect(() => parseCsvLine('"ab')).toThrow('extraneous or missing " in quoted-field');
  });

  it('never throws anything but FlagValueError on any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (s) => {
        for (const f of [() => parseCsvLine(s), () => parseGoInt(s, 32), () => parseFlagDuration(s), () => parseTaints(s), () => parseMapStringBool(s, {})]) {
          try {
            f();
          } catch (e) {
            expect(e).toBeInstanceOf(FlagValueError);
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('map flags', () => {
  it('reads feature gates', () => {
    const m: Record<string, boolean> = {};
    parseMapStringBool(' A=true , B=false,,', m);
    expect(m).toEqual({ A: true, B: false });
    expect(() => parseMapStringBool('A', {})).toThrow('missing bool value for A');
    expect(() => parseMapStringBool('A=maybe', {})).toThrow('invalid value of A=maybe, err: strconv.ParseBool: parsing "maybe": invalid syntax');
  });

  it('reads k=v and k<v maps', () => {
    const m: Record<string, string> = {};
    parseMapStringString('cpu=100m, memory=1Gi', m);
    expect(m).toEqual({ cpu: '100m', memory: '1Gi' });
    const e: Record<string, string> = {};
    parseMapStringString('memory.available<1Gi,nodefs.available<10%', e, '<');
    expect(e).toEqual({ 'memory.available': '1Gi', 'nodefs.available': '10%' });
    expect(() => parseMapStringString('cpu', {})).toThrow('malformed pair, expect string=string');
    expect(() => parseMapStringString('memory', {}, '<')).toThrow('malformed pair, expect string<string');
    const one: Record<string, string> = {};
    parseMapStringString('a=b,c', one, '=', true);
    expect(one).toEqual({ a: 'b,c' });
  });

  it('reads colon-separated headers, repeated keys appended', () => {
    const m: Record<string, string[]> = {};
    parseColonMultimap('a:hello,b:again,c:world', m);
    parseColonMultimap('b:beautiful', m);
    expect(m).toEqual({ a: ['hello'], b: ['again', 'beautiful'], c: ['world'] });
    expect(() => parseColonMultimap('a', {})).toThrow('malformed pair, expect string:string');
  });

  it('reads node labels, a bare key meaning an empty value, and keeps __proto__ as a key', () => {
    const m: Record<string, string> = {};
    parseConfigurationMap('a=b,c,__proto__=x', m);
    expect(Object.keys(m)).toEqual(['a', 'c', '__proto__']);
    expect(m.c).toBe('');
  });

  it('reads taints as ParseTaints does', () => {
    expect(parseTaints('a=b:NoSchedule,c:NoExecute,gone-')).toEqual([
      { key: 'a', value: 'b', effect: 'NoSchedule' },
      { key: 'c', effect: 'NoExecute' },
    ]);
    expect(parseTaints('')).toEqual([]);
    expect(() => parseTaints('a=b:Never')).toThrow('invalid taint effect: Never, unsupported taint effect');
    expect(() => parseTaints('a')).toThrow('invalid taint spec: a');
    expect(() => parseTaints('a=b=c:NoSchedule')).toThrow('invalid taint spec: a=b=c:NoSchedule');
    expect(() => parseTaints('a:b:c')).toThrow('invalid taint spec: a:b:c');
    expect(() => parseTaints('bad key:NoSchedule')).toThrow(/^invalid taint spec: bad key:NoSchedule, name part must consist of/);
    expect(() => parseTaints('a:NoSchedule,a=x:NoSchedule')).toThrow('duplicated taints with the same key and effect: {a x NoSchedule <nil>}');
  });
});
