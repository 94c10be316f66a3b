import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { goUnmarshalObjectError } from '../../../src/kinds/shared/go-json-check.js';
import { SecretKind, type Secret } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();
let warnings: string[] = [];
beforeEach(() => {
  warnings = [];
});

const secrets = () => cluster.client.withWarnings((w) => warnings.push(...w)).resource(SecretKind);
const create = (s: Secret) => secrets().create(s, { namespace: 'default' });
const update = (s: Secret) => secrets().update(s, { namespace: 'default' });
const names = async () => (await secrets().list({ namespace: 'default' })).items.map((s) => s.metadata?.name);
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

async function rejected(secret: Secret) {
  const before = await names();
  const s = await statusOf(() => create(secret));
  expect(await names()).toEqual(before);
  return s;
}

const CERT = `-----BEGIN CERTIFICATE-----
MIIBezCCASGgAwIBAgIUCvvzEbSTVufdBmdjjCpJRrDcg8IwCgYIKoZIzj0EAwIw
EjEQMA4GA1UEAwwHbWVta3ViZTAgFw0yNjExMjIwMzUwNDlaGA8yMTI2MTAyOTAz
NTA0OVowEjEQMA4GA1UEAwwHbWVta3ViZTBZMBMGByqGSM49AgEGCCqGSM49AwEH
A0IABDElzg1mI7WOT1cLO6e7LVhA+SWt1IFXDuAXUfjZL9zpRnkDkLXPj/VFdADV
jr66XI9dOE2RSgsZNfk25WTEsmKjUzBRMB0GA1UdDgQWBBRAh2mGF6xyaSP52wr/
iJ29yZSGZDAfBgNVHSMEGDAWgBRAh2mGF6xyaSP52wr/iJ29yZSGZDAPBgNVHRMB
Af8EBTADAQH/MAoGCCqGSM49BAMCA0gAMEUCIQCeOXr3va9BNX6CEsaIDi6oNuCs
GOS6gmr6yaqdgSF3bwIgecvvNlZVNerCVrYxJaPr0zpj9azHTzF1RxMOP2ksuqA=
-----END CERTIFICATE-----
`;
const KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgTpBI9CiV0PxfoPjY
0i/j5yS7Ujuiuev/XIRzDE0O2YShRANCAAQxJc4NZiO1jk9XCzunuy1YQPklrdSB
Vw7gF1H42S/c6UZ5A5C1z4/1RXQA1Y6+ulyPXThNkUoLGTX5NuVkxLJi
-----END PRIVATE KEY-----
`;
const OTHER_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgRqRxdldlOe1rTM9d
kn2vYIuvwaokO9mgcyIxPpiyZrKhRANCAAT1vrenLKpsz4FR8JsCWP8BDHMHtRY0
oOILy7LWqJqClDjPPDB4FK4ReAITiavYvhx+TlOKKhCTf1ihIi2q4oXE
-----END PRIVATE KEY-----
`;

describe('Secret defaults', () => {
  it('defaults type to Opaque and keeps data as given', async () => {
    const s = await create({ metadata: { name: 'a' }, data: { k: b64('v') } });
    const { metadata, ...rest } = s;
    expect(rest).toEqual({ apiVersion: 'v1', kind: 'Secret', type: 'Opaque', data: { k: 'dg==' } });
    expect(metadata).toMatchObject({ name: 'a', namespace: 'default' });
  });

  it('folds stringData into data as UTF-8 base64, stringData winning, and never stores stringData', async () => {
    const s = await create({ metadata: { name: 'a' }, data: { k: b64('old'), keep: b64('1') }, stringData: { k: 'new', u: 'héllo 🚀' } });
    expect(s.data).toEqual({ k: b64('new'), keep: b64('1'), u: b64('héllo 🚀') });
    expect(s).not.toHaveProperty('stringData');
    expect(await secrets().get('a', { namespace: 'default' })).not.toHaveProperty('stringData');
  });

  it('folds stringData keys named like Object.prototype members (__proto__, constructor) as ordinary keys', async () => {
    const stringData = JSON.parse('{"__proto__":"p","constructor":"c"}') as Record<string, string>;
    const s = await create({ metadata: { name: 'a' }, stringData });
    expect(Object.keys(s.data ?? {}).sort()).toEqual(['__proto__', 'constructor']);
    expect(Object.getOwnPropertyDescriptor(s.data, '__proto__')?.value).toBe(b64('p'));
    const stored = await secrets().get('a', { namespace: 'default' });
    expect(Object.getOwnPropertyDescriptor(stored.data, '__proto__')?.value).toBe(b64('p'));
    expect(stored.data?.constructor).toBe(b64('c'));
  });

  it('does not serialize an empty data map', async () => {
    const s = await create({ metadata: { name: 'a' }, data: {}, stringData: {} });
    expect(s).not.toHaveProperty('data');
    expect(s.type).toBe('Opaque');
  });

  it('can be listed by type with a field selector', async () => {
    await create({ metadata: { name: 'o' } });
    await create({ metadata: { name: 't' }, type: 'kubernetes.io/tls', data: { 'tls.crt': b64(CERT), 'tls.key': b64(KEY) } });
    const list = await secrets().list({ namespace: 'default', fieldSelector: 'type=kubernetes.io/tls' });
    expect(list.items.map((s) => s.metadata?.name)).toEqual(['t']);
  });
});

