import { describe, expect, expectTypeOf, it } from 'vitest';
import { builtinResources } from '../../src/client/builtin-resources.js';
import type { ResourceClient } from '../../src/client/client.js';
import { builtinKinds } from '../../src/kinds/index.js';
import type { Deployment } from '../../src/kinds/types/apps-v1.js';
import type { ConfigMap, Namespace, Node, Pod } from '../../src/kinds/types/core-v1.js';
import type { Role } from '../../src/kinds/types/rbac-v1.js';
import { statusOf, testCluster, useTestCluster } from '../support/cluster.js';

/** The groups whose every listable kind has a helper. */
const COVERED_GROUPS = ['', 'apps', 'batch', 'rbac.authorization.{api_domain}', 'networking.{api_domain}'];
/** Kinds of those groups left out on purpose: Binding is create-only (a pod's `binding` subresource), ComponentStatus is deprecated. */
const LEFT_OUT = ['bindings', 'componentstatuses'];

describe('the typed helpers table', () => {
  it('names only resources the registry serves, at a served version and with their scope', () => {
    for (const [name, row] of Object.entries(builtinResources)) {
      const kind = builtinKinds.find((k) => k.group === row.group && k.plural === row.resource);
      expect(kind, name).toBeDefined();
      expect(kind!.scope, name).toBe(row.scope);
      expect(
        kind!.versions.filter((v) => v.served !== false).map((v) => v.name),
        name,
      ).toContain(row.version);
    }
  });

  it('covers every kind of core/v1, apps/v1, batch/v1, rbac and networking/v1', () => {
    const rows = new Set(Object.values(builtinResources).map((r) => `${r.group}/${r.resource}`));
    const missing = builtinKinds
      .filter((k) => COVERED_GROUPS.includes(k.group) && !LEFT_OUT.includes(k.plural))
      .map((k) => `${k.group}/${k.plural}`)
      .filter((k) => !rows.has(k));
    expect(missing).toEqual([]);
  });
});

describe('client typed helpers', () => {
  const cluster = useTestCluster();

  it('are typed by the generated types of their kinds', () => {
    const client = cluster.client;
    expectTypeOf(client.configMaps('default')).toEqualTypeOf<ResourceClient<ConfigMap>>();
    expectTypeOf(client.pods()).toEqualTypeOf<ResourceClient<Pod>>();
    expectTypeOf(client.deployments('default')).toEqualTypeOf<ResourceClient<Deployment>>();
    expectTypeOf(client.namespaces()).toEqualTypeOf<ResourceClient<Namespace>>();
    expectTypeOf(client.nodes()).toEqualTypeOf<ResourceClient<Node>>();
    // Checked by the compiler only, never called.
    const _wrong = () => {
      // @ts-expect-error nodes are not namespaced
      client.nodes('default');
      // @ts-expect-error a ConfigMap's data holds strings
      void client.configMaps('default').create({ metadata: { name: 'x' }, data: { n: 1 } });
    };
  });

  it('bind a namespaced helper to its namespace: writes go there, lists cover only it', async () => {
    const client = cluster.client;
    await client.namespaces().create({ metadata: { name: 'team-a' } });
    const created = await client.configMaps('team-a').create({ metadata: { name: 'settings' }, data: { mode: 'fast' } });
    expect(created.metadata?.namespace).toBe('team-a');
    await client.configMaps('default').create({ metadata: { name: 'other' } });

    const inTeam = await client.configMaps('team-a').list();
    expect(inTeam.items.map((c) => c.metadata?.name)).toEqual(['settings']);
    // Unbound: the list covers every namespace, a get defaults to `default`.
    const everywhere = await client.configMaps().list({ fieldSelector: 'metadata.name!=kube-root-ca.crt' });
    expect(everywhere.items.map((c) => `${c.metadata?.namespace}/${c.metadata?.name}`).sort()).toEqual(['default/other', 'team-a/settings']);
    expect((await client.configMaps().get('other')).metadata?.namespace).toBe('default');
    expect((await client.configMaps('team-a').get('settings')).data).toEqual({ mode: 'fast' });
  });

  it('refuse an object of another namespace than the bound one, as Kubernetes does, and keep nothing', async () => {
    const client = cluster.client;
    await client.namespaces().create({ metadata: { name: 'team-a' } });
    const s = await statusOf(() => client.configMaps('team-a').create({ metadata: { name: 'x', namespace: 'default' } }));
    expect(s.code).toBe(400);
    expect(s.message).toContain('does not match the namespace');
    expect((await client.configMaps().list({ fieldSelector: 'metadata.name=x' })).items).toEqual([]);
  });

  it('serve cluster-scoped and other groups: nodes, deployments', async () => {
    const client = cluster.client;
    await client.nodes().create({ metadata: { name: 'node-1', labels: { zone: 'a' } } });
    expect((await client.nodes().list({ labelSelector: 'zone=a' })).items.map((n) => n.metadata?.name)).toEqual(['node-1']);
    const d = await client.deployments('default').create({
      metadata: { name: 'web' },
      spec: {
        selector: { matchLabels: { app: 'web' } },
        template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'web', image: 'nginx' }] } },
      },
    });
    expect(d.spec?.replicas).toBe(1);
  });

  it('follow the cluster API domain for the groups that carry it', async () => {
    const other = await testCluster({ apiDomain: 'example.org' });
    try {
      const role: Role = await other.client.roles('default').create({ metadata: { name: 'reader' }, rules: [] });
      expect(role.apiVersion).toBe('rbac.authorization.example.org/v1');
    } finally {
      await other.close();
    }
  });
});
