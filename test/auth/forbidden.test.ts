import { describe, expect, it } from 'vitest';
import { forbiddenError, forbiddenMessage, unauthorizedError } from '../../src/auth/forbidden.js';
import { compactStatus } from '../../src/machinery/errors.js';

const alice = { username: 'alice', groups: ['system:authenticated'] };

describe('forbidden answers, worded as kube-apiserver words them', () => {
  it('names the verb, resource, group and namespace of a namespaced request', () => {
    const err = forbiddenError({ user: alice, verb: 'list', resourceRequest: true, apiGroup: '', resource: 'configmaps', namespace: 'default' }, '');
    expect(compactStatus(err.status)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "default"',
      reason: 'Forbidden',
      details: { kind: 'configmaps' },
      code: 403,
    });
  });

  it('says "at the cluster scope" without a namespace, names the object and its subresource, and appends the reason', () => {
    const err = forbiddenError(
      { user: alice, verb: 'update', resourceRequest: true, apiGroup: 'apps', resource: 'deployments', subresource: 'scale', name: 'web' },
      'RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    );
    expect(err.status.message).toBe(
      'deployments.apps "web" is forbidden: User "alice" cannot update resource "deployments/scale" in API group "apps" at the cluster scope: RBAC: clusterrole.rbac.authorization.k8s.io "gone" not found',
    );
    expect(err.status.details).toMatchObject({ name: 'web', group: 'apps', kind: 'deployments' });
  });

  it('words a non-resource request by its path, with empty details', () => {
    const err = forbiddenError({ user: alice, verb: 'get', resourceRequest: false, path: '/metrics' }, '');
    expect(compactStatus(err.status)).toMatchObject({ message: 'forbidden: User "alice" cannot get path "/metrics"', details: {}, code: 403 });
  });

  it('escapes what could look like HTML in the message, as the response writer sanitizes it', () => {
    expect(forbiddenMessage({ user: { username: '<b>&', groups: [] }, verb: 'get', resourceRequest: false, path: '/x' })).toBe(
      'User "<b>&" cannot get path "/x"',
    );
    expect(forbiddenError({ user: { username: '<b>&', groups: [] }, verb: 'get', resourceRequest: false, path: '/x' }, '').status.message).toBe(
      'forbidden: User "&lt;b&gt;&amp;" cannot get path "/x"',
    );
  });

  it('answers 401 with the bare Unauthorized Status', () => {
    expect(compactStatus(unauthorizedError().status)).toEqual({
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'Unauthorized',
      reason: 'Unauthorized',
      code: 401,
    });
  });
});
