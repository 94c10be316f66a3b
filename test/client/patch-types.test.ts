import { describe, expect, expectTypeOf, it } from 'vitest';
import type { ApplyConfiguration, JsonPatch, MergePatch, PatchBody, StrategicMergePatch } from '../../src/client/patch-types.js';
import type { ConfigMap } from '../../src/kinds/types/core-v1.js';
import type { Deployment } from '../../src/kinds/types/apps-v1.js';
import { statusOf, useTestCluster } from '../support/cluster.js';

const deployment = (containers: { name: string; image: string }[]): Deployment => ({
  metadata: { name: 'web' },
  spec: { selector: { matchLabels: { app: 'web' } }, template: { metadata: { labels: { app: 'web' } }, spec: { containers } } },
});

describe('patch bodies typed by patch type', () => {
  it('pick the body type from the patch type', () => {
    expectTypeOf<PatchBody<ConfigMap, 'json'>>().toEqualTypeOf<JsonPatch>();
    expectTypeOf<PatchBody<ConfigMap, 'merge'>>().toEqualTypeOf<MergePatch<ConfigMap>>();
    expectTypeOf<PatchBody<ConfigMap, 'strategic'>>().toEqualTypeOf<StrategicMergePatch<ConfigMap>>();
    expectTypeOf<PatchBody<ConfigMap, 'apply'>>().toEqualTypeOf<ApplyConfiguration<ConfigMap>>();
    expectTypeOf<{ data: { a: null } }>().toExtend<MergePatch<ConfigMap>>();
    expectTypeOf<{ data: { a: 1 } }>().not.toExtend<MergePatch<ConfigMap>>();
    expectTypeOf<{ spec: { template: { spec: { containers: [{ name: 'web'; $patch: 'delete' }] } } } }>().toExtend<StrategicMergePatch<Deployment>>();
    expectTypeOf<{ kind: 'ConfigMap'; data: { a: 'b' } }>().not.toExtend<ApplyConfiguration<ConfigMap>>();
  });

  const cluster = useTestCluster();
  const cms = () => cluster.client.configMaps('default');

  it('a JSON patch is a list of operations', async () => {
    await cms().create({ metadata: { name: 'a' }, data: { x: '1' } });
    const out = await cms().patch(
      'a',
      [
        { op: 'test', path: '/data/x', value: '1' },
        { op: 'add', path: '/data/y', value: '2' },
        { op: 'remove', path: '/data/x' },
      ],
      { type: 'json' },
    );
    expect(out.data).toEqual({ y: '2' });
    const _wrong = () => {
      // @ts-expect-error a JSON patch is a list, not one operation
      void cms().patch('a', { op: 'remove', path: '/data/y' }, { type: 'json' });
      // @ts-expect-error `move` needs `from`
      void cms().patch('a', [{ op: 'move', path: '/data/y' }], { type: 'json' });
    };
  });

  it('a merge patch is a partial object whose nulls remove fields', async () => {
    await cms().create({ metadata: { name: 'a', labels: { tier: 'web', old: 'yes' } }, data: { x: '1' } });
    const out = await cms().patch('a', { metadata: { labels: { old: null } }, data: { y: '2' } }, { type: 'merge' });
    expect(out.metadata?.labels).toEqual({ tier: 'web' });
    expect(out.data).toEqual({ x: '1', y: '2' });
    const _wrong = () => {
      // @ts-expect-error data holds strings
      void cms().patch('a', { data: { y: 2 } }, { type: 'merge' });
      // @ts-expect-error a merge patch is an object, not a list
      void cms().patch('a', [{ op: 'remove', path: '/data' }], { type: 'merge' });
    };
  });

  it('a strategic merge patch merges lists by key and takes directives', async () => {
    const deployments = cluster.client.deployments('default');
    await deployments.create(
      deployment([
        { name: 'web', image: 'nginx:1' },
        { name: 'sidecar', image: 'envoy' },
      ]),
    );
    const merged = await deployments.patch('web', { spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:2' }] } } } }, { type: 'strategic' });
    expect(merged.spec?.template.spec?.containers.map((c) => `${c.name}=${c.image}`)).toEqual(['web=nginx:2', 'sidecar=envoy']);
    const removed = await deployments.patch(
      'web',
      { spec: { template: { spec: { containers: [{ name: 'sidecar', $patch: 'delete' }] } } } },
      { type: 'strategic' },
    );
    expect(removed.spec?.template.spec?.containers.map((c) => c.name)).toEqual(['web']);
    const _wrong = () => {
      // @ts-expect-error not a directive
      void deployments.patch('web', { spec: { $patch: 'explode' } }, { type: 'strategic' });
    };
  });

  it('apply takes a partial object, owned by its field manager, and force takes fields over', async () => {
    const applied = await cms().apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { x: '1' } }, { fieldManager: 'one' });
    expect(applied.data).toEqual({ x: '1' });
    expect(applied.metadata?.managedFields?.map((f) => f.manager)).toEqual(['one']);

    const conflict = await statusOf(() =>
      cms().apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { x: '2' } }, { fieldManager: 'two' }),
    );
    expect(conflict).toMatchObject({ code: 409, reason: 'Conflict' });
    expect((await cms().get('a')).data).toEqual({ x: '1' });

    const forced = await cms().apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { x: '2' } }, { fieldManager: 'two', force: true });
    expect(forced.data).toEqual({ x: '2' });
    const _wrong = () => {
      // @ts-expect-error apply needs apiVersion and kind
      void cms().apply({ metadata: { name: 'a' }, data: { x: '3' } }, { fieldManager: 'one' });
      // @ts-expect-error and a field manager
      void cms().apply({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' } }, {});
    };
  });
});
