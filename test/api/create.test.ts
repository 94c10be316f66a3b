import { describe, expect, it } from 'vitest';
import { ConfigMapKind, NamespaceKind } from '../../src/kinds/index.js';
import { statusOf, useTestCluster } from '../support/cluster.js';

const cluster = useTestCluster();

const cms = () => cluster.client.resource(ConfigMapKind);

describe('create', () => {
  it('sets uid, creationTimestamp and resourceVersion from the server, whatever the body says; a ConfigMap keeps the generation sent', async () => {
    const cm = await cms().create(
      {
        metadata: {
          name: 'a',
          uid: 'mine',
          creationTimestamp: '2000-01-01T00:00:00Z',
          generation: 7,
          selfLink: '/x',
          deletionTimestamp: '2000-01-01T00:00:00Z',
        },
        data: { k: 'v' },
      },
      { namespace: 'default' },
    );
    expect(cm.metadata?.uid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(cm.metadata?.creationTimestamp).toBe('2026-01-01T00:00:00Z');
    // A ConfigMap has no generation of its own: Kubernetes stores what the client sent.
    expect(cm.metadata?.generation).toBe(7);
    expect(cm.metadata?.resourceVersion).toMatch(/^\d+$/);
    expect(cm.metadata?.selfLink).toBeUndefined();
    expect(cm.metadata?.deletionTimestamp).toBeUndefined();
    expect(cm).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' }, data: { k: 'v' } });
  });

  it('stores keys in the order the real server writes them', async () => {
    const cm = await cms().create({ data: { k: 'v' }, metadata: { labels: { a: 'b' }, name: 'a' } } as never);
    expect(Object.keys(cm)).toEqual(['kind', 'apiVersion', 'metadata', 'data']);
    expect(Object.keys(cm.metadata!)).toEqual(['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp', 'labels', 'managedFields']);
  });

  it('infers apiVersion and kind from the endpoint when absent', async () => {
    const cm = await cms().create({ metadata: { name: 'a' } });
    expect(cm.apiVersion).toBe('v1');
    expect(cm.kind).toBe('ConfigMap');
  });

  it('generates a name from generateName with five characters of Kubernetes alphabet', async () => {
    const a = await cms().create({ metadata: { generateName: 'app-' } });
    expect(a.metadata?.name).toMatch(/^app-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
    expect(a.metadata?.generateName).toBe('app-');
    const long = await cms().create({ metadata: { generateName: 'x'.repeat(80) } });
    expect(long.metadata?.name).toHaveLength(63);
  });

  it('retries a generated name that collides', async () => {
    await cms().create({ metadata: { name: 'x-bbbbb' } });
    // The first two draws of five characters give "bbbbb" (taken), the third "ccccc".
    let calls = 0;
    const original = Math.random;
    Math.random = () => (calls++ < 10 ? 0 : 1.5 / 27);
    try {
      const made = await cms().create({ metadata: { generateName: 'x-' } });
      expect(made.metadata?.name).toBe('x-ccccc');
      expect(calls).toBe(15);
    } finally {
      Math.random = original;
    }
  });

  it('answers 409 AlreadyExists with Kubernetes message and details', async () => {
    await cms().create({ metadata: { name: 'a' } });
    const s = await statusOf(() => cms().create({ metadata: { name: 'a' } }));
    expect(s).toMatchObject({ code: 409, reason: 'AlreadyExists', message: 'configmaps "a" already exists', details: { name: 'a', kind: 'configmaps' } });
  });

  it('requires a name or generateName (422)', async () => {
    const s = await statusOf(() => cms().create({ metadata: {} }));
    expect(s).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
      details: {
        kind: 'ConfigMap',
        causes: [{ reason: 'FieldValueRequired', field: 'metadata.name', message: 'Required value: name or generateName is required' }],
      },
    });
  });

  it('validates the name as a DNS subdomain', async () => {
    const s = await statusOf(() => cms().create({ metadata: { name: 'Bad_Name' } }));
    expect(s.code).toBe(422);
    expect(s.message).toContain('ConfigMap "Bad_Name" is invalid: metadata.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain must consist of');
  });

  it('answers 404 for a namespace that does not exist, before validating the object', async () => {
    const s = await statusOf(() => cms().create({ metadata: { name: 'BAD' } }, { namespace: 'nope' }));
    expect(s).toMatchObject({ code: 404, reason: 'NotFound', message: 'namespaces "nope" not found', details: { name: 'nope', kind: 'namespaces' } });
  });

  it('answers 400 when the body namespace differs from the request namespace', async () => {
    await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'other' } });
    const s = await statusOf(() => cms().create({ metadata: { name: 'a', namespace: 'other' } }, { namespace: 'default' }));
    expect(s).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'the namespace of the provided object does not match the namespace sent on the request',
    });
  });

  it('drops a namespace given for a cluster-scoped kind', async () => {
    const ns = await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'x', namespace: 'default' } });
    expect(ns.metadata?.namespace).toBeUndefined();
  });

  it('rejects a mismatching apiVersion or kind with Kubernetes messages (400)', async () => {
    const wrongKind = await statusOf(() => cms().create({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'a' } }));
    expect(wrongKind).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message: 'Secret in version "v1" cannot be handled as a ConfigMap: converting (v1.Secret) to (core.ConfigMap): unknown conversion',
    });
    const unknown = await statusOf(() => cms().create({ apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'a' } }));
    expect(unknown.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: no kind "ConfigMap" is registered for version "apps/v1" in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"',
    );
    const bad = await statusOf(() => cms().create({ apiVersion: 'a/b/c', metadata: { name: 'a' } }));
    expect(bad.message).toMatch(
      /^the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error: unexpected GroupVersion string: a\/b\/c/,
    );
  });

  it('rejects bodies that are not objects with 400 and stores nothing', async () => {
    for (const body of [[], 'text', 42, true]) {
      const s = await statusOf(() => cms().create(body as never));
      expect(s.code).toBe(400);
      expect(s.message).toMatch(
        /^the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error: json: cannot unmarshal \w+ into Go value of type struct/,
      );
    }
    expect((await cms().list({ namespace: 'default' })).items).toEqual([]);
  });

  it('rejects a field of the wrong type as Go decoding does (400)', async () => {
    const s = await statusOf(() => cms().create({ metadata: { name: 5 } } as never));
    expect(s).toMatchObject({
      code: 400,
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.name of type string',
    });
    const data = await statusOf(() => cms().create({ metadata: { name: 'a' }, data: { k: 1 } } as never));
    expect(data.message).toBe(
      'ConfigMap in version "v1" cannot be handled as a ConfigMap: json: cannot unmarshal number into Go struct field ConfigMap.data of type string',
    );
  });

  it('validates labels and the 256 KiB total size of annotations', async () => {
    const labels = await statusOf(() => cms().create({ metadata: { name: 'a', labels: { 'a/b/c': 'x', ok: 'bad value!' } } }));
    expect(labels.code).toBe(422);
    expect(labels.details?.causes?.map((c) => c.field)).toEqual(['metadata.labels', 'metadata.labels']);
    const big = await statusOf(() => cms().create({ metadata: { name: 'a', annotations: { a: 'x'.repeat(256 * 1024) } } }));
    expect(big.message).toBe('ConfigMap "a" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes');
    const fits = await cms().create({ metadata: { name: 'a', annotations: { a: 'x'.repeat(256 * 1024 - 1) } } });
    expect(fits.metadata?.annotations?.a).toHaveLength(256 * 1024 - 1);
  });

  it('refuses a numeric resourceVersion on create and ignores a non-numeric one', async () => {
    const s = await statusOf(() => cms().create({ metadata: { name: 'a', resourceVersion: '12' } }));
    expect(s).toMatchObject({ code: 400, message: 'resourceVersion should not be set on objects to be created' });
    const ok = await cms().create({ metadata: { name: 'a', resourceVersion: 'abc' } });
    expect(ok.metadata?.resourceVersion).toMatch(/^\d+$/);
  });

  it('does not keep a reference to the caller object, and returns a copy the caller may change', async () => {
    const input = { metadata: { name: 'a' }, data: { k: 'v' } };
    const out = await cms().create(input);
    input.data.k = 'changed';
    out.data!.k = 'changed too';
    expect((await cms().get('a')).data).toEqual({ k: 'v' });
  });
});

