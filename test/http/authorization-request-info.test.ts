/**
 * What the HTTP door asks the authorizers, read from the path as kube-apiserver's
 * RequestInfoFactory reads it: the 403s name the verb, resource, subresource, name and namespace a
 * real cluster names, for paths memkube serves and paths it does not.
 */
import { describe, expect, it } from 'vitest';
import { NamespaceKind, RoleBindingKind, RoleKind } from '../../src/kinds/index.js';
import { useTestCluster } from '../support/cluster.js';

const cluster = useTestCluster({
  authentication: { tokens: [{ token: 'alice-token', user: { username: 'alice', uid: '1', groups: ['devs'] } }] },
  authorization: { modes: ['RBAC'] },
});

async function ask(method: string, path: string): Promise<{ status: number; message: string; details: unknown }> {
  const res = await cluster.fetch(new Request(`http://memkube${path}`, { method, headers: { authorization: 'Bearer alice-token' } }));
  const body = (await res.json()) as { message: string; details: unknown };
  return { status: res.status, message: body.message, details: body.details };
}

describe('HTTP request attributes', () => {
  it('asks about a namespace in that namespace, so a RoleBinding there may grant reading it', async () => {
    await cluster.client.resource(NamespaceKind).create({ metadata: { name: 'team' } });
    expect(await ask('GET', '/api/v1/namespaces/team')).toEqual({
      status: 403,
      message: 'namespaces "team" is forbidden: User "alice" cannot get resource "namespaces" in API group "" in the namespace "team"',
      details: { name: 'team', kind: 'namespaces' },
    });
    expect((await ask('GET', '/api/v1/namespaces/team/status')).message).toBe(
      'namespaces "team" is forbidden: User "alice" cannot get resource "namespaces/status" in API group "" in the namespace "team"',
    );
    // The list of namespaces stays cluster-wide.
    expect((await ask('GET', '/api/v1/namespaces')).message).toBe(
      'namespaces is forbidden: User "alice" cannot list resource "namespaces" in API group "" at the cluster scope',
    );
    await cluster.client
      .resource(RoleKind)
      .create({ metadata: { name: 'ns-reader' }, rules: [{ verbs: ['get'], apiGroups: [''], resources: ['namespaces'] }] }, { namespace: 'team' });
    await cluster.client.resource(RoleBindingKind).create(
      {
        metadata: { name: 'alice-ns' },
        roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'ns-reader' },
        subjects: [{ kind: 'User', name: 'alice', apiGroup: 'rbac.authorization.k8s.io' }],
      },
      { namespace: 'team' },
    );
    const res = await cluster.fetch(new Request('http://memkube/api/v1/namespaces/team', { headers: { authorization: 'Bearer alice-token' } }));
    expect(res.status).toBe(200);
    // The in-process client is asked the same way.
    const alice = cluster.client.as({ username: 'alice', groups: ['devs', 'system:authenticated'] });
    expect((await alice.resource(NamespaceKind).get('team')).metadata?.name).toBe('team');
  });

  it('authorizes paths memkube does not serve as the resource requests they are', async () => {
    expect(await ask('GET', '/api/v1/namespaces/default/pods/web/proxy/metrics')).toEqual({
      status: 403,
      message: 'pods "web" is forbidden: User "alice" cannot get resource "pods/proxy" in API group "" in the namespace "default"',
      details: { name: 'web', kind: 'pods' },
    });
    expect((await ask('GET', '/api/v1/proxy/namespaces/default/services/web/healthz')).message).toBe(
      'services "web" is forbidden: User "alice" cannot proxy resource "services" in API group "" in the namespace "default"',
    );
  });

  it('does not turn the metadata.name field selector of a legacy /watch/ path into a name', async () => {
    expect((await ask('GET', '/api/v1/watch/namespaces/default/pods?fieldSelector=metadata.name%3Dweb')).message).toBe(
      'pods is forbidden: User "alice" cannot watch resource "pods" in API group "" in the namespace "default"',
    );
    expect((await ask('GET', '/api/v1/namespaces/default/pods?watch=true&fieldSelector=metadata.name%3Dweb')).message).toBe(
      'pods "web" is forbidden: User "alice" cannot watch resource "pods" in API group "" in the namespace "default"',
    );
    expect((await ask('GET', '/api/v1/watch/namespaces/default/pods/web')).message).toBe(
      'pods "web" is forbidden: User "alice" cannot watch resource "pods" in API group "" in the namespace "default"',
    );
  });

  it('reads list, watch and deletecollection from the method and query', async () => {
    expect((await ask('GET', '/apis/apps/v1/deployments?watch=')).message).toBe(
      'deployments.apps is forbidden: User "alice" cannot watch resource "deployments" in API group "apps" at the cluster scope',
    );
    expect((await ask('GET', '/apis/apps/v1/deployments?watch=false')).message).toBe(
      'deployments.apps is forbidden: User "alice" cannot list resource "deployments" in API group "apps" at the cluster scope',
    );
    expect((await ask('DELETE', '/api/v1/namespaces/default/configmaps')).message).toBe(
      'configmaps is forbidden: User "alice" cannot deletecollection resource "configmaps" in API group "" in the namespace "default"',
    );
    // A group version's own path is not a resource request.
    expect((await ask('POST', '/apis/apps/v1')).message).toBe('forbidden: User "alice" cannot post path "/apis/apps/v1"');
  });
});