describe('Secret keys and size', () => {
  it('checks data keys like ConfigMap keys, also the ones from stringData', async () => {
    const s = await rejected({ metadata: { name: 'x' }, data: { 'a b': '' }, stringData: { '..': 'v' } });
    expect(s.message).toBe(
      `Secret "x" is invalid: [data[a b]: Invalid value: "a b": a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+'), data[..]: Invalid value: "..": must not be '..']`,
    );
  });

  it('allows 1 MiB of decoded data and rejects one byte more at path data', async () => {
    const MiB = 1024 * 1024;
    await create({ metadata: { name: 'full' }, data: { a: Buffer.alloc(MiB).toString('base64') } });
    const s = await rejected({ metadata: { name: 'big' }, data: { a: Buffer.alloc(MiB - 1).toString('base64') }, stringData: { b: 'xy' } });
    expect(s).toMatchObject({
      code: 422,
      message: 'Secret "big" is invalid: data: Too long: may not be more than 1048576 bytes',
      details: { causes: [{ reason: 'FieldValueTooLong', field: 'data' }] },
    });
  });
});

describe('Secret hostile input', () => {
  it('answers 400 for data that is not base64 and stores nothing', async () => {
    for (const bad of ['abc', 'ab!d', '====']) {
      const s = await statusOf(() => create({ metadata: { name: 'x' }, data: { k: bad } }));
      expect(s).toMatchObject({ code: 400, reason: 'BadRequest' });
      expect(s.message).toMatch(/^Secret in version "v1" cannot be handled as a Secret: illegal base64 data at input byte \d+$/);
    }
    expect(await names()).toEqual([]);
  });

  it('keeps binary and unicode content byte for byte', async () => {
    const bytes = Buffer.from([0, 255, 128, 10, 13]).toString('base64');
    const s = await create({ metadata: { name: 'bin' }, data: { b: bytes }, stringData: { e: '\u0000\u{1F600}' } });
    expect(Buffer.from(s.data!['b']!, 'base64')).toEqual(Buffer.from([0, 255, 128, 10, 13]));
    expect(Buffer.from(s.data!['e']!, 'base64').toString('utf8')).toBe('\u0000\u{1F600}');
  });
});

