/** Evaluation of CRD rules: oldSelf, runtime budgets, messageExpression, and hostile input. */
import { describe, expect, it } from 'vitest';
import { compileOk, integerType, listType, objectType, scopeOf, stringType } from './helpers.js';
import { Environment, evaluateMessageExpression, PER_CALL_LIMIT } from '../../src/cel/index.js';
import { DYN, STRING } from '../../src/cel/types/types.js';

const spec = objectType({ replicas: integerType, name: stringType, items: listType(integerType) });

describe('oldSelf', () => {
  it('binds oldSelf to the old value of a transition rule', () => {
    const p = compileOk(spec, 'self.replicas >= oldSelf.replicas').program!;
    expect(p.evaluate({ replicas: 3 }, { replicas: 2 })).toMatchObject({ ok: true, value: true });
    expect(p.evaluate({ replicas: 1 }, { replicas: 2 })).toMatchObject({ ok: true, value: false });
  });

  it('binds optional.none() without an old value when optionalOldSelf is set', () => {
    const p = compileOk(spec, 'oldSelf.hasValue() ? self.replicas >= oldSelf.value().replicas : self.replicas == 1', true).program!;
    expect(p.evaluate({ replicas: 1 })).toMatchObject({ ok: true, value: true });
    expect(p.evaluate({ replicas: 1 }, { replicas: 2 })).toMatchObject({ ok: true, value: false });
    const q = compileOk(spec, 'oldSelf.orValue(self).replicas == self.replicas', true).program!;
    expect(q.evaluate({ replicas: 4 })).toMatchObject({ ok: true, value: true });
  });
});

describe('runtime cost budget', () => {
  it('stops with upstream text once the per-call limit is passed', () => {
    const p = compileOk(spec, 'self.items.all(x, self.items.all(y, x + y > -1))').program!;
    const items = Array.from({ length: 2000 }, (_, i) => i);
    const r = p.evaluate({ items });
    expect(r).toMatchObject({ ok: false, error: 'operation cancelled: actual cost limit exceeded', costLimitExceeded: true });
    expect(r.cost).toBeGreaterThan(PER_CALL_LIMIT);
    expect(p.evaluate({ items: items.slice(0, 10) })).toMatchObject({ ok: true, value: true });
  });

  it('takes a smaller limit when given one', () => {
    const p = compileOk(spec, 'self.items.all(x, x >= 0)').program!;
    expect(p.evaluate({ items: [1, 2, 3] }, undefined, 5)).toMatchObject({ ok: false, costLimitExceeded: true });
  });
});

describe('messageExpression', () => {
  const scope = scopeOf(spec);

  it('must evaluate to a string, and reports compile errors with its own prefix', () => {
    expect(scope.compileRule({ rule: 'self.replicas > 0', messageExpression: '42' }).messageExpressionError).toEqual({
      type: 'Invalid',
      detail: 'messageExpression must evaluate to a string',
    });
    expect(scope.compileRule({ rule: 'self.replicas > 0', messageExpression: 'self.nope' }).messageExpressionError?.detail).toBe(
      "messageExpression compilation failed: ERROR: <input>:1:5: undefined field 'nope'\n | self.nope\n | ....^",
    );
  });

  it('yields the trimmed message and charges the budget', () => {
    const c = scope.compileRule({ rule: 'self.replicas > 0', messageExpression: "' replicas must be positive, got ' + string(self.replicas)" });
    const r = evaluateMessageExpression(c.messageExpression!, "'...'", { replicas: -1 }, undefined, 100);
    expect(r).toEqual({ ok: true, message: 'replicas must be positive, got -1', remainingBudget: 93 });
  });

  it('reports empty, multi-line, over-long and failing messages as upstream does', () => {
    const msg = (expr: string, self: unknown = { name: '' }, budget = 1000) => {
      const c = scope.compileRule({ rule: 'true', messageExpression: expr });
      return evaluateMessageExpression(c.messageExpression!, expr, self, undefined, budget);
    };
    expect(msg("'  '")).toMatchObject({ ok: false, error: { detail: 'messageExpression should evaluate to a non-empty string' } });
    expect(msg("'a\\nb'")).toMatchObject({ ok: false, error: { detail: 'messageExpression should not contain line breaks' } });
    expect(msg("self.name + 'x'", { name: 'y'.repeat(6000) })).toMatchObject({
      ok: false,
      error: { detail: 'messageExpression beyond allowable length of 5120' },
    });
    expect(msg('string(1 / (size(self.name) - size(self.name)))')).toMatchObject({
      ok: false,
      error: { detail: 'messageExpression evaluation failed due to: division by zero' },
    });
    expect(msg("'ok' + self.name", { name: 'x' }, 1)).toEqual({
      ok: false,
      error: { type: 'Invalid', detail: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run' },
      remainingBudget: -1,
    });
  });
});

describe('hostile input fails cleanly', () => {
  const env = new Environment({
    variables: [
      { name: 'x', type: DYN },
      { name: 's', type: STRING },
    ],
  });

  it('a regular expression built to backtrack runs in linear time', () => {
    const c = env.compile("s.matches('(a+)+$')");
    const start = Date.now();
    const r = c.ok && c.program.evaluate({ s: `${'a'.repeat(20000)}!` });
    expect(r).toMatchObject({ ok: true, value: false });
    expect(Date.now() - start).toBeLessThan(2000);
  });

  it('deeply nested data is read lazily and compared without crashing', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 20000; i++) deep = [deep];
    const d = compileOk(objectType({ v: { 'x-kubernetes-int-or-string': true } }), 'true');
    expect(d.program!.evaluate({ v: deep })).toMatchObject({ ok: true, value: true });
    const eq = compileOk(objectType({ a: listType(integerType) }), 'self == oldSelf').program!;
    const r2 = eq.evaluate({ a: deep }, { a: deep });
    expect(r2.ok === true || r2.ok === false).toBe(true);
  });

  it('a huge list stops at the budget instead of running on', () => {
    const p = compileOk(spec, 'self.items.map(x, x * 2).size() > 0').program!;
    const r = p.evaluate({ items: Array.from({ length: 300_000 }, (_, i) => i) });
    expect(r).toMatchObject({ ok: false, costLimitExceeded: true });
  });

  it('random text never throws', () => {
    const alphabet = 'ab01.()[]{}\'"\\+-*/%<>=!&|?:,`$ \n\tu';
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (let n = 0; n < 2000; n++) {
      const len = Math.floor(rnd() * 30);
      let src = '';
      for (let i = 0; i < len; i++) src += alphabet[Math.floor(rnd() * alphabet.length)];
      const c = env.compile(src);
      if (c.ok) c.program.evaluate({ x: 1n, s: 'a' });
    }
  });
});