describe('unknown and duplicate fields (fieldValidation)', () => {
  const body = { metadata: { name: 'a', bogus: 1 }, data: { k: 'v' }, extra: { x: 1 } } as never;

  it('Warn (default) drops unknown fields and returns one warning per field', async () => {
    const warnings: string[] = [];
    const cm = await cms().create(body, { onWarning: (w) => warnings.push(...w) });
    // In document order, as Kubernetes' decoder reports them.
    expect(warnings).toEqual(['unknown field "metadata.bogus"', 'unknown field "extra"']);
    expect(cm).not.toHaveProperty('extra');
    expect(cm.metadata).not.toHaveProperty('bogus');
  });

  it('Strict answers 400 listing every unknown and duplicate field, storing nothing', async () => {
    const s = await statusOf(() =>
      cluster.request({
        verb: 'create',
        resource: { group: '', version: 'v1', resource: 'configmaps' },
        namespace: 'default',
        body,
        duplicateFields: ['metadata.name'],
        writeOptions: { fieldValidation: 'Strict' },
        user: { username: 'u', groups: [] },
      }),
    );
    expect(s).toMatchObject({
      code: 400,
      reason: 'BadRequest',
      message:
        'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "metadata.bogus", unknown field "extra", duplicate field "metadata.name"',
    });
    expect((await cms().list({ namespace: 'default' })).items).toHaveLength(0);
  });

  it('Ignore drops them silently', async () => {
    const warnings: string[] = [];
    const cm = await cms().create(body, { fieldValidation: 'Ignore', onWarning: (w) => warnings.push(...w) });
    expect(warnings).toEqual([]);
    expect(cm).not.toHaveProperty('extra');
  });

  it('writes unknown-field paths of list items with indexes and of map values with keys', async () => {
    const warnings: string[] = [];
    await cluster.client
      .resource({ version: 'v1', resource: 'pods' })
      .create({ metadata: { name: 'p' }, spec: { containers: [{ name: 'c', image: 'i', nope: true }], overhead: {} }, junk: 1 } as never, {
        onWarning: (w) => warnings.push(...w),
        dryRun: true,
      })
      .catch(() => undefined);
    expect(warnings).toContain('unknown field "spec.containers[0].nope"');
  });
});

