import { describe, expect, it } from 'vitest';
import { createStorageRbacAuthorizer } from '../../../src/auth/rbac/index.js';
import { createCluster } from '../../../src/cluster.js';
import { ClusterRoleBindingKind, ClusterRoleKind, RoleBindingKind, RoleKind } from '../../../src/kinds/index.js';
import { MemoryStorage } from '../../../src/storage/memory.js';
import { alice, ask, clusterRole, clusterRoleBinding, group, role, roleBinding, rule, serviceAccount, useRbacCluster, user } from './support.js';

const rbac = useRbacCluster();
const cluster = rbac.cluster;
const authorize = async (...args: Parameters<typeof ask>) => rbac.authorizer.authorize(ask(...args));

describe('RBAC authorizer: decisions and reasons', () => {
  it('allows through a ClusterRoleBinding to a user, saying which binding, role and subject', async () => {
    await clusterRole(cluster, 'pod-reader', [rule(['get', 'list'], ['pods'])]);
    await clusterRoleBinding(cluster, 'read-pods', 'pod-reader', [user('alice')]);
    expect(await authorize(alice, 'list', 'pods', { namespace: 'ns1' })).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "read-pods" of ClusterRole "pod-reader" to User "alice"',
    });
    expect(await authorize(alice, 'delete', 'pods', { namespace: 'ns1' })).toEqual({ decision: 'NoOpinion', reason: '' });
    expect(await authorize({ username: 'bob', groups: [] }, 'get', 'pods')).toEqual({ decision: 'NoOpinion', reason: '' });
  });

  it('allows through a group, naming the first subject of the binding that applies', async () => {
    await clusterRole(cluster, 'pod-reader', [rule(['get'], ['pods'])]);
    await clusterRoleBinding(cluster, 'read-pods', 'pod-reader', [user('carol'), group('devs'), user('alice')]);
    expect((await authorize(alice, 'get', 'pods')).reason).toBe('RBAC: allowed by ClusterRoleBinding "read-pods" of ClusterRole "pod-reader" to Group "devs"');
  });

  it('matches service accounts by their user name: a cluster binding names the namespace; a role binding defaults it to its own', async () => {
    await clusterRole(cluster, 'cm-reader', [rule(['get'], ['configmaps'])]);
    await clusterRoleBinding(cluster, 'sa-crb', 'cm-reader', [serviceAccount('builder', 'ci')]);
    const sa = { username: 'system:serviceaccount:ci:builder', groups: ['system:serviceaccounts', 'system:serviceaccounts:ci'] };
    expect((await authorize(sa, 'get', 'configmaps')).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "sa-crb" of ClusterRole "cm-reader" to ServiceAccount "builder/ci"',
    );
    await cluster.client.resource({ group: '', version: 'v1', resource: 'namespaces' }).create({ metadata: { name: 'team' } });
    await role(cluster, 'team', 'secret-reader', [rule(['get'], ['secrets'])]);
    await roleBinding(cluster, 'team', 'sa-rb', { kind: 'Role', name: 'secret-reader' }, [serviceAccount('deployer')]);
    const deployer = { username: 'system:serviceaccount:team:deployer', groups: [] };
    expect(await authorize(deployer, 'get', 'secrets', { namespace: 'team' })).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by RoleBinding "sa-rb/team" of Role "secret-reader" to ServiceAccount "deployer/team"',
    });
    // The same service account name in another namespace is another user.
    expect((await authorize({ username: 'system:serviceaccount:other:deployer', groups: [] }, 'get', 'secrets', { namespace: 'team' })).decision).toBe(
      'NoOpinion',
    );
  });

  it('applies RoleBindings only in their namespace, and never to cluster-wide requests', async () => {
    await role(cluster, 'default', 'pod-editor', [rule(['*'], ['pods'])]);
    await roleBinding(cluster, 'default', 'edit-pods', { kind: 'Role', name: 'pod-editor' }, [user('alice')]);
    expect((await authorize(alice, 'delete', 'pods', { namespace: 'default', name: 'p' })).reason).toBe(
      'RBAC: allowed by RoleBinding "edit-pods/default" of Role "pod-editor" to User "alice"',
    );
    expect((await authorize(alice, 'delete', 'pods', { namespace: 'kube-system' })).decision).toBe('NoOpinion');
    expect((await authorize(alice, 'list', 'pods')).decision).toBe('NoOpinion');
  });

  it('grants a ClusterRole through a RoleBinding in that namespace only', async () => {
    await clusterRole(cluster, 'secret-reader', [rule(['get'], ['secrets'])]);
    await roleBinding(cluster, 'default', 'read-secrets', { kind: 'ClusterRole', name: 'secret-reader' }, [group('devs')]);
    expect((await authorize(alice, 'get', 'secrets', { namespace: 'default' })).reason).toBe(
      'RBAC: allowed by RoleBinding "read-secrets/default" of ClusterRole "secret-reader" to Group "devs"',
    );
    expect((await authorize(alice, 'get', 'secrets', { namespace: 'kube-public' })).decision).toBe('NoOpinion');
  });

  it('honours resourceNames and subresources', async () => {
    await clusterRole(cluster, 'one-cm', [rule(['get', 'update'], ['configmaps'], [''], ['settings']), rule(['get'], ['pods/log'])]);
    await clusterRoleBinding(cluster, 'one-cm', 'one-cm', [user('alice')]);
    expect((await authorize(alice, 'get', 'configmaps', { namespace: 'default', name: 'settings' })).decision).toBe('Allow');
    expect((await authorize(alice, 'get', 'configmaps', { namespace: 'default', name: 'other' })).decision).toBe('NoOpinion');
    expect((await authorize(alice, 'list', 'configmaps', { namespace: 'default' })).decision).toBe('NoOpinion');
    expect((await authorize(alice, 'get', 'pods', { namespace: 'default', subresource: 'log' })).decision).toBe('Allow');
    expect((await authorize(alice, 'get', 'pods', { namespace: 'default' })).decision).toBe('NoOpinion');
  });

  it('allows non-resource URLs by exact path and * prefixes', async () => {
    await clusterRole(cluster, 'logs', [{ verbs: ['get'], nonResourceURLs: ['/logs/*', '/metrics'] }]);
    await clusterRoleBinding(cluster, 'logs', 'logs', [user('alice')]);
    const url = (verb: string, path: string) => rbac.authorizer.authorize({ user: alice, verb, resourceRequest: false, path });
    expect(await url('get', '/logs/kube-apiserver.log')).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "logs" of ClusterRole "logs" to User "alice"',
    });
    expect((await url('get', '/metrics')).decision).toBe('Allow');
    expect((await url('get', '/metrics/slis')).decision).toBe('NoOpinion');
    expect((await url('post', '/metrics')).decision).toBe('NoOpinion');
  });

  it('says which roles are missing when it does not allow, and allows despite them when another rule does', async () => {
    await clusterRoleBinding(cluster, 'a-missing', 'nope', [user('alice')]);
    expect(await authorize(alice, 'get', 'pods')).toEqual({
      decision: 'NoOpinion',
      reason: 'RBAC: clusterrole.rbac.authorization.k8s.io "nope" not found',
    });
    await roleBinding(cluster, 'default', 'b-missing', { kind: 'Role', name: 'gone' }, [user('alice')]);
    expect(await authorize(alice, 'get', 'pods', { namespace: 'default' })).toEqual({
      decision: 'NoOpinion',
      reason: 'RBAC: [clusterrole.rbac.authorization.k8s.io "nope" not found, role.rbac.authorization.k8s.io "gone" not found]',
    });
    // Two bindings of the same missing role: the message once.
    await clusterRoleBinding(cluster, 'c-missing', 'nope', [user('alice')]);
    expect((await authorize(alice, 'get', 'pods')).reason).toBe('RBAC: clusterrole.rbac.authorization.k8s.io "nope" not found');
    await clusterRole(cluster, 'pod-reader', [rule(['get'], ['pods'])]);
    await clusterRoleBinding(cluster, 'z-works', 'pod-reader', [user('alice')]);
    expect((await authorize(alice, 'get', 'pods')).decision).toBe('Allow');
  });

  it('follows every write at once: a new binding, a changed role, a deleted binding', async () => {
    await clusterRole(cluster, 'r', [rule(['get'], ['pods'])]);
    expect((await authorize(alice, 'get', 'pods')).decision).toBe('NoOpinion');
    await clusterRoleBinding(cluster, 'b', 'r', [user('alice')]);
    expect((await authorize(alice, 'get', 'pods')).decision).toBe('Allow');
    const roles = cluster.client.resource(ClusterRoleKind);
    await roles.update({ ...(await roles.get('r')), rules: [rule(['get'], ['secrets'])] });
    expect((await authorize(alice, 'get', 'pods')).decision).toBe('NoOpinion');
    expect((await authorize(alice, 'get', 'secrets')).decision).toBe('Allow');
    const bindings = cluster.client.resource(ClusterRoleBindingKind);
    await bindings.update({ ...(await bindings.get('b')), subjects: [user('bob')] });
    expect((await authorize(alice, 'get', 'secrets')).decision).toBe('NoOpinion');
    expect((await authorize({ username: 'bob', groups: [] }, 'get', 'secrets')).decision).toBe('Allow');
    await bindings.delete('b');
    expect((await authorize({ username: 'bob', groups: [] }, 'get', 'secrets')).decision).toBe('NoOpinion');
    await cluster.client.resource(RoleKind).create({ metadata: { name: 'r' }, rules: [rule(['get'], ['pods'])] }, { namespace: 'default' });
    await cluster.client
      .resource(RoleBindingKind)
      .create(
        { metadata: { name: 'rb' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'r' }, subjects: [user('alice')] },
        { namespace: 'default' },
      );
    expect((await authorize(alice, 'get', 'pods', { namespace: 'default' })).decision).toBe('Allow');
    await cluster.client.resource(RoleKind).delete('r', { namespace: 'default' });
    expect((await authorize(alice, 'get', 'pods', { namespace: 'default' })).reason).toBe('RBAC: role.rbac.authorization.k8s.io "r" not found');
  });

  it('sees the rules the aggregation controller fills into aggregated ClusterRoles', async () => {
    await cluster.client
      .resource(ClusterRoleKind)
      .create({ metadata: { name: 'monitoring' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { 'example.com/monitoring': 'true' } }] } });
    await clusterRoleBinding(cluster, 'monitoring', 'monitoring', [user('alice')]);
    expect((await authorize(alice, 'get', 'endpoints')).decision).toBe('NoOpinion');
    await clusterRole(cluster, 'endpoints-reader', [rule(['get'], ['endpoints'])], { 'example.com/monitoring': 'true' });
    await cluster.settle();
    expect((await authorize(alice, 'get', 'endpoints')).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "monitoring" of ClusterRole "monitoring" to User "alice"',
    );
  });

  it('ignores subjects of unknown kinds, and service accounts without a namespace in cluster bindings', async () => {
    // Stored directly: validation refuses such a subject.
    const storage = new MemoryStorage();
    const authorizer = createStorageRbacAuthorizer(storage);
    await storage.create(
      { bucket: 'rbac.authorization.k8s.io/clusterroles', namespace: '', name: 'r' },
      { metadata: { name: 'r' }, rules: [rule(['get'], ['pods'])] },
    );
    await storage.create(
      { bucket: 'rbac.authorization.k8s.io/clusterrolebindings', namespace: '', name: 'b' },
      {
        metadata: { name: 'b' },
        roleRef: { kind: 'ClusterRole', name: 'r' },
        subjects: [
          { kind: 'Robot', name: 'alice' },
          { kind: 'ServiceAccount', name: 'alice' },
        ],
      },
    );
    expect((await authorizer.authorize(ask(alice, 'get', 'pods'))).decision).toBe('NoOpinion');
    expect((await authorizer.authorize(ask({ username: 'system:serviceaccount::alice', groups: [] }, 'get', 'pods'))).decision).toBe('NoOpinion');
    authorizer.close();
  });

  it('reports an unsupported roleRef kind', async () => {
    const storage = new MemoryStorage();
    const authorizer = createStorageRbacAuthorizer(storage);
    await storage.create(
      { bucket: 'rbac.authorization.k8s.io/clusterrolebindings', namespace: '', name: 'b' },
      { metadata: { name: 'b' }, roleRef: { kind: 'Policy', name: 'r' }, subjects: [{ kind: 'User', name: 'alice' }] },
    );
    expect(await authorizer.authorize(ask(alice, 'get', 'pods'))).toEqual({ decision: 'NoOpinion', reason: 'RBAC: unsupported role reference kind: "Policy"' });
    authorizer.close();
  });
});

