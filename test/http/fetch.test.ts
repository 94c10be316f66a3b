import { describe, expect, it } from 'vitest';
import { createFetchHandler } from '../../src/http/handler.js';
import { T0, useTestCluster } from '../support/cluster.js';

const BASE = 'http://memkube.test';

describe('cluster.fetch', () => {
  const cluster = useTestCluster();
  const call = (path: string, init: RequestInit = {}) => cluster.fetch(new Request(BASE + path, init));
  const json = (method: string, body: unknown, headers: Record<string, string> = {}) => ({
    method,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...headers },
  });
  const cm = (name: string, data: Record<string, string> = { a: '1' }) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data });

  it('creates, reads, replaces, patches and deletes through the paths of the API', async () => {
    let res = await call('/api/v1/namespaces/default/configmaps', json('POST', cm('x')));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/json');
    const created = (await res.json()) as { metadata: { resourceVersion: string } };

    res = await call('/api/v1/namespaces/default/configmaps/x');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ kind: 'ConfigMap', data: { a: '1' } });

    res = await call(
      '/api/v1/namespaces/default/configmaps/x',
      json('PUT', { ...cm('x', { a: '2' }), metadata: { name: 'x', resourceVersion: created.metadata.resourceVersion } }),
    );
    expect(res.status).toBe(200);

    res = await call('/api/v1/namespaces/default/configmaps/x', {
      method: 'PATCH',
      body: '{"data":{"b":"3"}}',
      headers: { 'Content-Type': 'application/merge-patch+json' },
    });
    expect(await res.json()).toMatchObject({ data: { a: '2', b: '3' } });
    res = await call('/api/v1/namespaces/default/configmaps/x', {
      method: 'PATCH',
      body: '[{"op":"remove","path":"/data/a"}]',
      headers: { 'Content-Type': 'application/json-patch+json' },
    });
    expect(await res.json()).toMatchObject({ data: { b: '3' } });
    res = await call('/api/v1/namespaces/default/configmaps/x', {
      method: 'PATCH',
      body: '{"data":{"c":"4"}}',
      headers: { 'Content-Type': 'application/strategic-merge-patch+json' },
    });
    expect(await res.json()).toMatchObject({ data: { b: '3', c: '4' } });
    res = await call('/api/v1/namespaces/default/configmaps/x?fieldManager=me&force=true', {
      method: 'PATCH',
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  d: "5"\n',
      headers: { 'Content-Type': 'application/apply-patch+yaml' },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { d: '5' } });

    res = await call('/api/v1/namespaces/default/configmaps?labelSelector=' + encodeURIComponent('a!=b'));
    expect(await res.json()).toMatchObject({ kind: 'ConfigMapList', items: [{ metadata: { name: 'x' } }] });

    res = await call('/api/v1/configmaps');
    expect(((await res.json()) as { items: unknown[] }).items).toHaveLength(1);

    res = await call('/api/v1/namespaces/default/configmaps/x', json('DELETE', { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' }));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ kind: 'Status', status: 'Success' });
    res = await call('/api/v1/namespaces/default/configmaps/x');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps "x" not found',
      reason: 'NotFound',
      details: { name: 'x', kind: 'configmaps' },
      code: 404,
    });
  });

  it('takes YAML bodies and answers YAML when asked', async () => {
    const res = await call('/api/v1/namespaces/default/configmaps', {
      method: 'POST',
      body: 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\ndata:\n  k: v\n',
      headers: { 'Content-Type': 'application/yaml', Accept: 'application/yaml' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/yaml');
    expect(await res.text()).toContain('kind: ConfigMap\n');
  });

  it('answers protobuf requests in JSON, and 406 for types it cannot give', async () => {
    let res = await call('/api/v1/namespaces', { headers: { Accept: 'application/vnd.kubernetes.protobuf' } });
    expect(res.headers.get('content-type')).toBe('application/json');
    res = await call('/api/v1/namespaces', { headers: { Accept: 'text/html' } });
    expect(res.status).toBe(406);
    expect(await res.json()).toMatchObject({ reason: 'NotAcceptable' });
  });

  it('pretty-prints on ?pretty=true and for curl', async () => {
    expect(await (await call('/api/v1/namespaces/default?pretty=true')).text()).toContain('\n  "kind"');
    expect(await (await call('/api/v1/namespaces/default', { headers: { 'User-Agent': 'curl/8.0' } })).text()).toContain('\n  "kind"');
    expect(await (await call('/api/v1/namespaces/default?pretty=0', { headers: { 'User-Agent': 'curl/8.0' } })).text()).not.toContain('\n  "kind"');
  });

  it('answers a Table for kubectl get', async () => {
    await cluster.client.resource({ version: 'v1', resource: 'configmaps' }).create(cm('t'), { namespace: 'default' });
    cluster.clock.advance(150_000);
    const res = await call('/api/v1/namespaces/default/configmaps', { headers: { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' } });
    expect(res.headers.get('content-type')).toBe('application/json;as=Table;v=v1;g=meta.k8s.io');
    const table = (await res.json()) as { kind: string; columnDefinitions: { name: string }[]; rows: { cells: unknown[]; object: { kind: string } }[] };
    expect(table.kind).toBe('Table');
    expect(table.columnDefinitions.map((c) => c.name)).toEqual(['Name', 'Data', 'Age']);
    expect(table.rows[0]!.cells).toEqual(['t', 1, '2m30s']);
    expect(table.rows[0]!.object.kind).toBe('PartialObjectMetadata');
    expect(T0).toBeInstanceOf(Date);
  });

  it('answers PartialObjectMetadata when asked', async () => {
    const res = await call('/api/v1/namespaces/default', { headers: { Accept: 'application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io' } });
    expect(await res.json()).toMatchObject({ kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: { name: 'default' } });
  });

  it('sends warnings as Warning headers', async () => {
    const res = await call('/api/v1/namespaces/default/configmaps', json('POST', { ...cm('w'), spec: { nope: '"q"' } }));
    expect(res.status).toBe(201);
    expect(res.headers.get('warning')).toBe('299 - "unknown field \\"spec\\""');
  });

  it('acts as the impersonated user', async () => {
    const res = await call('/api/v1/namespaces/default/configmaps', json('POST', cm('imp'), { 'Impersonate-User': 'alice', 'Impersonate-Group': 'dev' }));
    expect(res.status).toBe(201);
    const body = (await res.json()) as { metadata: { managedFields: unknown[] } };
    expect(body.metadata.managedFields).toBeDefined();
  });

  describe('bad input', () => {
    it('malformed JSON is 400', async () => {
      const res = await call('/api/v1/namespaces/default/configmaps', json('POST', '{bad'));
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        reason: 'BadRequest',
        message: expect.stringMatching(
          /^the object provided is unrecognized \(must be of type ConfigMap\): couldn't get version\/kind; json parse error: invalid character 'b' .* \(\{bad\)$/,
        ),
      });
    });

    it('malformed YAML is 400', async () => {
      const res = await call('/api/v1/namespaces/default/configmaps', { method: 'POST', body: 'a: [b', headers: { 'Content-Type': 'application/yaml' } });
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ reason: 'BadRequest' });
    });

    it('malformed patch is 400', async () => {
      await cluster.client.resource({ version: 'v1', resource: 'configmaps' }).create(cm('p'), { namespace: 'default' });
      const res = await call('/api/v1/namespaces/default/configmaps/p', {
        method: 'PATCH',
        body: '{',
        headers: { 'Content-Type': 'application/merge-patch+json' },
      });
      expect(res.status).toBe(400);
    });

    it('a body over 3 MiB is 413', async () => {
      const big = JSON.stringify(cm('big', { a: 'x'.repeat(3 * 1024 * 1024) }));
      const res = await call('/api/v1/namespaces/default/configmaps', json('POST', big));
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ reason: 'RequestEntityTooLarge', message: 'Request entity too large: limit is 3145728' });
    });

    it('an unknown content type is 415', async () => {
      let res = await call('/api/v1/namespaces/default/configmaps', { method: 'POST', body: 'x', headers: { 'Content-Type': 'text/plain' } });
      expect(res.status).toBe(415);
      expect(await res.json()).toMatchObject({ reason: 'UnsupportedMediaType' });
      res = await call('/api/v1/namespaces/default/configmaps/x', { method: 'PATCH', body: '{}', headers: { 'Content-Type': 'application/json' } });
      expect(res.status).toBe(415);
    });

    it('an unknown path is 404 with Kubernetes Status', async () => {
      for (const path of [
        '/foo',
        '/api/v2',
        '/apis/nope.io',
        '/api/v1/widgets',
        '/api/v1/namespaces/default/nodes/n',
        '/api/v1/configmaps/x',
        '/api/v1/namespaces/default/configmaps/x/nope',
      ]) {
        const res = await call(path);
        expect(res.status, path).toBe(404);
        expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'NotFound', message: 'the server could not find the requested resource', code: 404 });
      }
    });

    it('an unsupported method is 405', async () => {
      for (const [method, path] of [
        ['POST', '/api/v1/namespaces/default/configmaps/x'],
        ['PUT', '/api/v1/namespaces/default/configmaps'],
        ['POST', '/api/v1/configmaps'],
        ['DELETE', '/api/v1/namespaces/default/pods/p/status'],
      ] as const) {
        const res = await call(path, { method, body: '{}', headers: { 'Content-Type': 'application/json' } });
        expect(res.status, `${method} ${path}`).toBe(405);
        expect(await res.json()).toMatchObject({ reason: 'MethodNotAllowed' });
      }
    });

    it('a malformed integer parameter is 400', async () => {
      const res = await call('/api/v1/namespaces/default/configmaps?limit=ten');
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ message: 'strconv.ParseInt: parsing "ten": invalid syntax' });
    });
  });
});

