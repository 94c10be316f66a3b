import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigMapKind, NamespaceKind, PodKind } from '../../src/kinds/index.js';
import { defineKind, ObjectMetaSchema } from '../../src/index.js';
import { statusOf, testCluster, useTestCluster } from '../support/cluster.js';

const cluster = useTestCluster();
const cms = () => cluster.client.resource(ConfigMapKind);
const pods = () => cluster.client.resource(PodKind);

describe('patch: JSON patch (RFC 6902)', () => {
  it('applies operations in order', async () => {
    await cms().create({ metadata: { name: 'a' }, data: { x: '1' } });
    const out = await cms().patch(
      'a',
      [
        { op: 'add', path: '/data/y', value: '2' },
        { op: 'replace', path: '/data/x', value: '9' },
        { op: 'test', path: '/data/y', value: '2' },
      ],
      { type: 'json' },
    );
    expect(out.data).toEqual({ x: '9', y: '2' });
  });

  it('answers a failing test or a bad path with 422 and applies nothing', async () => {
    await cms().create({ metadata: { name: 'a' }, data: { x: '1' } });
    for (const patch of [
      [
        { op: 'add', path: '/data/y', value: '2' },
        { op: 'test', path: '/data/x', value: 'nope' },
      ],
      [{ op: 'remove', path: '/data/missing' }],
    ] as const) {
      const s = await statusOf(() => cms().patch('a', patch, { type: 'json' }));
      expect(s).toMatchObject({ code: 422, reason: 'Invalid', message: 'the server rejected our request due to an error in our request' });
    }
    expect((await cms().get('a')).data).toEqual({ x: '1' });
  });

  it('answers a patch that is not a list of operations with 400', async () => {
    await cms().create({ metadata: { name: 'a' } });
    // @ts-expect-error a JSON patch is a list of operations; what the server answers to anything else is checked here
    const s = await statusOf(() => cms().patch('a', { op: 'add' }, { type: 'json' }));
    expect(s).toMatchObject({
      code: 400,
      message: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    });
  });
});

describe('patch: merge patch (RFC 7386)', () => {
  it('merges objects, deletes with null and replaces arrays', async () => {
    await cms().create({ metadata: { name: 'a', finalizers: ['example.com/a', 'example.com/b'] }, data: { x: '1', y: '2' } });
    const out = await cms().patch('a', { data: { x: null, z: '3' }, metadata: { finalizers: ['example.com/c'] } }, { type: 'merge' });
    expect(out.data).toEqual({ y: '2', z: '3' });
    expect(out.metadata?.finalizers).toEqual(['example.com/c']);
  });

  it('answers 404 for a missing object', async () => {
    const s = await statusOf(() => cms().patch('ghost', { data: {} }, { type: 'merge' }));
    expect(s).toMatchObject({ code: 404, message: 'configmaps "ghost" not found' });
  });
});

describe('patch: strategic merge patch', () => {
  const pod = {
    metadata: { name: 'p' },
    spec: {
      containers: [
        { name: 'a', image: 'a:1', env: [{ name: 'X', value: '1' }] },
        { name: 'b', image: 'b:1' },
      ],
    },
  };

  it('merges containers by name and env by name, as Kubernetes does', async () => {
    await pods().create(pod);
    const out = await pods().patch('p', { spec: { containers: [{ name: 'b', image: 'b:2' }] } }, { type: 'strategic' });
    expect(out.spec?.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['a=a:1', 'b=b:2']);
    expect(out.metadata?.generation).toBe(2);
  });

  it('honours $patch: delete on a list element (ownerReferences by uid) and merges finalizers as a set', async () => {
    await cms().create({ metadata: { name: 'a', finalizers: ['example.com/a'] } });
    const out = await cms().patch('a', { metadata: { finalizers: ['example.com/b', 'example.com/a'] } }, { type: 'strategic' });
    // Kubernetes puts the patch's elements first, in the patch's order, then the server-only ones.
    expect(out.metadata?.finalizers).toEqual(['example.com/b', 'example.com/a']);
    const owners = [
      { apiVersion: 'v1', kind: 'Pod', name: 'x', uid: '11111111-1111-1111-1111-111111111111' },
      { apiVersion: 'v1', kind: 'Pod', name: 'y', uid: '22222222-2222-2222-2222-222222222222' },
    ];
    await cms().create({ metadata: { name: 'owned', ownerReferences: owners } });
    const deleted = await cms().patch('owned', { metadata: { ownerReferences: [{ uid: owners[0]!.uid, $patch: 'delete' }] } }, { type: 'strategic' });
    expect(deleted.metadata?.ownerReferences?.map((o) => o.name)).toEqual(['y']);
  });

  it('answers an unknown directive with 400 and the patch library message', async () => {
    await cms().create({ metadata: { name: 'a' }, data: { x: '1' } });
    // @ts-expect-error not a directive of strategic merge: the server's answer to it is checked here
    const s = await statusOf(() => cms().patch('a', { data: { $patch: 'explode' } }, { type: 'strategic' }));
    expect(s.code).toBe(400);
    expect(s.message).toBe('unknown patch type: explode in map: map[$patch:explode]');
  });

  it('is 415 for kinds without strategic metadata, as for custom resources', async () => {
    const Thing = defineKind({
      group: 'example.com',
      kind: 'Thing',
      plural: 'things',
      scope: 'Namespaced',
      strategicMergePatch: false,
      versions: [
        {
          name: 'v1',
          storage: true,
          schema: z.object({ apiVersion: z.string().optional(), kind: z.string().optional(), metadata: ObjectMetaSchema.optional() }),
        },
      ],
    });
    const c = await testCluster({ kinds: [Thing] });
    await c.client.resource(Thing).create({ metadata: { name: 't' } });
    const s = await statusOf(() => c.client.resource(Thing).patch('t', {}, { type: 'strategic' }));
    expect(s).toMatchObject({ code: 415, reason: 'UnsupportedMediaType' });
    await c.close();
  });
});