describe('RBAC authorizer: the bootstrap policy', () => {
  const anonymous = { username: 'system:anonymous', groups: ['system:unauthenticated'] };
  const url = (who: typeof alice, path: string) => rbac.authorizer.authorize({ user: who, verb: 'get', resourceRequest: false, path });

  it("lets system:masters do anything: the chain's privileged-group authorizer answers before RBAC", async () => {
    const admin = { username: 'root', groups: ['system:masters'] };
    expect(await authorize(admin, 'delete', 'nodes', { name: 'n1' })).toEqual({ decision: 'Allow', reason: '' });
    // RBAC alone allows it too, through the bootstrap cluster-admin binding.
    const storage = new MemoryStorage();
    const own = await createCluster({ storage });
    const rbac = createStorageRbacAuthorizer(storage);
    expect(await rbac.authorize({ user: admin, verb: 'delete', resourceRequest: true, apiGroup: '', resource: 'nodes', name: 'n1' })).toEqual({
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "cluster-admin" of ClusterRole "cluster-admin" to Group "system:masters"',
    });
    rbac.close();
    await own.close();
    expect((await url(admin, '/debug/pprof')).decision).toBe('Allow');
  });

  it('lets every authenticated user discover the API and review itself; anonymous users only health and version', async () => {
    expect((await url(alice, '/apis/apps/v1')).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "system:discovery" of ClusterRole "system:discovery" to Group "system:authenticated"',
    );
    expect((await authorize(alice, 'create', 'selfsubjectaccessreviews', { apiGroup: 'authorization.k8s.io' })).decision).toBe('Allow');
    expect((await url(anonymous, '/apis')).decision).toBe('NoOpinion');
    expect((await url(anonymous, '/healthz')).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "system:public-info-viewer" of ClusterRole "system:public-info-viewer" to Group "system:unauthenticated"',
    );
    expect((await url(anonymous, '/version/')).decision).toBe('Allow');
  });

  it('lets controllers act as their service accounts, and the scheduler lock its lease in kube-system', async () => {
    const gc = {
      username: 'system:serviceaccount:kube-system:generic-garbage-collector',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:kube-system'],
    };
    expect((await authorize(gc, 'patch', 'widgets', { apiGroup: 'example.com', namespace: 'default', name: 'w' })).reason).toBe(
      'RBAC: allowed by ClusterRoleBinding "system:controller:generic-garbage-collector" of ClusterRole "system:controller:generic-garbage-collector" to ServiceAccount "generic-garbage-collector/kube-system"',
    );
    expect((await authorize(gc, 'create', 'pods', { namespace: 'default' })).decision).toBe('NoOpinion');
    const scheduler = { username: 'system:kube-scheduler', groups: ['system:authenticated'] };
    expect(
      (await authorize(scheduler, 'update', 'leases', { apiGroup: 'coordination.k8s.io', namespace: 'kube-system', name: 'kube-scheduler' })).decision,
    ).toBe('Allow');
    expect((await authorize(scheduler, 'create', 'leasecandidates', { apiGroup: 'coordination.k8s.io', namespace: 'kube-system' })).reason).toBe(
      'RBAC: allowed by RoleBinding "system::leader-locking-kube-scheduler/kube-system" of Role "system::leader-locking-kube-scheduler" to User "system:kube-scheduler"',
    );
    expect((await authorize(scheduler, 'create', 'leasecandidates', { apiGroup: 'coordination.k8s.io', namespace: 'default' })).decision).toBe('NoOpinion');
  });

  it('gives the aggregated view role the rules of the system:aggregate-to-view role', async () => {
    await roleBinding(cluster, 'default', 'viewers', { kind: 'ClusterRole', name: 'view' }, [user('alice')]);
    expect((await authorize(alice, 'list', 'deployments', { apiGroup: 'apps', namespace: 'default' })).decision).toBe('Allow');
    expect((await authorize(alice, 'get', 'secrets', { namespace: 'default' })).decision).toBe('NoOpinion');
  });
});