describe('watch over fetch and node:http', () => {
  const cluster = useTestCluster();

  it('streams one JSON WatchEvent per line; cancelling the body ends the watch', async () => {
    const res = await cluster.fetch(new Request(`${BASE}/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=0`));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    await cluster.client.resource({ version: 'v1', resource: 'configmaps' }).create({ metadata: { name: 'w1' } }, { namespace: 'default' });
    const reader = res.body!.getReader();
    let text = '';
    while (!text.includes('\n')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    const event = JSON.parse(text.split('\n')[0]!) as { type: string; object: { metadata: { name: string } } };
    expect(event.type).toBe('ADDED');
    expect(event.object.metadata.name).toBe('w1');
    expect(cluster.activeWatchers).toBe(1);
    await reader.cancel();
    await new Promise((r) => setImmediate(r));
    expect(cluster.activeWatchers).toBe(0);
  });

  it('legacy /watch/ paths watch one object by name', async () => {
    const cms = cluster.client.resource({ version: 'v1', resource: 'configmaps' });
    await cms.create({ metadata: { name: 'a' } }, { namespace: 'default' });
    await cms.create({ metadata: { name: 'b' } }, { namespace: 'default' });
    const res = await cluster.fetch(new Request(`${BASE}/api/v1/watch/namespaces/default/configmaps/b?resourceVersion=0`));
    const reader = res.body!.getReader();
    const { value } = await reader.read();
    const event = JSON.parse(new TextDecoder().decode(value).split('\n')[0]!) as { object: { metadata: { name: string } } };
    expect(event.object.metadata.name).toBe('b');
    await reader.cancel();
  });

  it('closing the HTTP connection closes the watch', async () => {
    const server = await cluster.listen();
    const controller = new AbortController();
    const res = await fetch(`${server.url}/api/v1/namespaces/default/configmaps?watch=true`, { signal: controller.signal });
    expect(res.status).toBe(200);
    expect(cluster.activeWatchers).toBe(1);
    controller.abort();
    for (let i = 0; i < 50 && cluster.activeWatchers > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(cluster.activeWatchers).toBe(0);
    await server.close();
  });

  it('minRequestTimeoutSeconds ends watches that ask for no timeout after 1x to 2x of it (get.go)', async () => {
    const handler = createFetchHandler(cluster, { minRequestTimeoutSeconds: 10 });
    const open = async (query: string) => {
      const res = await handler(new Request(`${BASE}/api/v1/namespaces/default/configmaps?watch=true${query}`));
      expect(res.status).toBe(200);
      return res.body!.getReader();
    };
    const defaulted = await open('');
    const asked = await open('&timeoutSeconds=60');
    const zero = await open('&timeoutSeconds=0');
    expect(cluster.activeWatchers).toBe(3);
    cluster.clock.advance(9_999);
    expect(cluster.activeWatchers).toBe(3);
    cluster.clock.advance(10_001);
    expect(await defaulted.read()).toEqual({ done: true, value: undefined });
    // timeoutSeconds=0 counts as unset: the server's default applies.
    expect(await zero.read()).toEqual({ done: true, value: undefined });
    expect(cluster.activeWatchers).toBe(1);
    cluster.clock.advance(40_000);
    expect(await asked.read()).toEqual({ done: true, value: undefined });
    expect(cluster.activeWatchers).toBe(0);
  });
});
