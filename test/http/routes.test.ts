import { describe, expect, it } from 'vitest';
import { parseResourcePath } from '../../src/http/routes.js';
import { parseGoInt64, queryBool, parseGoBool } from '../../src/http/query.js';
import { humanDuration } from '../../src/http/tables.js';

describe('parseResourcePath', () => {
  it.each([
    ['/api/v1/configmaps', { group: '', version: 'v1', resource: 'configmaps' }],
    ['/api/v1/namespaces/ns1/configmaps', { resource: 'configmaps', namespace: 'ns1' }],
    ['/api/v1/namespaces/ns1/configmaps/x', { resource: 'configmaps', namespace: 'ns1', name: 'x' }],
    ['/api/v1/namespaces/ns1/pods/p/status', { resource: 'pods', namespace: 'ns1', name: 'p', subresource: 'status' }],
    ['/api/v1/namespaces', { resource: 'namespaces' }],
    ['/api/v1/namespaces/ns1', { resource: 'namespaces', name: 'ns1' }],
    ['/api/v1/namespaces/ns1/status', { resource: 'namespaces', name: 'ns1', subresource: 'status' }],
    ['/api/v1/namespaces/ns1/finalize', { resource: 'namespaces', name: 'ns1', subresource: 'finalize' }],
    ['/api/v1/nodes/n1', { resource: 'nodes', name: 'n1' }],
    ['/apis/apps/v1/namespaces/d/statefulsets/s', { group: 'apps', version: 'v1', resource: 'statefulsets', namespace: 'd', name: 's' }],
    ['/apis/apps/v1/watch/statefulsets', { group: 'apps', resource: 'statefulsets', legacyWatch: true }],
    ['/api/v1/watch/namespaces/d/configmaps/x', { resource: 'configmaps', namespace: 'd', name: 'x', legacyWatch: true }],
  ])('%s', (path, expected) => {
    expect(parseResourcePath(path)).toMatchObject(expected);
  });

  it.each(['/', '/api', '/api/v1', '/apis/apps', '/apis/apps/v1', '/foo/v1/x', '/api/v1/watch/namespaces/a/configmaps/x/status/extra'])(
    '%s is not a resource path',
    (path) => {
      expect(parseResourcePath(path)).toBeUndefined();
    },
  );

  it('keeps the segments after a subresource as its path (a proxy); the handler refuses them elsewhere', () => {
    expect(parseResourcePath('/api/v1/nodes/n1/proxy/metrics/cadvisor')).toMatchObject({
      resource: 'nodes',
      name: 'n1',
      subresource: 'proxy',
      subpath: ['metrics', 'cadvisor'],
    });
    expect(parseResourcePath('/api/v1/nodes/n1/proxy/a%2Fb/')).toMatchObject({ subpath: ['a/b', ''] });
    expect(parseResourcePath('/api/v1/namespaces/a/configmaps/x/status/extra')).toMatchObject({ subresource: 'status', subpath: ['extra'] });
    expect(parseResourcePath('/api/v1/nodes/n1/proxy')?.subpath).toBeUndefined();
  });
});

describe('query parameters', () => {
  it('reads booleans as Kubernetes parameter codec does: only false and 0 are false', () => {
    const p = (q: string) => queryBool(new URLSearchParams(q), 'watch');
    expect([p('watch=true'), p('watch=1'), p('watch=TRUE'), p('watch=t'), p('watch='), p('watch=yes')]).toEqual([true, true, true, true, true, true]);
    expect([p('watch=false'), p('watch=FALSE'), p('watch=0'), p('')]).toEqual([false, false, false, undefined]);
  });

  it('reads pretty with Go strconv.ParseBool', () => {
    expect(['1', 't', 'T', 'TRUE', 'true', 'True'].map(parseGoBool)).toEqual(Array(6).fill(true));
    expect(['0', 'f', 'F', 'FALSE', 'false', 'False'].map(parseGoBool)).toEqual(Array(6).fill(false));
    expect(parseGoBool('yes')).toBeUndefined();
  });

  it('reads integers with strconv.ParseInt and its messages', () => {
    expect(parseGoInt64('42')).toBe(42);
    expect(parseGoInt64('-7')).toBe(-7);
    expect(() => parseGoInt64('4x')).toThrow('strconv.ParseInt: parsing "4x": invalid syntax');
    expect(() => parseGoInt64('99999999999999999999')).toThrow('strconv.ParseInt: parsing "99999999999999999999": value out of range');
  });
});

describe('humanDuration', () => {
  it.each([
    [0, '0s'],
    [119_000, '119s'],
    [120_000, '2m'],
    [150_000, '2m30s'],
    [3 * 3600_000, '3h'],
    [3 * 3600_000 + 60_000, '3h1m'],
    [30 * 3600_000, '30h'],
    [50 * 3600_000, '2d2h'],
    [10 * 86400_000, '10d'],
    [(365 * 3 + 5) * 86400_000, '3y5d'],
  ])('%i ms is %s', (ms, text) => {
    expect(humanDuration(ms)).toBe(text);
  });
});