describe('patch semantics', () => {
  it('fails with 409 only when the patch itself carries a stale resourceVersion', async () => {
    const a = await cms().create({ metadata: { name: 'a' }, data: { x: '1' } });
    await cms().patch('a', { data: { x: '2' } }, { type: 'merge' });
    const stale = await statusOf(() => cms().patch('a', { metadata: { resourceVersion: a.metadata!.resourceVersion }, data: { x: '3' } }, { type: 'merge' }));
    expect(stale).toMatchObject({ code: 409, reason: 'Conflict' });
    const current = await cms().get('a');
    const ok = await cms().patch('a', { metadata: { resourceVersion: current.metadata!.resourceVersion }, data: { x: '4' } }, { type: 'merge' });
    expect(ok.data).toEqual({ x: '4' });
  });

  it('validates the result (422) and stores nothing', async () => {
    await cms().create({ metadata: { name: 'a' } });
    const s = await statusOf(() => cms().patch('a', { metadata: { labels: { 'bad key!': 'x' } } }, { type: 'merge' }));
    expect(s.code).toBe(422);
    expect((await cms().get('a')).metadata?.labels).toBeUndefined();
  });

  it('reports unknown fields per fieldValidation', async () => {
    await cms().create({ metadata: { name: 'a' } });
    const warnings: string[] = [];
    // @ts-expect-error a field ConfigMap does not have: the server's warning is checked here
    await cms().patch('a', { bogus: 1 }, { type: 'merge', onWarning: (w) => warnings.push(...w) });
    expect(warnings).toEqual(['unknown field "bogus"']);
    // @ts-expect-error as above, refused with fieldValidation=Strict
    const strict = await statusOf(() => cms().patch('a', { bogus: 1 }, { type: 'merge', fieldValidation: 'Strict' }));
    expect(strict).toMatchObject({
      code: 400,
      message: 'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus"',
    });
  });

  it('changes only status through /status', async () => {
    await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'team' } });
    const out = await cluster.client
      .resource(NamespaceKind)
      .patch('team', { metadata: { labels: { x: 'y' } }, status: { conditions: [{ type: 'A', status: 'True' }] } }, { type: 'merge', subresource: 'status' });
    expect(out.status?.conditions).toEqual([{ type: 'A', status: 'True' }]);
    expect(out.metadata?.labels?.x).toBeUndefined();
  });

  it('dryRun answers the patched object and keeps nothing', async () => {
    await cms().create({ metadata: { name: 'a' }, data: { x: '1' } });
    const out = await cms().patch('a', { data: { x: '2' } }, { type: 'merge', dryRun: true });
    expect(out.data).toEqual({ x: '2' });
    expect((await cms().get('a')).data).toEqual({ x: '1' });
  });

  it('refuses force without apply and an unknown patch type', async () => {
    await cms().create({ metadata: { name: 'a' } });
    const force = await statusOf(() => cms().patch('a', {}, { type: 'merge', force: true }));
    expect(force).toMatchObject({ code: 422, message: 'PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch' });
    const unknown = await statusOf(() => cms().patch('a', {}, { type: 'yaml' as never }));
    expect(unknown).toMatchObject({ code: 415, reason: 'UnsupportedMediaType' });
  });

  it('records the patching manager in managedFields', async () => {
    await cms().create({ metadata: { name: 'a' }, data: { x: '1' } }, { fieldManager: 'creator' });
    const out = await cms().patch('a', { data: { y: '2' } }, { type: 'merge', fieldManager: 'patcher' });
    const byManager = Object.fromEntries((out.metadata?.managedFields ?? []).map((m) => [m.manager, m.fieldsV1]));
    expect(byManager).toEqual({
      creator: { 'f:data': { '.': {}, 'f:x': {} } },
      patcher: { 'f:data': { 'f:y': {} } },
    });
  });
});

