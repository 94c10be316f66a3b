/**
 * Conversions that answer promises (as a conversion webhook does): every verb waits for them,
 * lists, collection deletes and a watch's initial events convert in one call, watch events keep
 * their order however long each conversion takes, and a failure fails the request or ends the
 * watch with an ERROR event.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ApiError } from '../../src/machinery/errors.js';
import type { WatchEvent, WatchStream } from '../../src/machinery/request.js';
import { defineKind, ObjectMetaSchema, type KubeObject } from '../../src/index.js';
import { statusOf, useTestCluster } from '../support/cluster.js';

const meta = { apiVersion: z.string().optional(), kind: z.string().optional(), metadata: ObjectMetaSchema.optional() };
const V1 = z.object({ ...meta, spec: z.object({ size: z.int32().optional(), color: z.string().optional() }).optional() });
const V2 = z.object({ ...meta, spec: z.object({ count: z.int32().optional(), color: z.string().optional() }).optional() });
type Spec = { size?: number; count?: number };

/** What the converter did and how it behaves, changed by each test. */
const control = {
  calls: [] as { direction: 'toStorage' | 'fromStorage' | 'fromStorageMany'; names: string[] }[],
  /** Milliseconds the n-th conversion call takes (0-based). */
  delay: (_n: number): number => 1,
  /** A conversion of an object with this name fails with this error. */
  failOn: undefined as { name: string; error: Error } | undefined,
};
afterEach(() => {
  control.calls = [];
  control.delay = () => 1;
  control.failOn = undefined;
});

const nameOf = (o: KubeObject) => o.metadata?.name ?? '';
const rename = (o: KubeObject, from: 'size' | 'count', to: 'size' | 'count'): KubeObject => {
  const spec = (o.spec ?? {}) as Spec;
  const { [from]: value, ...rest } = spec;
  return o.spec === undefined ? o : { ...o, spec: { ...rest, ...(value === undefined ? {} : { [to]: value }) } };
};

/** Converts after `control.delay`, failing on `control.failOn`. */
async function later<T>(direction: 'toStorage' | 'fromStorage' | 'fromStorageMany', objs: KubeObject[], convert: () => T): Promise<T> {
  const n = control.calls.length;
  control.calls.push({ direction, names: objs.map(nameOf) });
  await new Promise((r) => setTimeout(r, control.delay(n)));
  const failing = control.failOn;
  if (failing && objs.some((o) => nameOf(o) === failing.name)) throw failing.error;
  return convert();
}

/** v2 calls v1's `spec.size` `spec.count`, and converts asynchronously. */
const Widget = defineKind({
  group: 'example.com',
  kind: 'Widget',
  plural: 'widgets',
  scope: 'Namespaced',
  versions: [
    { name: 'v1', storage: true, schema: V1 },
    {
      name: 'v2',
      schema: V2,
      conversion: {
        toStorage: (o: KubeObject) => later('toStorage', [o], () => rename(o, 'count', 'size')),
        fromStorage: (o: KubeObject) => later('fromStorage', [o], () => rename(o, 'size', 'count')),
        fromStorageMany: (objs: KubeObject[]) => later('fromStorageMany', objs, () => objs.map((o) => rename(o, 'size', 'count'))),
      },
    },
  ],
});

const cluster = useTestCluster({ kinds: [Widget], watchBufferSize: 50 });
const at = (version: string) => cluster.client.resource({ group: 'example.com', version, resource: 'widgets' });
const ns = { namespace: 'default' };

/** The next `n` events of a watch (or fewer when it ends first). */
async function take(w: WatchStream<KubeObject>, n: number): Promise<WatchEvent<KubeObject>[]> {
  const out: WatchEvent<KubeObject>[] = [];
  const it = w[Symbol.asyncIterator]();
  while (out.length < n) {
    const next = await it.next();
    if (next.done) break;
    out.push(next.value);
  }
  return out;
}

