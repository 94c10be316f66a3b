import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  apiGroupMatches,
  nonResourceURLMatches,
  resourceMatches,
  resourceNameMatches,
  ruleAllows,
  rulesAllow,
  verbMatches,
} from '../../../src/auth/rbac/rule-matching.js';
import type { AuthorizationAttributes } from '../../../src/machinery/auth.js';
import type { PolicyRule } from '../../../src/kinds/types/rbac-v1.js';

const user = { username: 'alice', groups: ['system:authenticated'] };
const resourceRequest = (a: Partial<AuthorizationAttributes>): AuthorizationAttributes => ({ user, verb: 'get', resourceRequest: true, ...a });
const urlRequest = (verb: string, path: string): AuthorizationAttributes => ({ user, verb, resourceRequest: false, path });

describe('verbMatches', () => {
  it('matches a listed verb or *, nothing else (case matters)', () => {
    expect(verbMatches({ verbs: ['get', 'list'] }, 'list')).toBe(true);
    expect(verbMatches({ verbs: ['*'] }, 'escalate')).toBe(true);
    expect(verbMatches({ verbs: ['get'] }, 'GET')).toBe(false);
    expect(verbMatches({ verbs: [] }, 'get')).toBe(false);
    expect(verbMatches({ verbs: ['get*'] }, 'gets')).toBe(false);
  });
});

describe('apiGroupMatches', () => {
  it("matches '' as the core group, a listed group, or *", () => {
    expect(apiGroupMatches({ verbs: [], apiGroups: [''] }, '')).toBe(true);
    expect(apiGroupMatches({ verbs: [], apiGroups: [''] }, 'apps')).toBe(false);
    expect(apiGroupMatches({ verbs: [], apiGroups: ['apps', 'batch'] }, 'batch')).toBe(true);
    expect(apiGroupMatches({ verbs: [], apiGroups: ['*'] }, 'anything.example.com')).toBe(true);
    expect(apiGroupMatches({ verbs: [] }, '')).toBe(false);
  });
});

describe('resourceMatches', () => {
  const rule = (...resources: string[]): PolicyRule => ({ verbs: [], resources });
  it('matches *, the exact resource, and resource/subresource exactly', () => {
    expect(resourceMatches(rule('*'), 'pods/log', 'log')).toBe(true);
    expect(resourceMatches(rule('pods'), 'pods', '')).toBe(true);
    expect(resourceMatches(rule('pods'), 'pods/log', 'log')).toBe(false);
    expect(resourceMatches(rule('pods/log'), 'pods/log', 'log')).toBe(true);
    expect(resourceMatches(rule('pods/log'), 'pods', '')).toBe(false);
  });
  it('matches */subresource for that subresource of any resource, never the resource itself', () => {
    expect(resourceMatches(rule('*/scale'), 'deployments/scale', 'scale')).toBe(true);
    expect(resourceMatches(rule('*/scale'), 'deployments/status', 'status')).toBe(false);
    expect(resourceMatches(rule('*/scale'), 'deployments', '')).toBe(false);
    // The length check: "*/xscale" is not "*/scale".
    expect(resourceMatches(rule('*/xscale'), 'deployments/scale', 'scale')).toBe(false);
    // Only "*/" counts as the wildcard prefix.
    expect(resourceMatches(rule('x/scale'), 'deployments/scale', 'scale')).toBe(false);
  });
  it('does not treat pods* or partial names as wildcards', () => {
    expect(resourceMatches(rule('pods*'), 'podsx', '')).toBe(false);
    expect(resourceMatches(rule('pod'), 'pods', '')).toBe(false);
  });
});

describe('resourceNameMatches', () => {
  it('matches any name when the rule names none; otherwise only the names listed (a list asks with none)', () => {
    expect(resourceNameMatches({ verbs: [] }, 'x')).toBe(true);
    expect(resourceNameMatches({ verbs: [], resourceNames: [] }, '')).toBe(true);
    expect(resourceNameMatches({ verbs: [], resourceNames: ['a', 'b'] }, 'b')).toBe(true);
    expect(resourceNameMatches({ verbs: [], resourceNames: ['a'] }, '')).toBe(false);
    expect(resourceNameMatches({ verbs: [], resourceNames: ['*'] }, 'a')).toBe(false);
  });
});

describe('nonResourceURLMatches', () => {
  const rule = (...nonResourceURLs: string[]): PolicyRule => ({ verbs: [], nonResourceURLs });
  it('matches *, the exact path, or a prefix ending in *', () => {
    expect(nonResourceURLMatches(rule('*'), '/anything')).toBe(true);
    expect(nonResourceURLMatches(rule('/healthz'), '/healthz')).toBe(true);
    expect(nonResourceURLMatches(rule('/healthz'), '/healthz/ping')).toBe(false);
    expect(nonResourceURLMatches(rule('/healthz/*'), '/healthz/ping')).toBe(true);
    expect(nonResourceURLMatches(rule('/healthz/*'), '/healthz/')).toBe(true);
    expect(nonResourceURLMatches(rule('/healthz/*'), '/healthz')).toBe(false);
    expect(nonResourceURLMatches(rule('/api*'), '/apis/apps')).toBe(true);
    // Every trailing * is trimmed (strings.TrimRight).
    expect(nonResourceURLMatches(rule('/logs**'), '/logs/x')).toBe(true);
    // A * elsewhere is literal.
    expect(nonResourceURLMatches(rule('/a/*/b'), '/a/x/b')).toBe(false);
  });
});

