import { describe, expect, it } from 'vitest';
import { nonResourceAttributes, resourceAttributes } from '../../src/auth/request-attributes.js';

const user = { username: 'u', groups: [] };
const base = { group: '', version: 'v1', resource: 'pods', namespace: 'ns' };

describe('request attributes', () => {
  it('asks a list or watch of metadata.name=<n> about <n>, as RequestInfoFactory does', () => {
    expect(resourceAttributes(user, { ...base, verb: 'watch', fieldSelector: 'metadata.name=web' }).name).toBe('web');
    expect(resourceAttributes(user, { ...base, verb: 'list', fieldSelector: 'status.phase=Running,metadata.name==web' }).name).toBe('web');
  });

  it('leaves the name empty for other selectors, names that cannot be path segments, and other verbs', () => {
    expect(resourceAttributes(user, { ...base, verb: 'list', fieldSelector: 'metadata.name!=web' }).name).toBe('');
    expect(resourceAttributes(user, { ...base, verb: 'list', fieldSelector: 'metadata.name=a/b' }).name).toBe('');
    expect(resourceAttributes(user, { ...base, verb: 'list', fieldSelector: 'metadata.name=..' }).name).toBe('');
    expect(resourceAttributes(user, { ...base, verb: 'list', fieldSelector: 'metadata.name=%41' }).name).toBe('');
    expect(resourceAttributes(user, { ...base, verb: 'list', fieldSelector: '((' }).name).toBe('');
    expect(resourceAttributes(user, { ...base, verb: 'deletecollection', fieldSelector: 'metadata.name=web' }).name).toBe('');
  });

  it('fills the empty strings Go leaves in the record', () => {
    expect(resourceAttributes(user, { verb: 'get', group: 'apps', version: 'v1', resource: 'deployments', name: 'd' })).toEqual({
      user,
      verb: 'get',
      resourceRequest: true,
      path: undefined,
      namespace: '',
      apiGroup: 'apps',
      apiVersion: 'v1',
      resource: 'deployments',
      subresource: '',
      name: 'd',
      fieldSelector: undefined,
      labelSelector: undefined,
    });
  });

  it('words a non-resource request as the lower-cased method on the path', () => {
    expect(nonResourceAttributes(user, 'HEAD', '/healthz')).toEqual({ user, verb: 'head', resourceRequest: false, path: '/healthz' });
  });
});
