/** The checks every framework adapter passes, mounted under a prefix inside its framework. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src/cluster.js';
import { ConfigMapKind, RoleBindingKind, RoleKind } from '../../../src/kinds/index.js';
import { testCluster } from '../../support/cluster.js';

/** A server of a framework with memkube mounted under `prefix` and a route of its own at `/other`. */
export interface Started {
  /** `http://127.0.0.1:<port>` */
  url: string;
  close(): Promise<void>;
}

const CMS = '/api/v1/namespaces/default/configmaps';

export function adapterSuite(framework: string, prefix: string, start: (cluster: Cluster, prefix: string) => Promise<Started>): void {
  describe(`${framework} adapter under ${prefix}`, () => {
    let cluster: Cluster;
    let server: Started;
    const at = (path: string) => `${server.url}${prefix}${path}`;
    const json = (method: string, body: unknown, contentType = 'application/json'): RequestInit => ({
      method,
      body: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { 'Content-Type': contentType },
    });

    beforeAll(async () => {
      cluster = await testCluster();
      server = await start(cluster, prefix);
    });
    afterAll(async () => {
      await server?.close();
      await cluster?.close();
    });

    it('GET <prefix>/version', async () => {
      const res = await fetch(at('/version'));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ gitVersion: expect.stringMatching(/^v1\./) });
    });

    it('creates and gets a ConfigMap with JSON', async () => {
      const created = await fetch(at(CMS), json('POST', { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'a' }, data: { x: '1' } }));
      expect(created.status).toBe(201);
      const res = await fetch(at(`${CMS}/a`));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toMatchObject({ kind: 'ConfigMap', metadata: { name: 'a', namespace: 'default' }, data: { x: '1' } });
    });

    it('merge-patches with its content type', async () => {
      const res = await fetch(at(`${CMS}/a`), json('PATCH', { data: { y: '2' } }, 'application/merge-patch+json'));
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ data: { x: '1', y: '2' } });
    });

    it('takes a YAML body', async () => {
      const res = await fetch(at(CMS), json('POST', 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: from-yaml\ndata:\n  k: v\n', 'application/yaml'));
      expect(res.status).toBe(201);
      expect(await res.json()).toMatchObject({ metadata: { name: 'from-yaml' }, data: { k: 'v' } });
    });

    it('answers errors with a Status', async () => {
      const res = await fetch(at(`${CMS}/missing`));
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'NotFound', code: 404 });
    });

    it('streams a watch and closes it when the client goes', async () => {
      const controller = new AbortController();
      const res = await fetch(at(`${CMS}?watch=true`), { signal: controller.signal });
      expect(res.status).toBe(200);
      const reader = res.body!.getReader();
      let text = '';
      while (!text.includes('\n')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ type: 'ADDED', object: { kind: 'ConfigMap' } });
      expect(cluster.activeWatchers).toBe(1);
      controller.abort();
      for (let i = 0; i < 100 && cluster.activeWatchers > 0; i++) await new Promise((r) => setTimeout(r, 10));
      expect(cluster.activeWatchers).toBe(0);
    });

    it('a body over 3 MiB is 413', async () => {
      const big = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { a: 'x'.repeat(3 * 1024 * 1024) } });
      const res = await fetch(at(CMS), json('POST', big));
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
    });

    it('hands out OpenAPI URLs under the prefix', async () => {
      const index = (await (await fetch(at('/openapi/v3'))).json()) as { paths: Record<string, { serverRelativeURL: string }> };
      const v1 = index.paths['api/v1']!.serverRelativeURL;
      expect(v1).toMatch(new RegExp(`^${prefix}/openapi/v3/api/v1\\?hash=`));
      const doc = await fetch(`${server.url}${v1}`);
      expect(doc.status).toBe(200);
      const stale = await fetch(at('/openapi/v3/api/v1?hash=stale'), { redirect: 'manual' });
      expect(stale.status).toBe(301);
      expect(stale.headers.get('location')).toBe(v1);
    });

    it("answers the cluster's injected faults through the framework, Retry-After included", async () => {
      const fault = cluster.faults.add({
        match: { verb: 'get', resource: 'configmaps', name: 'a' },
        answer: { error: 'TooManyRequests', retryAfterSeconds: 3 },
      });
      try {
        const res = await fetch(at(`${CMS}/a`));
        expect(res.status).toBe(429);
        expect(res.headers.get('retry-after')).toBe('3');
        expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'TooManyRequests', code: 429, details: { retryAfterSeconds: 3 } });
      } finally {
        fault.remove();
      }
      expect((await fetch(at(`${CMS}/a`))).status).toBe(200);
    });

    it('leaves paths outside the prefix to the framework', async () => {
      const res = await fetch(`${server.url}/other`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe('other');
    });
  });

  describe(`${framework} adapter under ${prefix}: authentication and authorization`, () => {
    let cluster: Cluster;
    let server: Started;
    const at = (path: string) => `${server.url}${prefix}${path}`;
    const as = (token: string): RequestInit => ({ headers: { Authorization: `Bearer ${token}` } });

    beforeAll(async () => {
      cluster = await testCluster({
        authentication: { anonymous: false, tokens: [{ token: 'bob-token', user: { username: 'bob', groups: ['devs'] } }] },
        authorization: { modes: ['RBAC'] },
      });
      await cluster.client
        .resource(RoleKind)
        .create(
          { metadata: { name: 'one-map' }, rules: [{ apiGroups: [''], resources: ['configmaps'], resourceNames: ['mine'], verbs: ['get'] }] },
          { namespace: 'default' },
        );
      await cluster.client.resource(RoleBindingKind).create(
        {
          metadata: { name: 'devs-one-map' },
          roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'one-map' },
          subjects: [{ kind: 'Group', name: 'devs', apiGroup: 'rbac.authorization.k8s.io' }],
        },
        { namespace: 'default' },
      );
      await cluster.client.resource(ConfigMapKind).create({ metadata: { name: 'mine' }, data: { a: 'b' } }, { namespace: 'default' });
      server = await start(cluster, prefix);
    });
    afterAll(async () => {
      await server?.close();
      await cluster?.close();
    });

    it("answers 401 without credentials and with an unknown token, with the bare Status as kube-apiserver writes it (with json.Encoder's newline)", async () => {
      for (const init of [{}, as('nope')]) {
        const res = await fetch(at(CMS), init);
        expect(res.status).toBe(401);
        expect(await res.text()).toBe(
          '{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}\n',
        );
      }
    });

    it('authorizes a token user by RBAC: the granted get, a 403 for the rest, watches included', async () => {
      const mine = await fetch(at(`${CMS}/mine`), as('bob-token'));
      expect(mine.status).toBe(200);
      expect(await mine.json()).toMatchObject({ data: { a: 'b' } });
      const list = await fetch(at(CMS), as('bob-token'));
      expect(list.status).toBe(403);
      expect(await list.json()).toMatchObject({
        reason: 'Forbidden',
        message: 'configmaps is forbidden: User "bob" cannot list resource "configmaps" in API group "" in the namespace "default"',
      });
      const watch = await fetch(at(`${CMS}?watch=true`), as('bob-token'));
      expect(watch.status).toBe(403);
      expect(((await watch.json()) as { message: string }).message).toBe(
        'configmaps is forbidden: User "bob" cannot watch resource "configmaps" in API group "" in the namespace "default"',
      );
    });

    it("takes the cluster's admin token", async () => {
      const res = await fetch(at(CMS), as(cluster.adminToken));
      expect(res.status).toBe(200);
      expect(((await res.json()) as { items: unknown[] }).items).toHaveLength(1);
    });
  });
}
