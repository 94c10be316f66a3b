import { describe, expect, it } from 'vitest';
import { createCluster } from '../../src/index.js';

type Json = Record<string, unknown>;

const cluster = await createCluster();
const get = (path: string, headers: Record<string, string> = {}) => cluster.fetch(new Request(`http://x${path}`, { headers }));
const getJson = async (path: string) => (await (await get(path)).json()) as Json;

/** Every `$ref` in a document. */
function refs(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refs(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else if (!k.startsWith('x-kubernetes-')) refs(v, out);
    }
  }
  return out;
}

/** Every schema-ish object (walks everything but extension values). */
/**
 * Every object of a document but the name maps (`properties`, whose keys are field names: the
 * CustomResourceDefinition schema has fields called `definitions`, `anyOf`, `$ref`, ...).
 */
function objects(node: unknown, out: Json[] = []): Json[] {
  if (Array.isArray(node)) node.forEach((n) => objects(n, out));
  else if (node && typeof node === 'object') {
    out.push(node as Json);
    for (const [k, v] of Object.entries(node)) {
      if (k.startsWith('x-kubernetes-')) continue;
      if (k === 'properties' && v && typeof v === 'object' && !Array.isArray(v)) Object.values(v).forEach((p) => objects(p, out));
      else objects(v, out);
    }
  }
  return out;
}

const served = cluster.registry
  .kinds()
  .flatMap((k) => k.versions.map((v) => ({ kind: k, version: v.name, key: k.group ? `apis/${k.group}/${v.name}` : `api/${v.name}` })));

