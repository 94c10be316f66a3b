import { beforeEach, describe, expect, it } from 'vitest';
import { ClusterRoleBindingKind, ClusterRoleKind, RoleBindingKind, RoleKind } from '../../../src/kinds/index.js';
import type { UserInfo } from '../../../src/machinery/request.js';
import type { PolicyRule, RoleRef, Subject } from '../../../src/kinds/types/rbac-v1.js';
import { statusOf } from '../../support/cluster.js';
import { alice, clusterRole, clusterRoleBinding, role, roleBinding, rule, useRbacCluster, user } from '../../auth/rbac/support.js';

const { cluster } = useRbacCluster();

// Alice (and every test user) may write RBAC objects at all; what she may put into them is the question.
beforeEach(async () => {
  await clusterRole(cluster, 'rbac-writer', [
    rule(['create', 'update', 'patch', 'get'], ['roles', 'rolebindings', 'clusterroles', 'clusterrolebindings'], ['rbac.authorization.k8s.io']),
  ]);
  await clusterRoleBinding(cluster, 'rbac-writers', 'rbac-writer', [{ kind: 'Group', name: 'system:authenticated', apiGroup: 'rbac.authorization.k8s.io' }]);
});
const NS = { namespace: 'default' };
const GROUPS = '(groups=["devs" "system:authenticated"])';
const as = (who: UserInfo) => cluster.client.as(who);
const REF = (kind: 'Role' | 'ClusterRole', name: string): RoleRef => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });

/** Alice may get and list pods in `default` (through a RoleBinding of a ClusterRole). */
async function alicePodReader(): Promise<void> {
  await clusterRole(cluster, 'pod-reader', [rule(['get', 'list'], ['pods'])]);
  await roleBinding(cluster, 'default', 'alice-pods', { kind: 'ClusterRole', name: 'pod-reader' }, [user('alice')]);
}

const createRole = (who: UserInfo, rules: PolicyRule[], name = 'r') => as(who).resource(RoleKind).create({ metadata: { name }, rules }, NS);
const createBinding = (who: UserInfo, roleRef: RoleRef, name = 'rb', namespace = 'default', subjects: Subject[] = [user('bob')]) =>
  as(who).resource(RoleBindingKind).create({ metadata: { name }, roleRef, subjects }, { namespace });

