import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineKind, fieldError, ObjectMetaSchema } from '../../src/index.js';
import { statusOf, testCluster } from '../support/cluster.js';

const Widget = z.object({
  apiVersion: z.string().optional(),
  kind: z.string().optional(),
  metadata: ObjectMetaSchema.optional(),
  spec: z.object({ size: z.int32().optional(), color: z.string() }),
});

const WidgetKind = defineKind<z.infer<typeof Widget>>({
  group: 'toys.{api_domain}',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced',
  versions: [{ name: 'v1', schema: Widget, served: true, storage: true }],
  strategy: {
    defaults: (w) => {
      w.spec.size ??= 1;
    },
    validate: (w) => (w.spec.size !== undefined && w.spec.size > 10 ? [fieldError.invalid('spec.size', w.spec.size, 'must be at most 10')] : []),
  },
  selectableFields: { 'spec.color': (w) => w.spec.color },
});

describe('defineKind', () => {
  it('adds a kind with one declaration: defaults, rules, required fields, field selectors, domain', async () => {
    const cluster = await testCluster({ apiDomain: 'example.org', kinds: [WidgetKind] });
    const widgets = cluster.client.resource(WidgetKind);
    const w = await widgets.create({ metadata: { name: 'w' }, spec: { color: 'red' } });
    expect(w).toMatchObject({ apiVersion: 'toys.example.org/v1', kind: 'Widget', spec: { size: 1, color: 'red' } });
    const big = await statusOf(() => widgets.create({ metadata: { name: 'big' }, spec: { size: 11, color: 'x' } }));
    expect(big).toMatchObject({
      code: 422,
      message: 'Widget.toys.example.org "big" is invalid: spec.size: Invalid value: 11: must be at most 10',
      details: { group: 'toys.example.org', kind: 'Widget' },
    });
    const missing = await statusOf(() => widgets.create({ metadata: { name: 'm' }, spec: {} } as never));
    expect(missing.message).toBe('Widget.toys.example.org "m" is invalid: spec.color: Required value');
    await widgets.create({ metadata: { name: 'b' }, spec: { color: 'blue' } });
    const red = await widgets.list({ fieldSelector: 'spec.color=red' });
    expect(red.items.map((i) => i.metadata?.name)).toEqual(['w']);
    const unsupported = await statusOf(() => widgets.list({ fieldSelector: 'spec.size=1' }));
    expect(unsupported).toMatchObject({ code: 400, message: 'field label not supported: spec.size' });
    await cluster.close();
  });

  it("refuses an update that changes a declared immutable field, before the kind's own update rules", async () => {
    const LockedKind = defineKind<z.infer<typeof Widget>>({
      group: 'toys.{api_domain}',
      kind: 'Locked',
      plural: 'lockeds',
      scope: 'Namespaced',
      versions: [{ name: 'v1', schema: Widget, served: true, storage: true }],
      immutableFields: ['spec.color', { path: 'spec.size', shown: 'nil' }],
      strategy: {
        validateUpdate: (w, old) => (w.spec.size === old.spec.size ? [] : [fieldError.forbidden('spec', 'no changes')]),
      },
    });
    const cluster = await testCluster({ kinds: [LockedKind] });
    const locked = cluster.client.resource(LockedKind);
    const w = await locked.create({ metadata: { name: 'w' }, spec: { size: 1, color: 'red' } });
    const relabeled = await locked.update({ ...w, metadata: { ...w.metadata, labels: { a: 'b' } } });
    expect(relabeled.metadata?.labels).toEqual({ a: 'b' });
    const s = await statusOf(() => locked.update({ ...relabeled, spec: { size: 2, color: 'blue' } }));
    expect(s).toMatchObject({ code: 422, reason: 'Invalid' });
    expect(s.message).toBe(
      'Locked.toys.k8s.io "w" is invalid: [spec.color: Invalid value: "blue": field is immutable, spec.size: Invalid value: null: field is immutable, spec: Forbidden: no changes]',
    );
    await cluster.close();
  });

  it('refuses a declaration without exactly one storage version', () => {
    expect(() => defineKind({ group: '', kind: 'X', plural: 'xs', scope: 'Cluster', versions: [{ name: 'v1', schema: Widget as never }] })).toThrow(
      'exactly one version must be the storage version',
    );
  });
});
