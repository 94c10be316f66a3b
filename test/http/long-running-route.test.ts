/**
 * Which requests the HTTP door leaves out of the in-flight counts: watches (by query or by the
 * legacy `/watch/` path) and the streaming subresources (logs, exec, attach, port forwarding,
 * proxies), told from the door's parse of the path and the query.
 */
import { describe, expect, it } from 'vitest';
import { longRunningRoute } from '../../src/http/metrics.js';
import { parseResourcePath } from '../../src/http/routes.js';

const asked = (target: string) => {
  const url = new URL(target, 'http://memkube');
  return longRunningRoute(parseResourcePath(url.pathname), url.search, url);
};

describe('longRunningRoute', () => {
  it.each([
    '/api/v1/namespaces/default/configmaps?watch=true',
    '/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=5',
    '/api/v1/watch/namespaces/default/configmaps',
    '/api/v1/namespaces/default/pods/p/log',
    '/api/v1/namespaces/default/pods/p/exec',
    '/api/v1/namespaces/default/pods/p/attach',
    '/api/v1/namespaces/default/pods/p/portforward',
    '/api/v1/namespaces/default/services/s/proxy',
    '/api/v1/nodes/n1/proxy/metrics',
    '/api/v1/namespaces/default/pods/p/log/',
  ])('%s is long-running', (target) => {
    expect(asked(target)).toBe(true);
  });

  it.each([
    '/api/v1/namespaces/default/configmaps',
    '/api/v1/namespaces/default/configmaps/logs',
    '/api/v1/namespaces/default/configmaps/log-settings',
    // Objects named like a streaming subresource are read like any other.
    '/api/v1/namespaces/default/configmaps/log',
    '/api/v1/namespaces/default/secrets/proxy',
    '/api/v1/namespaces/default/configmaps/exec?labelSelector=x',
    '/healthz',
    '/apis/apps/v1/watch',
    '/api/v1/namespaces/default/pods/p/status',
    '/api/v1/namespaces/default/configmaps?watch=false',
    '/api/v1/namespaces/default/configmaps?labelSelector=watch%3Dtrue',
    '/',
    '',
  ])('%s is not', (target) => {
    expect(asked(target)).toBe(false);
  });
});
