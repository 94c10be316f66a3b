import { describe, expect, it } from 'vitest';
import { bearerToken } from '../../../src/nodeagent/server/authenticate.js';
import { forbiddenText, nodeRequestAttributes } from '../../../src/nodeagent/server/authorize.js';

const user = { username: 'u', groups: [] };
const subresources = (method: string, path: string, fineGrained = true) =>
  nodeRequestAttributes(user, method, path, 'node-a', fineGrained).map((a) => `${a.verb} ${a.subresource}`);

describe('nodeRequestAttributes', () => {
  it("asks kubelet's subresources by path, fine-grained ones first", () => {
    expect(subresources('GET', '/pods')).toEqual(['get pods', 'get proxy']);
    expect(subresources('GET', '/pods/')).toEqual(['get pods', 'get proxy']);
    expect(subresources('GET', '/podsx')).toEqual(['get proxy']);
    expect(subresources('GET', '/runningpods/')).toEqual(['get pods', 'get proxy']);
    expect(subresources('GET', '/healthz/ping')).toEqual(['get healthz', 'get proxy']);
    expect(subresources('GET', '/configz')).toEqual(['get configz', 'get proxy']);
    expect(subresources('GET', '/stats/summary')).toEqual(['get stats']);
    expect(subresources('GET', '/metrics/cadvisor')).toEqual(['get metrics']);
    expect(subresources('GET', '/logs/syslog')).toEqual(['get log']);
    expect(subresources('POST', '/checkpoint/ns/p/c')).toEqual(['create checkpoint']);
    expect(subresources('GET', '/containerLogs/ns/p/c')).toEqual(['get proxy']);
    expect(subresources('PUT', '/x')).toEqual(['update proxy']);
    expect(subresources('HEAD', '/x')).toEqual([' proxy']);
    expect(subresources('GET', '/pods', false)).toEqual(['get proxy']);
    const [first] = nodeRequestAttributes(user, 'GET', '/pods', 'node-a', true);
    expect([first!.resource, first!.name, first!.path]).toEqual(['nodes', 'node-a', '/pods']);
  });

  it("words the 403 as kubelet's filter does", () => {
    expect(forbiddenText(nodeRequestAttributes(user, 'DELETE', '/healthz', 'n', true))).toBe(
      'Forbidden (user=u, verb=delete, resource=nodes, subresource(s)=[healthz proxy])\n',
    );
  });
});

describe('bearerToken', () => {
  it('reads `Bearer <token>` in any case and nothing else', () => {
    expect(bearerToken('Bearer abc')).toBe('abc');
    expect(bearerToken('  bearer abc  ')).toBe('abc');
    expect(bearerToken('Bearer abc def')).toBe('abc');
    expect(bearerToken('Basic dTpw')).toBeUndefined();
    expect(bearerToken('Bearer')).toBeUndefined();
    expect(bearerToken('Bearer  abc')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
