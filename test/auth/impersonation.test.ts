import { describe, expect, it } from 'vitest';
import { impersonatedUser, splitServiceAccountUsername } from '../../src/auth/impersonation.js';
import { alwaysAllowAuthorizer } from '../../src/auth/always.js';
import { isApiError } from '../../src/machinery/errors.js';
import type { AuthorizationAttributes, Authorizer } from '../../src/machinery/auth.js';

const requester = { username: 'alice', groups: ['system:authenticated'] };

/** Headers as the door hands them over: names lower-cased, every line a value. */
function headers(lines: [string, string][]) {
  const names = [...new Set(lines.map(([n]) => n.toLowerCase()))];
  return { names, values: (name: string) => lines.filter(([n]) => n.toLowerCase() === name).map(([, v]) => v) };
}

function recording(allow: (a: AuthorizationAttributes) => boolean): { authorizer: Authorizer; asked: AuthorizationAttributes[] } {
  const asked: AuthorizationAttributes[] = [];
  return {
    asked,
    authorizer: {
      authorize: (a) => (asked.push(a), allow(a) ? { decision: 'Allow', reason: '' } : { decision: 'NoOpinion', reason: '' }),
      rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: false }),
    },
  };
}

describe('impersonation', () => {
  it('answers the requester when nothing is impersonated', async () => {
    const h = headers([['Accept', 'application/json']]);
    expect(await impersonatedUser(requester, h.names, h.values, alwaysAllowAuthorizer)).toBe(requester);
  });

  it('acts as the user, groups (one per header line), uid and extras, each authorized with the impersonate verb', async () => {
    const h = headers([
      ['Impersonate-User', 'bob'],
      ['Impersonate-Group', 'devs'],
      ['Impersonate-Group', 'ops, eu'],
      ['Impersonate-Uid', '42'],
      ['Impersonate-Extra-Scopes', 'view'],
      ['Impersonate-Extra-acme.com%2fteam', 'blue'],
    ]);
    const r = recording(() => true);
    expect(await impersonatedUser(requester, h.names, h.values, r.authorizer)).toEqual({
      username: 'bob',
      uid: '42',
      groups: ['devs', 'ops, eu', 'system:authenticated'],
      extra: { scopes: ['view'], 'acme.com/team': ['blue'] },
    });
    expect(r.asked.map((a) => [a.verb, a.apiGroup, a.resource, a.subresource ?? '', a.name])).toEqual([
      ['impersonate', '', 'users', '', 'bob'],
      ['impersonate', '', 'groups', '', 'devs'],
      ['impersonate', '', 'groups', '', 'ops, eu'],
      ['impersonate', 'authentication.k8s.io', 'userextras', 'scopes', 'view'],
      ['impersonate', 'authentication.k8s.io', 'userextras', 'acme.com/team', 'blue'],
      ['impersonate', 'authentication.k8s.io', 'uids', '', '42'],
    ]);
  });

  it('impersonates a service account as the serviceaccounts resource of its namespace, with its groups', async () => {
    const h = headers([['Impersonate-User', 'system:serviceaccount:team:builder']]);
    const r = recording(() => true);
    expect(await impersonatedUser(requester, h.names, h.values, r.authorizer)).toEqual({
      username: 'system:serviceaccount:team:builder',
      groups: ['system:serviceaccounts', 'system:serviceaccounts:team', 'system:authenticated'],
    });
    expect(r.asked[0]).toMatchObject({ resource: 'serviceaccounts', namespace: 'team', name: 'builder' });
  });

  it('adds system:unauthenticated to system:anonymous, and no system:authenticated when a group says otherwise', async () => {
    let h = headers([['Impersonate-User', 'system:anonymous']]);
    expect((await impersonatedUser(requester, h.names, h.values, alwaysAllowAuthorizer)).groups).toEqual(['system:unauthenticated']);
    h = headers([
      ['Impersonate-User', 'carol'],
      ['Impersonate-Group', 'system:unauthenticated'],
    ]);
    expect((await impersonatedUser(requester, h.names, h.values, alwaysAllowAuthorizer)).groups).toEqual(['system:unauthenticated']);
  });

  it('refuses groups without a user with 400, printing the requests as Go prints them', async () => {
    const h = headers([
      ['Impersonate-Group', 'devs'],
      ['Impersonate-Uid', '7'],
    ]);
    const err = await impersonatedUser(requester, h.names, h.values, alwaysAllowAuthorizer).catch((e: unknown) => e);
    expect(isApiError(err, 'BadRequest')).toBe(true);
    expect((err as Error).message).toBe('requested [{Group  devs    } {UID  7  authentication.k8s.io/v1  }] without impersonating a user');
  });

  it('answers 403 naming the part that was not allowed', async () => {
    const h = headers([
      ['Impersonate-User', 'bob'],
      ['Impersonate-Group', 'system:masters'],
    ]);
    const r = recording((a) => a.resource === 'users');
    const err = await impersonatedUser(requester, h.names, h.values, r.authorizer).catch((e: unknown) => e);
    expect(isApiError(err, 'Forbidden')).toBe(true);
    expect((err as Error).message).toBe(
      'groups "system:masters" is forbidden: User "alice" cannot impersonate resource "groups" in API group "" at the cluster scope',
    );
  });

  it('splits service account user names only when both parts are valid names', () => {
    expect(splitServiceAccountUsername('system:serviceaccount:ns:sa')).toEqual({ namespace: 'ns', name: 'sa' });
    for (const name of ['system:serviceaccount:ns', 'system:serviceaccount::sa', 'system:serviceaccount:NS:sa', 'system:serviceaccount:ns:sa:x', 'alice']) {
      expect(splitServiceAccountUsername(name)).toBeUndefined();
    }
  });
});