describe('server-side apply', () => {
  const cm = (data: Record<string, string>) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cfg', namespace: 'default' }, data });

  it('creates the object when missing (201) and requires a field manager', async () => {
    const missing = await statusOf(() => cms().patch('cfg', cm({ a: '1' }), { type: 'apply' }));
    expect(missing).toMatchObject({ code: 422, message: 'PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch' });
    const created = await cluster.request({
      verb: 'patch',
      patchType: 'apply',
      resource: { group: '', version: 'v1', resource: 'configmaps' },
      namespace: 'default',
      name: 'cfg',
      body: cm({ a: '1' }),
      writeOptions: { fieldManager: 'tool' },
      user: { username: 'u', groups: [] },
    });
    expect(created.code).toBe(201);
    expect((created.body as { metadata: { managedFields: { operation: string }[] } }).metadata.managedFields[0]!.operation).toBe('Apply');
  });

  it('conflicts with another manager on a different value (409, causes), and force takes the field over', async () => {
    await cms().apply(cm({ a: '1', b: '1' }), { fieldManager: 'first' });
    const s = await statusOf(() => cms().apply(cm({ a: '2' }), { fieldManager: 'second' }));
    expect(s).toMatchObject({
      code: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "first": .data.a',
      details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "first"', field: '.data.a' }] },
    });
    const same = await cms().apply(cm({ a: '1' }), { fieldManager: 'second' });
    expect(same.data).toEqual({ a: '1', b: '1' });
    const forced = await cms().apply(cm({ a: '2' }), { fieldManager: 'second', force: true });
    expect(forced.data).toEqual({ a: '2', b: '1' });
  });

  it('removes fields the applier stopped sending when nobody else owns them', async () => {
    await cms().apply(cm({ a: '1', b: '1' }), { fieldManager: 'me' });
    const out = await cms().apply(cm({ a: '1' }), { fieldManager: 'me' });
    expect(out.data).toEqual({ a: '1' });
  });

  it('applying the same configuration twice changes nothing', async () => {
    const first = await cms().apply(cm({ a: '1' }), { fieldManager: 'me' });
    const second = await cms().apply(cm({ a: '1' }), { fieldManager: 'me' });
    expect(second.metadata?.resourceVersion).toBe(first.metadata?.resourceVersion);
  });

  it('conflicts with an Update manager too', async () => {
    await cms().create({ metadata: { name: 'cfg' }, data: { a: '1' } }, { fieldManager: 'kubectl-edit' });
    const s = await statusOf(() => cms().apply(cm({ a: '2' }), { fieldManager: 'applier' }));
    expect(s.message).toBe('Apply failed with 1 conflict: conflict with "kubectl-edit" using v1: .data.a');
  });

  it('sending managedFields: [] in an update strips them; the object stays untracked until applied again', async () => {
    const a = await cms().apply(cm({ a: '1' }), { fieldManager: 'me' });
    expect(a.metadata?.managedFields).toHaveLength(1);
    const cleared = await cms().update({ ...a, data: { a: '2' }, metadata: { ...a.metadata, managedFields: [] } }, { fieldManager: 'editor' });
    expect(cleared.metadata?.managedFields).toBeUndefined();
    const edited = await cms().update({ ...cleared, data: { a: '3' } }, { fieldManager: 'editor' });
    expect(edited.metadata?.managedFields).toBeUndefined();
    // The first apply to an untracked object finds its fields owned by "before-first-apply".
    const conflict = await statusOf(() => cms().apply(cm({ a: '4' }), { fieldManager: 'me' }));
    expect(conflict.message).toBe('Apply failed with 1 conflict: conflict with "before-first-apply" using v1: .data.a');
    const applied = await cms().apply(cm({ a: '4' }), { fieldManager: 'me', force: true });
    expect(applied.metadata?.managedFields?.map((m) => m.manager).sort()).toEqual(['before-first-apply', 'me']);
  });
});
