/**
 * Keys that name Object.prototype members (`__proto__`, `constructor`, `toString`, ...) through
 * every verb, in process and over HTTP (a listening cluster). As ConfigMap data keys they are
 * valid and must be stored and answered exactly (create, get as JSON, YAML and Table, list,
 * watch, update, every JSON patch operation, merge and strategic merge patch, server-side
 * apply, a protobuf body); as label and annotation keys they are valid qualified names except
 * `__proto__`, which is a 422 with Kubernetes' message and nothing stored. Object.prototype must
 * be untouched after every case.
 */
import fc from 'fast-check';
import { parse as parseYaml } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../src/machinery/errors.js';
import type { Cluster } from '../../src/cluster.js';
import type { Listening } from '../../src/http/listen.js';
import { ConfigMapKind, NamespaceKind } from '../../src/kinds/index.js';
import { goJsonString } from '../../src/util/go-format.js';
import { testCluster } from '../support/cluster.js';
import { entry, envelope, msg, str } from '../http/protobuf/writer.js';

const NS = 'hostile';
const HOSTILE = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf'] as const;
type Key = (typeof HOSTILE)[number];

let cluster: Cluster;
let server: Listening;
beforeAll(async () => {
  cluster = await testCluster();
  server = await cluster.listen({ host: '127.0.0.1', port: 0 });
  await cluster.client.resource(NamespaceKind).create({ metadata: { name: NS } });
});
afterAll(async () => {
  await server?.close();
  await cluster?.close();
});

type Json = Record<string, any>;

/** An answer of either door: the HTTP status and the decoded body. */
interface Answer {
  status: number;
  body: Json;
}

