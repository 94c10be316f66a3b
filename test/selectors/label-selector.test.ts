import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  SelectorParseError,
  everythingLabelSelector,
  goQuote,
  labelKeyErrors,
  labelSelectorFromObject,
  labelSelectorFromSet,
  labelValueErrors,
  nothingLabelSelector,
  parseLabelSelector,
  type LabelSelector,
} from '../../src/selectors/label-selector.js';

// Detail texts of k8s.io/apimachinery/pkg/api/validate/content (v0.36).
const NAME_REGEX =
  "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const VALUE_REGEX =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const PREFIX_REGEX =
  "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const OPS = 'in, notin, =, ==, !=, gt, lt';

function parseError(text: string): string {
  try {
    parseLabelSelector(text);
  } catch (e) {
    expect(e).toBeInstanceOf(SelectorParseError);
    return (e as SelectorParseError).message;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be rejected`);
}

function objectError(sel: Parameters<typeof labelSelectorFromObject>[0]): string {
  try {
    labelSelectorFromObject(sel);
  } catch (e) {
    expect(e).toBeInstanceOf(SelectorParseError);
    return (e as SelectorParseError).message;
  }
  throw new Error('expected the selector to be rejected');
}

describe('parseLabelSelector: valid selectors', () => {
  it.each([
    ['', ''],
    ['   ', ''],
    ['x=a', 'x=a'],
    ['x==a', 'x==a'],
    ['x!=a', 'x!=a'],
    ['x', 'x'],
    ['!x', '!x'],
    ['x in (a)', 'x in (a)'],
    ['x in (b,a,b)', 'x in (a,b)'],
    ['x notin (a,b)', 'x notin (a,b)'],
    ['x>1', 'x>1'],
    ['x<5', 'x<5'],
    ['x=', 'x='],
    ['x= ', 'x='],
    ['x=,z= ', 'x=,z='],
    ['x in ()', 'x in ()'],
    ['x in (,)', 'x in ()'],
    ['x in (a,,b)', 'x in (,a,b)'],
    ['x in (a,)', 'x in (,a)'],
    ['x in (,a)', 'x in (,a)'],
    ['x in (foo,,baz),y,z notin ()', 'x in (,baz,foo),y,z notin ()'],
    ['z=1,a=2,m', 'a=2,m,z=1'],
    ['x=a,a=x', 'a=x,x=a'],
    ['  x  in  ( a , b )  ,  !y ', 'x in (a,b),!y'],
    ['\tx\r\n=\na', 'x=a'],
    ['in in (in, notin)', 'in in (in,notin)'],
    ['notin=in', 'notin=in'],
    ['example.com/app=web', 'example.com/app=web'],
    ['a.b_c-d=E.f_G-h', 'a.b_c-d=E.f_G-h'],
    ['x>0,x<10', 'x>0,x<10'],
  ])('%j -> %j', (input, canonical) => {
    const sel = parseLabelSelector(input);
    expect(sel.toString()).toBe(canonical);
    expect(sel.selectable).toBe(true);
    expect(parseLabelSelector(sel.toString()).toString()).toBe(canonical);
  });

  it('the empty selector matches everything and is empty', () => {
    const sel = parseLabelSelector('');
    expect(sel.empty()).toBe(true);
    expect(sel.requirements).toEqual([]);
    expect(sel.matches(undefined)).toBe(true);
    expect(sel.matches({ a: 'b' })).toBe(true);
  });

  it('exposes sorted requirements with Kubernetes operator names', () => {
    const sel = parseLabelSelector('z notin (b,a),!y,x,w>3,v<2,u==1,t!=0,s=q,r in (c)');
    expect(sel.requirements).toEqual([
      { key: 'r', operator: 'in', values: ['c'] },
      { key: 's', operator: '=', values: ['q'] },
      { key: 't', operator: '!=', values: ['0'] },
      { key: 'u', operator: '==', values: ['1'] },
      { key: 'v', operator: 'lt', values: ['2'] },
      { key: 'w', operator: 'gt', values: ['3'] },
      { key: 'x', operator: 'exists', values: [] },
      { key: 'y', operator: '!', values: [] },
      { key: 'z', operator: 'notin', values: ['a', 'b'] },
    ]);
    expect(sel.empty()).toBe(false);
    expect(Object.isFrozen(sel.requirements)).toBe(true);
  });

  it('sorts keys byte-wise and keeps duplicates in input order', () => {
    expect(parseLabelSelector('b,B,a,A,a.b,a-b,a_b,0,x/a,a.b/a').toString()).toBe('0,A,B,a,a-b,a.b,a.b/a,a_b,b,x/a');
    expect(parseLabelSelector('a!=2,a=1').toString()).toBe('a!=2,a=1');
  });

  it('ignores everything after a NUL between tokens, and swallows a NUL right after a token (Go lexer)', () => {
    expect(parseLabelSelector('a=b \0 garbage !!').toString()).toBe('a=b');
    expect(parseLabelSelector('a\0=b').toString()).toBe('a=b');
    expect(parseLabelSelector('a=\0b').toString()).toBe('a=b');
    expect(parseLabelSelector('a= \0b').toString()).toBe('a=');
    expect(parseLabelSelector('\0anything').empty()).toBe(true);
  });
});

describe('parseLabelSelector: matching', () => {
  const m = (sel: string, labels: Record<string, string> | undefined): boolean => parseLabelSelector(sel).matches(labels);

  it('equality operators', () => {
    for (const op of ['=', '==']) {
      expect(m(`x${op}y`, { x: 'y' })).toBe(true);
      expect(m(`x${op}y`, { x: 'z' })).toBe(false);
      expect(m(`x${op}y`, {})).toBe(false);
      expect(m(`x${op}y`, undefined)).toBe(false);
      expect(m(`x${op}`, { x: '' })).toBe(true);
      expect(m(`x${op}`, {})).toBe(false);
    }
    expect(m('x!=y', { x: 'z' })).toBe(true);
    expect(m('x!=y', { x: 'y' })).toBe(false);
    expect(m('x!=y', {})).toBe(true);
    expect(m('x!=y', undefined)).toBe(true);
  });

  it('set operators', () => {
    expect(m('x in (a,b)', { x: 'a' })).toBe(true);
    expect(m('x in (a,b)', { x: 'b' })).toBe(true);
    expect(m('x in (a,b)', { x: 'c' })).toBe(false);
    expect(m('x in (a,b)', {})).toBe(false);
    expect(m('x in ()', { x: '' })).toBe(true);
    expect(m('x in (a,,b)', { x: '' })).toBe(true);
    expect(m('x notin (a,b)', { x: 'c' })).toBe(true);
    expect(m('x notin (a,b)', { x: 'a' })).toBe(false);
    expect(m('x notin (a,b)', {})).toBe(true);
    expect(m('x notin ()', { x: '' })).toBe(false);
  });

  it('existence operators', () => {
    expect(m('x', { x: '' })).toBe(true);
    expect(m('x', { y: 'x' })).toBe(false);
    expect(m('!x', { y: 'x' })).toBe(true);
    expect(m('!x', { x: '' })).toBe(false);
    expect(m('!x', undefined)).toBe(true);
  });

  it('gt / lt compare 64-bit integers; non-integer labels never match', () => {
    expect(m('x>1', { x: '2' })).toBe(true);
    expect(m('x>1', { x: '1' })).toBe(false);
    expect(m('x>1', { x: '0' })).toBe(false);
    expect(m('x<1', { x: '0' })).toBe(true);
    expect(m('x<1', { x: '-5' })).toBe(true);
    expect(m('x<1', { x: '2' })).toBe(false);
    expect(m('x>1', { x: 'abc' })).toBe(false);
    expect(m('x<1', { x: 'abc' })).toBe(false);
    expect(m('x<1', {})).toBe(false);
    expect(m('x>1', {})).toBe(false);
    expect(m('x>1', { x: '' })).toBe(false);
    expect(m('x>1', { x: '+2' })).toBe(true);
    expect(m('x>1', { x: '002' })).toBe(true);
    expect(m('x<9223372036854775807', { x: '9223372036854775806' })).toBe(true);
    expect(m('x>9223372036854775806', { x: '9223372036854775807' })).toBe(true);
    expect(m('x>1', { x: '9223372036854775808' })).toBe(false); // out of int64 range
    expect(m('x<1', { x: '-9223372036854775808' })).toBe(true);
    expect(m('x<1', { x: '-9223372036854775809' })).toBe(false);
    expect(m('x>1', { x: '1.5' })).toBe(false);
    expect(m('x>1', { x: '1_0' })).toBe(false);
  });

  it('requires all requirements', () => {
    expect(m('x=y,z=w', { x: 'y', z: 'w' })).toBe(true);
    expect(m('x=y,z=w', { x: 'w', z: 'w' })).toBe(false);
    expect(m('foo=bar,baz=blah', { foo: 'bar', baz: 'blah', other: 'x' })).toBe(true);
  });

  it('only looks at own properties', () => {
    expect(m('constructor', {})).toBe(false);
    expect(m('toString', {})).toBe(false);
    expect(m('!hasOwnProperty', {})).toBe(true);
    expect(m('proto', JSON.parse('{"proto":"x"}'))).toBe(true);
  });
});

describe('exactValue (RequiresExactMatch)', () => {
  it.each([
    ['x=a', 'x', 'a'],
    ['x==a', 'x', 'a'],
    ['x in (a)', 'x', 'a'],
    ['x in (a,b)', 'x', undefined],
    ['x!=a', 'x', undefined],
    ['x notin (a)', 'x', undefined],
    ['x', 'x', undefined],
    ['!x', 'x', undefined],
    ['x>1', 'x', undefined],
    ['y=a', 'x', undefined],
    ['x=', 'x', ''],
    ['x=a,x!=b', 'x', 'a'],
    ['x!=b,x=a', 'x', undefined],
  ] as const)('%j on %j -> %j', (sel, key, value) => {
    expect(parseLabelSelector(sel).exactValue(key)).toBe(value);
  });
});

describe('parseLabelSelector: error messages (exact Kubernetes text)', () => {
  it.each([
    // top level
    [',', "found ',', expected: !, identifier, or 'end of string'"],
    [',a', "found ',', expected: !, identifier, or 'end of string'"],
    ['=a', "found '=', expected: !, identifier, or 'end of string'"],
    ['(', "found '(', expected: !, identifier, or 'end of string'"],
    [')', "found ')', expected: !, identifier, or 'end of string'"],
    ['!=a', "found '!=', expected: !, identifier, or 'end of string'"],
    ['a,', "found '', expected: identifier after ','"],
    ['a, ', "found '', expected: identifier after ','"],
    ['a,,b', "found ',', expected: identifier after ','"],
    ['a,=b', "found '=', expected: identifier after ','"],
    ['a=b c', "found 'c', expected: ',' or 'end of string'"],
    ['a=b=c', "found '=', expected: ',' or 'end of string'"],
    ['x==a==b', "found '==', expected: ',' or 'end of string'"],
    ['!x=a', "found '=', expected: ',' or 'end of string'"],
    ['a in (b))', "found ')', expected: ',' or 'end of string'"],
    ['a in (b) c', "found 'c', expected: ',' or 'end of string'"],
    // inside a requirement
    ['!', "unable to parse requirement: found '', expected: identifier"],
    ['!!a', "unable to parse requirement: found '!', expected: identifier"],
    ['!(a)', "unable to parse requirement: found '(', expected: identifier"],
    ['a b', `unable to parse requirement: found 'b', expected: ${OPS}`],
    ['a exists', `unable to parse requirement: found 'exists', expected: ${OPS}`],
    ['a (b)', `unable to parse requirement: found '(', expected: ${OPS}`],
    ['a!b', `unable to parse requirement: found '!', expected: ${OPS}`],
    ['a >= 1', `unable to parse requirement: found '=', expected: identifier`],
    ['a in b', "unable to parse requirement: found 'b' expected: '('"],
    ['a in', "unable to parse requirement: found '' expected: '('"],
    ['a notin )', "unable to parse requirement: found ')' expected: '('"],
    ['a in (', "unable to parse requirement: found '', expected: ',', ')' or identifier"],
    ['a in ((', "unable to parse requirement: found '(', expected: ',', ')' or identifier"],
    ['a in (=)', "unable to parse requirement: found '=', expected: ',', ')' or identifier"],
    ['a in (b', "unable to parse requirement: found '', expected: ',' or ')'"],
    ['a in (b c)', "unable to parse requirement: found 'c', expected: ',' or ')'"],
    ['a in (b(', "unable to parse requirement: found '(', expected: ',' or ')'"],
    ['a in (b,', "unable to parse requirement: found '', expected: ',', or identifier"],
    ['a in (b,=)', "unable to parse requirement: found '=', expected: ',', or identifier"],
    ['a in (,(', "unable to parse requirement: found '(', expected: ',', or identifier"],
    ['a=(b)', "unable to parse requirement: found '(', expected: identifier"],
    ['a=!', "unable to parse requirement: found '!', expected: identifier"],
    ['a!==b', "unable to parse requirement: found '=', expected: identifier"],
    ['a>)', "unable to parse requirement: found ')', expected: identifier"],
    // key validation (the field path really is "<nil>")
    ['Foo_', `unable to parse requirement: <nil>: Invalid value: "Foo_": name part ${NAME_REGEX}`],
    ['-a=b', `unable to parse requirement: <nil>: Invalid value: "-a": name part ${NAME_REGEX}`],
    ['!a.', `unable to parse requirement: <nil>: Invalid value: "a.": name part ${NAME_REGEX}`],
    ['a/', `unable to parse requirement: <nil>: Invalid value: "a/": name part must be non-empty; name part ${NAME_REGEX}`],
    ['/a', 'unable to parse requirement: <nil>: Invalid value: "/a": prefix part must be non-empty'],
    ['/', `unable to parse requirement: <nil>: Invalid value: "/": prefix part must be non-empty; name part must be non-empty; name part ${NAME_REGEX}`],
    ['Example.com/a', `unable to parse requirement: <nil>: Invalid value: "Example.com/a": ${PREFIX_REGEX}`],
    [
      'a/b/c in (x)',
      `unable to parse requirement: <nil>: Invalid value: "a/b/c": a valid label key ${NAME_REGEX} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')`,
    ],
    [`${'a'.repeat(64)}`, `unable to parse requirement: <nil>: Invalid value: "${'a'.repeat(64)}": name part must be no more than 63 bytes`],
    [`${'a'.repeat(254)}/b`, `unable to parse requirement: <nil>: Invalid value: "${'a'.repeat(254)}/b": prefix part must be no more than 253 bytes`],
    ['é', `unable to parse requirement: <nil>: Invalid value: "é": name part ${NAME_REGEX}`],
    [
      'é'.repeat(32),
      `unable to parse requirement: <nil>: Invalid value: "${'é'.repeat(32)}": name part must be no more than 63 bytes; name part ${NAME_REGEX}`,
    ],
    ['a\u0001b', `unable to parse requirement: <nil>: Invalid value: "a\\x01b": name part ${NAME_REGEX}`],
    ['a"b', `unable to parse requirement: <nil>: Invalid value: "a\\"b": name part ${NAME_REGEX}`],
    ['a\u00a0', `unable to parse requirement: <nil>: Invalid value: "a\\u00a0": name part ${NAME_REGEX}`],
    ['a\u000b', `unable to parse requirement: <nil>: Invalid value: "a\\v": name part ${NAME_REGEX}`],
    // value validation
    ['a=A B', "found 'B', expected: ',' or 'end of string'"],
    ['x=a||y=b', `unable to parse requirement: values[0][x]: Invalid value: "a||y": ${VALUE_REGEX}`],
    ['a=-b', `unable to parse requirement: values[0][a]: Invalid value: "-b": ${VALUE_REGEX}`],
    ['a!=b.', `unable to parse requirement: values[0][a]: Invalid value: "b.": ${VALUE_REGEX}`],
    ['a=' + 'x'.repeat(64), `unable to parse requirement: values[0][a]: Invalid value: "${'x'.repeat(64)}": must be no more than 63 bytes`],
    ['a=' + '-'.repeat(64), `unable to parse requirement: values[0][a]: Invalid value: "${'-'.repeat(64)}": must be no more than 63 bytes; ${VALUE_REGEX}`],
    ['a in (z, -b, -a)', `unable to parse requirement: [values[0][a]: Invalid value: "-a": ${VALUE_REGEX}, values[1][a]: Invalid value: "-b": ${VALUE_REGEX}]`],
    ['example.com/k in (ok,b_)', `unable to parse requirement: values[0][example.com/k]: Invalid value: "b_": ${VALUE_REGEX}`],
    ['a=日本', `unable to parse requirement: values[0][a]: Invalid value: "日本": ${VALUE_REGEX}`],
    ['a=\u{1F600}', `unable to parse requirement: values[0][a]: Invalid value: "\u{1F600}": ${VALUE_REGEX}`],
    ['a=\u{E0001}', `unable to parse requirement: values[0][a]: Invalid value: "\\U000e0001": ${VALUE_REGEX}`],
    ['a=\u007f', `unable to parse requirement: values[0][a]: Invalid value: "\\x7f": ${VALUE_REGEX}`],
    // gt / lt
    ['a>abc', `unable to parse requirement: values[0]: Invalid value: "abc": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['a>', `unable to parse requirement: values[0]: Invalid value: "": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['x<a', `unable to parse requirement: values[0]: Invalid value: "a": for 'Gt', 'Lt' operators, the value must be an integer`],
    ['a>1.5', `unable to parse requirement: values[0]: Invalid value: "1.5": for 'Gt', 'Lt' operators, the value must be an integer`],
    [
      'a>99999999999999999999',
      `unable to parse requirement: values[0]: Invalid value: "99999999999999999999": for 'Gt', 'Lt' operators, the value must be an integer`,
    ],
    ['a<-1', `unable to parse requirement: values[0][a]: Invalid value: "-1": ${VALUE_REGEX}`],
    [
      'a<-x',
      `unable to parse requirement: [values[0]: Invalid value: "-x": for 'Gt', 'Lt' operators, the value must be an integer, values[0][a]: Invalid value: "-x": ${VALUE_REGEX}]`,
    ],
  ])('%j', (input, message) => {
    expect(parseError(input)).toBe(message);
  });

  it('accepts the int64 boundaries for gt / lt', () => {
    expect(parseLabelSelector('a>9223372036854775807').toString()).toBe('a>9223372036854775807');
    expect(parseError('a>9223372036854775808')).toBe(
      `unable to parse requirement: values[0]: Invalid value: "9223372036854775808": for 'Gt', 'Lt' operators, the value must be an integer`,
    );
  });

  it('is a real Error subclass', () => {
    try {
      parseLabelSelector('!');
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(Error);
      expect(e).toBeInstanceOf(SelectorParseError);
      expect((e as SelectorParseError).name).toBe('SelectorParseError');
      expect((e as SelectorParseError).selectorKind).toBe('label');
    }
  });
});

