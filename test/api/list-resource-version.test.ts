import { describe, expect, it } from 'vitest';
import { CONTINUE_EXPIRED_MESSAGE } from '../../src/api/list-pages.js';
import { ConfigMapKind } from '../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../support/cluster.js';

const cluster = useTestCluster();
const cms = () => cluster.client.resource(ConfigMapKind);

async function seed(names = ['a', 'b', 'c', 'd', 'e']) {
  for (const n of names) await cms().create({ metadata: { name: n } });
  return (await cms().list({ namespace: 'default' })).metadata.resourceVersion;
}

const names = (l: { items: { metadata?: { name?: string } }[] }) => l.items.map((i) => i.metadata?.name);

describe('list pages', () => {
  it('are a consistent snapshot of the first call', async () => {
    await seed();
    const first = await cms().list({ namespace: 'default', limit: 2 });
    expect(first.metadata.remainingItemCount).toBe(3);
    await cms().delete('c');
    await cms().create({ metadata: { name: 'bb' } });
    const second = await cms().list({ namespace: 'default', limit: 2, continue: first.metadata.continue });
    expect(names(second)).toEqual(['c', 'd']);
    expect(second.metadata.resourceVersion).toBe(first.metadata.resourceVersion);
    expect(second.metadata.remainingItemCount).toBe(1);
    const third = await cms().list({ namespace: 'default', limit: 2, continue: second.metadata.continue });
    expect(names(third)).toEqual(['e']);
    expect(third.metadata.continue).toBeUndefined();
  });

  it('expire after the token lifetime: 410 Expired with a fresh token continuing on the latest snapshot', async () => {
    await seed();
    const first = await cms().list({ namespace: 'default', limit: 2 });
    await cms().delete('c');
    cluster.clock.advance(5 * 60 * 1000);
    const expired = await statusOf(() => cms().list({ namespace: 'default', limit: 2, continue: first.metadata.continue }));
    expect(expired).toMatchObject({ code: 410, reason: 'Expired', message: CONTINUE_EXPIRED_MESSAGE });
    expect(expired.metadata.continue).toEqual(expect.any(String));
    const rest = await cms().list({ namespace: 'default', limit: 10, continue: expired.metadata.continue });
    expect(names(rest)).toEqual(['d', 'e']);
    expect(rest.metadata.resourceVersion).toBe(String(Number(first.metadata.resourceVersion) + 1));
  });

  it('honour a configured token lifetime', async () => {
    const c = await (await import('../support/cluster.js')).testCluster({ continueTokenTtlMs: 1000 });
    const res = c.client.resource(ConfigMapKind);
    for (const n of ['a', 'b']) await res.create({ metadata: { name: n } });
    const first = await res.list({ namespace: 'default', limit: 1 });
    c.clock.advance(999);
    expect(names(await res.list({ namespace: 'default', limit: 1, continue: first.metadata.continue }))).toEqual(['b']);
    c.clock.advance(1);
    expect((await statusOf(() => res.list({ namespace: 'default', limit: 1, continue: first.metadata.continue }))).code).toBe(410);
    await c.close();
  });

  it('answers 400 for bad tokens and for a resourceVersion with continue', async () => {
    await seed();
    const first = await cms().list({ namespace: 'default', limit: 2 });
    const forge = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const cases: [string, string][] = [
      ['!!!', 'invalid continue token: continue key is not valid: illegal base64 data at input byte 0'],
      [forge({ v: 'other/v1', rv: 1, start: 'a' }), 'invalid continue token: continue key is not valid: server does not recognize this encoded version'],
      [
        forge({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' }),
        'invalid continue token: continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)',
      ],
      [forge({ v: 'meta.k8s.io/v1', rv: 5, start: '' }), 'invalid continue token: continue key is not valid: encoded start key empty (version meta.k8s.io/v1)'],
      [forge({ v: 'meta.k8s.io/v1', rv: 5, start: '../x' }), 'invalid continue token: continue key is not valid: ../x'],
    ];
    for (const [token, message] of cases) {
      expect(await statusOf(() => cms().list({ namespace: 'default', continue: token }))).toMatchObject({ code: 400, reason: 'BadRequest', message });
    }
    expect(await statusOf(() => cms().list({ namespace: 'default', continue: first.metadata.continue, resourceVersion: '3' }))).toMatchObject({
      code: 400,
      message: 'specifying resource version is not allowed when using continue',
    });
    expect(names(await cms().list({ namespace: 'default', continue: first.metadata.continue, resourceVersion: '0' }))).toEqual(['c', 'd', 'e']);
  });
});

describe('list resourceVersion', () => {
  it('unset and 0 read the latest; NotOlderThan reads the latest at least that new', async () => {
    const rv = await seed(['a']);
    await cms().create({ metadata: { name: 'b' } });
    expect(names(await cms().list({ namespace: 'default', resourceVersion: '0' }))).toEqual(['a', 'b']);
    expect(names(await cms().list({ namespace: 'default', resourceVersion: rv, resourceVersionMatch: 'NotOlderThan' }))).toEqual(['a', 'b']);
    expect(names(await cms().list({ namespace: 'default', resourceVersion: rv }))).toEqual(['a', 'b']);
  });

  it('Exact (and a legacy limit with a resourceVersion) read the snapshot at that revision', async () => {
    const rv = await seed(['a']);
    await cms().create({ metadata: { name: 'b' } });
    const exact = await cms().list({ namespace: 'default', resourceVersion: rv, resourceVersionMatch: 'Exact' });
    expect(names(exact)).toEqual(['a']);
    expect(exact.metadata.resourceVersion).toBe(rv);
    expect(names(await cms().list({ namespace: 'default', resourceVersion: rv, limit: 10 }))).toEqual(['a']);
    expect(names(await cms().list({ namespace: 'default', resourceVersion: rv, resourceVersionMatch: 'Exact', limit: 1 }))).toEqual(['a']);
  });

  it('older than the history is 410 Expired', async () => {
    const rv = await seed(['a']);
    cluster.clock.advance(5 * 60 * 1000);
    await cms().create({ metadata: { name: 'b' } });
    expect(await statusOf(() => cms().list({ namespace: 'default', resourceVersion: String(Number(rv) - 1), resourceVersionMatch: 'Exact' }))).toMatchObject({
      code: 410,
      reason: 'Expired',
      message: 'The resourceVersion for the provided list is too old.',
    });
  });

  it('newer than the current revision waits briefly, then is 504 Too large resource version', async () => {
    const rv = Number(await seed(['a']));
    const status = await statusOf(() => cms().list({ namespace: 'default', resourceVersion: String(rv + 10), resourceVersionMatch: 'NotOlderThan' }));
    expect(status).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      code: 504,
      reason: 'Timeout',
      message: `Timeout: Too large resource version: ${rv + 10}, current: ${rv}`,
      details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
    });
    expect((await statusOf(() => cms().get('a', { resourceVersion: String(rv + 10) }))).code).toBe(504);
    expect((await statusOf(() => cms().list({ namespace: 'default', resourceVersion: String(rv + 1), resourceVersionMatch: 'Exact' }))).code).toBe(504);
  });

  it('a write arriving while waiting satisfies the request', async () => {
    const rv = Number(await seed(['a']));
    const pending = cms().list({ namespace: 'default', resourceVersion: String(rv + 1), resourceVersionMatch: 'NotOlderThan' });
    await cms().create({ metadata: { name: 'b' } });
    expect(names(await pending)).toEqual(['a', 'b']);
  });

  it('rejects invalid combinations as ValidateListOptions does (422 on ListOptions.meta.k8s.io)', async () => {
    await seed(['a']);
    const cases: [Record<string, unknown>, string][] = [
      [
        { resourceVersionMatch: 'Exact' },
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided',
      ],
      [
        { resourceVersion: '0', resourceVersionMatch: 'Exact' },
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch "exact" is forbidden for resourceVersion "0"',
      ],
      [
        { resourceVersion: '5', resourceVersionMatch: 'Newest' },
        'ListOptions.meta.k8s.io "" is invalid: resourceVersionMatch: Unsupported value: "Newest": supported values: "Exact", "NotOlderThan", ""',
      ],
      [
        { resourceVersionMatch: 'NotOlderThan', continue: 'x' },
        'ListOptions.meta.k8s.io "" is invalid: [resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided, resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden when continue is provided]',
      ],
    ];
    for (const [options, message] of cases) {
      expect(await statusOf(() => cms().list({ namespace: 'default', ...options }))).toMatchObject({ code: 422, reason: 'Invalid', message });
    }
    const initial = await statusOf(() =>
      cluster.request({
        verb: 'list',
        resource: { group: '', version: 'v1', resource: 'configmaps' },
        listOptions: { sendInitialEvents: true },
        user: { username: 'x', groups: [] },
      }),
    );
    expect(initial).toMatchObject({
      code: 422,
      message: 'ListOptions.meta.k8s.io "" is invalid: sendInitialEvents: Forbidden: sendInitialEvents is forbidden for list',
    });
    expect(initial.details?.causes).toEqual([
      { reason: 'FieldValueForbidden', field: 'sendInitialEvents', message: 'Forbidden: sendInitialEvents is forbidden for list' },
    ]);
  });

  it('answers 400 for garbage resourceVersions and non-integer limits, and treats negative or huge limits as Kubernetes does', async () => {
    await seed(['a', 'b']);
    for (const rv of ['abc', '-1', '1.5', ' 1', '99999999999999999999999']) {
      const s = await statusOf(() => cms().list({ namespace: 'default', resourceVersion: rv }));
      expect(s.code).toBe(400);
      expect(s.message).toMatch(/^invalid resource version: resourceVersion: Invalid value: /);
    }
    expect((await statusOf(() => cms().get('a', { resourceVersion: 'abc' }))).message).toBe(
      'invalid resource version: resourceVersion: Invalid value: "abc": strconv.ParseUint: parsing "abc": invalid syntax',
    );
    expect((await statusOf(() => cms().list({ namespace: 'default', limit: 1.5 }))).code).toBe(400);
    expect((await statusOf(() => cms().list({ namespace: 'default', limit: Number.NaN }))).code).toBe(400);
    expect(names(await cms().list({ namespace: 'default', limit: -5 }))).toEqual(['a', 'b']);
    expect(names(await cms().list({ namespace: 'default', limit: Number.MAX_SAFE_INTEGER }))).toEqual(['a', 'b']);
  });

  it('filters with a shard selector, which counts as filtering (no remainingItemCount), unless the gate is off', async () => {
    await seed();
    const all = await cms().list({ namespace: 'default' });
    const lo = await cms().list({ namespace: 'default', shardSelector: "shardRange(object.metadata.uid, '0x0', '0x8000000000000000')" });
    const hi = await cms().list({ namespace: 'default', shardSelector: "shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')" });
    expect(lo.items.length + hi.items.length).toBe(all.items.length);
    const bad = await statusOf(() => cms().list({ namespace: 'default', shardSelector: 'nonsense' }));
    expect(bad).toMatchObject({ code: 400, reason: 'BadRequest' });
    expect(bad.message).toContain('invalid shard selector "nonsense"');
    const off = await (await import('../support/cluster.js')).testCluster({ featureGates: { ShardedListAndWatch: false } });
    await off.client.resource(ConfigMapKind).create({ metadata: { name: 'x' } });
    expect((await off.client.resource(ConfigMapKind).list({ namespace: 'default', shardSelector: 'nonsense' })).items).toHaveLength(1);
    await off.close();
  });
});