describe('an asynchronous conversion', () => {
  it('serves create, get, update, patch, apply and delete at the converting version', async () => {
    const created = await at('v2').create({ metadata: { name: 'w' }, spec: { count: 1 } }, ns);
    expect(created).toMatchObject({ apiVersion: 'example.com/v2', kind: 'Widget', spec: { count: 1 } });
    expect((await at('v1').get('w', ns)).spec).toEqual({ size: 1 });
    expect((await at('v2').get('w', ns)).spec).toEqual({ count: 1 });
    const updated = await at('v2').update({ ...created, spec: { count: 2 } }, ns);
    expect(updated).toMatchObject({ apiVersion: 'example.com/v2', spec: { count: 2 }, metadata: { generation: 2 } });
    expect((await at('v2').patch('w', { spec: { count: 3 } }, { type: 'merge', ...ns })).spec).toEqual({ count: 3 });
    expect((await at('v2').patch('w', [{ op: 'replace', path: '/spec/count', value: 4 }], { type: 'json', ...ns })).spec).toEqual({ count: 4 });
    const applied = await at('v2').apply(
      { apiVersion: 'example.com/v2', kind: 'Widget', metadata: { name: 'w' }, spec: { count: 5 } },
      { fieldManager: 'tool', force: true, ...ns },
    );
    expect(applied.spec).toEqual({ count: 5 });
    expect((await at('v1').get('w', ns)).spec).toEqual({ size: 5 });
    const entry = ((await at('v1').get('w', ns)).metadata?.managedFields as { manager: string; apiVersion: string; fieldsV1: unknown }[]).find(
      (m) => m.manager === 'tool',
    );
    expect(entry).toMatchObject({ apiVersion: 'example.com/v2', fieldsV1: { 'f:spec': { 'f:count': {} } } });
    await at('v2').delete('w', ns);
    expect((await statusOf(() => at('v2').get('w', ns))).code).toBe(404);
  });

  it('converts an update in three calls: the body, the field manager (old and new at once), the answer', async () => {
    const created = await at('v2').create({ metadata: { name: 'w' }, spec: { count: 1 } }, ns);
    control.calls = [];
    await at('v2').update({ ...created, spec: { count: 2 } }, ns);
    expect(control.calls.map((c) => `${c.direction} ${c.names.length}`)).toEqual(['toStorage 1', 'fromStorageMany 2', 'fromStorage 1']);
  });

  it('converts a list in one call, and a collection delete in one call before it deletes', async () => {
    for (const name of ['a', 'b', 'c']) await at('v1').create({ metadata: { name }, spec: { size: name.charCodeAt(0) } }, ns);
    control.calls = [];
    const list = await at('v2').list(ns);
    expect(list).toMatchObject({ apiVersion: 'example.com/v2', kind: 'WidgetList' });
    expect(list.items.map((i) => i.spec)).toEqual([{ count: 97 }, { count: 98 }, { count: 99 }]);
    expect(control.calls).toEqual([{ direction: 'fromStorageMany', names: ['a', 'b', 'c'] }]);

    control.failOn = { name: 'b', error: new ApiError({ code: 500, message: 'conversion failed' }) };
    const s = await statusOf(() => at('v2').deleteCollection(ns));
    expect(s).toEqual({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'conversion failed', code: 500 });
    expect((await at('v1').list(ns)).items).toHaveLength(3);
    control.failOn = undefined;
    control.calls = [];
    const deleted = await at('v2').deleteCollection(ns);
    expect(deleted.items.map((i) => i.spec)).toEqual([{ count: 97 }, { count: 98 }, { count: 99 }]);
    expect(control.calls).toEqual([{ direction: 'fromStorageMany', names: ['a', 'b', 'c'] }]);
    expect((await at('v1').list(ns)).items).toEqual([]);
  });

  it('lets a failed conversion answer the request: an ApiError as it is, anything else as a 500 InternalError', async () => {
    await at('v1').create({ metadata: { name: 'w' }, spec: { size: 1 } }, ns);
    control.failOn = { name: 'w', error: new ApiError({ code: 500, message: 'conversion webhook for example.com/v1, Kind=Widget failed: boom' }) };
    const read = await statusOf(() => at('v2').get('w', ns));
    expect(read).toMatchObject({ code: 500, message: 'conversion webhook for example.com/v1, Kind=Widget failed: boom' });
    expect(read.reason).toBeUndefined();
    const write = await statusOf(() => at('v2').create({ metadata: { name: 'w' }, spec: { count: 1 } }, ns));
    expect(write.code).toBe(500);
    control.failOn = { name: 'w', error: new Error('plain') };
    expect(await statusOf(() => at('v2').get('w', ns))).toMatchObject({ code: 500, reason: 'InternalError', message: 'Internal error occurred: plain' });
    // The object was not changed by the failed requests.
    expect((await at('v1').get('w', ns)).spec).toEqual({ size: 1 });
  });

  it('answers decoding errors before it converts anything', async () => {
    const s = await statusOf(() => at('v2').create({ metadata: { name: 'w' }, spec: { size: 1 } }, { ...ns, fieldValidation: 'Strict' }));
    expect(s.message).toBe('Widget in version "v2" cannot be handled as a Widget: strict decoding error: unknown field "spec.size"');
    expect(control.calls).toEqual([]);
  });

  it('sends watch events in the order of their changes when later conversions finish first', async () => {
    await at('v1').create({ metadata: { name: 'w' }, spec: { size: 0 } }, ns);
    const w = await at('v2').watch({ ...ns, resourceVersion: '0' });
    // Each conversion is quicker than the one before: without ordering, the events would arrive reversed.
    control.delay = (n) => Math.max(0, 40 - 2 * n);
    for (let i = 1; i <= 15; i++) await at('v1').patch('w', { spec: { size: i } }, { type: 'merge', ...ns });
    const events = await take(w, 16);
    expect(events.map((e) => `${e.type} ${(e.object.spec as Spec).count}`)).toEqual(['ADDED 0', ...Array.from({ length: 15 }, (_, i) => `MODIFIED ${i + 1}`)]);
    const rvs = events.map((e) => Number(e.object.metadata?.resourceVersion));
    expect([...rvs].sort((a, b) => a - b)).toEqual(rvs);
    w.close();
  });

  it('converts the initial events of a watch in one call, then live events as they come', async () => {
    for (const name of ['a', 'b']) await at('v1').create({ metadata: { name }, spec: { size: 1 } }, ns);
    control.calls = [];
    const w = await at('v2').watch(ns);
    await at('v1').create({ metadata: { name: 'c' }, spec: { size: 2 } }, ns);
    const events = await take(w, 3);
    expect(events.map((e) => `${e.type} ${e.object.metadata?.name} ${(e.object.spec as Spec).count}`)).toEqual(['ADDED a 1', 'ADDED b 1', 'ADDED c 2']);
    expect(control.calls[0]).toEqual({ direction: 'fromStorageMany', names: ['a', 'b'] });
    expect(control.calls.flatMap((c) => c.names)).toEqual(['a', 'b', 'c']);
    w.close();
  });

  it('ends a watch whose conversion fails with an InternalError ERROR event after the events before it', async () => {
    const w = await at('v2').watch(ns);
    control.failOn = { name: 'bad', error: new ApiError({ code: 500, message: 'conversion webhook for example.com/v1, Kind=Widget failed: boom' }) };
    await at('v1').create({ metadata: { name: 'good' }, spec: { size: 1 } }, ns);
    await at('v1').create({ metadata: { name: 'bad' }, spec: { size: 2 } }, ns);
    await at('v1').create({ metadata: { name: 'after' }, spec: { size: 3 } }, ns);
    const events = await take(w, 10);
    expect(events).toEqual([
      expect.objectContaining({ type: 'ADDED', object: expect.objectContaining({ metadata: expect.objectContaining({ name: 'good' }) }) }),
      {
        type: 'ERROR',
        object: {
          kind: 'Status',
          apiVersion: 'v1',
          metadata: {},
          status: 'Failure',
          message: 'Internal error occurred: conversion webhook for example.com/v1, Kind=Widget failed: boom',
          reason: 'InternalError',
          details: { causes: [{ message: 'conversion webhook for example.com/v1, Kind=Widget failed: boom' }] },
          code: 500,
        },
      },
    ]);
    expect(cluster.activeWatchers).toBe(0);
  });

  it('ends a watch whose initial events fail to convert with the ERROR event alone', async () => {
    await at('v1').create({ metadata: { name: 'bad' }, spec: { size: 1 } }, ns);
    control.failOn = { name: 'bad', error: new Error('no') };
    const events = await take(await at('v2').watch(ns), 5);
    expect(events).toEqual([
      { type: 'ERROR', object: expect.objectContaining({ code: 500, reason: 'InternalError', message: 'Internal error occurred: no' }) },
    ]);
  });

  it('keeps bookmarks and the end of a watch behind the events still converting', async () => {
    await at('v1').create({ metadata: { name: 'a' }, spec: { size: 1 } }, ns);
    control.delay = () => 30;
    const w = await at('v2').watch({ ...ns, resourceVersion: '0', resourceVersionMatch: 'NotOlderThan', allowWatchBookmarks: true, sendInitialEvents: true });
    const events = await take(w, 2);
    expect(events.map((e) => e.type)).toEqual(['ADDED', 'BOOKMARK']);
    expect(events[1]!.object.metadata?.annotations).toEqual({ 'k8s.io/initial-events-end': 'true' });
    w.close();
  });

  it('cuts off a watcher whose events pile up behind a slow conversion, as one that does not read', async () => {
    const w = await at('v2').watch(ns);
    control.delay = () => 200;
    for (let i = 0; i < 60; i++) await at('v1').create({ metadata: { name: `w${i}` }, spec: { size: i } }, ns);
    const events = await take(w, 100);
    expect(events.length).toBeLessThan(60);
    expect(cluster.activeWatchers).toBe(0);
  });
});