describe('parseLabelSelector: hostile input', () => {
  it('handles 100 KB inputs in linear time', () => {
    const big = 'a'.repeat(100_000);
    expect(parseError(big)).toBe(`unable to parse requirement: <nil>: Invalid value: "${big}": name part must be no more than 63 bytes`);
    expect(parseError(`a=${big}`)).toBe(`unable to parse requirement: values[0][a]: Invalid value: "${big}": must be no more than 63 bytes`);
    expect(parseError('('.repeat(100_000))).toBe("found '(', expected: !, identifier, or 'end of string'");
    expect(parseError(`a in (${'b,'.repeat(50_000)}`)).toBe("unable to parse requirement: found '', expected: ',', or identifier");
    expect(parseError(','.repeat(100_000))).toBe("found ',', expected: !, identifier, or 'end of string'");
    expect(parseLabelSelector(' '.repeat(100_000)).empty()).toBe(true);
    const many = Array.from({ length: 5000 }, (_, i) => `k${i}=v${i}`).join(',');
    const sel = parseLabelSelector(many);
    expect(sel.requirements).toHaveLength(5000);
    expect(sel.matches(Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, `v${i}`])))).toBe(true);
    expect(parseLabelSelector(`a in (${Array.from({ length: 20_000 }, (_, i) => `v${i}`).join(',')})`).requirements[0]!.values).toHaveLength(20_000);
    const bigInt = '9'.repeat(100_000);
    expect(parseError(`a>${bigInt}`)).toBe(
      `unable to parse requirement: [values[0]: Invalid value: "${bigInt}": for 'Gt', 'Lt' operators, the value must be an integer, values[0][a]: Invalid value: "${bigInt}": must be no more than 63 bytes]`,
    );
  });

  it('unbalanced parentheses and nested commas', () => {
    expect(parseError('a in (b,(c))')).toBe("unable to parse requirement: found '(', expected: ',', or identifier");
    expect(parseError('a in (b))')).toBe("found ')', expected: ',' or 'end of string'");
    expect(parseError('a in ((b)')).toBe("unable to parse requirement: found '(', expected: ',', ')' or identifier");
    expect(parseError('a in (b,c,d')).toBe("unable to parse requirement: found '', expected: ',' or ')'");
    expect(parseLabelSelector('a in (,,,)').toString()).toBe('a in ()');
    expect(parseLabelSelector('a in (b,,,c)').requirements[0]!.values).toEqual(['', 'b', 'c']);
  });

  it('control characters and unicode whitespace are not separators', () => {
    expect(parseError('a\u000bb')).toBe(`unable to parse requirement: <nil>: Invalid value: "a\\vb": name part ${NAME_REGEX}`);
    expect(parseError('a=\u00a0')).toBe(`unable to parse requirement: values[0][a]: Invalid value: "\\u00a0": ${VALUE_REGEX}`);
    expect(parseError('\u2028')).toBe(`unable to parse requirement: <nil>: Invalid value: "\\u2028": name part ${NAME_REGEX}`);
    expect(parseError('a=\u200b')).toBe(`unable to parse requirement: values[0][a]: Invalid value: "\\u200b": ${VALUE_REGEX}`);
  });
});

