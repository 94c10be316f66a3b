/**
 * `metadata.generation` as the engine keeps it for each policy a kind declares: the custom
 * resource default (`'object'`), none (`false`, a ConfigMap) and a kind's own test (`changed`).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineKind, ObjectMetaSchema } from '../../src/index.js';
import { ConfigMapKind } from '../../src/kinds/index.js';
import { useTestCluster } from '../support/cluster.js';

const meta = { apiVersion: z.string().optional(), kind: z.string().optional(), metadata: ObjectMetaSchema.optional() };
const schema = z.object({
  ...meta,
  spec: z.object({ size: z.int32().optional() }).optional(),
  data: z.record(z.string(), z.string()).optional(),
  status: z.object({ ready: z.boolean().optional() }).optional(),
});

/** A kind declared without a policy: custom resources' behaviour. */
const Gadget = defineKind({ group: 'example.com', kind: 'Gadget', plural: 'gadgets', scope: 'Namespaced', versions: [{ name: 'v1', storage: true, schema }] });
/** The same with a status subresource. */
const Widget = defineKind({
  group: 'example.com',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced',
  statusSubresource: true,
  versions: [{ name: 'v1', storage: true, schema }],
});
/** A kind whose generation counts only changes of `spec.size`. */
const Sizer = defineKind({
  group: 'example.com',
  kind: 'Sizer',
  plural: 'sizers',
  scope: 'Namespaced',
  generation: { changed: (obj, old) => (obj.spec as { size?: number } | undefined)?.size !== (old.spec as { size?: number } | undefined)?.size },
  versions: [{ name: 'v1', storage: true, schema }],
});

const cluster = useTestCluster({ kinds: [Gadget, Widget, Sizer] });
const at = (resource: string) => cluster.client.resource({ group: 'example.com', version: 'v1', resource });
const cms = () => cluster.client.resource(ConfigMapKind);
const ns = { namespace: 'default' };

describe("the default policy ('object', as custom resources)", () => {
  it('starts at 1 whatever the body says and counts every change outside metadata', async () => {
    const created = await at('gadgets').create({ metadata: { name: 'g', generation: 7 }, spec: { size: 1 } }, ns);
    expect(created.metadata?.generation).toBe(1);
    const resized = await at('gadgets').update({ ...created, spec: { size: 2 } }, ns);
    expect(resized.metadata?.generation).toBe(2);
    const relabelled = await at('gadgets').update({ ...resized, metadata: { ...resized.metadata, labels: { a: 'b' } } }, ns);
    expect(relabelled.metadata?.generation).toBe(2);
    // Fields beside spec count too, and without a status subresource so does status.
    const withData = await at('gadgets').update({ ...relabelled, data: { k: 'v' } }, ns);
    expect(withData.metadata?.generation).toBe(3);
    const withStatus = await at('gadgets').update({ ...withData, status: { ready: true } }, ns);
    expect(withStatus.metadata?.generation).toBe(4);
  });

  it('never takes the generation from an update body', async () => {
    const created = await at('gadgets').create({ metadata: { name: 'g' }, spec: { size: 1 } }, ns);
    const same = await at('gadgets').update({ ...created, metadata: { ...created.metadata, generation: 9 } }, ns);
    expect(same.metadata?.generation).toBe(1);
    expect(same.metadata?.resourceVersion).toBe(created.metadata?.resourceVersion);
  });

  it('is not bumped by a /status write', async () => {
    const created = await at('widgets').create({ metadata: { name: 'w' }, spec: { size: 1 } }, ns);
    const ready = await at('widgets').updateStatus({ ...created, status: { ready: true } }, ns);
    expect(ready.status).toEqual({ ready: true });
    expect(ready.metadata?.generation).toBe(1);
  });
});

describe('a kind without a generation (false)', () => {
  it('keeps what the client sent on create and the stored value on update', async () => {
    const plain = await cms().create({ metadata: { name: 'plain' }, data: { k: '1' } });
    expect(plain.metadata?.generation).toBeUndefined();
    expect((await cms().update({ ...plain, data: { k: '2' } })).metadata?.generation).toBeUndefined();
    const zero = await cms().create({ metadata: { name: 'zero', generation: 0 } });
    expect(zero.metadata && 'generation' in zero.metadata).toBe(false);

    const sent = await cms().create({ metadata: { name: 'sent', generation: 5 }, data: { k: '1' } });
    expect(sent.metadata?.generation).toBe(5);
    const updated = await cms().update({ ...sent, metadata: { ...sent.metadata, generation: 9 }, data: { k: '2' } });
    expect(updated.metadata?.generation).toBe(5);
  });

  it('still bumps a generation above 0 when a delete marks the object, as every kind does', async () => {
    await cms().create({ metadata: { name: 'held', generation: 3, finalizers: ['example.com/hold'] } });
    const marked = await cms().delete('held');
    expect((marked as { metadata?: { generation?: number } }).metadata?.generation).toBe(4);
  });
});

describe("a kind's own test (changed)", () => {
  it('bumps only when the test says the update changed the object', async () => {
    const created = await at('sizers').create({ metadata: { name: 's', generation: 4 }, spec: { size: 1 } }, ns);
    expect(created.metadata?.generation).toBe(1);
    const withData = await at('sizers').update({ ...created, data: { k: 'v' } }, ns);
    expect(withData.metadata?.generation).toBe(1);
    const resized = await at('sizers').update({ ...withData, spec: { size: 3 } }, ns);
    expect(resized.metadata?.generation).toBe(2);
  });
});
