import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { aggregateMessage, fieldError } from '../../../src/machinery/field-errors.js';
import {
  DNS1035_LABEL_FMT,
  DNS1123_LABEL_FMT,
  DNS1123_SUBDOMAIN_FMT,
  LABEL_KEY_FMT,
  LABEL_VALUE_FMT,
  isCIdentifier,
  isConfigMapKey,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isEnvVarName,
  isPathSegmentName,
  isPathSegmentPrefix,
  isQualifiedName,
  isValidLabelValue,
  nameIsDNS1035Label,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
  regexError,
  utf8ByteLength,
  validatePathSegmentName,
} from '../../../src/schema/validation/names.js';

// The detail strings as Kubernetes v1.36 writes them (spelled out here, not built from the module).
const SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL =
  "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const NAME_PART =
  "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
const LABEL_VALUE =
  "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
const TOO_MANY_SLASHES =
  "a valid label key must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')";

const MB = 1 << 20;

describe('regexError', () => {
  it('formats like Kubernetes, including the double space before "or"', () => {
    expect(regexError('m', 'x')).toBe("m (regex used for validation is 'x')");
    expect(regexError('m', 'x', 'a')).toBe("m (e.g. 'a', regex used for validation is 'x')");
    expect(regexError('m', 'x', 'a', 'b')).toBe("m (e.g. 'a',  or 'b', regex used for validation is 'x')");
  });
});

describe('utf8ByteLength', () => {
  it('counts UTF-8 bytes like Go len()', () => {
    expect(utf8ByteLength('')).toBe(0);
    expect(utf8ByteLength('abc')).toBe(3);
    expect(utf8ByteLength('é')).toBe(2);
    expect(utf8ByteLength('€')).toBe(3);
    expect(utf8ByteLength('😀')).toBe(4);
    expect(utf8ByteLength('\ud800')).toBe(3); // lone surrogate → U+FFFD
  });
  it('agrees with Buffer.byteLength', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 50 }), (s) => utf8ByteLength(s) === Buffer.byteLength(s, 'utf8')));
  });
});

