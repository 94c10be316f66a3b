import { describe, expect, it } from 'vitest';
import { useTestCluster } from '../support/cluster.js';

const BASE = 'http://memkube.test';
const AGGREGATED =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

describe('discovery', () => {
  const cluster = useTestCluster();
  const get = async (path: string, accept?: string) => {
    const res = await cluster.fetch(new Request(BASE + path, { headers: accept ? { Accept: accept } : {} }));
    return { res, body: (await res.json()) as Record<string, unknown> };
  };

  it('/api and /apis (legacy)', async () => {
    expect((await get('/api')).body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const apis = (await get('/apis')).body as {
      kind: string;
      groups: { name: string; versions: { version: string }[]; preferredVersion: { version: string } }[];
    };
    expect(apis.kind).toBe('APIGroupList');
    expect(apis.groups.map((g) => g.name)).toEqual(
      expect.arrayContaining(['apps', 'certificates.k8s.io', 'coordination.k8s.io', 'networking.k8s.io', 'apiregistration.k8s.io']),
    );
    // Versions of a group in Kubernetes' priority order; the first is preferred.
    const coordination = apis.groups.find((g) => g.name === 'coordination.k8s.io')!;
    expect(coordination.versions.map((v) => v.version)).toEqual(['v1', 'v1beta1', 'v1alpha2']);
    expect(coordination.preferredVersion.version).toBe('v1');
  });

  it('/api/v1 lists resources with verbs, short names and subresources', async () => {
    const { body } = await get('/api/v1');
    expect(body).toMatchObject({ kind: 'APIResourceList', groupVersion: 'v1' });
    const resources = body.resources as { name: string; verbs: string[]; shortNames?: string[]; kind: string; namespaced: boolean; singularName: string }[];
    expect(resources.find((r) => r.name === 'configmaps')).toEqual({
      name: 'configmaps',
      singularName: 'configmap',
      namespaced: true,
      kind: 'ConfigMap',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['cm'],
    });
    expect(resources.find((r) => r.name === 'pods/status')).toMatchObject({ kind: 'Pod', verbs: ['get', 'patch', 'update'] });
    expect(resources.find((r) => r.name === 'namespaces/finalize')).toMatchObject({ kind: 'Namespace', verbs: ['update'] });
    expect(resources.find((r) => r.name === 'namespaces')!.verbs).not.toContain('deletecollection');
  });

  it('answers aggregated discovery v2 as kubectl asks for it', async () => {
    const { res, body } = await get('/api', AGGREGATED);
    expect(res.headers.get('content-type')).toBe('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
    expect(body).toMatchObject({ kind: 'APIGroupDiscoveryList', apiVersion: 'apidiscovery.k8s.io/v2' });
    const v1 = (body.items as { versions: { version: string; resources: Record<string, unknown>[] }[] }[])[0]!.versions[0]!;
    expect(v1.version).toBe('v1');
    expect(v1.resources.find((r) => r.resource === 'pods')).toMatchObject({
      responseKind: { group: '', version: 'v1', kind: 'Pod' },
      scope: 'Namespaced',
      singularResource: 'pod',
      shortNames: ['po'],
      subresources: [
        { subresource: 'binding', responseKind: { group: '', version: 'v1', kind: 'Binding' }, verbs: ['create'] },
        { subresource: 'ephemeralcontainers', responseKind: { group: '', version: 'v1', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] },
        { subresource: 'eviction', responseKind: { group: 'policy', version: 'v1', kind: 'Eviction' }, verbs: ['create'] },
        { subresource: 'log', responseKind: { group: '', version: 'v1', kind: 'Pod' }, verbs: ['get'] },
        { subresource: 'resize', responseKind: { group: '', version: 'v1', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] },
        { subresource: 'status', responseKind: { group: '', version: 'v1', kind: 'Pod' }, verbs: ['get', 'patch', 'update'] },
      ],
    });
    const groups = (await get('/apis', AGGREGATED)).body as { kind: string; items: { metadata: { name: string } }[] };
    expect(groups.kind).toBe('APIGroupDiscoveryList');
    expect(groups.items.map((g) => g.metadata.name)).toContain('apps');
  });

  it('/version, health and OpenAPI', async () => {
    expect((await get('/version')).body).toMatchObject({ major: '1', minor: '36', gitVersion: 'v1.36.0' });
    for (const path of ['/healthz', '/livez', '/readyz']) {
      const res = await cluster.fetch(new Request(BASE + path));
      expect(await res.text()).toBe('ok');
    }
    const verbose = await cluster.fetch(new Request(`${BASE}/readyz?verbose`));
    expect(await verbose.text()).toMatch(/^\[\+\]ping ok\n[\s\S]*readyz check passed\n$/);
    const index = (await get('/openapi/v3')).body as { paths: Record<string, { serverRelativeURL: string }> };
    const doc = (await get(index.paths['api/v1']!.serverRelativeURL)).body as { paths: Record<string, { patch?: Record<string, unknown> }> };
    expect(doc.paths['/api/v1/namespaces/{namespace}/configmaps/{name}']!.patch).toMatchObject({
      'x-kubernetes-group-version-kind': { group: '', version: 'v1', kind: 'ConfigMap' },
      parameters: expect.arrayContaining([expect.objectContaining({ name: 'fieldValidation', in: 'query' })]),
    });
  });
});
