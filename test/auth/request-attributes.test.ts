import { describe, expect, it } from 'vitest';
import { httpRequestInfo, nonResourceAttributes, resourceAttributes } from '../../src/auth/request-attributes.js';

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

  it('reads a path as RequestInfoFactory does: special verbs, namespaces, subresources', () => {
    const q = new URLSearchParams();
    expect(httpRequestInfo('GET', '/api/v1/namespaces/ns/pods/p/log', q)).toMatchObject({
      verb: 'get',
      namespace: 'ns',
      resource: 'pods',
      name: 'p',
      subresource: 'log',
    });
    expect(httpRequestInfo('GET', '/api/v1/namespaces/ns', q)).toMatchObject({ verb: 'get', namespace: 'ns', resource: 'namespaces', name: 'ns' });
    expect(httpRequestInfo('PUT', '/api/v1/namespaces/ns/finalize', q)).toMatchObject({
      verb: 'update',
      namespace: 'ns',
      resource: 'namespaces',
      subresource: 'finalize',
    });
    expect(httpRequestInfo('GET', '/api/v1/proxy/nodes/n1/stats', q)).toMatchObject({ verb: 'proxy', resource: 'nodes', name: 'n1', subresource: undefined });
    expect(httpRequestInfo('GET', '/apis/apps/v1/watch/deployments', q)).toMatchObject({
      verb: 'watch',
      group: 'apps',
      resource: 'deployments',
      verbFromPath: true,
    });
    expect(httpRequestInfo('POST', '/api/v1/namespaces/ns/pods', q)).toMatchObject({ verb: 'create', name: undefined });
    expect(httpRequestInfo('GET', '/apis/apps/v1', q)).toBeUndefined();
    expect(httpRequestInfo('GET', '/healthz', q)).toBeUndefined();
  });

  it('reads paths with repeated or trailing slashes and escaped segments as RequestInfoFactory splits them', () => {
    const q = new URLSearchParams();
    expect(httpRequestInfo('GET', '/api//v1/namespaces/ns//pods/p/', q)).toMatchObject({ verb: 'get', namespace: 'ns', resource: 'pods', name: 'p' });
    expect(httpRequestInfo('GET', '/api/v1/namespaces/n%73/pods/a%2Fb', q)).toMatchObject({ namespace: 'ns', name: 'a/b' });
    expect(httpRequestInfo('GET', '/api/v1/namespaces/ns/pods/%E0%A4%A', q)).toBeUndefined();
    // A method that is no HTTP verb of a resource gets no verb, not a property of Object.prototype.
    expect(httpRequestInfo('constructor', '/api/v1/namespaces/ns/pods/p', q)?.verb).toBe('');
  });

  it('asks about a named namespace in that namespace', () => {
    expect(resourceAttributes(user, { verb: 'get', group: '', version: 'v1', resource: 'namespaces', name: 'team' }).namespace).toBe('team');
    expect(resourceAttributes(user, { verb: 'list', group: '', version: 'v1', resource: 'namespaces' }).namespace).toBe('');
  });

  it('keeps the name of a legacy watch path empty whatever its field selector', () => {
    expect(resourceAttributes(user, { ...base, verb: 'watch', fieldSelector: 'metadata.name=web', verbFromPath: true }).name).toBe('');
  });
});
