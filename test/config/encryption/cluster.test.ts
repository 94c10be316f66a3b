import { describe, expect, it } from 'vitest';
import { EncryptionConfigError, type EncryptionConfiguration } from '../../../src/config/encryption/index.js';
import { ConfigMapKind, NamespaceKind, SecretKind, type Secret } from '../../../src/kinds/index.js';
import { statusOf, testCluster, useTestCluster } from '../../support/cluster.js';

const K1 = Buffer.alloc(32, 1).toString('base64');
const K2 = Buffer.alloc(32, 2).toString('base64');

const config = (resources: EncryptionConfiguration['resources']): EncryptionConfiguration => ({
  apiVersion: 'apiserver.config.k8s.io/v1',
  kind: 'EncryptionConfiguration',
  resources,
});
const aescbc = (...keys: [string, string][]) => ({ aescbc: { keys: keys.map(([name, secret]) => ({ name, secret })) } });

const YAML = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
- resources: [secrets]
  providers:
  - aescbc:
      keys:
      - name: key1
        secret: ${K1}
  - identity: {}
`;

const b64 = (s: string) => Buffer.from(s).toString('base64');
const secret = (name: string, password: string, labels?: Record<string, string>): Secret => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, ...(labels ? { labels } : {}) },
  type: 'Opaque',
  data: { password: b64(password) },
});

describe('createCluster({ encryption })', () => {
  const cluster = useTestCluster({ encryption: YAML });
  const secrets = () => cluster.client.resource(SecretKind);
  const stored = async (name: string, resource = 'secrets') =>
    Buffer.from((await cluster.encryption.storedBytes({ resource, namespace: 'default', name }))!).toString('latin1');

  it('keeps Secrets encrypted and serves them as usual: create, get, list with selectors, patch, apply, delete', async () => {
    expect(cluster.encryption.enabled).toBe(true);
    const created = await secrets().create(secret('db', 'hunter2', { app: 'db' }), { namespace: 'default' });
    await secrets().create(secret('web', 'letmein', { app: 'web' }), { namespace: 'default' });
    const bytes = await stored('db');
    expect(bytes.startsWith('k8s:enc:aescbc:v1:key1:')).toBe(true);
    expect(bytes).not.toContain(b64('hunter2'));
    expect(bytes).not.toContain('db');
    expect(cluster.encryption.storageKey({ resource: 'secrets', namespace: 'default', name: 'db' })).toBe('/registry/secrets/default/db');

    const got = await secrets().get('db', { namespace: 'default' });
    expect(got.data).toEqual({ password: b64('hunter2') });
    expect(got.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    const byLabel = await secrets().list({ namespace: 'default', labelSelector: 'app=db' });
    expect(byLabel.items.map((s) => s.metadata?.name)).toEqual(['db']);
    const byField = await secrets().list({ fieldSelector: 'metadata.name=web,type=Opaque' });
    expect(byField.items.map((s) => s.metadata?.name)).toEqual(['web']);

    const patched = await secrets().patch('db', { stringData: { extra: 'x' } }, { type: 'merge', namespace: 'default' });
    expect(patched.data).toEqual({ password: b64('hunter2'), extra: b64('x') });
    const applied = await secrets().apply(
      { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'db', namespace: 'default', labels: { applied: 'yes' } } },
      { fieldManager: 'test', namespace: 'default' },
    );
    expect(applied.metadata?.labels).toEqual({ app: 'db', applied: 'yes' });
    expect((await secrets().list({ namespace: 'default', labelSelector: 'applied=yes' })).items.map((s) => s.metadata?.name)).toEqual(['db']);
    expect((await stored('db')).startsWith('k8s:enc:aescbc:v1:key1:')).toBe(true);

    await secrets().delete('db', { namespace: 'default' });
    expect(await cluster.encryption.storedBytes({ resource: 'secrets', namespace: 'default', name: 'db' })).toBeUndefined();
    expect((await statusOf(() => secrets().get('db', { namespace: 'default' }))).code).toBe(404);
  });

  it('sends watch events with the decrypted objects, filtered by label', async () => {
    const watch = await secrets().watch({ namespace: 'default', labelSelector: 'app=db' });
    const events: string[] = [];
    const done = (async () => {
      for await (const e of watch) {
        events.push(`${e.type} ${(e.object as Secret).metadata?.name} ${Buffer.from((e.object as Secret).data?.password ?? '', 'base64').toString()}`);
        if (e.type === 'DELETED') break;
      }
    })();
    await secrets().create(secret('other', 'nope', { app: 'web' }), { namespace: 'default' });
    await secrets().create(secret('db', 'one', { app: 'db' }), { namespace: 'default' });
    await secrets().patch('db', { data: { password: b64('two') } }, { type: 'merge', namespace: 'default' });
    await secrets().delete('db', { namespace: 'default' });
    await done;
    watch.close();
    expect(events).toEqual(['ADDED db one', 'MODIFIED db two', 'DELETED db two']);
  });

  it('leaves ConfigMaps (not configured) stored as JSON', async () => {
    await cluster.client
      .resource(ConfigMapKind)
      .create({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'visible' } }, { namespace: 'default' });
    const json = JSON.parse(await stored('c', 'configmaps')) as { data: unknown; metadata: Record<string, unknown> };
    expect(json.data).toEqual({ k: 'visible' });
    expect(json.metadata.resourceVersion).toBeUndefined();
  });

  it('lets controllers work on encrypted objects: a namespace deletion removes its Secrets', async () => {
    await cluster.client.resource(NamespaceKind).create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'gone' } });
    await secrets().create(secret('s', 'x'), { namespace: 'gone' });
    await cluster.client.resource(NamespaceKind).delete('gone');
    await cluster.clock.advance(60_000);
    await cluster.settle();
    expect((await secrets().list({ namespace: 'gone' })).items).toEqual([]);
  });

  it('rotates a key as kube-apiserver documents it: new key first, rewrite every Secret, drop the old key', async () => {
    await secrets().create(secret('a', 'alpha'), { namespace: 'default' });
    await secrets().create(secret('b', 'beta'), { namespace: 'kube-system' });
    cluster.encryption.reload(config([{ resources: ['secrets'], providers: [aescbc(['key2', K2], ['key1', K1])] }]));
    expect((await stored('a')).startsWith('k8s:enc:aescbc:v1:key1:')).toBe(true);
    // kubectl get secrets -A -o json | kubectl replace -f -
    for (const s of (await secrets().list()).items) await secrets().update(s, { namespace: s.metadata!.namespace! });
    expect((await stored('a')).startsWith('k8s:enc:aescbc:v1:key2:')).toBe(true);
    cluster.encryption.reload(config([{ resources: ['secrets'], providers: [aescbc(['key2', K2])] }]));
    expect((await secrets().get('a', { namespace: 'default' })).data).toEqual({ password: b64('alpha') });
    expect((await secrets().get('b', { namespace: 'kube-system' })).data).toEqual({ password: b64('beta') });
  });

  it('fails reads with 500 once no configured key opens an object', async () => {
    await secrets().create(secret('a', 'alpha'), { namespace: 'default' });
    cluster.encryption.reload(config([{ resources: ['secrets'], providers: [aescbc(['key2', K2])] }]));
    const get = await statusOf(() => secrets().get('a', { namespace: 'default' }));
    expect([get.code, get.reason, get.message]).toEqual([
      500,
      'InternalError',
      'Internal error occurred: no matching key was found for the provided AES transformer',
    ]);
    const list = await statusOf(() => secrets().list({ namespace: 'default' }));
    expect(list.message).toBe(
      'Internal error occurred: unable to transform key "/registry/secrets/default/a": no matching key was found for the provided AES transformer',
    );
  });

  it('keeps the old configuration when a reload is refused', async () => {
    await secrets().create(secret('a', 'alpha'), { namespace: 'default' });
    expect(() => cluster.encryption.reload('kind: nope')).toThrow(EncryptionConfigError);
    expect((await secrets().get('a', { namespace: 'default' })).data).toEqual({ password: b64('alpha') });
  });
});

describe('createCluster encryption options', () => {
  it('covers events.k8s.io Events through "events", and everything with *.*', async () => {
    const c = await testCluster({
      encryption: config([
        { resources: ['events'], providers: [{ secretbox: { keys: [{ name: 'box', secret: K1 }] } }] },
        { resources: ['*.*'], providers: [aescbc(['all', K2])] },
      ]),
    });
    try {
      await c.client.resource({ group: 'events.k8s.io', version: 'v1', resource: 'events' }).create(
        {
          apiVersion: 'events.k8s.io/v1',
          kind: 'Event',
          metadata: { name: 'e' },
          eventTime: '2026-01-01T00:00:00.000000Z',
          reportingController: 'x/y',
          reportingInstance: 'i',
          action: 'A',
          reason: 'R',
          type: 'Normal',
          regarding: { kind: 'Pod', name: 'p', namespace: 'default' },
        } as never,
        { namespace: 'default' },
      );
      const bytes = Buffer.from((await c.encryption.storedBytes({ resource: 'events', namespace: 'default', name: 'e' }))!).toString('latin1');
      expect(bytes.startsWith('k8s:enc:secretbox:v1:box:')).toBe(true);
      // The built-in objects created at start are encrypted too.
      const ns = Buffer.from((await c.encryption.storedBytes({ resource: 'namespaces', name: 'default' }))!).toString('latin1');
      expect(ns.startsWith('k8s:enc:aescbc:v1:all:')).toBe(true);
      expect((await c.client.resource(NamespaceKind).get('default')).metadata?.name).toBe('default');
    } finally {
      await c.close();
    }
  });

  it('answers the same JSON, key order included, as a cluster without encryption', async () => {
    const plain = await testCluster();
    const encrypted = await testCluster({ encryption: YAML });
    try {
      const texts = await Promise.all(
        [plain, encrypted].map(async (c) => {
          const s = c.client.resource(SecretKind);
          await s.create(secret('db', 'x', { a: 'b' }), { namespace: 'default' });
          await s.patch('db', { metadata: { annotations: { n: 'v' } } }, { type: 'merge', namespace: 'default' });
          const got = await s.get('db', { namespace: 'default' });
          return JSON.stringify({ ...got, metadata: { ...got.metadata, uid: 'u', creationTimestamp: 't' } });
        }),
      );
      expect(texts[1]).toBe(texts[0]);
    } finally {
      await plain.close();
      await encrypted.close();
    }
  });

  it('refuses a configuration kube-apiserver would refuse, with its message', async () => {
    await expect(testCluster({ encryption: YAML.replace(K1, Buffer.alloc(7).toString('base64')) })).rejects.toThrow(
      'error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 7, expected one of [16 24 32]',
    );
  });

  it('without encryption: stored bytes are JSON and reload is refused', async () => {
    const c = await testCluster();
    try {
      expect(c.encryption.enabled).toBe(false);
      const ns = JSON.parse(Buffer.from((await c.encryption.storedBytes({ resource: 'namespaces', name: 'default' }))!).toString()) as { kind: string };
      expect(ns.kind).toBe('Namespace');
      expect(() => c.encryption.reload(YAML)).toThrow('encryption at rest is off: create the cluster with an encryption configuration to reload one');
    } finally {
      await c.close();
    }
  });
});
