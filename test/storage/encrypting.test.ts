import { describe, expect, it } from 'vitest';
import { isApiError, type ApiError } from '../../src/machinery/errors.js';
import { DryRunStorage } from '../../src/storage/dry-run.js';
import { EncryptingStorage, STORED_BYTES_FIELD } from '../../src/storage/encrypting.js';
import type { EncryptionPlan, EncryptionProvider } from '../../src/storage/encryption/plan.js';
import { storedJsonLine } from '../../src/storage/json-text.js';
import { MemoryStorage } from '../../src/storage/memory.js';
import type { ObjectKey, StorageEvent } from '../../src/storage/storage.js';

const k = (n: number, fill = 1) => new Uint8Array(n).fill(fill);
const aescbc = (name = 'key1', fill = 1): EncryptionProvider => ({ type: 'aescbc', keys: [{ name, secret: k(32, fill) }] });
const aesgcm = (name = 'key1', fill = 1): EncryptionProvider => ({ type: 'aesgcm', keys: [{ name, secret: k(16, fill) }] });
const secretbox = (name = 'key1', fill = 1): EncryptionProvider => ({ type: 'secretbox', keys: [{ name, secret: k(32, fill) }] });
const identity: EncryptionProvider = { type: 'identity' };
const secrets = (...providers: EncryptionProvider[]): EncryptionPlan => ({ rules: [{ group: '', resource: 'secrets', providers }] });

const key = (name: string, namespace = 'default', bucket = 'core/secrets'): ObjectKey => ({ bucket, namespace, name });
const secret = (name: string, value = 'hunter2', labels?: Record<string, string>) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'default', ...(labels ? { labels } : {}) },
  data: { password: Buffer.from(value).toString('base64') },
});
const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes!).toString('latin1');

function setup(plan: EncryptionPlan) {
  const inner = new MemoryStorage();
  return { inner, storage: new EncryptingStorage(inner, plan) };
}

async function apiFailure(fn: () => Promise<unknown>): Promise<ApiError> {
  try {
    await fn();
  } catch (e) {
    if (isApiError(e)) return e;
    throw e;
  }
  throw new Error('expected a failure');
}