describe('RBAC authorizer: rulesFor', () => {
  it('lists resource and URL rules apart, cluster bindings first, with missing roles as the evaluation error', async () => {
    await clusterRole(cluster, 'mixed', [rule(['get'], ['pods'], [''], ['p1']), { verbs: ['get'], nonResourceURLs: ['/logs'] }]);
    await clusterRoleBinding(cluster, 'mixed', 'mixed', [user('alice')]);
    await role(cluster, 'default', 'cm', [rule(['list'], ['configmaps'])]);
    await roleBinding(cluster, 'default', 'cm', { kind: 'Role', name: 'cm' }, [user('alice')]);
    await roleBinding(cluster, 'default', 'gone', { kind: 'Role', name: 'gone' }, [user('alice')]);
    const who = { username: 'alice', groups: [] };
    expect(await rbac.authorizer.rulesFor(who, 'default')).toEqual({
      resourceRules: [
        { verbs: ['get'], apiGroups: [''], resources: ['pods'], resourceNames: ['p1'] },
        { verbs: ['list'], apiGroups: [''], resources: ['configmaps'] },
      ],
      nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/logs'] }],
      incomplete: false,
      evaluationError: 'role.rbac.authorization.k8s.io "gone" not found',
    });
    const clusterWide = await rbac.authorizer.rulesFor(who, '');
    expect(clusterWide.resourceRules).toHaveLength(1);
    expect(clusterWide.evaluationError).toBeUndefined();
  });

  it('includes the rules every authenticated user has', async () => {
    const rules = await rbac.authorizer.rulesFor({ username: 'nobody', groups: ['system:authenticated'] }, 'default');
    expect(rules.resourceRules).toContainEqual({
      verbs: ['create'],
      apiGroups: ['authorization.k8s.io'],
      resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'],
    });
    expect(rules.nonResourceRules).toContainEqual({ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] });
  });
});