describe('ruleAllows', () => {
  const podsReader: PolicyRule = { verbs: ['get', 'list'], apiGroups: [''], resources: ['pods', 'pods/log'] };
  it('needs verb, group, resource (with subresource) and name to match for a resource request', () => {
    expect(ruleAllows(resourceRequest({ verb: 'get', apiGroup: '', resource: 'pods', name: 'p' }), podsReader)).toBe(true);
    expect(ruleAllows(resourceRequest({ verb: 'get', apiGroup: '', resource: 'pods', subresource: 'log' }), podsReader)).toBe(true);
    expect(ruleAllows(resourceRequest({ verb: 'get', apiGroup: '', resource: 'pods', subresource: 'exec' }), podsReader)).toBe(false);
    expect(ruleAllows(resourceRequest({ verb: 'delete', apiGroup: '', resource: 'pods' }), podsReader)).toBe(false);
    expect(ruleAllows(resourceRequest({ verb: 'get', apiGroup: 'apps', resource: 'pods' }), podsReader)).toBe(false);
  });
  it('reads a resource request with no group as the core group', () => {
    expect(ruleAllows(resourceRequest({ resource: 'pods' }), podsReader)).toBe(true);
  });
  it('never lets a resource rule allow a URL, nor a URL rule a resource', () => {
    expect(ruleAllows(urlRequest('get', '/pods'), podsReader)).toBe(false);
    const url: PolicyRule = { verbs: ['get'], nonResourceURLs: ['*'] };
    expect(ruleAllows(resourceRequest({ resource: 'pods' }), url)).toBe(false);
    expect(ruleAllows(urlRequest('get', '/version'), url)).toBe(true);
    expect(ruleAllows(urlRequest('post', '/version'), url)).toBe(false);
  });
  it('rulesAllow: any rule', () => {
    const rules: PolicyRule[] = [{ verbs: ['get'], nonResourceURLs: ['/version'] }, podsReader];
    expect(rulesAllow(resourceRequest({ resource: 'pods' }), rules)).toBe(true);
    expect(rulesAllow(resourceRequest({ resource: 'secrets' }), rules)).toBe(false);
    expect(rulesAllow(resourceRequest({ resource: 'pods' }), [])).toBe(false);
  });
});

describe('properties', () => {
  const word = fc.string({ minLength: 0, maxLength: 12 });
  const list = fc.array(word, { maxLength: 5 });
  const ruleArb = fc.record({ verbs: list, apiGroups: list, resources: list, resourceNames: list, nonResourceURLs: list });

  it('a rule with * verbs, groups and resources and no names allows every resource request', () => {
    fc.assert(
      fc.property(word, word, word, word, word, (verb, group, resource, subresource, name) => {
        const all: PolicyRule = { verbs: ['*'], apiGroups: ['*'], resources: ['*'] };
        return ruleAllows(resourceRequest({ verb, apiGroup: group, resource, subresource, name }), all);
      }),
    );
  });

  it('a rule allows a resource request exactly when each of the four matchers does', () => {
    fc.assert(
      fc.property(ruleArb, word, word, word, word, word, (rule, verb, group, resource, subresource, name) => {
        const combined = subresource ? `${resource}/${subresource}` : resource;
        const expected =
          verbMatches(rule, verb) && apiGroupMatches(rule, group) && resourceMatches(rule, combined, subresource) && resourceNameMatches(rule, name);
        return ruleAllows(resourceRequest({ verb, apiGroup: group, resource, subresource, name }), rule) === expected;
      }),
    );
  });

  it('a listed verb, group, resource and name always match; adding an entry never takes a match away', () => {
    fc.assert(
      fc.property(ruleArb, word, word, word, (rule, verb, group, extra) => {
        const withThem: PolicyRule = { ...rule, verbs: [...rule.verbs, verb], apiGroups: [...rule.apiGroups, group] };
        if (!verbMatches(withThem, verb) || !apiGroupMatches(withThem, group)) return false;
        const before = resourceMatches(rule, extra, '');
        return !before || resourceMatches({ ...rule, resources: [...(rule.resources ?? []), 'x'] }, extra, '');
      }),
    );
  });

  it('a URL rule of a prefix and * covers every path under that prefix', () => {
    fc.assert(fc.property(word, word, (prefix, rest) => nonResourceURLMatches({ verbs: [], nonResourceURLs: [`/${prefix}*`] }, `/${prefix}${rest}`)));
  });

  it('never throws on hostile strings', () => {
    fc.assert(
      fc.property(ruleArb, fc.string(), fc.string(), (rule, a, b) => {
        ruleAllows(resourceRequest({ verb: a, resource: b, subresource: a, name: b, apiGroup: a }), rule);
        ruleAllows(urlRequest(a, b), rule);
        return true;
      }),
    );
  });
});