describe('labelSelectorFromObject (metav1.LabelSelectorAsSelector)', () => {
  it('nil selects nothing, empty selects everything', () => {
    for (const nil of [null, undefined]) {
      const sel = labelSelectorFromObject(nil);
      expect(sel.matches({})).toBe(false);
      expect(sel.matches({ a: 'b' })).toBe(false);
      expect(sel.empty()).toBe(false);
      expect(sel.selectable).toBe(false);
      expect(sel.toString()).toBe('');
      expect(sel.exactValue('a')).toBeUndefined();
      expect(sel).toBe(nothingLabelSelector());
    }
    for (const empty of [{}, { matchLabels: {} }, { matchExpressions: [] }, { matchLabels: null, matchExpressions: null }]) {
      const sel = labelSelectorFromObject(empty);
      expect(sel.matches({})).toBe(true);
      expect(sel.matches(undefined)).toBe(true);
      expect(sel.empty()).toBe(true);
      expect(sel.selectable).toBe(true);
      expect(sel).toBe(everythingLabelSelector());
    }
  });

  it('converts matchLabels and every expression operator', () => {
    const sel = labelSelectorFromObject({
      matchLabels: { tier: 'web', app: 'shop' },
      matchExpressions: [
        { key: 'env', operator: 'In', values: ['prod', 'dev'] },
        { key: 'zone', operator: 'NotIn', values: ['b'] },
        { key: 'owner', operator: 'Exists' },
        { key: 'legacy', operator: 'DoesNotExist', values: [] },
      ],
    });
    expect(sel.toString()).toBe('app=shop,env in (dev,prod),!legacy,owner,tier=web,zone notin (b)');
    expect(sel.requirements.find((r) => r.key === 'env')!.values).toEqual(['prod', 'dev']);
    expect(sel.matches({ app: 'shop', tier: 'web', env: 'dev', owner: 'x', zone: 'a' })).toBe(true);
    expect(sel.matches({ app: 'shop', tier: 'web', env: 'dev', owner: 'x', zone: 'b' })).toBe(false);
    expect(sel.matches({ app: 'shop', tier: 'web', env: 'dev', owner: 'x', legacy: '' })).toBe(false);
    expect(sel.matches({ app: 'shop', tier: 'web', env: 'qa', owner: 'x' })).toBe(false);
    expect(sel.exactValue('app')).toBe('shop');
    expect(sel.exactValue('env')).toBeUndefined();
    expect(labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'In', values: ['x'] }] }).exactValue('a')).toBe('x');
    expect(labelSelectorFromObject({ matchExpressions: [{ key: 'a', operator: 'In', values: ['x', 'x'] }] }).toString()).toBe('a in (x,x)');
  });

  it('reports errors as Kubernetes words them', () => {
    expect(objectError({ matchExpressions: [{ key: 'a', operator: 'Foo' }] })).toBe('"Foo" is not a valid label selector operator');
    expect(objectError({ matchExpressions: [{ key: 'a', operator: 'in', values: ['x'] }] })).toBe('"in" is not a valid label selector operator');
    expect(objectError({ matchExpressions: [{ key: 'a', operator: 'Gt', values: ['1'] }] })).toBe('"Gt" is not a valid label selector operator');
    expect(objectError({ matchExpressions: [{ key: 'a', operator: 'In' }] })).toBe(
      "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    );
    expect(objectError({ matchExpressions: [{ key: 'a', operator: 'NotIn', values: [] }] })).toBe(
      "values: Invalid value: null: for 'in', 'notin' operators, values set can't be empty",
    );
    expect(objectError({ matchExpressions: [{ key: 'a', operator: 'Exists', values: ['x', '<&>'] }] })).toBe(
      `[values: Invalid value: ["x","\\u003c\\u0026\\u003e"]: values set must be empty for exists and does not exist, values[1][a]: Invalid value: "<&>": ${VALUE_REGEX}]`,
    );
    expect(objectError({ matchExpressions: [{ key: 'a', operator: 'DoesNotExist', values: ['x'] }] })).toBe(
      'values: Invalid value: ["x"]: values set must be empty for exists and does not exist',
    );
    expect(objectError({ matchLabels: { 'a b': 'c' } })).toBe(`key: Invalid value: "a b": name part ${NAME_REGEX}`);
    expect(objectError({ matchLabels: { a: 'b c' } })).toBe(`values[0][a]: Invalid value: "b c": ${VALUE_REGEX}`);
    expect(objectError({ matchLabels: { '-a': '-b' } })).toBe(
      `[key: Invalid value: "-a": name part ${NAME_REGEX}, values[0][-a]: Invalid value: "-b": ${VALUE_REGEX}]`,
    );
    expect(objectError({ matchExpressions: [{ key: 'ok', operator: 'In', values: ['good', 'bad value'] }] })).toBe(
      `values[1][ok]: Invalid value: "bad value": ${VALUE_REGEX}`,
    );
    // matchLabels are checked (sorted by key) before matchExpressions
    expect(objectError({ matchLabels: { z: '-', a: '-' }, matchExpressions: [{ key: 'a', operator: 'Bad' }] })).toBe(
      `values[0][a]: Invalid value: "-": ${VALUE_REGEX}`,
    );
  });
});