describe('request options', () => {
  it('rejects an invalid dryRun with 422 and processes nothing', async () => {
    const s = await statusOf(() => cms().create({ metadata: { name: 'a' } }, { dryRun: ['Nope'] }));
    expect(s).toMatchObject({
      code: 422,
      reason: 'Invalid',
      message: 'CreateOptions.meta.k8s.io "" is invalid: dryRun: Unsupported value: ["Nope"]: supported values: "All"',
      details: { group: 'meta.k8s.io', kind: 'CreateOptions' },
    });
    expect((await cms().list({ namespace: 'default' })).items).toHaveLength(0);
  });

  it('dryRun=All runs every step, answers the object without resourceVersion, and persists nothing', async () => {
    const cm = await cms().create({ metadata: { name: 'a' }, data: { k: 'v' } }, { dryRun: 'All' });
    expect(cm.metadata?.name).toBe('a');
    expect(cm.metadata?.uid).toBeDefined();
    expect(cm.metadata?.resourceVersion).toBeUndefined();
    expect((await cms().list({ namespace: 'default' })).items).toHaveLength(0);
    const invalid = await statusOf(() => cms().create({ metadata: { name: 'BAD' } }, { dryRun: true }));
    expect(invalid.code).toBe(422);
  });

  it('limits fieldManager to 128 bytes of printable characters', async () => {
    const long = await statusOf(() => cms().create({ metadata: { name: 'a' } }, { fieldManager: 'm'.repeat(129) }));
    expect(long.message).toBe('CreateOptions.meta.k8s.io "" is invalid: fieldManager: Too long: may not be more than 128 bytes');
    const ctl = await statusOf(() => cms().create({ metadata: { name: 'a' } }, { fieldManager: 'ab\u0007c' }));
    expect(ctl.message).toBe('CreateOptions.meta.k8s.io "" is invalid: fieldManager: Invalid value: "ab\\ac": invalid character U+0007 (at position 2)');
    const ok = await cms().create({ metadata: { name: 'a' } }, { fieldManager: 'm'.repeat(128) });
    expect(ok.metadata?.name).toBe('a');
  });

  it('rejects an unknown fieldValidation value', async () => {
    const s = await statusOf(() => cms().create({ metadata: { name: 'a' } }, { fieldValidation: 'Loose' }));
    expect(s.message).toBe(
      'CreateOptions.meta.k8s.io "" is invalid: fieldValidation: Unsupported value: "Loose": supported values: "", "Ignore", "Strict", "Warn"',
    );
  });
});
