/**
 * The checks every framework adapter passes behind its framework's body parsers: what kubectl and
 * client libraries send (JSON, YAML, every patch type, DeleteOptions) still works when a parser
 * read the body first, and a request whose body another middleware read without leaving anything
 * usable is answered at once with a Status naming the fix, never left hanging.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src/cluster.js';
import { ConfigMapKind } from '../../../src/kinds/index.js';
import { testCluster } from '../../support/cluster.js';
import { entry, envelope, msg, str } from '../protobuf/writer.js';
import type { Started } from './suite.js';

const CMS = '/api/v1/namespaces/default/configmaps';
/** A hung request fails its test within this, not at the test timeout. */
const PROMPT = 5_000;

const send = (url: string, method: string, body: string, contentType: string) =>
  fetch(url, { method, body, headers: { 'Content-Type': contentType }, signal: AbortSignal.timeout(PROMPT) });

/**
 * memkube mounted at `/k8s` behind the parsers of `start`; every write works as without them.
 * `exact`: whether the JSON body reaches memkube as sent (the parsers kept its text or bytes), or
 * as the parsed value written back (a duplicate key is then gone before memkube can warn of it).
 */
export function parsedBodySuite(setup: string, exact: boolean, start: (cluster: Cluster) => Promise<Started>): void {
  describe(`behind ${setup}`, () => {
    let cluster: Cluster;
    let server: Started;
    const at = (path: string) => `${server.url}/k8s${path}`;

    beforeAll(async () => {
      cluster = await testCluster();
      server = await start(cluster);
    });
    afterAll(async () => {
      await server?.close();
      await cluster?.close();
    });

    it('creates a ConfigMap from JSON, then from YAML', async () => {
      const created = await send(
        at(CMS),
        'POST',
        JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { x: '1' } }),
        'application/json',
      );
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({ metadata: { name: 'a', namespace: 'default' }, data: { x: '1' } });
      const yaml = await send(at(CMS), 'POST', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: y\ndata:\n  k: v\n', 'application/yaml');
      expect(yaml.status).toBe(201);
      expect(await yaml.json()).toMatchObject({ metadata: { name: 'y' }, data: { k: 'v' } });
      expect((await cluster.client.resource(ConfigMapKind).get('a', { namespace: 'default' })).data).toEqual({ x: '1' });
    });

    it('creates a ConfigMap sent as protobuf, as kubectl create configmap does', async () => {
      const body = envelope('v1', 'ConfigMap', [msg(1, str(1, 'proto'), str(2, ''), str(3, '')), entry(2, 'a', 'b')]);
      const res = await fetch(at(CMS), {
        method: 'POST',
        body,
        headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf' },
        signal: AbortSignal.timeout(PROMPT),
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ metadata: { name: 'proto' }, data: { a: 'b' } });
    });

    it('merge-patches, strategic-merge-patches and JSON-patches', async () => {
      const merge = await send(at(`${CMS}/a`), 'PATCH', JSON.stringify({ data: { y: '2' } }), 'application/merge-patch+json');
      expect(merge.status).toBe(200);
      expect(await merge.json()).toMatchObject({ data: { x: '1', y: '2' } });
      const strategic = await send(at(`${CMS}/a`), 'PATCH', JSON.stringify({ data: { z: '3' } }), 'application/strategic-merge-patch+json');
      expect(strategic.status).toBe(200);
      expect(await strategic.json()).toMatchObject({ data: { x: '1', y: '2', z: '3' } });
      const jsonPatch = await send(at(`${CMS}/a`), 'PATCH', JSON.stringify([{ op: 'remove', path: '/data/x' }]), 'application/json-patch+json');
      expect(jsonPatch.status).toBe(200);
      expect(((await jsonPatch.json()) as { data: unknown }).data).toEqual({ y: '2', z: '3' });
    });

    it('applies YAML (server-side apply), then updates with PUT', async () => {
      const applied = await send(
        at(`${CMS}/applied?fieldManager=tester`),
        'PATCH',
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: applied\ndata:\n  mode: fast\n',
        'application/apply-patch+yaml',
      );
      expect(applied.status).toBe(201);
      const body = (await applied.json()) as { metadata: { resourceVersion: string; managedFields: { manager: string }[] } };
      expect(body).toMatchObject({ data: { mode: 'fast' }, metadata: { managedFields: [{ manager: 'tester', operation: 'Apply' }] } });
      const put = await send(
        at(`${CMS}/applied`),
        'PUT',
        JSON.stringify({
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'applied', resourceVersion: body.metadata.resourceVersion },
          data: { mode: 'safe' },
        }),
        'application/json',
      );
      expect(put.status).toBe(200);
      expect(((await put.json()) as { data: unknown }).data).toEqual({ mode: 'safe' });
    });

    it(exact ? 'warns of a duplicate field in JSON, as sent' : 'gets JSON as parsed: a duplicate field is gone unseen', async () => {
      const res = await send(
        at(CMS),
        'POST',
        '{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"dup"},"data":{"a":"1"},"data":{"b":"2"}}',
        'application/json',
      );
      expect(res.status).toBe(201);
      expect(((await res.json()) as { data: unknown }).data).toEqual({ b: '2' });
      expect(res.headers.get('warning')).toBe(exact ? '299 - "duplicate field \\"data\\""' : null);
    });

    it('deletes with DeleteOptions in a JSON body', async () => {
      const stale = await send(
        at(`${CMS}/y`),
        'DELETE',
        JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', preconditions: { uid: 'not-its-uid' } }),
        'application/json',
      );
      expect(stale.status).toBe(409);
      expect(await stale.json()).toMatchObject({ kind: 'Status', reason: 'Conflict' });
      const deleted = await send(
        at(`${CMS}/y`),
        'DELETE',
        JSON.stringify({ kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' }),
        'application/json',
      );
      expect(deleted.status).toBe(200);
    });
  });
}

/** memkube mounted at `/k8s` behind a middleware that read the body and kept nothing of it. */
export function drainedBodySuite(setup: string, start: (cluster: Cluster) => Promise<Started>): void {
  describe(`behind ${setup}`, () => {
    let cluster: Cluster;
    let server: Started;
    const at = (path: string) => `${server.url}/k8s${path}`;

    beforeAll(async () => {
      cluster = await testCluster();
      server = await start(cluster);
    });
    afterAll(async () => {
      await server?.close();
      await cluster?.close();
    });

    it('answers a write at once with a Status naming the fix, and still serves reads', async () => {
      const res = await send(at(CMS), 'POST', JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'lost' } }), 'application/json');
      expect(res.status).toBe(500);
      expect(await res.json()).toMatchObject({
        kind: 'Status',
        status: 'Failure',
        reason: 'InternalError',
        code: 500,
        message: expect.stringContaining('mount memkube before body-parsing middleware'),
      });
      const list = await fetch(at(CMS), { signal: AbortSignal.timeout(PROMPT) });
      expect(list.status).toBe(200);
      expect(await cluster.client.resource(ConfigMapKind).list({ namespace: 'default' })).toMatchObject({ items: [] });
    });
  });
}