describe('EncryptingStorage: what is stored', () => {
  it.each([
    ['aescbc', aescbc(), 'k8s:enc:aescbc:v1:key1:'],
    ['aesgcm', aesgcm(), 'k8s:enc:aesgcm:v1:key1:'],
    ['secretbox', secretbox(), 'k8s:enc:secretbox:v1:key1:'],
  ])('%s: the inner storage keeps prefixed ciphertext; reads answer the object', async (_name, provider, prefix) => {
    const { inner, storage } = setup(secrets(provider));
    const created = await storage.create(key('db'), secret('db', 'top-secret-value'));
    expect(created.value).toEqual({ ...secret('db', 'top-secret-value'), metadata: { name: 'db', namespace: 'default', resourceVersion: '1' } });
    const raw = (await inner.get(key('db')))!.value;
    expect(Object.keys(raw).sort()).toEqual([STORED_BYTES_FIELD, 'metadata']);
    const bytes = text(await storage.storedBytes(key('db')));
    expect(bytes.startsWith(prefix)).toBe(true);
    expect(bytes).not.toContain(Buffer.from('top-secret-value').toString('base64'));
    expect(bytes).not.toContain('"kind"');
    expect((await storage.get(key('db')))?.value).toEqual(created.value);
  });

  it('leaves resources the plan does not cover as they are, and identity-first resources in plaintext', async () => {
    const { inner, storage } = setup({
      rules: [
        { group: '', resource: 'secrets', providers: [identity, aescbc()] },
        { group: 'apps', resource: '*', providers: [aescbc()] },
      ],
    });
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'default' }, data: { a: 'b' } };
    const stored = await storage.create(key('c', 'default', 'core/configmaps'), cm);
    expect((await inner.get(key('c', 'default', 'core/configmaps')))?.value).toBe(stored.value);
    expect(JSON.parse(text(await storage.storedBytes(key('c', 'default', 'core/configmaps'))))).toEqual(cm);
    await storage.create(key('s'), secret('s'));
    expect((await inner.get(key('s')))?.value).toMatchObject({ kind: 'Secret' });
    await storage.create(key('d', 'default', 'apps/deployments'), { metadata: { name: 'd', namespace: 'default' } });
    expect(text(await storage.storedBytes(key('d', 'default', 'apps/deployments')))).toMatch(/^k8s:enc:aescbc:v1:key1:/);
    expect(await storage.storedBytes(key('missing'))).toBeUndefined();
  });

  it('applies wildcards: exact resource, then the group, then every group', async () => {
    const { storage } = setup({
      rules: [
        { group: '', resource: 'secrets', providers: [aesgcm()] },
        { group: '', resource: '*', providers: [secretbox()] },
        { group: '*', resource: '*', providers: [aescbc()] },
      ],
    });
    const prefixOf = async (bucket: string) => {
      await storage.create(key('x', 'default', bucket), { metadata: { name: 'x', namespace: 'default' } });
      return text(await storage.storedBytes(key('x', 'default', bucket)))
        .split(':')
        .slice(0, 3)
        .join(':');
    };
    expect(await prefixOf('core/secrets')).toBe('k8s:enc:aesgcm');
    expect(await prefixOf('core/configmaps')).toBe('k8s:enc:secretbox');
    expect(await prefixOf('apps/deployments')).toBe('k8s:enc:aescbc');
    expect(await prefixOf('example.com/widgets')).toBe('k8s:enc:aescbc');
  });

  it('binds AES-GCM ciphertexts to the storage key: bytes copied to another object do not open', async () => {
    const { inner, storage } = setup(secrets(aesgcm()));
    await storage.create(key('a'), secret('a'));
    await storage.create(key('b'), secret('b'));
    const a = (await inner.get(key('a')))!;
    const b = (await inner.get(key('b')))!;
    await inner.update(key('b'), { metadata: {}, [STORED_BYTES_FIELD]: a.value[STORED_BYTES_FIELD] }, b.revision);
    const e = await apiFailure(() => storage.get(key('b')));
    expect(e.status.message).toBe('Internal error occurred: cipher: message authentication failed');
  });

  it('keeps a "__proto__" key as an ordinary key through encryption', async () => {
    const { inner, storage } = setup(secrets(secretbox()));
    const value = JSON.parse('{"metadata":{"name":"p","namespace":"default"},"data":{"__proto__":"eA=="}}') as Record<string, unknown>;
    await storage.create(key('p'), value);
    const restarted = new EncryptingStorage(inner, secrets(secretbox()));
    const data = (await restarted.get(key('p')))!.value.data as Record<string, unknown>;
    expect(Object.keys(data)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(JSON.stringify(data)).toBe('{"__proto__":"eA=="}');
  });

  it('freezes what it answers and the value handed to it; a second read answers the same object', async () => {
    const { storage } = setup(secrets(aescbc()));
    const value = secret('db');
    const created = await storage.create(key('db'), value);
    expect(Object.isFrozen(value)).toBe(true);
    expect(Object.isFrozen(created.value)).toBe(true);
    expect(Object.isFrozen(created.value.metadata)).toBe(true);
    const first = await storage.get(key('db'));
    const second = await storage.get(key('db'));
    expect(second!.value).toBe(first!.value);
    expect(first!.value).toBe(created.value);
    expect(JSON.parse(storedJsonLine(first!.value).toString())).toEqual(created.value);
  });
});