describe('labelSelectorFromSet', () => {
  it('builds k=v requirements sorted by key', () => {
    const sel = labelSelectorFromSet({ b: '2', a: '1' });
    expect(sel.toString()).toBe('a=1,b=2');
    expect(sel.matches({ a: '1', b: '2', c: '3' })).toBe(true);
    expect(sel.matches({ a: '1' })).toBe(false);
    expect(labelSelectorFromSet({}).empty()).toBe(true);
    expect(labelSelectorFromSet(undefined).empty()).toBe(true);
  });
});

describe('validation helpers and Go quoting', () => {
  it('labelKeyErrors / labelValueErrors', () => {
    expect(labelKeyErrors('app.kubernetes.io/name')).toEqual([]);
    expect(labelKeyErrors('a')).toEqual([]);
    expect(labelKeyErrors('A_b')).toEqual([]);
    expect(labelKeyErrors('a_')).toEqual([`name part ${NAME_REGEX}`]);
    expect(labelKeyErrors('a..b/c')).toEqual([PREFIX_REGEX]);
    expect(labelValueErrors('')).toEqual([]);
    expect(labelValueErrors('x'.repeat(63))).toEqual([]);
    expect(labelValueErrors('_')).toEqual([VALUE_REGEX]);
  });

  it('goQuote follows strconv.Quote', () => {
    expect(goQuote('plain')).toBe('"plain"');
    expect(goQuote('q"\\')).toBe('"q\\"\\\\"');
    expect(goQuote('\u0007\b\f\n\r\t\v\u0000\u001f\u007f')).toBe('"\\a\\b\\f\\n\\r\\t\\v\\x00\\x1f\\x7f"');
    expect(goQuote('é日本\u{1F600}')).toBe('"é日本\u{1F600}"');
    expect(goQuote('\u00a0\u00ad\u200b\u2028\ufeff')).toBe('"\\u00a0\\u00ad\\u200b\\u2028\\ufeff"');
    expect(goQuote('\u{E0001}\u{10FFFF}')).toBe('"\\U000e0001\\U0010ffff"');
    expect(goQuote(' ')).toBe('" "');
    expect(goQuote('\ud800')).toBe('"\ufffd"');
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const keyChar = fc.constantFrom(...'abcXYZ019'.split(''));
const midChar = fc.constantFrom(...'abcXYZ019-_.'.split(''));
const labelName = fc
  .tuple(keyChar, fc.array(midChar, { maxLength: 8 }), keyChar)
  .map(([a, m, b]) => a + m.join('') + b)
  .chain((s) => fc.constantFrom(s, s[0]!));
const labelKey = fc.oneof(
  labelName,
  fc.tuple(fc.constantFrom('example.com', 'a-b.c', 'k8s.io'), labelName).map(([p, n]) => `${p}/${n}`),
);
const labelValue = fc.oneof(fc.constant(''), labelName);
const intValue = fc.bigInt({ min: 0n, max: 9223372036854775807n }).map(String);

const requirementText = fc.oneof(
  fc.tuple(labelKey, fc.constantFrom('=', '==', '!='), labelValue).map(([k, op, v]) => `${k}${op}${v}`),
  fc.tuple(labelKey, fc.constantFrom('in', 'notin'), fc.array(labelValue, { minLength: 1, maxLength: 4 })).map(([k, op, vs]) => `${k} ${op} (${vs.join(',')})`),
  labelKey,
  labelKey.map((k) => `!${k}`),
  fc.tuple(labelKey, fc.constantFrom('>', '<'), intValue).map(([k, op, v]) => `${k}${op}${v}`),
);
const selectorText = fc.array(requirementText, { maxLength: 6 }).map((rs) => rs.join(', '));
const labelSet = fc.dictionary(labelKey, fc.oneof(labelValue, intValue), { maxKeys: 6 });

function sameMatches(a: LabelSelector, b: LabelSelector, sets: Record<string, string>[]): void {
  for (const s of sets) expect(b.matches(s)).toBe(a.matches(s));
}

describe('properties', () => {
  it('parse(sel.toString()) is a fixpoint and matches the same label sets', () => {
    fc.assert(
      fc.property(selectorText, fc.array(labelSet, { maxLength: 10 }), (text, sets) => {
        const sel = parseLabelSelector(text);
        const again = parseLabelSelector(sel.toString());
        expect(again.toString()).toBe(sel.toString());
        expect(again.requirements).toEqual(sel.requirements);
        sameMatches(sel, again, sets);
      }),
      { numRuns: 500 },
    );
  });

  it('labels built from an equality selector match it', () => {
    fc.assert(
      fc.property(fc.dictionary(labelKey, labelValue, { maxKeys: 6 }), (set) => {
        const text = Object.entries(set)
          .map(([k, v]) => `${k}=${v}`)
          .join(',');
        const sel = parseLabelSelector(text);
        expect(sel.matches(set)).toBe(true);
        expect(labelSelectorFromSet(set).toString()).toBe(sel.toString());
        for (const [k, v] of Object.entries(set)) expect(sel.exactValue(k)).toBe(v);
      }),
    );
  });

  it('labelSelectorFromObject agrees with the equivalent string selector', () => {
    const expr = fc.oneof(
      fc.record({ key: labelKey, operator: fc.constantFrom('In', 'NotIn'), values: fc.uniqueArray(labelValue, { minLength: 1, maxLength: 3 }) }),
      fc.record({ key: labelKey, operator: fc.constantFrom('Exists', 'DoesNotExist') }),
    );
    fc.assert(
      fc.property(
        fc.dictionary(labelKey, labelValue, { maxKeys: 3 }),
        fc.array(expr, { maxLength: 4 }),
        fc.array(labelSet, { maxLength: 8 }),
        (matchLabels, matchExpressions, sets) => {
          const obj = labelSelectorFromObject({ matchLabels, matchExpressions });
          const text = obj.toString();
          const parsed = parseLabelSelector(text);
          sameMatches(obj, parsed, sets);
        },
      ),
    );
  });

  it('random strings only ever throw SelectorParseError', () => {
    const alphabet = fc.constantFrom(...'ab=!(),<> \t\n\r\0in/.-_é\u{1F600}\\"'.split(''), 'in', 'notin', ' in ', ' notin ');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 40 }),
          fc.array(alphabet, { maxLength: 30 }).map((a) => a.join('')),
        ),
        (text) => {
          try {
            const sel = parseLabelSelector(text);
            // Whatever parses also re-parses to the same thing.
            expect(parseLabelSelector(sel.toString()).toString()).toBe(sel.toString());
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