describe('Secret types', () => {
  it('requires the service account name annotation on service account tokens', async () => {
    const s = await rejected({ metadata: { name: 'x' }, type: 'kubernetes.io/service-account-token' });
    expect(s.message).toBe('Secret "x" is invalid: metadata.annotations[kubernetes.io/service-account.name]: Required value');
    expect(s.details?.causes).toEqual([
      { reason: 'FieldValueRequired', message: 'Required value', field: 'metadata.annotations[kubernetes.io/service-account.name]' },
    ]);
    await create({ metadata: { name: 'ok', annotations: { 'kubernetes.io/service-account.name': 'default' } }, type: 'kubernetes.io/service-account-token' });
  });

  it.each([
    ['kubernetes.io/dockercfg', '.dockercfg'],
    ['kubernetes.io/dockerconfigjson', '.dockerconfigjson'],
  ])('%s needs %s holding a JSON object', async (type, k) => {
    const missing = await rejected({ metadata: { name: 'x' }, type, data: { other: '' } });
    expect(missing.message).toBe(`Secret "x" is invalid: data[${k}]: Required value`);
    const cases: [string, string][] = [
      ['', 'unexpected end of JSON input'],
      ['{"auths":', 'unexpected end of JSON input'],
      ['nope', "invalid character 'o' in literal null (expecting 'u')"],
      ['hello', "invalid character 'h' looking for beginning of value"],
      ['{"a":1}x', "invalid character 'x' after top-level value"],
      ['{"a" 1}', "invalid character '1' after object key"],
      ['{"a":1 "b":2}', `invalid character '"' after object key:value pair`],
      ['{a:1}', "invalid character 'a' looking for beginning of object key string"],
      ['[1 2]', "invalid character '2' after array element"],
      ['{"a":01}', "invalid character '1' after object key:value pair"],
      ['{"a":1.}', "invalid character '}' after decimal point in numeric literal"],
      ['{"a":"\\q"}', "invalid character 'q' in string escape code"],
      ['{"a":"\t"}', "invalid character '\\t' in string literal"],
      ['\u00e9', "invalid character 'Ã' looking for beginning of value"],
      ['[]', 'json: cannot unmarshal array into Go value of type map[string]interface {}'],
      ['"s"', 'json: cannot unmarshal string into Go value of type map[string]interface {}'],
      ['42', 'json: cannot unmarshal number into Go value of type map[string]interface {}'],
      ['true', 'json: cannot unmarshal bool into Go value of type map[string]interface {}'],
    ];
    for (const [content, error] of cases) {
      const s = await rejected({ metadata: { name: 'x' }, type, data: { [k]: b64(content) } });
      expect(s.message).toBe(`Secret "x" is invalid: data[${k}]: Invalid value: "<secret contents redacted>": ${error}`);
    }
    await create({ metadata: { name: 'obj' }, type, stringData: { [k]: ' {"auths": {"r": {"auth": "eA=="}}} ' } });
    await create({ metadata: { name: 'null' }, type, stringData: { [k]: 'null' } });
  });

  it('basic-auth needs username or password (either may be empty)', async () => {
    const s = await rejected({ metadata: { name: 'x' }, type: 'kubernetes.io/basic-auth', data: {} });
    expect(s.message).toBe('Secret "x" is invalid: [data[username]: Required value, data[password]: Required value]');
    await create({ metadata: { name: 'u' }, type: 'kubernetes.io/basic-auth', stringData: { username: 'admin' } });
    await create({ metadata: { name: 'p' }, type: 'kubernetes.io/basic-auth', data: { password: '' } });
  });

  it('ssh-auth needs a non-empty ssh-privatekey', async () => {
    for (const data of [{}, { 'ssh-privatekey': '' }] as Record<string, string>[]) {
      const s = await rejected({ metadata: { name: 'x' }, type: 'kubernetes.io/ssh-auth', data });
      expect(s.message).toBe('Secret "x" is invalid: data[ssh-privatekey]: Required value');
    }
    await create({ metadata: { name: 'ok' }, type: 'kubernetes.io/ssh-auth', stringData: { 'ssh-privatekey': 'k' } });
  });

  it('tls needs tls.crt and tls.key (empty values pass, with a warning)', async () => {
    const s = await rejected({ metadata: { name: 'x' }, type: 'kubernetes.io/tls' });
    expect(s.message).toBe('Secret "x" is invalid: [data[tls.crt]: Required value, data[tls.key]: Required value]');
    const onlyKey = await rejected({ metadata: { name: 'x' }, type: 'kubernetes.io/tls', data: { 'tls.key': '' } });
    expect(onlyKey.message).toBe('Secret "x" is invalid: data[tls.crt]: Required value');
    await create({ metadata: { name: 'empty' }, type: 'kubernetes.io/tls', data: { 'tls.crt': '', 'tls.key': '' } });
    expect(warnings).toEqual(['tls: failed to find any PEM data in certificate input']);
  });

  it('warns when the TLS certificate and key are not a pair', async () => {
    const tls = (name: string, crt: string, key: string) =>
      create({ metadata: { name }, type: 'kubernetes.io/tls', stringData: { 'tls.crt': crt, 'tls.key': key } });
    await tls('good', CERT, KEY);
    expect(warnings).toEqual([]);
    await tls('mismatch', CERT, OTHER_KEY);
    await tls('switched', KEY, CERT);
    await tls('nokey', CERT, 'garbage');
    await tls('certascert', CERT, CERT);
    expect(warnings).toEqual([
      'tls: private key does not match public key',
      'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched',
      'tls: failed to find any PEM data in key input',
      'tls: found a certificate rather than a key in the PEM for the private key',
    ]);
  });

  it('puts no requirement on Opaque or unknown types', async () => {
    await create({ metadata: { name: 'custom' }, type: 'example.com/whatever' });
    await create({ metadata: { name: 'opaque' }, type: 'Opaque' });
  });
});