describe('isDNS1123Subdomain', () => {
  it.each(['a', '0', 'example.com', 'a-b.c-d', '1.2.3.4', 'a'.repeat(253), `${'a'.repeat(63)}.${'b'.repeat(63)}`])('accepts %j', (v) => {
    expect(isDNS1123Subdomain(v)).toEqual([]);
  });
  it.each(['', 'A', 'Example.com', '-a', 'a-', '.a', 'a.', 'a..b', 'a_b', 'a b', 'a/b', 'a%b', 'é', 'a\u0000', 'a\n', '.', '..', '-'])(
    'rejects %j with the regex message',
    (v) => {
      expect(isDNS1123Subdomain(v)).toEqual([SUBDOMAIN]);
    },
  );
  it('limits the length to 253 bytes', () => {
    expect(isDNS1123Subdomain('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
    expect(isDNS1123Subdomain('A'.repeat(254))).toEqual(['must be no more than 253 characters', SUBDOMAIN]);
    // bytes, not UTF-16 units: 127 'é' are 254 bytes
    expect(isDNS1123Subdomain('é'.repeat(127))).toEqual(['must be no more than 253 characters', SUBDOMAIN]);
    expect(isDNS1123Subdomain('é'.repeat(126))).toEqual([SUBDOMAIN]);
  });
  it('renders as Kubernetes does in a field error', () => {
    expect(aggregateMessage(isDNS1123Subdomain('Foo').map((m) => fieldError.invalid('metadata.name', 'Foo', m)))).toBe(
      `metadata.name: Invalid value: "Foo": ${SUBDOMAIN}`,
    );
  });
});

describe('isDNS1123Label', () => {
  it.each(['a', 'my-name', '123-abc', 'a'.repeat(63)])('accepts %j', (v) => expect(isDNS1123Label(v)).toEqual([]));
  it('says "must not contain dots" for a valid subdomain', () => {
    expect(isDNS1123Label('a.b')).toEqual(['must not contain dots']);
    expect(isDNS1123Label('a'.repeat(40) + '.' + 'b'.repeat(40))).toEqual(['must be no more than 63 characters', 'must not contain dots']);
  });
  it.each(['', 'A', '-a', 'a-', 'a_b', '.a', 'a.', 'a..b', 'ä'])('rejects %j with the regex message', (v) => {
    expect(isDNS1123Label(v)).toEqual([LABEL]);
  });
  it('limits the length to 63', () => {
    expect(isDNS1123Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
  });
});

describe('isDNS1035Label', () => {
  it.each(['a', 'my-name', 'abc-123', 'a'.repeat(63)])('accepts %j', (v) => expect(isDNS1035Label(v)).toEqual([]));
  it.each(['', '1abc', '-a', 'a-', 'A', 'a.b', 'a_b'])('rejects %j', (v) => expect(isDNS1035Label(v)).toEqual([DNS1035]));
  it('limits the length to 63', () => {
    expect(isDNS1035Label('a'.repeat(64))).toEqual(['must be no more than 63 characters']);
    expect(isDNS1035Label('1'.repeat(64))).toEqual(['must be no more than 63 characters', DNS1035]);
  });
});

describe('isQualifiedName', () => {
  it.each(['a', 'A', 'MyName', 'my.name', '123-abc', 'a_b', 'example.com/MyName', 'k8s.io/a', `${'a'.repeat(253)}/${'b'.repeat(63)}`])('accepts %j', (v) =>
    expect(isQualifiedName(v)).toEqual([]),
  );
  it('reports an empty name with two messages', () => {
    expect(isQualifiedName('')).toEqual(['name part must be non-empty', NAME_PART]);
    expect(isQualifiedName('example.com/')).toEqual(['name part must be non-empty', NAME_PART]);
  });
  it('reports an empty prefix', () => {
    expect(isQualifiedName('/a')).toEqual(['prefix part must be non-empty']);
    expect(isQualifiedName('/')).toEqual(['prefix part must be non-empty', 'name part must be non-empty', NAME_PART]);
  });
  it('checks the prefix as a lowercase subdomain, with a "bytes" length message', () => {
    expect(isQualifiedName('Example.com/a')).toEqual([`prefix part ${SUBDOMAIN}`]);
    expect(isQualifiedName(`${'a'.repeat(254)}/a`)).toEqual(['prefix part must be no more than 253 bytes']);
  });
  it('checks the name part', () => {
    expect(isQualifiedName('-a')).toEqual([NAME_PART]);
    expect(isQualifiedName('a b')).toEqual([NAME_PART]);
    expect(isQualifiedName('a'.repeat(64))).toEqual(['name part must be no more than 63 bytes']);
    expect(isQualifiedName('a'.repeat(63))).toEqual([]);
    expect(isQualifiedName('ü'.repeat(32))).toEqual(['name part must be no more than 63 bytes', NAME_PART]);
  });
  it('rejects more than one slash with a single message', () => {
    expect(isQualifiedName('a/b/c')).toEqual([TOO_MANY_SLASHES]);
    expect(isQualifiedName('//')).toEqual([TOO_MANY_SLASHES]);
  });
});

describe('isValidLabelValue', () => {
  it.each(['', 'a', 'MyValue', 'my_value', '12345', 'a.b-c_d', 'x'.repeat(63)])('accepts %j', (v) => expect(isValidLabelValue(v)).toEqual([]));
  it.each(['-a', 'a-', '_a', 'a b', 'a/b', 'ä', '\u0000'])('rejects %j', (v) => expect(isValidLabelValue(v)).toEqual([LABEL_VALUE]));
  it('limits the length to 63 bytes', () => {
    expect(isValidLabelValue('x'.repeat(64))).toEqual(['must be no more than 63 bytes']);
    expect(isValidLabelValue('-'.repeat(64))).toEqual(['must be no more than 63 bytes', LABEL_VALUE]);
  });
});

describe('path segment names', () => {
  it('rejects . and .. exactly', () => {
    expect(isPathSegmentName('.')).toEqual(["may not be '.'"]);
    expect(isPathSegmentName('..')).toEqual(["may not be '..'"]);
    expect(isPathSegmentName('...')).toEqual([]);
    expect(isPathSegmentName('.a')).toEqual([]);
  });
  it('rejects / and %', () => {
    expect(isPathSegmentName('a/b')).toEqual(["may not contain '/'"]);
    expect(isPathSegmentName('a%b')).toEqual(["may not contain '%'"]);
    expect(isPathSegmentName('%/')).toEqual(["may not contain '/'", "may not contain '%'"]);
  });
  it('does not check emptiness, case or length', () => {
    expect(isPathSegmentName('')).toEqual([]);
    expect(isPathSegmentName('Hello World ☃')).toEqual([]);
    expect(isPathSegmentName('x'.repeat(MB))).toEqual([]);
  });
  it('as a prefix only checks contents', () => {
    expect(isPathSegmentPrefix('.')).toEqual([]);
    expect(isPathSegmentPrefix('..')).toEqual([]);
    expect(validatePathSegmentName('..', true)).toEqual([]);
    expect(validatePathSegmentName('..', false)).toEqual(["may not be '..'"]);
    expect(validatePathSegmentName('a/', true)).toEqual(["may not contain '/'"]);
  });
});

describe('name validators with prefix (generateName)', () => {
  it('tolerate a trailing dash', () => {
    expect(nameIsDNSSubdomain('foo-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('foo-', false)).toEqual([SUBDOMAIN]);
    expect(nameIsDNSLabel('foo-', true)).toEqual([]);
    expect(nameIsDNS1035Label('foo-', true)).toEqual([]);
    expect(nameIsDNS1035Label('foo-', false)).toEqual([DNS1035]);
  });
  it('do not mask a lone dash', () => {
    expect(nameIsDNSSubdomain('-', true)).toEqual([SUBDOMAIN]);
  });
  it('mask like Go: the character before the dash is dropped too', () => {
    // Go checks name[:len-2] + "a": "a.-" becomes "aa", so it passes
    expect(nameIsDNSSubdomain('a.-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('A-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('Ab-', true)).toEqual([SUBDOMAIN]);
    // a 254-byte prefix ending in '-' is checked as 253 bytes
    expect(nameIsDNSSubdomain('a'.repeat(253) + '-', true)).toEqual([]);
    expect(nameIsDNSSubdomain('a'.repeat(254) + '-', true)).toEqual(['must be no more than 253 characters']);
    expect(nameIsDNSLabel('a'.repeat(63) + '-', true)).toEqual([]);
    expect(nameIsDNSLabel('a'.repeat(64) + '-', true)).toEqual(['must be no more than 63 characters']);
  });
  it('keep a multi-byte character before the dash invalid (Go leaves a broken byte)', () => {
    expect(nameIsDNSSubdomain('é-', true)).toEqual([SUBDOMAIN]);
    expect(nameIsDNSSubdomain('a😀-', true)).toEqual([SUBDOMAIN]);
    expect(nameIsDNSSubdomain('a\ud800-', true)).toEqual([SUBDOMAIN]);
  });
  it('still reject other trailing characters', () => {
    expect(nameIsDNSSubdomain('foo.', true)).toEqual([SUBDOMAIN]);
    expect(nameIsDNSSubdomain('foo--', true)).toEqual([]);
  });
});

describe('other identifiers', () => {
  it('isCIdentifier', () => {
    expect(isCIdentifier('my_name')).toEqual([]);
    expect(isCIdentifier('1a')).toEqual([
      "a valid C identifier must start with alphabetic character or '_', followed by a string of alphanumeric characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is '[A-Za-z_][A-Za-z0-9_]*')",
    ]);
  });
  it('isEnvVarName', () => {
    expect(isEnvVarName('MY_ENV.NAME')).toEqual([]);
    expect(isEnvVarName('1A')).toEqual([
      "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
    ]);
    expect(isEnvVarName('..')).toEqual(["must not be '..'"]);
    expect(isEnvVarName('..a')).toEqual(["must not start with '..'"]);
  });
  it('isConfigMapKey', () => {
    expect(isConfigMapKey('key.name')).toEqual([]);
    expect(isConfigMapKey('.')).toEqual(["must not be '.'"]);
    expect(isConfigMapKey('a b')).toEqual([
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
    ]);
    expect(isConfigMapKey('a'.repeat(254))).toEqual(['must be no more than 253 characters']);
  });
});

describe('hostile input', () => {
  it('handles megabyte strings quickly', () => {
    const start = Date.now();
    const long = 'a'.repeat(MB);
    expect(isDNS1123Subdomain(long)).toEqual(['must be no more than 253 characters']);
    expect(isDNS1123Subdomain(long + '!')).toEqual(['must be no more than 253 characters', SUBDOMAIN]);
    expect(isDNS1123Subdomain('a.'.repeat(MB / 2) + '-')).toEqual(['must be no more than 253 characters', SUBDOMAIN]);
    expect(isDNS1123Subdomain('a-'.repeat(MB / 2))).toEqual(['must be no more than 253 characters', SUBDOMAIN]);
    expect(isDNS1123Label(long + '.')).toEqual(['must be no more than 63 characters', LABEL]);
    expect(isDNS1035Label(long)).toEqual(['must be no more than 63 characters']);
    expect(isQualifiedName(long)).toEqual(['name part must be no more than 63 bytes']);
    expect(isQualifiedName('/'.repeat(MB))).toEqual([TOO_MANY_SLASHES]);
    expect(isValidLabelValue('a_'.repeat(MB / 2))).toEqual(['must be no more than 63 bytes', LABEL_VALUE]);
    expect(nameIsDNSSubdomain('-'.repeat(MB), true)).toEqual(['must be no more than 253 characters', SUBDOMAIN]);
    expect(isEnvVarName('a'.repeat(MB) + '=')).toHaveLength(1);
    expect(Date.now() - start).toBeLessThan(2000);
  });
  it('rejects control characters, unicode look-alikes and whitespace', () => {
    for (const v of ['a\u0000b', 'a\tb', 'a\u200bb', 'аbc' /* Cyrillic а */, 'ａ', 'a\u2028', ' a', 'a ', '\ufeffa']) {
      expect(isDNS1123Subdomain(v)).toEqual([SUBDOMAIN]);
      expect(isDNS1123Label(v)).toEqual([LABEL]);
      expect(isQualifiedName(v)).toEqual([NAME_PART]);
      expect(isValidLabelValue(v)).toEqual([LABEL_VALUE]);
    }
  });
  it('does not treat a newline before the end as the end (Go $ semantics)', () => {
    expect(isDNS1123Subdomain('abc\n')).toEqual([SUBDOMAIN]);
    expect(isValidLabelValue('abc\n')).toEqual([LABEL_VALUE]);
  });
});

describe('properties', () => {
  const label = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/);
  const subdomain = fc.array(label, { minLength: 1, maxLength: 8 }).map((ls) => ls.join('.'));
  const alphabet = fc.constantFrom('a', 'z', '0', '9', 'A', 'Z', '-', '.', '_', '/', '%', ' ', 'é', '\n', '\u0000');
  const messy = fc.string({ unit: alphabet, maxLength: 20 });
  const anchored = (fmt: string) => new RegExp(`^(?:${fmt})$`);

  it('accepts every string matching the subdomain regex with at most 253 bytes', () => {
    fc.assert(
      fc.property(subdomain, (s) => {
        fc.pre(s.length <= 253);
        expect(isDNS1123Subdomain(s)).toEqual([]);
        expect(nameIsDNSSubdomain(s, false)).toEqual([]);
      }),
    );
  });

  it('rejects every string with an uppercase letter', () => {
    fc.assert(
      fc.property(subdomain, fc.nat(), fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'), (s, at, upper) => {
        const i = at % (s.length + 1);
        const v = s.slice(0, i) + upper + s.slice(i);
        expect(isDNS1123Subdomain(v)).toContain(SUBDOMAIN);
        expect(isDNS1123Label(v)).toContain(LABEL);
        expect(isDNS1035Label(v)).toContain(DNS1035);
        expect(nameIsDNSSubdomain(v, true)).not.toEqual([]);
      }),
    );
  });

  it('scanners agree with the Kubernetes regular expressions', () => {
    const sub = anchored(DNS1123_SUBDOMAIN_FMT);
    const lab = anchored(DNS1123_LABEL_FMT);
    const d1035 = anchored(DNS1035_LABEL_FMT);
    const key = anchored(LABEL_KEY_FMT);
    const value = anchored(LABEL_VALUE_FMT);
    fc.assert(
      fc.property(fc.oneof(messy, subdomain), (s) => {
        expect(isDNS1123Subdomain(s).includes(SUBDOMAIN)).toBe(!sub.test(s));
        expect(isDNS1123Label(s).length === 0).toBe(lab.test(s) && utf8ByteLength(s) <= 63);
        expect(isDNS1035Label(s).includes(DNS1035)).toBe(!d1035.test(s));
        expect(isValidLabelValue(s).includes(LABEL_VALUE)).toBe(!value.test(s));
        if (!s.includes('/')) expect(isQualifiedName(s).includes(NAME_PART)).toBe(!key.test(s));
      }),
      { numRuns: 2000 },
    );
  });

  it('a valid prefix plus a valid name is a valid qualified name', () => {
    const name = fc.stringMatching(/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/);
    fc.assert(
      fc.property(fc.option(subdomain, { nil: undefined }), name, (prefix, n) => {
        fc.pre(prefix === undefined || prefix.length <= 253);
        expect(isQualifiedName(prefix === undefined ? n : `${prefix}/${n}`)).toEqual([]);
      }),
    );
  });

  it('never throws and always returns strings, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.boolean(), (s, prefix) => {
        for (const f of [nameIsDNSSubdomain, nameIsDNSLabel, nameIsDNS1035Label, validatePathSegmentName]) {
          const out = f(s, prefix);
          expect(Array.isArray(out)).toBe(true);
          for (const m of out) expect(typeof m).toBe('string');
        }
        isQualifiedName(s);
        isValidLabelValue(s);
      }),
    );
  });
});