describe('RBAC authorizer over a storage', () => {
  it('reads the storage on first use, then answers without a promise', async () => {
    const storage = new MemoryStorage();
    await storage.create(
      { bucket: 'rbac.authorization.k8s.io/clusterroles', namespace: '', name: 'r' },
      { metadata: { name: 'r' }, rules: [rule(['get'], ['pods'])] },
    );
    const authorizer = createStorageRbacAuthorizer(storage);
    const first = authorizer.authorize(ask(alice, 'get', 'pods'));
    expect(first).toBeInstanceOf(Promise);
    // A write while the first read is under way is not lost.
    await storage.create(
      { bucket: 'rbac.authorization.k8s.io/clusterrolebindings', namespace: '', name: 'b' },
      { metadata: { name: 'b' }, roleRef: { kind: 'ClusterRole', name: 'r' }, subjects: [{ kind: 'User', name: 'alice' }] },
    );
    await first;
    const next = authorizer.authorize(ask(alice, 'get', 'pods'));
    expect(next).not.toBeInstanceOf(Promise);
    expect(next).toMatchObject({ decision: 'Allow' });
    authorizer.close();
    await storage.create(
      { bucket: 'rbac.authorization.k8s.io/clusterrolebindings', namespace: '', name: 'c' },
      { metadata: { name: 'c' }, roleRef: { kind: 'ClusterRole', name: 'r' }, subjects: [{ kind: 'User', name: 'bob' }] },
    );
    // Closed: it no longer follows the storage.
    expect(authorizer.authorize(ask({ username: 'bob', groups: [] }, 'get', 'pods'))).toMatchObject({ decision: 'NoOpinion' });
  });

  it('uses the buckets and group of its API domain', async () => {
    const storage = new MemoryStorage();
    const authorizer = createStorageRbacAuthorizer(storage, { apiDomain: 'example.io' });
    await storage.create(
      { bucket: 'rbac.authorization.example.io/clusterrolebindings', namespace: '', name: 'b' },
      { metadata: { name: 'b' }, roleRef: { kind: 'ClusterRole', name: 'r' }, subjects: [{ kind: 'User', name: 'alice' }] },
    );
    expect((await authorizer.authorize(ask(alice, 'get', 'pods'))).reason).toBe('RBAC: clusterrole.rbac.authorization.example.io "r" not found');
    authorizer.close();
  });

  it('answers a thousand bindings for other users without looking at them', async () => {
    const storage = new MemoryStorage();
    const authorizer = createStorageRbacAuthorizer(storage);
    await storage.create(
      { bucket: 'rbac.authorization.k8s.io/clusterroles', namespace: '', name: 'r' },
      { metadata: { name: 'r' }, rules: [rule(['get'], ['pods'])] },
    );
    for (let i = 0; i < 1000; i++) {
      await storage.create(
        { bucket: 'rbac.authorization.k8s.io/clusterrolebindings', namespace: '', name: `b${i}` },
        { metadata: { name: `b${i}` }, roleRef: { kind: 'ClusterRole', name: 'r' }, subjects: [{ kind: 'User', name: `user${i}` }] },
      );
    }
    await authorizer.authorize(ask(alice, 'get', 'pods'));
    const start = performance.now();
    for (let i = 0; i < 10000; i++) authorizer.authorize(ask({ username: `user${i % 1000}`, groups: ['system:authenticated'] }, 'get', 'pods'));
    // Far below a request's cost: about a microsecond each.
    expect(performance.now() - start).toBeLessThan(1000);
    expect(authorizer.authorize(ask({ username: 'user7', groups: [] }, 'get', 'pods'))).toMatchObject({
      decision: 'Allow',
      reason: 'RBAC: allowed by ClusterRoleBinding "b7" of ClusterRole "r" to User "user7"',
    });
    authorizer.close();
  });
});
