/**
 * Evaluating a webhook's match conditions (CELMatcher.Eval): the request variable, the order of
 * false and errors, the cost limit.
 */
import { describe, expect, it } from 'vitest';
import { compileMatchConditions, evaluateMatchConditions, type MatchRequest } from '../../../src/config/authorization/index.js';

function compile(...expressions: string[]) {
  const { compiled, errors } = compileMatchConditions(
    expressions.map((expression) => ({ expression })),
    '',
  );
  expect(errors).toEqual([]);
  return compiled;
}

const podRead: MatchRequest = {
  resourceAttributes: { namespace: 'kube-system', verb: 'get', group: '', version: 'v1', resource: 'pods', subresource: 'log', name: 'etcd' },
  user: 'jane',
  groups: ['dev', 'system:authenticated'],
  extra: { scopes: ['a', 'b'] },
  uid: 'u-1',
};
const healthz: MatchRequest = { nonResourceAttributes: { path: '/healthz', verb: 'get' }, user: 'probe', groups: [], extra: {}, uid: '' };

describe('evaluateMatchConditions', () => {
  it('sees the SubjectAccessReviewSpec as request', () => {
    const conditions = compile(
      "has(request.resourceAttributes) && request.resourceAttributes.namespace == 'kube-system'",
      "request.resourceAttributes.subresource == 'log' && request.resourceAttributes.name == 'etcd'",
      "request.user == 'jane' && 'dev' in request.groups && request.uid == 'u-1'",
      "request.extra['scopes'] == ['a', 'b']",
      '!has(request.nonResourceAttributes)',
    );
    expect(evaluateMatchConditions(conditions, podRead)).toEqual({ matches: true });
  });

  it('sees non-resource requests', () => {
    const conditions = compile("has(request.nonResourceAttributes) && request.nonResourceAttributes.path == '/healthz'", '!has(request.resourceAttributes)');
    expect(evaluateMatchConditions(conditions, healthz)).toEqual({ matches: true });
    expect(evaluateMatchConditions(conditions, podRead)).toEqual({ matches: false });
  });

  it('stops at the first false, even after an error, saying an error came first (for the error metric)', () => {
    const conditions = compile("request.extra['missing'][0] == 'x'", "request.user == 'someone else'");
    expect(evaluateMatchConditions(conditions, podRead)).toEqual({ matches: false, errored: true });
  });

  it('reports errors when nothing is false, aggregated', () => {
    const one = compile("request.extra['missing'][0] == 'x'", "request.user == 'jane'");
    expect(evaluateMatchConditions(one, podRead)).toEqual({
      matches: false,
      error: "cel evaluation error: expression 'request.extra['missing'][0] == 'x'' resulted in error: no such key: missing",
    });
    const two = compile("request.extra['missing'][0] == 'x'", 'request.resourceAttributes.verb == "get"');
    expect(evaluateMatchConditions(two, healthz)).toEqual({
      matches: false,
      error:
        "[cel evaluation error: expression 'request.extra['missing'][0] == 'x'' resulted in error: no such key: missing, cel evaluation error: expression 'request.resourceAttributes.verb == \"get\"' resulted in error: no such key: resourceAttributes]",
    });
  });

  it('stops an expression that costs too much', () => {
    const conditions = compile('request.groups.all(a, request.groups.all(b, a.size() + b.size() >= 0))');
    const groups = Array.from({ length: 3000 }, (_, i) => `group-${i}`);
    const r = evaluateMatchConditions(conditions, { ...healthz, groups });
    expect(r.matches).toBe(false);
    expect(r.error).toMatch(/resulted in error: operation cancelled: actual cost limit exceeded$/);
  });
});