describe('/openapi/v3', () => {
  it('indexes every served group-version at a hash URL', async () => {
    const index = (await getJson('/openapi/v3')) as { paths: Record<string, { serverRelativeURL: string }> };
    for (const { key } of served) expect(index.paths[key]?.serverRelativeURL).toMatch(new RegExp(`^/openapi/v3/${key}\\?hash=[0-9A-F]{128}$`));
  });

  it('serves a hashed document immutable, redirects a stale hash, answers If-None-Match with 304', async () => {
    const index = (await getJson('/openapi/v3')) as { paths: Record<string, { serverRelativeURL: string }> };
    const url = index.paths['api/v1']!.serverRelativeURL;
    const hash = url.split('hash=')[1]!;
    const res = await get(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${hash}"`);
    expect(res.headers.get('cache-control')).toBe('public, immutable');
    expect(res.headers.get('content-type')).toBe('application/json');
    const stale = await get('/openapi/v3/api/v1?hash=0123');
    expect(stale.status).toBe(301);
    expect(stale.headers.get('location')).toBe(url);
    expect((await get('/openapi/v3/api/v1', { 'if-none-match': `"${hash}"` })).status).toBe(304);
    expect((await get('/openapi/v3/apis/nope/v1')).status).toBe(404);
  });

  it.each([...new Set(served.map((s) => s.key))])('%s is a structurally valid OpenAPI 3.0 document whose refs resolve', async (key) => {
    const doc = await getJson(`/openapi/v3/${key}`);
    expect(doc.openapi).toBe('3.0.0');
    expect(doc.info).toMatchObject({ title: 'Kubernetes' });
    const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
    for (const ref of refs(doc)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
    for (const o of objects(schemas)) {
      // JSON Schema 2020-12 bits OpenAPI 3.0 lacks.
      expect(Array.isArray(o.type), JSON.stringify(o)).toBe(false);
      for (const k of ['$defs', 'definitions', 'propertyNames', 'const', '$schema']) expect(o).not.toHaveProperty(k);
      if (o.type === 'integer') expect(['int32', 'int64']).toContain(o.format);
    }
    for (const [path, item] of Object.entries(doc.paths as Record<string, Json>)) {
      expect(path.startsWith(`/${key}/`)).toBe(true);
      for (const [method, op] of Object.entries(item)) {
        if (method === 'parameters') continue;
        expect(['get', 'put', 'post', 'patch', 'delete']).toContain(method);
        const o = op as Json;
        expect(o.operationId).toMatch(/^(read|list|create|replace|patch|delete)[A-Z]/);
        expect((o.tags as string[])[0]).toMatch(/^[a-zA-Z]+_v\d/);
        expect(o['x-kubernetes-group-version-kind']).toMatchObject({ version: key.split('/').at(-1) });
      }
    }
  });

  it('has every served kind with its GVK, its list, and its operations', async () => {
    for (const { kind, version, key } of served) {
      const doc = await getJson(`/openapi/v3/${key}`);
      const schemas = (doc.components as { schemas: Record<string, Json> }).schemas;
      const gvk = { group: kind.group, version, kind: kind.definition.kind };
      const withGvk = (k: string) =>
        Object.values(schemas).filter((s) =>
          (s['x-kubernetes-group-version-kind'] as Json[] | undefined)?.some((g) => g.group === gvk.group && g.version === version && g.kind === k),
        );
      expect(withGvk(gvk.kind), gvk.kind).toHaveLength(1);
      // A kind that is never listed (the reviews, Binding) has no list schema, as in Kubernetes.
      expect(withGvk(`${gvk.kind}List`), `${gvk.kind}List`).toHaveLength(kind.definition.review ? 0 : 1);
      const ops = Object.values(doc.paths as Record<string, Json>).flatMap((item) =>
        Object.entries(item)
          .filter(([m]) => m !== 'parameters')
          .map(([m, op]) => ({ m, op: op as Json })),
      );
      const mine = ops.filter(({ op }) => JSON.stringify(op['x-kubernetes-group-version-kind']) === JSON.stringify(gvk));
      const actions = new Set(mine.map(({ op }) => op['x-kubernetes-action']));
      if (kind.definition.review) {
        // A review is only created.
        expect([...actions], gvk.kind).toEqual(['post']);
        continue;
      }
      // A kind serves the operations of its verbs only (ComponentStatus: get and list; Binding: create).
      const unsupported = new Set<string>(kind.definition.unsupportedVerbs ?? []);
      const verbOf: Record<string, string> = { get: 'get', list: 'list', post: 'create', put: 'update', patch: 'patch', delete: 'delete' };
      for (const a of ['get', 'list', 'post', 'put', 'patch', 'delete']) {
        if (unsupported.has(verbOf[a]!)) expect(actions, `${gvk.kind} ${a}`).not.toContain(a);
        else expect(actions, `${gvk.kind} ${a}`).toContain(a);
      }
      const list = mine.find(({ op }) => op['x-kubernetes-action'] === 'list')?.op;
      if (list) expect((list.parameters as Json[]).map((p) => p.name)).toContain('watch');
    }
  });

  it('every PATCH operation takes fieldValidation, dryRun, fieldManager and force in the query', async () => {
    for (const key of new Set(served.filter((s) => !s.kind.definition.review).map((s) => s.key))) {
      const doc = await getJson(`/openapi/v3/${key}`);
      const patches = Object.values(doc.paths as Record<string, Json>).flatMap((item) => (item.patch ? [item.patch as Json] : []));
      expect(patches.length).toBeGreaterThan(0);
      for (const p of patches) {
        const names = (p.parameters as Json[]).filter((x) => x.in === 'query').map((x) => x.name);
        expect(names).toEqual(expect.arrayContaining(['fieldValidation', 'dryRun', 'fieldManager', 'force']));
        expect(Object.keys((p.requestBody as { content: Json }).content)).toContain('application/apply-patch+yaml');
      }
    }
  });

  it('keeps the x-kubernetes-* extensions of the zod schemas', async () => {
    const schemas = ((await getJson('/openapi/v3/api/v1')).components as { schemas: Record<string, Json> }).schemas;
    const spec = schemas['io.k8s.api.core.v1.PodSpec']!.properties as Record<string, Json>;
    expect(spec.containers).toMatchObject({
      type: 'array',
      items: { $ref: '#/components/schemas/io.k8s.api.core.v1.Container' },
      'x-kubernetes-patch-merge-key': 'name',
      'x-kubernetes-patch-strategy': 'merge',
      'x-kubernetes-list-type': 'map',
      'x-kubernetes-list-map-keys': ['name'],
    });
    expect(schemas['io.k8s.api.core.v1.Pod']).toMatchObject({ 'x-kubernetes-group-version-kind': [{ group: '', kind: 'Pod', version: 'v1' }] });
    expect(schemas['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({
      'x-kubernetes-int-or-string': true,
      anyOf: [{ type: 'integer', format: 'int32' }, { type: 'string' }],
    });
    expect((schemas['io.k8s.api.core.v1.ContainerPort']!.properties as Json).containerPort).toEqual({ type: 'integer', format: 'int32' });
    expect(schemas['io.k8s.api.core.v1.Container']!.required).toEqual(['name']);
  });
});

/** Top-level fields of a protobuf message: field number → payloads of length-delimited fields. */
function protobufFields(buf: Uint8Array): Map<number, Uint8Array[]> {
  const out = new Map<number, Uint8Array[]>();
  let at = 0;
  const varint = () => {
    let n = 0;
    let mul = 1;
    for (;;) {
      const b = buf[at++]!;
      n += (b & 0x7f) * mul;
      if (b < 0x80) return n;
      mul *= 128;
    }
  };
  while (at < buf.length) {
    const tag = varint();
    const wire = tag & 7;
    if (wire === 2) {
      const len = varint();
      out.set(tag >>> 3, [...(out.get(tag >>> 3) ?? []), buf.subarray(at, at + len)]);
      at += len;
    } else if (wire === 0) varint();
    else if (wire === 1) at += 8;
    else throw new Error(`wire type ${wire}`);
  }
  return out;
}

describe('/openapi/v2', () => {
  it('is Swagger 2.0 JSON whose refs resolve, with Swagger-only schema forms', async () => {
    const res = await get('/openapi/v2');
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('etag')).toMatch(/^"[0-9A-F]{128}"$/);
    const doc = (await res.json()) as Json;
    expect(doc.swagger).toBe('2.0');
    const defs = doc.definitions as Record<string, Json>;
    for (const ref of refs(doc)) expect(defs[ref.replace('#/definitions/', '')], ref).toBeDefined();
    for (const o of objects(defs)) for (const k of ['anyOf', 'oneOf', 'nullable']) expect(o).not.toHaveProperty(k);
    expect(defs['io.k8s.apimachinery.pkg.util.intstr.IntOrString']).toMatchObject({ type: 'string', format: 'int-or-string' });
    expect((defs['io.k8s.api.core.v1.Pod']!.properties as Json).spec).toEqual({ $ref: '#/definitions/io.k8s.api.core.v1.PodSpec' });
    for (const { kind, version } of served) {
      expect(
        Object.values(defs).some((s) =>
          (s['x-kubernetes-group-version-kind'] as Json[] | undefined)?.some(
            (g) => g.group === kind.group && g.version === version && g.kind === kind.definition.kind,
          ),
        ),
      ).toBe(true);
    }
    const patch = (doc.paths as Record<string, Json>)['/api/v1/namespaces/{namespace}/configmaps/{name}']!.patch as Json;
    expect((patch.parameters as Json[]).map((p) => p.name)).toEqual(expect.arrayContaining(['body', 'fieldValidation']));
    expect((await get('/openapi/v2', { 'if-none-match': res.headers.get('etag')! })).status).toBe(304);
  });

  it('answers the gnostic protobuf when asked for it', async () => {
    const res = await get('/openapi/v2', { accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
    expect(res.status).toBe(200);
    // Go's mime parser rejects the `@`, so the answer names the type with a dot, as kube-openapi does.
    expect(res.headers.get('content-type')).toBe('application/com.github.proto-openapi.spec.v2.v1.0+protobuf');
    const doc = protobufFields(new Uint8Array(await res.arrayBuffer()));
    expect(new TextDecoder().decode(doc.get(1)![0])).toBe('2.0');
    const json = (await getJson('/openapi/v2')) as { definitions: Json; paths: Json };
    const definitions = protobufFields(doc.get(9)![0]!).get(1)!;
    expect(definitions).toHaveLength(Object.keys(json.definitions).length);
    const names = definitions.map((d) => new TextDecoder().decode(protobufFields(d).get(1)![0]));
    expect(names).toEqual(Object.keys(json.definitions));
    expect(protobufFields(doc.get(8)![0]!).get(2)).toHaveLength(Object.keys(json.paths).length);
  });
});