describe('Secret updates', () => {
  it('forbids changing the type; a PUT without type means Opaque', async () => {
    const s = await create({ metadata: { name: 't' }, type: 'kubernetes.io/tls', stringData: { 'tls.crt': CERT, 'tls.key': KEY } });
    const { type: _type, ...withoutType } = s;
    const err = await statusOf(() => update(withoutType));
    expect(err).toMatchObject({ code: 422, message: 'Secret "t" is invalid: type: Invalid value: "Opaque": field is immutable' });
    const err2 = await statusOf(() => update({ ...s, type: 'kubernetes.io/basic-auth' }));
    // The new type's own rules are checked as well.
    expect(err2.message).toBe(
      'Secret "t" is invalid: [type: Invalid value: "kubernetes.io/basic-auth": field is immutable, data[username]: Required value, data[password]: Required value]',
    );
    expect((await secrets().get('t', { namespace: 'default' })).type).toBe('kubernetes.io/tls');
  });

  it('keeps data of an immutable Secret, also against stringData, and immutable set', async () => {
    const s = await create({ metadata: { name: 'f' }, immutable: true, stringData: { a: '1' } });
    const data = await statusOf(() => update({ ...s, stringData: { a: '2' } }));
    expect(data.message).toBe('Secret "f" is invalid: data: Forbidden: field is immutable when `immutable` is set');
    const flag = await statusOf(() => update({ ...s, immutable: false }));
    expect(flag.message).toBe('Secret "f" is invalid: immutable: Forbidden: field is immutable when `immutable` is set');
    const same = await update({ ...s, stringData: { a: '1' }, metadata: { ...s.metadata, annotations: { note: 'x' } } });
    expect(same.metadata?.annotations).toEqual({ note: 'x' });
    expect(same.data).toEqual({ a: b64('1') });
  });

  it('tells an empty data from an absent one on an immutable Secret, as reflect.DeepEqual does', async () => {
    const s = await create({ metadata: { name: 'bare' }, immutable: true });
    const err = await statusOf(() => update({ ...s, data: {} }));
    expect(err.message).toBe('Secret "bare" is invalid: data: Forbidden: field is immutable when `immutable` is set');
    const same = await update({ ...s, metadata: { ...s.metadata, labels: { a: 'b' } } });
    expect(same.metadata?.labels).toEqual({ a: 'b' });
  });

  it('validates type rules on update too', async () => {
    const s = await create({ metadata: { name: 'b' }, type: 'kubernetes.io/basic-auth', stringData: { username: 'u' } });
    const err = await statusOf(() => update({ ...s, data: {} }));
    expect(err.message).toBe('Secret "b" is invalid: [data[username]: Required value, data[password]: Required value]');
  });
});

describe('the docker config JSON check', () => {
  it('accepts exactly what JSON.parse accepts as an object or null', () => {
    const jsonish = fc.oneof(
      fc.json(),
      fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ':', ',', ' ', '\\', 'u', '0', '1', '-', '.', 'e', 't', 'n', 'a') }),
      fc.json().map((j) => j.slice(0, Math.max(0, j.length - 1))),
    );
    fc.assert(
      fc.property(jsonish, (text) => {
        let expected: boolean;
        try {
          const v: unknown = JSON.parse(text);
          expected = v === null || (typeof v === 'object' && !Array.isArray(v));
        } catch {
          expected = false;
        }
        expect(goUnmarshalObjectError(Buffer.from(text, 'utf8')) === undefined).toBe(expected);
      }),
      { numRuns: 2000 },
    );
  });

  it("stays linear on deeply nested input and reports Go's depth limit", () => {
    expect(goUnmarshalObjectError(Buffer.from('['.repeat(10001)))).toBe('exceeded max depth');
    expect(goUnmarshalObjectError(Buffer.from(`${'['.repeat(5000)}${']'.repeat(5000)}`))).toBe(
      'json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
  });
});
