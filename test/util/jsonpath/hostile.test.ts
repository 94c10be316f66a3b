// Templates and documents built to hurt: they must fail (or succeed) quickly, in constant stack,
// with a JsonPathError, never hang or overflow.
import { describe, expect, it } from 'vitest';
import { JsonPathError, parseJsonPath } from '../../../src/util/jsonpath/index.js';

function parseFailure(template: string): string {
  const started = performance.now();
  try {
    parseJsonPath(template);
  } catch (e) {
    expect(e).toBeInstanceOf(JsonPathError);
    expect(performance.now() - started).toBeLessThan(3000);
    return (e as Error).message;
  }
  throw new Error('parsed');
}

function nested(depth: number, leaf: unknown = 1): unknown {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

describe('hostile templates', () => {
  it('fail to parse in linear time and constant stack', () => {
    expect(parseFailure('{'.repeat(200_000))).toBe("unrecognized character in action: U+007B '{'");
    expect(parseFailure('{' + '['.repeat(200_000))).toBe('unterminated array');
    expect(parseFailure('{' + '[?('.repeat(100_000))).toBe('unterminated filter');
    expect(parseFailure('{"' + 'a'.repeat(1_000_000))).toBe('unterminated quoted string');
    expect(parseFailure('{' + '.a'.repeat(500_000))).toBe('unclosed action');
    expect(parseFailure('{' + '1'.repeat(100_000) + '}')).toBe(`cannot parse number ${'1'.repeat(100_000)}`);
    expect(parseFailure('{[' + '1'.repeat(100_000) + ']}')).toBe(`array index ${'1'.repeat(100_000)} is not a number`);
    expect(parseFailure('{[?(' + '@.a'.repeat(100_000) + '==)]}')).toBe("unrecognized character in action: U+003D '='");
    expect(parseFailure('{[' + "'a',".repeat(100_000) + 'x]}')).toBe('invalid array index x');
    expect(parseFailure('{' + '}{'.repeat(100_000) + '.')).toBe('unclosed action');
  });

  it('parse when long but well formed', () => {
    const started = performance.now();
    expect(parseJsonPath('{' + '.a'.repeat(200_000) + '}').root.nodes[0]).toMatchObject({ type: 'list' });
    expect(parseJsonPath("{['" + 'a.'.repeat(100_000) + "a']}").root.nodes[0]).toMatchObject({ type: 'list' });
    expect(parseJsonPath('{[' + '0,'.repeat(50_000) + '0]}').root.nodes).toHaveLength(1);
    expect(parseJsonPath('x'.repeat(1_000_000)).root.nodes).toHaveLength(1);
    expect(parseJsonPath('{.a}'.repeat(100_000)).root.nodes).toHaveLength(100_000);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('evaluate a long field path on a deep document', () => {
    let doc: unknown = 'bottom';
    for (let i = 0; i < 10_000; i++) doc = { a: doc };
    expect(parseJsonPath('{' + '.a'.repeat(10_000) + '}').execute(doc)).toBe('bottom');
    expect(parseJsonPath('{' + '.a'.repeat(10_001) + '}').findResults(doc, { allowMissingKeys: true })).toEqual([[]]);
  });

  it('nest ranges ten thousand deep in constant stack', () => {
    const template = '{range @}'.repeat(10_000) + '{.x}' + '{end}'.repeat(10_000);
    expect(parseJsonPath(template).execute({ x: 'deep' })).toBe('deep');
  });

  it('walk a deep document with recursive descent', () => {
    const doc = nested(10_000);
    const results = parseJsonPath('{..}').findResults(doc);
    expect(results[0]).toHaveLength(10_000);
    expect(parseJsonPath('{..x}').findResults(doc, { allowMissingKeys: true })).toEqual([[]]);
  });

  it('stop exponential work at the step limit', () => {
    const started = performance.now();
    const unions = '{@' + '[0,0]'.repeat(40) + '}';
    expect(() => parseJsonPath(unions).findResults(nested(40))).toThrow(new JsonPathError('jsonpath: evaluation exceeds 10000000 steps'));
    const ranges = '{range ..}'.repeat(12) + '{@}' + '{end}'.repeat(12);
    expect(() => parseJsonPath(ranges).findResults(nested(30), { maxSteps: 1_000_000 })).toThrow(JsonPathError);
    expect(() => parseJsonPath('{..[*]..[*]..[*]..[*]}').findResults(nested(300), { maxSteps: 100_000 })).toThrow(
      new JsonPathError('jsonpath: evaluation exceeds 100000 steps'),
    );
    expect(performance.now() - started).toBeLessThan(20_000);
  }, 30_000);

  it('stop printing past the output limit', () => {
    // Every level of a deep document printed whole: quadratic output.
    expect(() => parseJsonPath('{..}').execute(nested(10_000), { maxOutputLength: 10_000_000 })).toThrow(
      new JsonPathError('jsonpath: output exceeds 10000000 characters'),
    );
  }, 30_000);
});