/** Sorted-key JSON of own members only: compares values holding `__proto__` keys exactly. */
function canon(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  if (typeof v === 'object' && v !== null) {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canon((v as Json)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** `{ [k]: v }` built from JSON text, so a `__proto__` key is an own member, as a client sends it. */
function obj(entries: [string, unknown][]): Json {
  return JSON.parse(`{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`) as Json;
}

/** The ways a client reaches the server; bodies are given as JSON text and parsed for the in-process client. */
interface Door {
  readonly name: 'in-process' | 'http';
  create(text: string): Promise<Answer>;
  /** A create sent as a protobuf body (HTTP) of the ConfigMap `name` with `data`. */
  createProtobuf(name: string, data: [string, string][]): Promise<Answer>;
  get(name: string): Promise<Answer>;
  /** Every representation of a get the door has (HTTP: JSON, YAML, Table with the object). */
  gets(name: string): Promise<Json[]>;
  list(name: string): Promise<Answer>;
  /** Lists the namespace's ConfigMaps by a label selector. */
  select(selector: string): Promise<Answer>;
  update(name: string, text: string): Promise<Answer>;
  patch(name: string, type: 'json' | 'merge' | 'strategic', text: string): Promise<Answer>;
  apply(name: string, text: string, manager: string): Promise<Answer>;
  /** Opens a watch on `name` from `rv`, runs `trigger`, answers the first event. */
  watch(name: string, rv: string, trigger: () => Promise<unknown>): Promise<Json>;
}

const cms = () => cluster.client.resource(ConfigMapKind);

async function inProcess(call: () => Promise<unknown>, status = 200): Promise<Answer> {
  try {
    return { status, body: (await call()) as Json };
  } catch (e) {
    if (e instanceof ApiError) return { status: e.code, body: e.status as unknown as Json };
    throw e;
  }
}

const IN_PROCESS: Door = {
  name: 'in-process',
  create: (text) => inProcess(() => cms().create(JSON.parse(text), { namespace: NS }), 201),
  createProtobuf: (name, data) => IN_PROCESS.create(configMap(name, obj(data))),
  get: (name) => inProcess(() => cms().get(name, { namespace: NS })),
  gets: async (name) => [(await IN_PROCESS.get(name)).body],
  list: (name) => inProcess(() => cms().list({ namespace: NS, fieldSelector: `metadata.name=${name}` })),
  select: (selector) => inProcess(() => cms().list({ namespace: NS, labelSelector: selector })),
  update: (_name, text) => inProcess(() => cms().update(JSON.parse(text), { namespace: NS })),
  patch: (name, type, text) => inProcess(() => cms().patch(name, JSON.parse(text), { type, namespace: NS })),
  apply: (_name, text, manager) => inProcess(() => cms().apply(JSON.parse(text), { fieldManager: manager, namespace: NS })),
  async watch(name, rv, trigger) {
    const stream = await cms().watch({ namespace: NS, fieldSelector: `metadata.name=${name}`, resourceVersion: rv });
    try {
      await trigger();
      for await (const e of stream) return e as unknown as Json;
      throw new Error('the watch ended without an event');
    } finally {
      stream.close();
    }
  },
};

const COLLECTION = `/api/v1/namespaces/${NS}/configmaps`;
const PATCH_TYPES = { json: 'application/json-patch+json', merge: 'application/merge-patch+json', strategic: 'application/strategic-merge-patch+json' };

async function http(method: string, path: string, body?: string | Uint8Array, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(server.url + path, { method, body, headers: { 'Content-Type': 'application/json', ...headers } });
  return { status: res.status, body: (await res.json()) as Json };
}

const HTTP: Door = {
  name: 'http',
  create: (text) => http('POST', COLLECTION, text),
  createProtobuf: (name, data) =>
    http('POST', COLLECTION, envelope('v1', 'ConfigMap', [msg(1, str(1, name)), ...data.map(([k, v]) => entry(2, k, v))]), {
      'Content-Type': 'application/vnd.kubernetes.protobuf',
    }),
  get: (name) => http('GET', `${COLLECTION}/${name}`),
  async gets(name) {
    const json = (await HTTP.get(name)).body;
    const yamlRes = await fetch(`${server.url}${COLLECTION}/${name}`, { headers: { Accept: 'application/yaml' } });
    const yaml = parseYaml(await yamlRes.text()) as Json;
    const table = (await http('GET', `${COLLECTION}/${name}?includeObject=Object`, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' })).body;
    return [json, yaml, table.rows[0].object];
  },
  list: (name) => http('GET', `${COLLECTION}?fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`),
  select: (selector) => http('GET', `${COLLECTION}?labelSelector=${encodeURIComponent(selector)}`),
  update: (name, text) => http('PUT', `${COLLECTION}/${name}`, text),
  patch: (name, type, text) => http('PATCH', `${COLLECTION}/${name}`, text, { 'Content-Type': PATCH_TYPES[type] }),
  apply: (name, text, manager) => http('PATCH', `${COLLECTION}/${name}?fieldManager=${manager}`, text, { 'Content-Type': 'application/apply-patch+yaml' }),
  async watch(name, rv, trigger) {
    const controller = new AbortController();
    const q = `watch=1&resourceVersion=${rv}&fieldSelector=${encodeURIComponent(`metadata.name=${name}`)}`;
    const res = await fetch(`${server.url}${COLLECTION}?${q}`, { signal: controller.signal });
    try {
      await trigger();
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let text = '';
      while (!text.includes('\n')) {
        const { done, value } = await reader.read();
        if (done) throw new Error('the watch ended without an event');
        text += value;
      }
      return JSON.parse(text.slice(0, text.indexOf('\n'))) as Json;
    } finally {
      controller.abort();
    }
  },
};

const DOORS: Record<Door['name'], Door> = { 'in-process': IN_PROCESS, http: HTTP };

let serial = 0;
const nextName = () => `cm-${++serial}`;

/** A ConfigMap's JSON text (JSON.stringify writes an own `__proto__` member like any other). */
function configMap(name: string, data?: Json, meta: Json = {}): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...meta }, ...(data ? { data } : {}) });
}

/** Creates `name` with `data` (given as entries, so a `__proto__` key is sent as a member). */
async function seed(door: Door, name: string, data: [string, string][]): Promise<Json> {
  const res = await door.create(configMap(name, obj(data)));
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

async function expectData(door: Door, name: string, expected: Json, answer?: Answer): Promise<void> {
  const want = canon(expected);
  if (answer) {
    expect(answer.status, JSON.stringify(answer.body)).toBeLessThan(300);
    expect(canon(answer.body.data)).toBe(want);
  }
  for (const got of await door.gets(name)) {
    expect(canon(got.data)).toBe(want);
    expect(Object.getPrototypeOf(got.data)).toBe(Object.prototype);
  }
}

const pointer = (k: string) => `/data/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`;

/** One verb with a hostile ConfigMap data key `k` and a value `v`. */
const DATA_CASES: Record<string, (door: Door, k: Key, v: string) => Promise<void>> = {
  async create(door, k, v) {
    const name = nextName();
    const res = await door.create(
      configMap(
        name,
        obj([
          [k, v],
          ['other', 'o'],
        ]),
      ),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectData(
      door,
      name,
      obj([
        [k, v],
        ['other', 'o'],
      ]),
      res,
    );
  },
  async protobuf(door, k, v) {
    const name = nextName();
    const res = await door.createProtobuf(name, [
      [k, v],
      ['other', 'o'],
    ]);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    await expectData(
      door,
      name,
      obj([
        [k, v],
        ['other', 'o'],
      ]),
      res,
    );
  },
  async 'impersonated extra'(door, k, v) {
    const name = nextName();
    await seed(door, name, [[k, v]]);
    const extra = obj([[k.toLowerCase(), [v]]]);
    const res =
      door.name === 'http'
        ? await http('GET', `${COLLECTION}/${name}`, undefined, {
            'Impersonate-User': 'bob',
            'Impersonate-Group': 'system:masters',
            [`Impersonate-Extra-${k}`]: encodeURIComponent(v),
          })
        : await inProcess(
            async () =>
              (
                await cluster.request({
                  verb: 'get',
                  resource: { group: '', version: 'v1', resource: 'configmaps' },
                  namespace: NS,
                  name,
                  user: { username: 'bob', groups: ['system:masters'], extra },
                })
              ).body,
          );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(canon(res.body.data)).toBe(canon(obj([[k, v]])));
  },
  async list(door, k, v) {
    const name = nextName();
    await seed(door, name, [[k, v]]);
    const res = await door.list(name);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1);
    expect(canon(res.body.items[0].data)).toBe(canon(obj([[k, v]])));
  },
  async watch(door, k, v) {
    const name = nextName();
    const created = await seed(door, name, [[k, v]]);
    const event = await door.watch(name, created.metadata.resourceVersion, () => door.patch(name, 'merge', JSON.stringify({ data: obj([[k, `${v}!`]]) })));
    expect(event.type).toBe('MODIFIED');
    expect(canon(event.object.data)).toBe(canon(obj([[k, `${v}!`]])));
  },
  async update(door, k, v) {
    const name = nextName();
    const created = await seed(door, name, [['other', 'o']]);
    const res = await door.update(name, configMap(name, obj([[k, v]]), { resourceVersion: created.metadata.resourceVersion }));
    await expectData(door, name, obj([[k, v]]), res);
    const again = await door.update(
      name,
      configMap(
        name,
        obj([
          [k, `${v}2`],
          ['other', 'o'],
        ]),
        { resourceVersion: res.body.metadata.resourceVersion },
      ),
    );
    await expectData(
      door,
      name,
      obj([
        [k, `${v}2`],
        ['other', 'o'],
      ]),
      again,
    );
  },
  async 'json add'(door, k, v) {
    const name = nextName();
    await seed(door, name, [['other', 'o']]);
    const res = await door.patch(name, 'json', JSON.stringify([{ op: 'add', path: pointer(k), value: v }]));
    await expectData(
      door,
      name,
      obj([
        ['other', 'o'],
        [k, v],
      ]),
      res,
    );
  },
  async 'json replace'(door, k, v) {
    const name = nextName();
    await seed(door, name, [
      [k, 'before'],
      ['other', 'o'],
    ]);
    const res = await door.patch(name, 'json', JSON.stringify([{ op: 'replace', path: pointer(k), value: v }]));
    await expectData(
      door,
      name,
      obj([
        [k, v],
        ['other', 'o'],
      ]),
      res,
    );
  },
  async 'json remove'(door, k, v) {
    const name = nextName();
    await seed(door, name, [
      [k, v],
      ['other', 'o'],
    ]);
    const res = await door.patch(name, 'json', JSON.stringify([{ op: 'remove', path: pointer(k) }]));
    await expectData(door, name, { other: 'o' }, res);
  },
  async 'json move'(door, k, v) {
    const name = nextName();
    await seed(door, name, [['other', v]]);
    const res = await door.patch(name, 'json', JSON.stringify([{ op: 'move', from: '/data/other', path: pointer(k) }]));
    await expectData(door, name, obj([[k, v]]), res);
    const back = await door.patch(name, 'json', JSON.stringify([{ op: 'move', from: pointer(k), path: '/data/other' }]));
    await expectData(door, name, { other: v }, back);
  },
  async 'json copy'(door, k, v) {
    const name = nextName();
    await seed(door, name, [['other', v]]);
    const res = await door.patch(name, 'json', JSON.stringify([{ op: 'copy', from: '/data/other', path: pointer(k) }]));
    await expectData(
      door,
      name,
      obj([
        ['other', v],
        [k, v],
      ]),
      res,
    );
  },
  async 'json test'(door, k, v) {
    const name = nextName();
    const created = await seed(door, name, [
      [k, v],
      ['other', 'o'],
    ]);
    // Go compares the stored value's HTML-safe encoding with the text sent: over HTTP send that
    // text; in process the value stands for JSON.stringify's text, equal unless it holds <, >, &.
    const sent = door.name === 'http' ? goJsonString(v) : JSON.stringify(v);
    const same = sent === goJsonString(v);
    const res = await door.patch(
      name,
      'json',
      `[{"op":"test","path":"${pointer(k)}","value":${sent}},{"op":"replace","path":"/data/other","value":"changed"}]`,
    );
    if (same)
      await expectData(
        door,
        name,
        obj([
          [k, v],
          ['other', 'changed'],
        ]),
        res,
      );
    else expect(res.status).toBe(422);
    const wrong = await door.patch(
      name,
      'json',
      JSON.stringify([
        { op: 'test', path: pointer(k), value: `${v}?` },
        { op: 'remove', path: pointer(k) },
      ]),
    );
    expect(wrong.status).toBe(422);
    expect(wrong.body.message).toBe('the server rejected our request due to an error in our request');
    const after = await door.get(name);
    expect(after.body.metadata.resourceVersion).toBe(same ? res.body.metadata.resourceVersion : created.metadata.resourceVersion);
    expect(Object.keys(after.body.data)).toContain(k);
  },
  async merge(door, k, v) {
    const name = nextName();
    await seed(door, name, [['other', 'o']]);
    const res = await door.patch(name, 'merge', JSON.stringify({ data: obj([[k, v]]) }));
    await expectData(
      door,
      name,
      obj([
        ['other', 'o'],
        [k, v],
      ]),
      res,
    );
    const removed = await door.patch(name, 'merge', JSON.stringify({ data: obj([[k, null]]) }));
    await expectData(door, name, { other: 'o' }, removed);
  },
  async strategic(door, k, v) {
    const name = nextName();
    await seed(door, name, [['other', 'o']]);
    const res = await door.patch(name, 'strategic', JSON.stringify({ data: obj([[k, v]]) }));
    await expectData(
      door,
      name,
      obj([
        ['other', 'o'],
        [k, v],
      ]),
      res,
    );
    const removed = await door.patch(name, 'strategic', JSON.stringify({ data: obj([[k, null]]) }));
    await expectData(door, name, { other: 'o' }, removed);
  },
  async apply(door, k, v) {
    const name = nextName();
    const res = await door.apply(
      name,
      configMap(
        name,
        obj([
          [k, v],
          ['other', 'o'],
        ]),
      ),
      'hostile',
    );
    await expectData(
      door,
      name,
      obj([
        [k, v],
        ['other', 'o'],
      ]),
      res,
    );
    expect(res.body.metadata.managedFields[0].fieldsV1).toEqual(JSON.parse(`{"f:data":{${JSON.stringify(`f:${k}`)}:{},"f:other":{}}}`));
    // Another manager's apply without the key leaves it; applied again without the key by the
    // manager that set it, the key is removed.
    const other = await door.apply(name, configMap(name, { more: 'm' }), 'other');
    await expectData(
      door,
      name,
      obj([
        [k, v],
        ['other', 'o'],
        ['more', 'm'],
      ]),
      other,
    );
    const second = await door.apply(name, configMap(name, { other: 'o' }), 'hostile');
    await expectData(door, name, { other: 'o', more: 'm' }, second);
  },
};

/** Kubernetes' message for a label or annotation key that is not a qualified name. */
const invalidKey = (name: string, field: string, key: string) =>
  `ConfigMap "${name}" is invalid: metadata.${field}: Invalid value: "${key}": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`;

type MetaField = 'labels' | 'annotations';

/**
 * One verb setting metadata[field] = map on a new (create, apply) or seeded ConfigMap; answers
 * the response and the seeded object's resourceVersion.
 */
const META_CASES: Record<string, (door: Door, name: string, field: MetaField, map: Json) => Promise<[Answer, string?]>> = {
  create: async (door, name, field, map) => [await door.create(configMap(name, undefined, { [field]: map }))],
  async update(door, name, field, map) {
    const rv = (await seed(door, name, [['other', 'o']])).metadata.resourceVersion;
    return [await door.update(name, configMap(name, { other: 'o' }, { resourceVersion: rv, [field]: map })), rv];
  },
  async 'json add'(door, name, field, map) {
    const rv = (await seed(door, name, [['other', 'o']])).metadata.resourceVersion;
    return [await door.patch(name, 'json', JSON.stringify([{ op: 'add', path: `/metadata/${field}`, value: map }])), rv];
  },
  async merge(door, name, field, map) {
    const rv = (await seed(door, name, [['other', 'o']])).metadata.resourceVersion;
    return [await door.patch(name, 'merge', JSON.stringify({ metadata: { [field]: map } })), rv];
  },
  async strategic(door, name, field, map) {
    const rv = (await seed(door, name, [['other', 'o']])).metadata.resourceVersion;
    return [await door.patch(name, 'strategic', JSON.stringify({ metadata: { [field]: map } })), rv];
  },
  apply: async (door, name, field, map) => [await door.apply(name, configMap(name, undefined, { [field]: map }), 'hostile')],
};

async function metaCase(door: Door, verb: string, field: MetaField, k: Key, v: string): Promise<void> {
  const name = nextName();
  const value = field === 'labels' ? 'x' : v;
  const [res, seededRv] = await META_CASES[verb]!(door, name, field, obj([[k, value]]));
  const stored = await door.get(name);
  if (k === '__proto__') {
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body).toMatchObject({ reason: 'Invalid', message: invalidKey(name, field, k) });
    if (seededRv === undefined) expect(stored.status).toBe(404);
    else {
      expect(stored.body.metadata.resourceVersion).toBe(seededRv);
      expect(stored.body.metadata[field]).toBeUndefined();
    }
    return;
  }
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  expect(canon(res.body.metadata[field])).toBe(canon(obj([[k, value]])));
  expect(canon(stored.body.metadata[field])).toBe(canon(obj([[k, value]])));
}

/** What Object.prototype holds before any case ran. */
const PROTOTYPE = Object.getOwnPropertyNames(Object.prototype).map((n) => [n, Object.getOwnPropertyDescriptor(Object.prototype, n)!] as const);

function expectPrototypeUntouched(): void {
  expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(PROTOTYPE.map(([n]) => n));
  for (const [n, d] of PROTOTYPE) {
    const now = Object.getOwnPropertyDescriptor(Object.prototype, n)!;
    expect(now.value).toBe(d.value);
    expect(now.get).toBe(d.get);
    expect(now.set).toBe(d.set);
  }
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}

const key = fc.constantFrom(...HOSTILE);
const door = fc.constantFrom<Door['name']>('in-process', 'http');
const value = fc.string({ minLength: 1, maxLength: 12 });

describe('hostile keys', () => {
  it('as ConfigMap data keys are stored and answered exactly by every verb, in process and over HTTP', async () => {
    const verbs = Object.keys(DATA_CASES);
    const every = HOSTILE.flatMap((k) =>
      verbs.flatMap((verb) => (['in-process', 'http'] as const).map((d) => [k, verb, d, 'v<&>1'] as [Key, string, Door['name'], string])),
    );
    await fc.assert(
      fc.asyncProperty(key, fc.constantFrom(...verbs), door, value, async (k, verb, d, v) => {
        await DATA_CASES[verb]!(DOORS[d], k, v);
        expectPrototypeUntouched();
      }),
      // Examples count towards numRuns: every key, verb and door once, then random ones.
      { examples: every, numRuns: every.length + 60 },
    );
  });

  it('as label selector keys select by own labels only, and `__proto__` is a 400', async () => {
    for (const k of HOSTILE) {
      for (const d of Object.values(DOORS)) {
        const labeled = nextName();
        const plain = nextName();
        const tag = `t${serial}`;
        if (k !== '__proto__') expect((await d.create(configMap(labeled, undefined, { labels: obj([[k, tag]]) }))).status).toBe(201);
        expect((await d.create(configMap(plain, undefined, { labels: { other: tag } }))).status).toBe(201);
        const names = async (selector: string): Promise<string[]> => {
          const res = await d.select(selector);
          if (k === '__proto__') {
            expect(res.status).toBe(400);
            expect(res.body.message).toMatch(
              /^unable to parse requirement: <nil>: Invalid value: "__proto__": name part must consist of alphanumeric characters/,
            );
            return [];
          }
          expect(res.status).toBe(200);
          return (res.body.items as Json[]).map((o) => o.metadata.name as string).filter((n) => n === labeled || n === plain);
        };
        const want = (...n: string[]) => (k === '__proto__' ? [] : n);
        expect(await names(`${k}=${tag}`)).toEqual(want(labeled));
        expect(await names(`${k}`)).toEqual(want(labeled));
        expect(await names(`!${k}`)).toEqual(want(plain));
        expect(await names(`${k} notin (${tag})`)).toEqual(want(plain));
        expect(await names(`${k} in (${tag}),other`)).toEqual(want());
        expectPrototypeUntouched();
      }
    }
  });

  it('as label and annotation keys are stored when they are qualified names, and `__proto__` is a 422 that stores nothing', async () => {
    const verbs = Object.keys(META_CASES);
    const fields: MetaField[] = ['labels', 'annotations'];
    const every = HOSTILE.flatMap((k) =>
      verbs.flatMap((verb) =>
        fields.flatMap((f) => (['in-process', 'http'] as const).map((d) => [k, verb, f, d, 'v<&>1'] as [Key, string, MetaField, Door['name'], string])),
      ),
    );
    await fc.assert(
      fc.asyncProperty(key, fc.constantFrom(...verbs), fc.constantFrom(...fields), door, value, async (k, verb, f, d, v) => {
        await metaCase(DOORS[d], verb, f, k, v);
        expectPrototypeUntouched();
      }),
      { examples: every, numRuns: every.length + 40 },
    );
  });
});
