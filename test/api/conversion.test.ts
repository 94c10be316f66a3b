/**
 * Serving one kind at several versions from one storage version: decoding and answering at the
 * request's version, patches and apply in the request's shape, lists and watches converted, and
 * managedFields recorded with the request's apiVersion.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineKind, ObjectMetaSchema, type KubeObject } from '../../src/index.js';
import { statusOf, useTestCluster } from '../support/cluster.js';

const meta = { apiVersion: z.string().optional(), kind: z.string().optional(), metadata: ObjectMetaSchema.optional() };
const V1 = z.object({ ...meta, spec: z.object({ size: z.int32().optional(), color: z.string().optional() }).optional() });
const V2 = z.object({ ...meta, spec: z.object({ count: z.int32().optional(), color: z.string().optional() }).optional() });
type Spec = { size?: number; count?: number; color?: string };

/** v2 calls v1's `spec.size` `spec.count`; v1beta1 has v1's shape. */
const Widget = defineKind({
  group: 'example.com',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced',
  versions: [
    { name: 'v1', storage: true, schema: V1 },
    { name: 'v1beta1', schema: V1 },
    {
      name: 'v2',
      schema: V2,
      conversion: {
        toStorage: (o: KubeObject) => {
          const { count, ...rest } = (o.spec ?? {}) as Spec;
          return o.spec === undefined ? o : { ...o, spec: { ...rest, ...(count === undefined ? {} : { size: count }) } };
        },
        fromStorage: (o: KubeObject) => {
          const { size, ...rest } = (o.spec ?? {}) as Spec;
          return o.spec === undefined ? o : { ...o, spec: { ...rest, ...(size === undefined ? {} : { count: size }) } };
        },
      },
    },
  ],
});

const cluster = useTestCluster({ kinds: [Widget] });
const at = (version: string) => cluster.client.resource({ group: 'example.com', version, resource: 'widgets' });
const ns = { namespace: 'default' };

describe('a kind served at several versions', () => {
  it('stores in the storage version and answers at the version asked for', async () => {
    const created = await at('v2').create({ metadata: { name: 'w' }, spec: { count: 3, color: 'red' } }, ns);
    expect(created).toMatchObject({ apiVersion: 'example.com/v2', kind: 'Widget', spec: { count: 3, color: 'red' } });
    expect(await at('v1').get('w', ns)).toMatchObject({ apiVersion: 'example.com/v1', spec: { size: 3, color: 'red' } });
    expect(await at('v1beta1').get('w', ns)).toMatchObject({ apiVersion: 'example.com/v1beta1', spec: { size: 3, color: 'red' } });
  });

  it('updates through one version what another created; the resourceVersion is shared', async () => {
    const created = await at('v1').create({ metadata: { name: 'w' }, spec: { size: 1 } }, ns);
    const v2 = await at('v2').get('w', ns);
    expect(v2.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
    const updated = await at('v2').update({ ...v2, spec: { count: 5 } }, ns);
    expect(updated).toMatchObject({ apiVersion: 'example.com/v2', spec: { count: 5 }, metadata: { generation: 2 } });
    expect((await at('v1').get('w', ns)).spec).toEqual({ size: 5 });
  });

  it('applies merge, JSON and strategic patches and apply to the object as the request version shows it', async () => {
    await at('v1').create({ metadata: { name: 'w' }, spec: { size: 1, color: 'blue' } }, ns);
    expect((await at('v2').patch('w', { spec: { count: 2 } }, { type: 'merge', ...ns })).spec).toEqual({ count: 2, color: 'blue' });
    expect((await at('v2').patch('w', [{ op: 'replace', path: '/spec/count', value: 3 }], { type: 'json', ...ns })).spec).toEqual({ count: 3, color: 'blue' });
    expect((await at('v2').patch('w', { spec: { count: 4 } }, { type: 'strategic', ...ns })).spec).toEqual({ count: 4, color: 'blue' });
    const applied = await at('v2').apply(
      { apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name: 'w' }, spec: { count: 6 } },
      { fieldManager: 'tool', force: true, ...ns },
    );
    expect(applied.spec).toEqual({ count: 6, color: 'blue' });
    expect((await at('v1').get('w', ns)).spec).toEqual({ size: 6, color: 'blue' });
    // A patch naming the other version's field sets a field this version does not have.
    const s = await statusOf(() => at('v2').patch('w', [{ op: 'replace', path: '/spec/size', value: 9 }], { type: 'json', fieldValidation: 'Strict', ...ns }));
    expect(s).toMatchObject({ code: 400, message: 'Widget in version "v2" cannot be handled as a Widget: strict decoding error: unknown field "spec.size"' });
    expect((await at('v1').get('w', ns)).spec).toEqual({ size: 6, color: 'blue' });
  });

  it('records managedFields with the apiVersion and field names of the writing version', async () => {
    await at('v2').create({ metadata: { name: 'w' }, spec: { count: 1 } }, { ...ns, fieldManager: 'writer' });
    const v1 = await at('v1').get('w', ns);
    const entry = (v1.metadata?.managedFields as { manager: string; apiVersion: string; fieldsV1: unknown }[])[0];
    expect(entry).toMatchObject({ manager: 'writer', apiVersion: 'example.com/v2', fieldsV1: { 'f:spec': { 'f:count': {} } } });
  });

  it('lists and watches at the requested version', async () => {
    await at('v1').create({ metadata: { name: 'a' }, spec: { size: 1 } }, ns);
    const list = await at('v2').list(ns);
    expect(list).toMatchObject({ apiVersion: 'example.com/v2', kind: 'WidgetList' });
    expect(list.items.map((i) => i.spec)).toEqual([{ count: 1 }]);
    const w = await at('v2').watch({ ...ns, resourceVersion: list.metadata.resourceVersion });
    await at('v1').create({ metadata: { name: 'b' }, spec: { size: 2 } }, ns);
    const it2 = w[Symbol.asyncIterator]();
    const e = await it2.next();
    expect(e.value).toMatchObject({ type: 'ADDED', object: { apiVersion: 'example.com/v2', kind: 'Widget', spec: { count: 2 } } });
    w.close();
  });

  it('refuses a body whose apiVersion names another served version, as Kubernetes does', async () => {
    const s = await statusOf(() => at('v2').create({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' }, spec: { size: 1 } }, ns));
    expect(s).toMatchObject({ code: 400, message: 'the API version in the data (example.com/v1) does not match the expected API version (example.com/v2)' });
    expect((await at('v1').list(ns)).items).toEqual([]);
  });

  it("rejects fields of the other version strictly, by the request version's schema", async () => {
    const s = await statusOf(() => at('v2').create({ metadata: { name: 'w' }, spec: { size: 1 } }, { ...ns, fieldValidation: 'Strict' }));
    expect(s).toMatchObject({ code: 400, message: 'Widget in version "v2" cannot be handled as a Widget: strict decoding error: unknown field "spec.size"' });
  });

  it('answers deletes at the requested version', async () => {
    await at('v1').create({ metadata: { name: 'w' }, spec: { size: 1 } }, ns);
    const deleted = await at('v2').deleteCollection(ns);
    expect(deleted).toMatchObject({ apiVersion: 'example.com/v2', kind: 'WidgetList' });
    expect(deleted.items.map((i) => i.spec)).toEqual([{ count: 1 }]);
  });
});
