/**
 * Escalation prevention resolves the writer's rules from the RBAC objects, as kube-apiserver's RBAC
 * storage does with its own rule resolver, whatever authorizers the chain has.
 */
import { describe, expect, it } from 'vitest';
import { RoleKind } from '../../../src/kinds/index.js';
import type { Authorizer } from '../../../src/machinery/auth.js';
import { statusOf, useTestCluster } from '../../support/cluster.js';
import { clusterRole, clusterRoleBinding, rule, user } from '../../auth/rbac/support.js';

/** Allows every request but `escalate` and `bind`, and lists no rules (a stand-in for a webhook). */
const allowAllButEscalation: Authorizer = {
  authorize: (a) => (a.verb === 'escalate' || a.verb === 'bind' ? { decision: 'NoOpinion', reason: '' } : { decision: 'Allow', reason: '' }),
  rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: 'cannot list rules' }),
};

describe('escalation prevention without RBAC in the chain', () => {
  const cluster = useTestCluster({ authorization: { modes: ['AlwaysDeny'], authorizers: [allowAllButEscalation] } });
  const bob = { username: 'bob', groups: ['system:authenticated'] };

  it("lets a user write the rules its RBAC bindings give it, and refuses others without the chain's errors", async () => {
    await clusterRole(cluster, 'pod-reader', [rule(['get'], ['pods'])]);
    await clusterRoleBinding(cluster, 'bob-pods', 'pod-reader', [user('bob')]);
    const roles = cluster.client.as(bob).resource(RoleKind);
    const created = await roles.create({ metadata: { name: 'r' }, rules: [rule(['get'], ['pods'])] }, { namespace: 'default' });
    expect(created.rules).toEqual([rule(['get'], ['pods'])]);
    const refused = await statusOf(() => roles.create({ metadata: { name: 'r2' }, rules: [rule(['delete'], ['pods'])] }, { namespace: 'default' }));
    expect(refused).toMatchObject({
      code: 403,
      reason: 'Forbidden',
      message:
        'roles.rbac.authorization.k8s.io "r2" is forbidden: user "bob" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["pods"], Verbs:["delete"]}',
    });
  });
});

describe('escalation prevention with the Node authorizer in the chain', () => {
  const cluster = useTestCluster({ authorization: { modes: ['Node', 'RBAC'] } });
  const kubelet = { username: 'system:node:n1', groups: ['system:nodes', 'system:authenticated'] };

  it('does not report the Node authorizer\'s "does not support user rule resolution" as a resolution error', async () => {
    await clusterRole(cluster, 'role-writer', [rule(['create'], ['roles'], ['rbac.authorization.k8s.io'])]);
    await clusterRoleBinding(cluster, 'n1-roles', 'role-writer', [user('system:node:n1')]);
    const refused = await statusOf(() =>
      cluster.client
        .as(kubelet)
        .resource(RoleKind)
        .create({ metadata: { name: 'r' }, rules: [rule(['delete'], ['secrets'])] }, { namespace: 'default' }),
    );
    expect(refused.code).toBe(403);
    expect(refused.message).toBe(
      'roles.rbac.authorization.k8s.io "r" is forbidden: user "system:node:n1" (groups=["system:nodes" "system:authenticated"]) is attempting to grant RBAC permissions not currently held:\n' +
        '{APIGroups:[""], Resources:["secrets"], Verbs:["delete"]}',
    );
  });
});