describe('EncryptingStorage: every read path answers decrypted objects', () => {
  async function filled() {
    const s = setup(secrets(aescbc()));
    await s.storage.create(key('a'), secret('a', 'one', { tier: 'db' }));
    await s.storage.create(key('b'), secret('b', 'two', { tier: 'web' }));
    await s.storage.create(key('c', 'other'), { ...secret('c', 'three', { tier: 'db' }), metadata: { name: 'c', namespace: 'other', labels: { tier: 'db' } } });
    return s;
  }

  it('list: all, one namespace, filtered with a label hint, limited with more and remaining', async () => {
    const { storage } = await filled();
    const all = await storage.list('core/secrets');
    expect(all.items.map((i) => [i.namespace, i.name, i.value.metadata])).toEqual([
      ['default', 'a', { name: 'a', namespace: 'default', labels: { tier: 'db' }, resourceVersion: '1' }],
      ['default', 'b', { name: 'b', namespace: 'default', labels: { tier: 'web' }, resourceVersion: '2' }],
      ['other', 'c', { name: 'c', namespace: 'other', labels: { tier: 'db' }, resourceVersion: '3' }],
    ]);
    expect((await storage.list('core/secrets', { namespace: 'other' })).items.map((i) => i.name)).toEqual(['c']);
    const db = await storage.list('core/secrets', {
      filter: (v) => (v.metadata as { labels?: Record<string, string> }).labels?.tier === 'db',
      labels: [{ key: 'tier', value: 'db' }],
    });
    expect(db.items.map((i) => i.name)).toEqual(['a', 'c']);
    const page = await storage.list('core/secrets', { limit: 1 });
    expect([page.items.map((i) => i.name), page.more, page.remaining]).toEqual([['a'], true, 2]);
    expect((page.items[0]!.value.data as Record<string, string>).password).toBe(Buffer.from('one').toString('base64'));
  });

  it('history: get and list at a past revision answer the objects as they were', async () => {
    const { storage } = await filled();
    const a = (await storage.get(key('a')))!;
    await storage.update(key('a'), { ...secret('a', 'changed'), metadata: { ...(a.value.metadata as object) } }, a.revision);
    const now = (await storage.get(key('a')))!;
    expect(now.value.metadata).toMatchObject({ resourceVersion: '4' });
    expect((now.value.data as Record<string, string>).password).toBe(Buffer.from('changed').toString('base64'));
    const past = (await storage.get(key('a'), { revision: 3 }))!;
    expect((past.value.data as Record<string, string>).password).toBe(Buffer.from('one').toString('base64'));
    expect(past.value.metadata).toMatchObject({ resourceVersion: '1' });
    const then = await storage.list('core/secrets', { revision: 3 });
    expect(then.items.map((i) => (i.value.data as Record<string, string>).password)).toEqual(
      ['one', 'two', 'three'].map((s) => Buffer.from(s).toString('base64')),
    );
  });

  it('events and changesSince carry decrypted objects, previous states and revisions', async () => {
    const { storage } = setup(secrets(aesgcm()));
    const events: StorageEvent[] = [];
    const unsubscribe = storage.subscribe((e) => events.push(e));
    const created = await storage.create(key('a'), secret('a', 'one'));
    const updated = await storage.update(key('a'), secret('a', 'two'), created.revision);
    await storage.delete(key('a'), updated.revision);
    unsubscribe();
    const pw = (v: unknown) => Buffer.from((v as { data: { password: string } }).data.password, 'base64').toString();
    expect(
      events.map((e) => [e.type, e.revision, pw(e.object), e.previous && pw(e.previous), (e.object.metadata as { resourceVersion: string }).resourceVersion]),
    ).toEqual([
      ['ADDED', 1, 'one', undefined, '1'],
      ['MODIFIED', 2, 'two', 'one', '2'],
      ['DELETED', 3, 'two', 'two', '3'],
    ]);
    expect(events[0]!.object).toBe(created.value);
    const replay = await storage.changesSince('core/secrets', 0);
    expect(replay.map((e) => [e.type, pw(e.object), (e.object.metadata as { resourceVersion: string }).resourceVersion])).toEqual([
      ['ADDED', 'one', '1'],
      ['MODIFIED', 'two', '2'],
      ['DELETED', 'two', '3'],
    ]);
    expect(await storage.get(key('a'))).toBeUndefined();
  });

  it('dry run over it checks writes against the decrypted objects and stores nothing', async () => {
    const { inner, storage } = setup(secrets(aescbc()));
    const created = await storage.create(key('a'), secret('a'));
    const dry = new DryRunStorage(storage);
    expect((await dry.get(key('a')))?.value).toBe(created.value);
    const answer = await dry.update(key('a'), secret('a', 'new'), created.revision);
    expect((answer.value.data as Record<string, string>).password).toBe(Buffer.from('new').toString('base64'));
    await expect(dry.create(key('a'), secret('a'))).rejects.toThrow('key exists');
    expect(await inner.currentRevision()).toBe(1);
    expect((await storage.get(key('a')))?.value).toBe(created.value);
  });
});

