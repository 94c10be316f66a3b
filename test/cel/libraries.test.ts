/** Each function of Kubernetes' CEL libraries: values and errors. */
import { describe, expect, it } from 'vitest';
import { Environment, type Value } from '../../src/cel/index.js';
import { ListValue, MapValue, OptionalValue } from '../../src/cel/values/values.js';

const env = new Environment({ variables: [] });

/** Evaluates `expr` and converts the result to plain JavaScript for comparison. */
function run(expr: string): unknown {
  const c = env.compile(expr);
  if (!c.ok) throw new Error(c.issues);
  const r = c.program.evaluate({});
  if (!r.ok) return { error: r.error };
  return plain(r.value);
}
function plain(v: Value): unknown {
  if (v instanceof ListValue) return [...v].map(plain);
  if (v instanceof MapValue) return Object.fromEntries([...v.keys()].map((k) => [String(k), plain(v.get(k)!)]));
  if (v instanceof OptionalValue) return v.value === undefined ? { none: true } : { some: plain(v.value) };
  return v;
}

const cases: Record<string, [string, unknown][]> = {
  lists: [
    ['[1, 2, 3].isSorted()', true],
    ["['b', 'a'].isSorted()", false],
    ['[1, 2, 3].sum()', 6n],
    ['[1.5, 2.5].sum()', 4],
    ["[duration('1m'), duration('1s')].sum() == duration('61s')", true],
    ['[1, 3, 2].min()', 1n],
    ['[1, 3, 2].max()', 3n],
    ['[1, 2, 2, 3].indexOf(2)', 1n],
    ["['a', 'b', 'b', 'c'].lastIndexOf('b')", 2n],
    ['[1.0].indexOf(1.1)', -1n],
    ['[9223372036854775807, 1].sum()', { error: 'integer overflow' }],
  ],
  'lists extension': [
    ['[1, 2, 3, 4].slice(1, 3)', [2n, 3n]],
    ['[1, 2].slice(2, 1)', { error: 'cannot slice(2, 1), start index must be less than or equal to end index' }],
    ['[[1], [2, 3]].flatten()', [1n, 2n, 3n]],
    ['[3, 1, 2].sort()', [1n, 2n, 3n]],
    ["['bb', 'a', 'ccc'].sortBy(s, size(s))", ['a', 'bb', 'ccc']],
    ['lists.range(3)', [0n, 1n, 2n]],
    ['[1, 2, 3].reverse()', [3n, 2n, 1n]],
    ['[1, 2, 1, 3].distinct()', [1n, 2n, 3n]],
  ],
  sets: [
    ['sets.contains([1, 2, 3], [3, 1])', true],
    ['sets.contains([1, 2], [3])', false],
    ['sets.equivalent([1, 2, 2], [2, 1])', true],
    ['sets.intersects([1, 2], [2, 5])', true],
    ['sets.intersects([1], [5])', false],
  ],
  regex: [
    ["'abc 123'.find('[0-9]+')", '123'],
    ["'abc'.find('[0-9]+')", ''],
    ["'a1b22c333'.findAll('[0-9]+')", ['1', '22', '333']],
    ["'a1b22c333'.findAll('[0-9]+', 2)", ['1', '22']],
    ["'x'.find('(')", { error: 'error parsing regexp: missing closing ): `(`' }],
    ["'abc'.matches('^a.c$')", true],
  ],
  url: [
    ["url('https://example.com:8080/a/b?x=1&x=2').getScheme()", 'https'],
    ["url('https://example.com:8080/a/b?x=1').getHost()", 'example.com:8080'],
    ["url('https://[::1]:80/').getHostname()", '::1'],
    ["url('https://example.com:8080/').getPort()", '8080'],
    ["url('https://example.com/a b').getEscapedPath()", '/a%20b'],
    ["url('https://example.com/?x=1&x=2&y=').getQuery()", { x: ['1', '2'], y: [''] }],
    ["isURL('https://example.com')", true],
    ["isURL('example.com')", false],
    ["url('example.com')", { error: 'URL parse error during conversion from string: parse "example.com": invalid URI for request' }],
  ],
  quantity: [
    ["quantity('1Gi').isGreaterThan(quantity('1000Mi'))", true],
    ["quantity('500m').isLessThan(quantity('1'))", true],
    ["quantity('1k').compareTo(quantity('1000'))", 0n],
    ["quantity('1k') == quantity('1000')", true],
    ["quantity('-2').sign()", -1n],
    ["quantity('1.5').asApproximateFloat()", 1.5],
    ["quantity('2k').asInteger()", 2000n],
    ["quantity('1.5').asInteger()", { error: 'cannot convert value to integer' }],
    ["quantity('1.5').isInteger()", false],
    ["quantity('1').add(quantity('500m')) == quantity('1500m')", true],
    ["quantity('1').add(2) == quantity('3')", true],
    ["quantity('1').sub(quantity('500m')) == quantity('0.5')", true],
    ["quantity('3').sub(1) == quantity('2')", true],
    ["isQuantity('1.5Gi')", true],
    ["isQuantity('1.5Gb')", false],
    ["quantity('abc')", { error: "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'" }],
  ],
  ip: [
    ["ip('10.0.0.1').family()", 4n],
    ["ip('fe80::1').family()", 6n],
    ["isIP('1.2.3')", false],
    ["isIP('::ffff:1.2.3.4')", false],
    ["ip.isCanonical('2001:db8::1')", true],
    ["ip.isCanonical('2001:DB8::1')", false],
    ["ip('0.0.0.0').isUnspecified()", true],
    ["ip('127.0.0.1').isLoopback()", true],
    ["ip('::1').isLoopback()", true],
    ["ip('224.0.0.1').isLinkLocalMulticast()", true],
    ["ip('169.254.1.1').isLinkLocalUnicast()", true],
    ["ip('8.8.8.8').isGlobalUnicast()", true],
    ["ip('255.255.255.255').isGlobalUnicast()", false],
    ["string(ip('2001:0db8:0:0::1'))", '2001:db8::1'],
    ["ip('10.0.0.1') == ip('10.0.0.1')", true],
    ["ip('010.0.0.1')", { error: 'IP Address "010.0.0.1" parse error during conversion from string: IPv4 field has octet with leading zero' }],
  ],
  cidr: [
    ["cidr('10.0.0.0/8').containsIP('10.1.2.3')", true],
    ["cidr('10.0.0.0/8').containsIP(ip('11.0.0.1'))", false],
    ["cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')", true],
    ["cidr('10.0.0.0/16').containsCIDR(cidr('10.0.0.0/8'))", false],
    ["cidr('10.1.2.3/8').ip() == ip('10.1.2.3')", true],
    ["string(cidr('10.1.2.3/8').masked())", '10.0.0.0/8'],
    ["cidr('fd00::/64').prefixLength()", 64n],
    ["isCIDR('10.0.0.0/33')", false],
    ["isCIDR('10.0.0.0')", false],
  ],
  format: [
    ["format.dns1123Label().validate('my-name')", { none: true }],
    [
      "format.dns1123Label().validate('My_Name')",
      {
        some: [
          "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
        ],
      },
    ],
    ["format.named('dns1123Subdomain').value().validate('a.b')", { none: true }],
    ["format.named('nope').hasValue()", false],
    ["format.uuid().validate('123e4567-e89b-12d3-a456-426614174000')", { none: true }],
    ["format.uuid().validate('x')", { some: ['does not match the UUID format'] }],
    ["format.byte().validate('!!')", { some: ['invalid base64'] }],
    ["format.date().validate('2021-02-30')", { some: ['invalid date'] }],
    ["format.datetime().validate('2021-01-01T00:00:00Z')", { none: true }],
    ["format.portName().validate('http--x')", { some: ['must not contain consecutive hyphens'] }],
    ["format.labelValue().validate('ok.value')", { none: true }],
  ],
  semver: [
    ["semver('1.2.3').major()", 1n],
    ["semver('1.2.3').minor()", 2n],
    ["semver('1.2.3').patch()", 3n],
    ["semver('1.2.3').isLessThan(semver('1.10.0'))", true],
    ["semver('1.0.0-alpha').isLessThan(semver('1.0.0'))", true],
    ["semver('2.0.0').compareTo(semver('1.9.9'))", 1n],
    ["semver('v1.2', true) == semver('1.2.0')", true],
    ["isSemver('1.2')", false],
    ["isSemver('v01.2', true)", true],
    ["semver('1.02.3')", { error: 'Minor number must not contain leading zeroes "02"' }],
  ],
  strings: [
    ["'hello'.charAt(1)", 'e'],
    ["'hello'.charAt(5)", ''],
    ["'hello'.charAt(6)", { error: 'index out of range: 6' }],
    ["'hello mellow'.indexOf('ello', 2)", 7n],
    ["'hello mellow'.lastIndexOf('ello')", 7n],
    ["'TacoCat'.lowerAscii()", 'tacocat'],
    ["'TacoCat'.upperAscii()", 'TACOCAT'],
    ["'hello hello'.replace('he', 'we', 1)", 'wello hello'],
    ["'a,b,c'.split(',')", ['a', 'b', 'c']],
    ["'a,b,c'.split(',', 2)", ['a', 'b,c']],
    ["'tacocat'.substring(4)", 'cat'],
    ["'tacocat'.substring(0, 4)", 'taco'],
    ["'tacocat'.substring(4, 2)", { error: 'invalid substring range. start: 4, end: 2' }],
    ["'  \\ttrim\\n '.trim()", 'trim'],
    ["['a', 'b'].join('-')", 'a-b'],
    ["strings.quote('a\"b\\n')", '"a\\"b\\n"'],
    ["'%d-%d'.format([1, 2])", '1-2'],
    ["'%s!'.format(['x'])", 'x!'],
    ["'%d'.format(['x'])", { error: 'error during formatting: decimal clause can only be used on integers' }],
    ["'%.2f'.format([3.14159])", '3.14'],
    ["'%x'.format([255])", 'ff'],
  ],
  optional: [
    ['optional.of(1).hasValue()', true],
    ['optional.none().hasValue()', false],
    ['optional.ofNonZeroValue(0).hasValue()', false],
    ['optional.of(1).value()', 1n],
    ['optional.none().value()', { error: 'optional.none() dereference' }],
    ['optional.none().or(optional.of(2)).value()', 2n],
    ['optional.none().orValue(3)', 3n],
    ["{'a': 1}.?a.orValue(0)", 1n],
    ["{'a': 1}.?b.orValue(0)", 0n],
    ['[1, 2][?5].orValue(0)', 0n],
    ["optional.of({'a': {'b': 2}}).a.b.value()", 2n],
    ['optional.of(2).optMap(x, x * 10).value()', 20n],
    ['optional.none().optMap(x, x * 10).hasValue()', false],
    ['optional.of(2).optFlatMap(x, optional.of(x + 1)).value()', 3n],
    ['[?optional.of(1), ?optional.none()]', [1n]],
  ],
  'two-variable comprehensions': [
    ['[10, 20].all(i, v, v == (i + 1) * 10)', true],
    ["{'a': 1, 'b': 2}.exists(k, v, k == 'b' && v == 2)", true],
    ['[1, 2, 3].existsOne(i, v, v > 2)', true],
    ['[1, 2, 3].transformList(i, v, i * v)', [0n, 2n, 6n]],
    ['[1, 2, 3].transformList(i, v, v > 1, v)', [2n, 3n]],
    ["{'a': 1}.transformMap(k, v, v + 1)", { a: 2n }],
    ["{'a': 1}.transformMapEntry(k, v, {v: k})", { 1: 'a' }],
  ],
  'standard library': [
    ['1 + 2 * 3', 7n],
    ['9223372036854775807 + 1', { error: 'integer overflow' }],
    ['-9223372036854775808 - 1', { error: 'integer overflow' }],
    ['1 / 0', { error: 'division by zero' }],
    ['1 % 0', { error: 'modulus by zero' }],
    ['0u - 1u', { error: 'unsigned integer overflow' }],
    ['1.0 / 0.0', Infinity],
    ['dyn(1) == 1.0', true],
    ['dyn(1u) < 2.5', true],
    ["int('42')", 42n],
    ["int('x')", { error: "type conversion error from 'string' to 'int'" }],
    ['int(1e99)', { error: 'integer overflow' }],
    ['uint(-1)', { error: 'unsigned integer overflow' }],
    ['string(1.5)', '1.5'],
    ['string(1e21)', '1e+21'],
    ["string(b'\\xff')", { error: 'invalid UTF-8 in bytes, cannot convert to string' }],
    ["timestamp('2024-02-29T12:00:00.5+01:00') == timestamp('2024-02-29T11:00:00.5Z')", true],
    ["string(timestamp('2024-01-01T00:00:00Z') + duration('1h30m'))", '2024-01-01T01:30:00Z'],
    ["timestamp('9999-12-31T23:59:59Z') + duration('1s')", { error: 'timestamp overflow' }],
    ["string(duration('1.5s'))", '1.5s'],
    ["duration('1h').getMinutes()", 60n],
    ["timestamp('2024-03-10T12:00:00Z').getHours('America/New_York')", 8n],
    ["timestamp('2024-03-10T12:00:00Z').getDayOfWeek()", 0n],
    ["size('héllo')", 5n],
    ["'abc' < 'abd'", true],
    ["b'abc' < b'abd'", true],
    ['[1, 2] + [3]', [1n, 2n, 3n]],
    ["{'a': 1}['b']", { error: 'no such key: b' }],
    ['[1, 2][2]', { error: 'index out of bounds: 2' }],
    ['type(1) == int && type(1u) == uint && type([]) == list', true],
    ['[1, 2].exists(x, x == 2) && [1, 2].all(x, x > 0) && [1, 2].exists_one(x, x > 1)', true],
    ['[1, 2, 3].map(x, x * 2).filter(x, x > 2)', [4n, 6n]],
    ['[1, 2, 3].map(x, x > 1, x)', [2n, 3n]],
    ['has({"a": 1}.a) && !has({"a": 1}.b)', true],
    ['[0, 1].all(x, 1 / x > 0) || true', true],
    ['false && (1 / 0 > 0)', false],
    ['(1 / 0 > 0) || true', true],
  ],
};

describe('libraries', () => {
  for (const [lib, list] of Object.entries(cases)) {
    describe(lib, () => {
      for (const [expr, want] of list) {
        it(expr, () => {
          expect(run(expr)).toEqual(want);
        });
      }
    });
  }
});
