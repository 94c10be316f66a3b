import { describe, expect, it } from 'vitest';
import { loadAuditPolicy } from '../../src/config/audit/index.js';
import { pathMatches, policyRuleEvaluator, type AuditAttributes } from '../../src/audit/evaluate.js';
import type { PolicyRule } from '../../src/config/audit/types.js';

const alice = { username: 'alice', groups: ['dev', 'system:authenticated'] };

function resource(over: Partial<AuditAttributes> = {}): AuditAttributes {
  return {
    user: alice,
    verb: 'get',
    resourceRequest: true,
    apiGroup: '',
    apiVersion: 'v1',
    resource: 'pods',
    namespace: 'default',
    name: 'p',
    subresource: '',
    ...over,
  };
}
const nonResource = (path: string, over: Partial<AuditAttributes> = {}): AuditAttributes => ({
  user: alice,
  verb: 'get',
  resourceRequest: false,
  path,
  ...over,
});

/** The level one rule (then None) gives a request. */
function levelOf(rule: Omit<PolicyRule, 'level'>, attributes: AuditAttributes): string {
  const { policy } = loadAuditPolicy({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'Metadata', ...rule }] });
  return policyRuleEvaluator(policy)(attributes).level;
}

describe('policy rule matching', () => {
  it.each<[string, Omit<PolicyRule, 'level'>, AuditAttributes, string]>([
    ['an empty rule matches everything', {}, resource(), 'Metadata'],
    ['an empty rule matches non-resource requests', {}, nonResource('/healthz'), 'Metadata'],
    ['users', { users: ['alice'] }, resource(), 'Metadata'],
    ['other users', { users: ['bob'] }, resource(), 'None'],
    ['users need a user', { users: ['alice'] }, resource({ user: undefined }), 'None'],
    ['groups', { userGroups: ['dev'] }, resource(), 'Metadata'],
    ['other groups', { userGroups: ['ops'] }, resource(), 'None'],
    ['verbs', { verbs: ['get', 'list'] }, resource(), 'Metadata'],
    ['other verbs', { verbs: ['watch'] }, resource(), 'None'],
    ['namespaces', { namespaces: ['default'] }, resource(), 'Metadata'],
    ['"" is cluster-scoped', { namespaces: [''] }, resource({ namespace: '', resource: 'nodes' }), 'Metadata'],
    ['"" is not a namespace', { namespaces: [''] }, resource(), 'None'],
    ['namespaces never match non-resource requests', { namespaces: ['default'] }, nonResource('/api'), 'None'],
    ['a group and resource', { resources: [{ group: '', resources: ['pods'] }] }, resource(), 'Metadata'],
    ['another group', { resources: [{ group: 'apps', resources: ['pods'] }] }, resource(), 'None'],
    ['the group wildcard', { resources: [{ group: '*', resources: ['pods'] }] }, resource({ apiGroup: 'apps' }), 'Metadata'],
    ['a group alone takes all its resources', { resources: [{ group: 'apps' }] }, resource({ apiGroup: 'apps', resource: 'deployments' }), 'Metadata'],
    ['"*" resources', { resources: [{ resources: ['*'] }] }, resource({ subresource: 'status' }), 'Metadata'],
    ['a resource does not take its subresources', { resources: [{ resources: ['pods'] }] }, resource({ subresource: 'log' }), 'None'],
    ['resource/subresource', { resources: [{ resources: ['pods/log'] }] }, resource({ subresource: 'log' }), 'Metadata'],
    ['*/subresource', { resources: [{ resources: ['*/status'] }] }, resource({ resource: 'deployments', apiGroup: '', subresource: 'status' }), 'Metadata'],
    ['*/subresource needs the subresource', { resources: [{ resources: ['*/status'] }] }, resource(), 'None'],
    ['resource/* takes the resource and its subresources', { resources: [{ resources: ['pods/*'] }] }, resource({ subresource: 'exec' }), 'Metadata'],
    ['resource/* takes the resource itself', { resources: [{ resources: ['pods/*'] }] }, resource(), 'Metadata'],
    ['resourceNames', { resources: [{ resources: ['pods'], resourceNames: ['p'] }] }, resource(), 'Metadata'],
    ['other names', { resources: [{ resources: ['pods'], resourceNames: ['q'] }] }, resource(), 'None'],
    ['resources never match non-resource requests', { resources: [{ resources: ['*'] }] }, nonResource('/api'), 'None'],
    ['an exact URL', { nonResourceURLs: ['/version'] }, nonResource('/version'), 'Metadata'],
    ['a URL prefix', { nonResourceURLs: ['/healthz*'] }, nonResource('/healthz/etcd'), 'Metadata'],
    ['"*" URLs', { nonResourceURLs: ['*'] }, nonResource('/metrics'), 'Metadata'],
    ['URLs never match resource requests', { nonResourceURLs: ['*'] }, resource(), 'None'],
    ['another URL', { nonResourceURLs: ['/version'] }, nonResource('/versions'), 'None'],
    ['every condition at once', { users: ['alice'], verbs: ['get'], namespaces: ['default'], resources: [{ resources: ['pods'] }] }, resource(), 'Metadata'],
  ])('%s', (_name, rule, attributes, level) => {
    expect(levelOf(rule, attributes)).toBe(level);
  });

  it('takes the first matching rule, with the policy stages added to each, and None when nothing matches', () => {
    const { policy } = loadAuditPolicy({
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      omitStages: ['RequestReceived'],
      omitManagedFields: true,
      rules: [
        { level: 'None', users: ['system:kube-proxy'] },
        { level: 'RequestResponse', verbs: ['create'], omitStages: ['ResponseStarted', 'RequestReceived'], omitManagedFields: false },
        { level: 'Metadata', verbs: ['create', 'get'] },
      ],
    });
    const evaluate = policyRuleEvaluator(policy);
    expect(evaluate(resource({ verb: 'create' }))).toEqual({
      level: 'RequestResponse',
      omitStages: ['RequestReceived', 'ResponseStarted'],
      omitManagedFields: false,
    });
    expect(evaluate(resource())).toEqual({ level: 'Metadata', omitStages: ['RequestReceived'], omitManagedFields: true });
    expect(evaluate(resource({ user: { username: 'system:kube-proxy', groups: [] }, verb: 'create' })).level).toBe('None');
    expect(evaluate(resource({ verb: 'delete' }))).toEqual({ level: 'None', omitStages: ['RequestReceived'], omitManagedFields: true });
  });

  it('matches paths as upstream pathMatches', () => {
    expect(pathMatches('/apis/apps', '/apis*')).toBe(true);
    expect(pathMatches('/apis', '/apis/*')).toBe(false);
    expect(pathMatches('/a', '/a**')).toBe(true);
  });
});
