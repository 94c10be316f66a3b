import { describe, expect, it } from 'vitest';
import { ConfigMapKind, type ConfigMap } from '../../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';

const cluster = useTestCluster();

const cms = () => cluster.client.resource(ConfigMapKind);
const create = (cm: ConfigMap) => cms().create(cm, { namespace: 'default' });
const names = async () => (await cms().list({ namespace: 'default' })).items.map((c) => c.metadata?.name);

const KEY_REGEX_MSG =
  "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";

/** The 422 a create of `cm` fails with; the store must hold no such object afterwards. */
async function rejected(cm: ConfigMap) {
  const before = await names();
  const s = await statusOf(() => create(cm));
  expect(await names()).toEqual(before);
  return s;
}

describe('ConfigMap defaults', () => {
  it('stores data and binaryData as given and adds nothing else', async () => {
    const cm = await create({ metadata: { name: 'a' }, data: { 'app.conf': 'x=1\n' }, binaryData: { blob: 'AAEC' } });
    const { metadata, ...rest } = cm;
    expect(rest).toEqual({ apiVersion: 'v1', kind: 'ConfigMap', data: { 'app.conf': 'x=1\n' }, binaryData: { blob: 'AAEC' } });
    expect(metadata).toMatchObject({ name: 'a', namespace: 'default' });
  });

  it('does not serialize empty maps, as Kubernetes never does', async () => {
    const cm = await create({ metadata: { name: 'a' }, data: {}, binaryData: {} });
    expect(cm.data).toBeUndefined();
    expect(cm.binaryData).toBeUndefined();
    expect(await cms().get('a', { namespace: 'default' })).not.toHaveProperty('data');
  });

  it('accepts every legal key shape, including a key of exactly 253 characters', async () => {
    const long = 'k'.repeat(253);
    const cm = await create({ metadata: { name: 'a' }, data: { 'a.b_c-D9': '1', '.hidden': '2', [long]: '3' }, binaryData: { 'b.bin': '' } });
    expect(Object.keys(cm.data!)).toEqual(['a.b_c-D9', '.hidden', long]);
  });
});

describe('ConfigMap keys', () => {
  it.each([
    ['a b', KEY_REGEX_MSG],
    ['a/b', KEY_REGEX_MSG],
    ['', KEY_REGEX_MSG],
    ['ключ', KEY_REGEX_MSG],
    ['.', "must not be '.'"],
    ['..', "must not be '..'"],
    ['..a', "must not start with '..'"],
  ])('rejects data key %j', async (k, msg) => {
    const s = await rejected({ metadata: { name: 'x' }, data: { [k]: 'v' } });
    expect(s).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: `ConfigMap "x" is invalid: data[${k}]: Invalid value: ${JSON.stringify(k)}: ${msg}`,
      details: {
        name: 'x',
        kind: 'ConfigMap',
        causes: [{ reason: 'FieldValueInvalid', message: `Invalid value: ${JSON.stringify(k)}: ${msg}`, field: `data[${k}]` }],
      },
    });
  });

  it('reports a too long key and a bad character in it, in that order', async () => {
    const k = `${'x'.repeat(253)}!`;
    const s = await rejected({ metadata: { name: 'x' }, data: { [k]: 'v' } });
    expect(s.message).toBe(
      `ConfigMap "x" is invalid: [data[${k}]: Invalid value: "${k}": must be no more than 253 characters, data[${k}]: Invalid value: "${k}": ${KEY_REGEX_MSG}]`,
    );
  });

  it('checks binaryData keys at binaryData[key]', async () => {
    const s = await rejected({ metadata: { name: 'x' }, binaryData: { 'no way': 'AA==' } });
    expect(s.message).toBe(`ConfigMap "x" is invalid: binaryData[no way]: Invalid value: "no way": ${KEY_REGEX_MSG}`);
  });

  it('rejects a key present in both data and binaryData', async () => {
    const s = await rejected({ metadata: { name: 'x' }, data: { k: 'v' }, binaryData: { k: 'AA==' } });
    expect(s.message).toBe('ConfigMap "x" is invalid: data[k]: Invalid value: "k": duplicate of key present in binaryData');
  });

  it('reports every bad key in one error', async () => {
    const s = await rejected({ metadata: { name: 'x' }, data: { 'a b': '1', '..': '2' }, binaryData: { 'c d': '' } });
    expect(s.details?.causes?.map((c) => c.field)).toEqual(['data[a b]', 'data[..]', 'binaryData[c d]']);
  });
});

