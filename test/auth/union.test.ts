import { describe, expect, it } from 'vitest';
import { alwaysAllowAuthorizer, alwaysDenyAuthorizer } from '../../src/auth/always.js';
import { privilegedGroupAuthorizer, unionAuthorizer } from '../../src/auth/union.js';
import type { AuthorizationResult, Authorizer } from '../../src/machinery/auth.js';

const attributes = (groups: string[]) => ({ user: { username: 'u', groups }, verb: 'get', resourceRequest: false, path: '/x' });

function fixed(result: AuthorizationResult, calls: string[], name: string): Authorizer {
  return {
    authorize: () => (calls.push(name), result),
    rulesFor: () => ({
      resourceRules: [{ verbs: [name] }],
      nonResourceRules: [],
      incomplete: name === 'webhook',
      evaluationError: name === 'webhook' ? 'no rules' : undefined,
    }),
  };
}

describe('the authorizer chain', () => {
  it('asks in order until one allows or denies', async () => {
    const calls: string[] = [];
    const chain = unionAuthorizer([
      fixed({ decision: 'NoOpinion', reason: 'first' }, calls, 'a'),
      fixed({ decision: 'Deny', reason: 'second' }, calls, 'b'),
      fixed({ decision: 'Allow', reason: '' }, calls, 'c'),
    ]);
    expect(await chain.authorize(attributes([]))).toEqual({ decision: 'Deny', reason: 'second' });
    expect(calls).toEqual(['a', 'b']);
  });

  it('joins the reasons of authorizers without an opinion', async () => {
    const chain = unionAuthorizer([
      fixed({ decision: 'NoOpinion', reason: 'one' }, [], 'a'),
      alwaysDenyAuthorizer,
      fixed({ decision: 'NoOpinion', reason: '' }, [], 'c'),
    ]);
    expect(await chain.authorize(attributes([]))).toEqual({ decision: 'NoOpinion', reason: 'one\nEverything is forbidden.', evaluationError: undefined });
  });

  it('answers at once while every authorizer does, and waits for one that answers later', async () => {
    const sync = unionAuthorizer([fixed({ decision: 'NoOpinion', reason: 'one' }, [], 'a'), alwaysDenyAuthorizer]);
    expect(sync.authorize(attributes([]))).toEqual({ decision: 'NoOpinion', reason: 'one\nEverything is forbidden.', evaluationError: undefined });
    const later: Authorizer = {
      authorize: async () => ({ decision: 'NoOpinion', reason: 'webhook', evaluationError: 'timeout' }),
      rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true }),
    };
    const calls: string[] = [];
    const mixed = unionAuthorizer([
      fixed({ decision: 'NoOpinion', reason: 'one' }, calls, 'a'),
      later,
      fixed({ decision: 'NoOpinion', reason: 'three' }, calls, 'c'),
    ]);
    const answer = mixed.authorize(attributes([]));
    expect(answer).toBeInstanceOf(Promise);
    expect(await answer).toEqual({ decision: 'NoOpinion', reason: 'one\nwebhook\nthree', evaluationError: 'timeout' });
    expect(calls).toEqual(['a', 'c']);
  });

  it('allows system:masters whatever follows, and lists no rules of its own for it', async () => {
    const chain = unionAuthorizer([privilegedGroupAuthorizer, alwaysDenyAuthorizer]);
    expect((await chain.authorize(attributes(['system:masters']))).decision).toBe('Allow');
    expect((await chain.authorize(attributes(['devs']))).decision).toBe('NoOpinion');
    expect(await chain.rulesFor({ username: 'u', groups: ['system:masters'] }, 'default')).toEqual({
      resourceRules: [],
      nonResourceRules: [],
      incomplete: false,
    });
  });

  it("gathers every rule-listing authorizer's rules; one incomplete list makes the whole incomplete", async () => {
    const chain = unionAuthorizer([alwaysAllowAuthorizer, fixed({ decision: 'NoOpinion', reason: '' }, [], 'webhook')]);
    expect(await chain.rulesFor({ username: 'u', groups: [] }, 'default')).toEqual({
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }, { verbs: ['webhook'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: true,
      evaluationError: 'no rules',
    });
  });

  it('joins the errors of authorizers without an opinion as an aggregate: each distinct message once', async () => {
    const failing = (message: string): Authorizer => ({
      authorize: () => ({ decision: 'NoOpinion', reason: '', evaluationError: message }),
      rulesFor: () => ({ resourceRules: [], nonResourceRules: [], incomplete: true, evaluationError: message }),
    });
    const same = unionAuthorizer([failing('webhook down'), failing('webhook down')]);
    expect((await same.authorize(attributes([]))).evaluationError).toBe('webhook down');
    expect((await same.rulesFor({ username: 'u', groups: [] }, 'ns')).evaluationError).toBe('webhook down');
    const two = unionAuthorizer([failing('a'), failing('b'), failing('a')]);
    expect((await two.authorize(attributes([]))).evaluationError).toBe('[a, b]');
  });
});
