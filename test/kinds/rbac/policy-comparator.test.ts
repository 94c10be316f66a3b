import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { breakdownRule, compactRules, compactString, covers, goQuoteList, MAX_ATOMIC_RULES, ruleCovers } from '../../../src/kinds/rbac/policy-comparator.js';
import type { PolicyRule } from '../../../src/kinds/types/rbac-v1.js';

const r = (verbs: string[], resources: string[], apiGroups = [''], resourceNames?: string[]): PolicyRule =>
  resourceNames ? { verbs, apiGroups, resources, resourceNames } : { verbs, apiGroups, resources };

describe('breakdownRule', () => {
  it('splits a rule into one group, resource, verb and name each, in that nesting; URLs with each verb', () => {
    expect(breakdownRule(r(['get', 'list'], ['pods', 'secrets'], [''], ['a']))).toEqual([
      r(['get'], ['pods'], [''], ['a']),
      r(['list'], ['pods'], [''], ['a']),
      r(['get'], ['secrets'], [''], ['a']),
      r(['list'], ['secrets'], [''], ['a']),
    ]);
    expect(breakdownRule({ verbs: ['get', 'post'], nonResourceURLs: ['/a'] })).toEqual([
      { verbs: ['get'], nonResourceURLs: ['/a'] },
      { verbs: ['post'], nonResourceURLs: ['/a'] },
    ]);
    expect(breakdownRule({ verbs: ['get'] })).toEqual([]);
  });
});

describe('ruleCovers and covers', () => {
  it('covers by *, exact values, */subresource, names and URL prefixes', () => {
    expect(ruleCovers(r(['*'], ['*'], ['*']), r(['delete'], ['pods/exec'], ['x']))).toBe(true);
    expect(ruleCovers(r(['get'], ['*/status']), r(['get'], ['deployments/status']))).toBe(true);
    expect(ruleCovers(r(['get'], ['*/status']), r(['get'], ['deployments']))).toBe(false);
    expect(ruleCovers(r(['get'], ['pods'], [''], ['a']), r(['get'], ['pods']))).toBe(false);
    expect(ruleCovers(r(['get'], ['pods']), r(['get'], ['pods'], [''], ['a']))).toBe(true);
    expect(ruleCovers(r(['get'], ['pods'], [''], ['a', 'b']), r(['get'], ['pods'], [''], ['b']))).toBe(true);
    expect(ruleCovers({ verbs: ['get'], nonResourceURLs: ['/logs/*'] }, { verbs: ['get'], nonResourceURLs: ['/logs/x'] })).toBe(true);
    expect(ruleCovers({ verbs: ['get'], nonResourceURLs: ['/logs'] }, { verbs: ['get'], nonResourceURLs: ['/logs/x'] })).toBe(false);
    // A rule of * verbs needs * verbs: a list of every verb does not cover it.
    expect(ruleCovers(r(['get', 'list'], ['pods']), r(['*'], ['pods']))).toBe(false);
  });

  it('answers the atomic rules left uncovered', () => {
    expect(covers([r(['get'], ['pods'])], [r(['get', 'list'], ['pods'])])).toEqual({ covered: false, missing: [r(['list'], ['pods'])], truncated: false });
    expect(covers([r(['get'], ['pods']), r(['list'], ['pods'])], [r(['get', 'list'], ['pods'])]).covered).toBe(true);
    expect(covers([], []).covered).toBe(true);
  });

  it('stops on a rule that expands past the bound, quickly, and does not call it covered', () => {
    const many = (n: number, p: string) => Array.from({ length: n }, (_, i) => `${p}${i}`);
    const hostile = r(many(1000, 'v'), many(1000, 'r'), many(1000, 'g'));
    const start = performance.now();
    const result = covers([r(['*'], ['*'], ['*'])], [hostile]);
    expect(performance.now() - start).toBeLessThan(5000);
    expect(result).toMatchObject({ covered: false, truncated: true, missing: [] });
    expect(MAX_ATOMIC_RULES).toBe(100_000);
  });

  it('property: a rule always covers its own breakdown, and owner rules covering a rule cover each of its atoms', () => {
    const word = fc.constantFrom('', 'a', 'b', '*', 'pods', 'pods/log', '*/log', '/x*', '/x/y');
    const list = fc.array(word, { maxLength: 3 });
    const rule = fc.record({ verbs: list, apiGroups: list, resources: list, resourceNames: list });
    fc.assert(
      fc.property(rule, (rl) => {
        const atoms = breakdownRule(rl);
        return covers([rl], [rl]).covered && atoms.every((a) => covers([rl], [a]).covered);
      }),
    );
  });
});

describe('compactRules and compactString', () => {
  it('merges atomic rules of one group, resource and name by verb, keeping repeated verbs', () => {
    const compacted = compactRules([
      r(['get'], ['pods']),
      { verbs: ['get'], nonResourceURLs: ['/a'] },
      r(['list'], ['pods']),
      r(['get'], ['pods'], [''], ['x']),
      r(['get'], ['pods']),
    ]);
    expect(compacted).toEqual([{ verbs: ['get'], nonResourceURLs: ['/a'] }, r(['get', 'list', 'get'], ['pods']), r(['get'], ['pods'], [''], ['x'])]);
  });

  it('prints Go-quoted lists, only those a rule has, in Kubernetes order', () => {
    expect(compactString(r(['get'], ['pods'], [''], ['a"b']))).toBe('{APIGroups:[""], Resources:["pods"], ResourceNames:["a\\"b"], Verbs:["get"]}');
    expect(compactString({ verbs: ['get', 'post'], nonResourceURLs: ['/x'] })).toBe('{NonResourceURLs:["/x"], Verbs:["get" "post"]}');
    expect(compactString({ verbs: [] })).toBe('{}');
    expect(goQuoteList(['a', 'tab\t'])).toBe('["a" "tab\\t"]');
  });
});