describe('escalation prevention: Role', () => {
  it('lets a user create a role with rules it holds, in that namespace', async () => {
    await alicePodReader();
    const created = await createRole(alice, [rule(['get'], ['pods'])]);
    expect(created.rules).toEqual([rule(['get'], ['pods'])]);
  });

  it('refuses rules the writer does not hold, listing them compacted, one line per resource, in order', async () => {
    await alicePodReader();
    const s = await statusOf(() =>
      createRole(alice, [rule(['get', 'delete', 'patch'], ['pods', 'secrets']), { verbs: ['get'], nonResourceURLs: ['/metrics'] }]),
    );
    expect(s).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      details: { name: 'r', group: 'rbac.authorization.k8s.io', kind: 'roles' },
      message:
        `roles.rbac.authorization.k8s.io "r" is forbidden: user "alice" ${GROUPS} is attempting to grant RBAC permissions not currently held:\n` +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete" "patch"]}\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete" "patch"]}\n' +
        '{NonResourceURLs:["/metrics"], Verbs:["get"]}',
    });
    await expect(cluster.client.resource(RoleKind).get('r', NS)).rejects.toMatchObject({ status: { code: 404 } });
  });

  it('shows resource names, and that rules held in another namespace do not count', async () => {
    await alicePodReader();
    const s = await statusOf(() =>
      as(alice)
        .resource(RoleKind)
        .create({ metadata: { name: 'r' }, rules: [rule(['get'], ['pods']), rule(['get'], ['configmaps'], [''], ['a', 'b'])] }, { namespace: 'kube-public' }),
    );
    expect(s.message).toBe(
      `roles.rbac.authorization.k8s.io "r" is forbidden: user "alice" ${GROUPS} is attempting to grant RBAC permissions not currently held:\n` +
        '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["a"], Verbs:["get"]}\n' +
        '{APIGroups:[""], Resources:["configmaps"], ResourceNames:["b"], Verbs:["get"]}\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
    );
  });

  it('adds the errors of resolving the writer’s rules', async () => {
    await clusterRoleBinding(cluster, 'broken', 'nope', [user('alice')]);
    const s = await statusOf(() => createRole(alice, [rule(['get'], ['pods'])]));
    expect(s.message).toBe(
      `roles.rbac.authorization.k8s.io "r" is forbidden: user "alice" ${GROUPS} is attempting to grant RBAC permissions not currently held:\n` +
        '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}; resolution errors: [clusterrole.rbac.authorization.k8s.io "nope" not found]',
    );
  });

  it('checks updates too, before validation', async () => {
    await alicePodReader();
    const mine = await createRole(alice, [rule(['get'], ['pods'])]);
    const s = await statusOf(() =>
      as(alice)
        .resource(RoleKind)
        .update({ ...mine, rules: [rule(['watch'], ['pods'])] }),
    );
    expect(s.code).toBe(403);
    expect(s.message).toContain('{APIGroups:[""], Resources:["pods"], Verbs:["watch"]}');
    // An invalid rule the writer does not hold is refused as an escalation, not as invalid.
    expect((await statusOf(() => createRole(alice, [{ verbs: ['get'], resources: ['x'], apiGroups: [] }], 'bad'))).code).toBe(422);
    expect((await statusOf(() => createRole(alice, [{ verbs: ['get'], resources: ['x'], apiGroups: ['y'] }, { verbs: [] }], 'bad'))).code).toBe(403);
  });

  it('lets an update through that only changes finalizers or owner references', async () => {
    await role(cluster, 'default', 'strong', [rule(['*'], ['*'], ['*'])]);
    const current = await cluster.client.resource(RoleKind).get('strong', NS);
    const updated = await as(alice)
      .resource(RoleKind)
      .update({ ...current, metadata: { ...current.metadata, finalizers: ['example.com/keep'] } });
    expect(updated.metadata?.finalizers).toEqual(['example.com/keep']);
    const s = await statusOf(() =>
      as(alice)
        .resource(RoleKind)
        .update({ ...updated, metadata: { ...updated.metadata, labels: { a: 'b' } } }),
    );
    expect(s.code).toBe(403);
  });

  it('refuses a rule that expands to too many single permissions, quickly', async () => {
    const many = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`);
    const s = await statusOf(() => createRole(alice, [rule(many(300, 'v'), many(300, 'r'), many(300, 'g'))]));
    expect(s.code).toBe(403);
    expect(s.message?.endsWith('(the rules expand to more than 100000 single permissions; the rest were not compared)')).toBe(true);
  });

  it('lets members of system:masters write anything, with no binding at all', async () => {
    await cluster.client.resource(ClusterRoleBindingKind).delete('cluster-admin');
    const master = { username: 'root', groups: ['system:masters'] };
    expect((await createRole(master, [rule(['*'], ['*'], ['*'])])).metadata?.name).toBe('r');
  });

  it('lets a user with the escalate verb on roles write any rules; escalate on one name covers updates of that role only', async () => {
    await clusterRole(cluster, 'escalator', [rule(['escalate'], ['roles'], ['rbac.authorization.k8s.io'])]);
    await roleBinding(cluster, 'default', 'esc', { kind: 'ClusterRole', name: 'escalator' }, [user('alice')]);
    expect((await createRole(alice, [rule(['*'], ['secrets'])], 'wide')).rules).toEqual([rule(['*'], ['secrets'])]);

    await clusterRole(cluster, 'escalate-one', [rule(['escalate'], ['roles'], ['rbac.authorization.k8s.io'], ['one'])]);
    await roleBinding(cluster, 'default', 'esc-one', { kind: 'ClusterRole', name: 'escalate-one' }, [user('bob')]);
    const bob = { username: 'bob', groups: ['system:authenticated'] };
    // A create by POST names no object: escalate on "one" does not apply.
    expect((await statusOf(() => createRole(bob, [rule(['get'], ['secrets'])], 'one'))).code).toBe(403);
    const one = await role(cluster, 'default', 'one', []);
    expect(
      (
        await as(bob)
          .resource(RoleKind)
          .update({ ...one, rules: [rule(['get'], ['secrets'])] })
      ).rules,
    ).toEqual([rule(['get'], ['secrets'])]);
  });
});

describe('escalation prevention: ClusterRole', () => {
  it('refuses cluster-wide rules held only in a namespace', async () => {
    await alicePodReader();
    const s = await statusOf(() =>
      as(alice)
        .resource(ClusterRoleKind)
        .create({ metadata: { name: 'cr' }, rules: [rule(['get'], ['pods'])] }),
    );
    expect(s).toMatchObject({
      code: 403,
      message:
        `clusterroles.rbac.authorization.k8s.io "cr" is forbidden: user "alice" ${GROUPS} is attempting to grant RBAC permissions not currently held:\n` +
        '{APIGroups:[""], Resources:["pods"], Verbs:["get"]}',
    });
    await clusterRoleBinding(cluster, 'alice-pods', 'pod-reader', [user('alice')]);
    expect(
      (
        await as(alice)
          .resource(ClusterRoleKind)
          .create({ metadata: { name: 'cr' }, rules: [rule(['list'], ['pods'])] })
      ).metadata?.name,
    ).toBe('cr');
  });

  it('requires everything (* on *.* and every URL) to set or change an aggregation rule', async () => {
    // Every verb but escalate (which would let her write any role).
    await clusterRole(cluster, 'everything-but-escalate', [rule(['get', 'list', 'watch', 'create', 'update', 'patch', 'delete'], ['*'], ['*'])]);
    await clusterRoleBinding(cluster, 'alice-all-resources', 'everything-but-escalate', [user('alice')]);
    const aggregated = { metadata: { name: 'agg' }, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { x: 'y' } }] } };
    expect(await statusOf(() => as(alice).resource(ClusterRoleKind).create(aggregated))).toMatchObject({
      code: 403,
      message: 'clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule',
    });
    const stored = await cluster.client.resource(ClusterRoleKind).create(aggregated);
    // Dropping the aggregation rule needs the same.
    const s = await statusOf(() =>
      as(alice)
        .resource(ClusterRoleKind)
        .update({ ...stored, aggregationRule: undefined, rules: [] }),
    );
    expect(s.message).toBe('clusterroles.rbac.authorization.k8s.io "agg" is forbidden: must have cluster-admin privileges to use the aggregationRule');
    // Holding * of *.* and of every URL is holding escalate as well.
    await clusterRoleBinding(cluster, 'alice-admin', 'cluster-admin', [user('alice')]);
    expect(
      (
        await as(alice)
          .resource(ClusterRoleKind)
          .create({ ...aggregated, metadata: { name: 'agg2' } })
      ).metadata?.name,
    ).toBe('agg2');
  });
});

describe('escalation prevention: RoleBinding', () => {
  it('lets a user bind a role whose rules it holds', async () => {
    await alicePodReader();
    await role(cluster, 'default', 'pod-getter', [rule(['get'], ['pods'])]);
    expect((await createBinding(alice, REF('Role', 'pod-getter'))).roleRef.name).toBe('pod-getter');
  });

  it('refuses to bind a role with rules the user does not hold', async () => {
    await alicePodReader();
    await role(cluster, 'default', 'secret-admin', [rule(['*'], ['secrets'])]);
    expect(await statusOf(() => createBinding(alice, REF('Role', 'secret-admin')))).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      details: { name: 'rb', group: 'rbac.authorization.k8s.io', kind: 'rolebindings' },
      message:
        `rolebindings.rbac.authorization.k8s.io "rb" is forbidden: user "alice" ${GROUPS} is attempting to grant RBAC permissions not currently held:\n` +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["*"]}',
    });
  });

  it('lets a user with bind on the role (in the binding’s namespace) bind it', async () => {
    await clusterRole(cluster, 'binder', [rule(['bind'], ['clusterroles'], ['rbac.authorization.k8s.io'], ['admin'])]);
    await roleBinding(cluster, 'default', 'alice-binds', { kind: 'ClusterRole', name: 'binder' }, [user('alice')]);
    expect((await createBinding(alice, REF('ClusterRole', 'admin'))).roleRef.name).toBe('admin');
    expect((await statusOf(() => createBinding(alice, REF('ClusterRole', 'admin'), 'rb', 'kube-public'))).code).toBe(403);
    expect((await statusOf(() => createBinding(alice, REF('ClusterRole', 'edit'), 'rb2'))).code).toBe(403);
  });

  it('answers 404 for a missing role and 500 for an unsupported roleRef kind, before validation', async () => {
    expect(await statusOf(() => createBinding(alice, REF('Role', 'nope')))).toMatchObject({
      code: 404,
      message: 'roles.rbac.authorization.k8s.io "nope" not found',
    });
    expect(await statusOf(() => createBinding(alice, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Policy', name: 'x' }))).toMatchObject({
      code: 500,
      message: 'Internal error occurred: unsupported role reference kind: "Policy"',
    });
    // The cluster admin gets validation's answer.
    expect(
      (
        await statusOf(() =>
          createBinding({ username: 'root', groups: ['system:masters'] }, { apiGroup: 'rbac.authorization.k8s.io', kind: 'Policy', name: 'x' }),
        )
      ).code,
    ).toBe(422);
  });

  it('checks updates unless they only change finalizers', async () => {
    await role(cluster, 'default', 'secret-admin', [rule(['*'], ['secrets'])]);
    const rb = await roleBinding(cluster, 'default', 'rb', { kind: 'Role', name: 'secret-admin' }, [user('bob')]);
    expect(
      (
        await statusOf(() =>
          as(alice)
            .resource(RoleBindingKind)
            .update({ ...rb, subjects: [user('alice')] }),
        )
      ).code,
    ).toBe(403);
    const kept = await as(alice)
      .resource(RoleBindingKind)
      .update({ ...rb, metadata: { ...rb.metadata, finalizers: ['example.com/x'] } });
    expect(kept.metadata?.finalizers).toEqual(['example.com/x']);
  });
});

describe('escalation prevention: ClusterRoleBinding', () => {
  it('refuses to bind cluster-wide what the user holds only in a namespace, and allows it with bind', async () => {
    await alicePodReader();
    const create = () =>
      as(alice)
        .resource(ClusterRoleBindingKind)
        .create({ metadata: { name: 'crb' }, roleRef: REF('ClusterRole', 'pod-reader'), subjects: [user('bob')] });
    expect(await statusOf(create)).toMatchObject({
      code: 403,
      details: { name: 'crb', kind: 'clusterrolebindings' },
      message:
        `clusterrolebindings.rbac.authorization.k8s.io "crb" is forbidden: user "alice" ${GROUPS} is attempting to grant RBAC permissions not currently held:\n` +
        '{APIGroups:[""], Resources:["pods"], Verbs:["get" "list"]}',
    });
    await clusterRole(cluster, 'binder', [rule(['bind'], ['clusterroles'], ['rbac.authorization.k8s.io'])]);
    await clusterRoleBinding(cluster, 'alice-binds', 'binder', [user('alice')]);
    expect((await create()).metadata?.name).toBe('crb');
  });

  it('allows a user holding every rule of the role', async () => {
    await clusterRole(cluster, 'pod-reader', [rule(['get', 'list'], ['pods'])]);
    await clusterRoleBinding(cluster, 'alice-pods', 'pod-reader', [user('alice')]);
    const created = await as(alice)
      .resource(ClusterRoleBindingKind)
      .create({ metadata: { name: 'crb' }, roleRef: REF('ClusterRole', 'pod-reader'), subjects: [user('bob')] });
    expect(created.subjects).toEqual([user('bob')]);
  });
});

describe('escalation prevention under AlwaysAllow', () => {
  it('lets everyone escalate and bind, as the authorizer allows both verbs', async () => {
    const { testCluster } = await import('../../support/cluster.js');
    const plain = await testCluster();
    try {
      const created = await plain.client
        .as(alice)
        .resource(RoleKind)
        .create({ metadata: { name: 'r' }, rules: [rule(['*'], ['*'], ['*'])] }, NS);
      expect(created.metadata?.name).toBe('r');
      const rb = await plain.client
        .as(alice)
        .resource(RoleBindingKind)
        .create({ metadata: { name: 'rb' }, roleRef: REF('ClusterRole', 'cluster-admin'), subjects: [user('alice')] }, NS);
      expect(rb.metadata?.name).toBe('rb');
    } finally {
      await plain.close();
    }
  });
});