describe('EncryptingStorage: failures and rotation', () => {
  it('rotates a key: new key second, then first, rewrite, then drop the old key', async () => {
    const { inner, storage } = setup(secrets(aescbc('key1', 1)));
    const a = await storage.create(key('a'), secret('a'));
    // Step 1: the new key as a second key everywhere; nothing changes for stored objects.
    storage.setPlan(
      secrets({
        type: 'aescbc',
        keys: [
          { name: 'key1', secret: k(32, 1) },
          { name: 'key2', secret: k(32, 2) },
        ],
      }),
    );
    expect(text(await storage.storedBytes(key('a')))).toMatch(/^k8s:enc:aescbc:v1:key1:/);
    // Step 2: the new key first; reads still open key1's objects.
    storage.setPlan(
      secrets({
        type: 'aescbc',
        keys: [
          { name: 'key2', secret: k(32, 2) },
          { name: 'key1', secret: k(32, 1) },
        ],
      }),
    );
    const read = (await storage.get(key('a')))!;
    expect(read.value).toEqual(a.value);
    // Step 3: rewrite every object: stored with key2 now.
    await storage.update(key('a'), { ...read.value } as Record<string, unknown>, read.revision);
    expect(text(await storage.storedBytes(key('a')))).toMatch(/^k8s:enc:aescbc:v1:key2:/);
    // Step 4: the old key removed; everything still reads.
    storage.setPlan(secrets(aescbc('key2', 2)));
    expect((await storage.get(key('a')))?.value.data).toEqual(a.value.data);
    expect(await inner.currentRevision()).toBe(2);
  });

  it('marks objects read with a key or provider that does not write as stale, so a no-op rewrite still writes', async () => {
    const { storage } = setup(secrets(aescbc('key1', 1)));
    await storage.create(key('a'), secret('a'));
    expect((await storage.get(key('a')))!.stale).toBeUndefined();
    storage.setPlan(
      secrets({
        type: 'aescbc',
        keys: [
          { name: 'key2', secret: k(32, 2) },
          { name: 'key1', secret: k(32, 1) },
        ],
      }),
    );
    expect((await storage.get(key('a')))!.stale).toBe(true);
    storage.setPlan(secrets(secretbox(), aescbc('key1', 1)));
    expect((await storage.get(key('a')))!.stale).toBe(true);
    storage.setPlan(secrets(aescbc('key1', 1), secretbox()));
    expect((await storage.get(key('a')))!.stale).toBeUndefined();
    // Plaintext under a plan that now encrypts first, and ciphertext under one that now writes plaintext.
    const plain = setup(secrets(identity));
    await plain.storage.create(key('p'), secret('p'));
    plain.storage.setPlan(secrets(aescbc(), identity));
    expect((await plain.storage.get(key('p')))!.stale).toBe(true);
    await plain.storage.create(key('q'), secret('q'));
    plain.storage.setPlan(secrets(identity, aescbc()));
    expect((await plain.storage.get(key('q')))!.stale).toBe(true);
    expect((await plain.storage.get(key('p')))!.stale).toBeUndefined();
  });

  it('switches providers the same way (aescbc to secretbox) and reads old objects while both are listed', async () => {
    const { storage } = setup(secrets(aescbc()));
    await storage.create(key('old'), secret('old'));
    storage.setPlan(secrets(secretbox('box'), aescbc()));
    await storage.create(key('new'), secret('new'));
    expect(text(await storage.storedBytes(key('old')))).toMatch(/^k8s:enc:aescbc:v1:key1:/);
    expect(text(await storage.storedBytes(key('new')))).toMatch(/^k8s:enc:secretbox:v1:box:/);
    expect((await storage.list('core/secrets')).items.map((i) => i.name)).toEqual(['new', 'old']);
  });

  it("fails reads with kube-apiserver's 500 when no key opens an object (get, list, filtered list)", async () => {
    const { storage } = setup(secrets(aescbc('key1')));
    await storage.create(key('a'), secret('a'));
    storage.setPlan(secrets(aescbc('key2', 2)));
    const get = await apiFailure(() => storage.get(key('a')));
    expect([get.status.code, get.status.reason, get.status.message]).toEqual([
      500,
      'InternalError',
      'Internal error occurred: no matching key was found for the provided AES transformer',
    ]);
    const list = await apiFailure(() => storage.list('core/secrets'));
    expect(list.status.message).toBe(
      'Internal error occurred: unable to transform key "/registry/secrets/default/a": no matching key was found for the provided AES transformer',
    );
    const filtered = await apiFailure(() => storage.list('core/secrets', { filter: () => false }));
    expect(filtered.status.message).toBe(list.status.message);
    storage.setPlan(secrets(aesgcm()));
    expect((await apiFailure(() => storage.get(key('a')))).status.message).toBe('Internal error occurred: no matching prefix found');
  });

  it('refuses plaintext in a resource whose providers have no identity, and ciphertext once a resource is no longer covered', async () => {
    const { storage } = setup(secrets(identity));
    await storage.create(key('plain'), secret('plain'));
    storage.setPlan(secrets(aescbc()));
    expect((await apiFailure(() => storage.get(key('plain')))).status.message).toBe('Internal error occurred: no matching prefix found');
    storage.setPlan(secrets(aescbc(), identity));
    expect((await storage.get(key('plain')))?.value.kind).toBe('Secret');
    await storage.create(key('sealed'), secret('sealed'));
    storage.setPlan({ rules: [] });
    expect((await apiFailure(() => storage.get(key('sealed')))).status.message).toBe(
      'Internal error occurred: identity transformer tried to read encrypted data',
    );
    expect((await storage.get(key('plain')))?.value.kind).toBe('Secret');
  });

  it.each([
    ['aescbc', aescbc(), ['invalid PKCS7 data (empty or not padded)', 'invalid padding on input', 'the stored data is not a multiple of the block size']],
    ['aesgcm', aesgcm(), ['cipher: message authentication failed']],
    ['secretbox', secretbox(), ['output array was not large enough for encryption']],
  ])('%s: a tampered ciphertext fails cleanly', async (_name, provider, messages) => {
    const { inner, storage } = setup(secrets(provider));
    await storage.create(key('a'), secret('a'));
    const raw = (await inner.get(key('a')))!;
    const bytes = Buffer.from(raw.value[STORED_BYTES_FIELD] as string, 'latin1');
    bytes[bytes.length - 1]! ^= 0x55;
    bytes[bytes.length - 20]! ^= 0x55;
    await inner.update(key('a'), { metadata: {}, [STORED_BYTES_FIELD]: bytes.toString('latin1') }, raw.revision);
    const fresh = new EncryptingStorage(inner, secrets(provider));
    const e = await apiFailure(() => fresh.get(key('a')));
    // A changed CBC block may still decrypt to valid padding and then fails as JSON.
    const message = e.status.message!.replace('Internal error occurred: ', '');
    if (_name === 'aescbc' && !messages.includes(message)) expect(message).toMatch(/JSON|Unexpected|not valid|encoded data/);
    else expect(messages).toContain(message);
  });

  it('reopens objects written by an earlier instance over the same inner storage (a restart)', async () => {
    const { inner, storage } = setup(secrets(secretbox()));
    const a = await storage.create(key('a'), secret('a'));
    const restarted = new EncryptingStorage(inner, secrets(secretbox()));
    expect((await restarted.get(key('a')))?.value).toEqual(a.value);
  });
});