describe('ConfigMap size', () => {
  const MiB = 1024 * 1024;

  it('accepts exactly 1 MiB of values', async () => {
    await create({ metadata: { name: 'a' }, data: { a: 'x'.repeat(MiB) } });
  });

  it('rejects more than 1 MiB with the empty-path TooLong error', async () => {
    const s = await rejected({ metadata: { name: 'big' }, data: { a: 'x'.repeat(MiB), b: 'y' } });
    expect(s).toMatchObject({
      code: 422,
      message: 'ConfigMap "big" is invalid: []: Too long: may not be more than 1048576 bytes',
      details: { causes: [{ reason: 'FieldValueTooLong', message: 'Too long: may not be more than 1048576 bytes', field: '[]' }] },
    });
  });

  it('counts text as UTF-8 bytes and binaryData as decoded bytes', async () => {
    // 524288 two-byte characters are exactly 1 MiB.
    await create({ metadata: { name: 'utf8' }, data: { a: 'é'.repeat(MiB / 2) } });
    await rejected({ metadata: { name: 'utf8b' }, data: { a: `${'é'.repeat(MiB / 2)}x` } });
    // 3 bytes of binary ("AAAA") plus MiB - 3 bytes of text: exactly the limit.
    await create({ metadata: { name: 'mixed' }, data: { a: 'x'.repeat(MiB - 3) }, binaryData: { b: 'AAAA' } });
    const s = await rejected({ metadata: { name: 'mixed2' }, data: { a: 'x'.repeat(MiB - 2) }, binaryData: { b: 'AAAA' } });
    expect(s.message).toBe('ConfigMap "mixed2" is invalid: []: Too long: may not be more than 1048576 bytes');
  });
});

describe('ConfigMap hostile input', () => {
  it('answers 400 for binaryData that is not base64 and stores nothing', async () => {
    const s = await statusOf(() => create({ metadata: { name: 'x' }, binaryData: { a: 'no!' } }));
    expect(s).toMatchObject({ code: 400, reason: 'BadRequest' });
    expect(s.message).toMatch(/^ConfigMap in version "v1" cannot be handled as a ConfigMap: illegal base64 data at input byte \d+$/);
    expect(await names()).toEqual([]);
  });

  it('survives a huge number of keys and reports them all', async () => {
    const data: Record<string, string> = {};
    for (let i = 0; i < 2000; i++) data[`bad key ${i}`] = 'v';
    const s = await rejected({ metadata: { name: 'x' }, data });
    expect(s.details?.causes).toHaveLength(2000);
  });
});

describe('ConfigMap immutable', () => {
  const immutable = async () => create({ metadata: { name: 'frozen' }, immutable: true, data: { a: '1' }, binaryData: { b: 'AA==' } });

  it('forbids changing data, binaryData, or unsetting immutable, and keeps the stored object', async () => {
    const cm = await immutable();
    const cases: [ConfigMap, string][] = [
      [{ ...cm, data: { a: '2' } }, 'ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set'],
      [{ ...cm, binaryData: {} }, 'ConfigMap "frozen" is invalid: binaryData: Forbidden: field is immutable when `immutable` is set'],
      [{ ...cm, immutable: false }, 'ConfigMap "frozen" is invalid: immutable: Forbidden: field is immutable when `immutable` is set'],
      [
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: cm.metadata, binaryData: cm.binaryData, data: {} },
        'ConfigMap "frozen" is invalid: [immutable: Forbidden: field is immutable when `immutable` is set, data: Forbidden: field is immutable when `immutable` is set]',
      ],
    ];
    for (const [body, message] of cases) {
      const s = await statusOf(() => cms().update(body, { namespace: 'default' }));
      expect(s).toMatchObject({ code: 422, reason: 'Invalid', message });
    }
    expect(await cms().get('frozen', { namespace: 'default' })).toEqual(cm);
  });

  it('tells an empty binaryData from an absent one, as reflect.DeepEqual does, but not an empty data (defaulted on both sides)', async () => {
    const cm = await create({ metadata: { name: 'bare' }, immutable: true });
    const s = await statusOf(() => cms().update({ ...cm, binaryData: {} }, { namespace: 'default' }));
    expect(s).toMatchObject({ code: 422, message: 'ConfigMap "bare" is invalid: binaryData: Forbidden: field is immutable when `immutable` is set' });
    const same = await cms().update({ ...cm, data: {}, metadata: { ...cm.metadata, labels: { a: 'b' } } }, { namespace: 'default' });
    expect(same.metadata?.labels).toEqual({ a: 'b' });
    expect(same.data).toBeUndefined();
  });

  it('reports immutability before key errors on update', async () => {
    const cm = await immutable();
    const s = await statusOf(() => cms().update({ ...cm, data: { 'a b': '1' } }, { namespace: 'default' }));
    expect(s.details?.causes?.map((c) => c.field)).toEqual(['data', 'data[a b]']);
  });

  it('still lets metadata change', async () => {
    const cm = await immutable();
    const updated = await cms().update({ ...cm, metadata: { ...cm.metadata, labels: { x: 'y' } } }, { namespace: 'default' });
    expect(updated.metadata?.labels).toEqual({ x: 'y' });
    expect(updated.data).toEqual({ a: '1' });
  });

  it('allows making a mutable ConfigMap immutable, and changing data while it is not', async () => {
    const cm = await create({ metadata: { name: 'a' }, data: { a: '1' } });
    const changed = await cms().update({ ...cm, data: { a: '2' }, immutable: false }, { namespace: 'default' });
    const frozen = await cms().update({ ...changed, immutable: true, data: { a: '3' } }, { namespace: 'default' });
    expect(frozen).toMatchObject({ immutable: true, data: { a: '3' } });
  });
});
