/** Compile errors of CRD rules, with apiextensions' and cel-go's exact text. */
import { describe, expect, it } from 'vitest';
import { compileError, integerType, listType, objectType, scopeOf, stringType } from './helpers.js';
import { Environment, ruleScope } from '../../src/cel/index.js';

const spec = objectType({ replicas: integerType, name: stringType, tags: listType(stringType) });

describe('compile errors', () => {
  it('undefined field', () => {
    expect(compileError(spec, 'self.foo == 1')).toBe("compilation failed: ERROR: <input>:1:5: undefined field 'foo'\n | self.foo == 1\n | ....^");
  });

  it('no matching overload, with argument types', () => {
    expect(compileError(spec, "self.replicas == 'a'")).toBe(
      "compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '(int, string)'\n | self.replicas == 'a'\n | ..............^",
    );
    expect(compileError(spec, 'self.name.startsWith(1)')).toBe(
      "compilation failed: ERROR: <input>:1:21: found no matching overload for 'startsWith' applied to 'string.(int)'\n | self.name.startsWith(1)\n | ....................^",
    );
  });

  it('undeclared reference', () => {
    expect(compileError(spec, 'x == 1')).toBe("compilation failed: ERROR: <input>:1:1: undeclared reference to 'x' (in container '')\n | x == 1\n | ^");
    expect(compileError(spec, 'self.name.frobnicate()')).toBe(
      "compilation failed: ERROR: <input>:1:21: undeclared reference to 'frobnicate' (in container '')\n | self.name.frobnicate()\n | ....................^",
    );
  });

  it('field selection on a scalar', () => {
    expect(compileError(spec, 'self.name.first == 1')).toBe(
      "compilation failed: ERROR: <input>:1:10: type 'string' does not support field selection\n | self.name.first == 1\n | .........^",
    );
  });

  it('a non-bool operand of && and a non-bool predicate', () => {
    expect(compileError(spec, 'self.replicas && true')).toBe(
      "compilation failed: ERROR: <input>:1:5: expected type 'bool' but found 'int'\n | self.replicas && true\n | ....^",
    );
    expect(compileError(spec, 'self.tags.all(t, t)')).toBe(
      "compilation failed: ERROR: <input>:1:18: expected type 'bool' but found 'string'\n | self.tags.all(t, t)\n | .................^",
    );
  });

  it('heterogeneous literals (Kubernetes requires homogeneous aggregate literals)', () => {
    expect(compileError(spec, "[1, 'a'].size() == 2")).toBe(
      "compilation failed: ERROR: <input>:1:5: expected type 'int' but found 'string'\n | [1, 'a'].size() == 2\n | ....^",
    );
    expect(compileError(spec, 'size([1, dyn(2)]) == 2')).toBe(
      "compilation failed: ERROR: <input>:1:13: expected type 'int' but found 'dyn'\n | size([1, dyn(2)]) == 2\n | ............^",
    );
  });

  it('literal arguments of duration(), timestamp() and matches() are validated', () => {
    expect(compileError(spec, "duration('1x') > duration('1s')")).toBe(
      "compilation failed: ERROR: <input>:1:10: invalid duration argument\n | duration('1x') > duration('1s')\n | .........^",
    );
    expect(compileError(spec, "timestamp('yesterday') < timestamp('2024-01-01T00:00:00Z')")).toBe(
      "compilation failed: ERROR: <input>:1:11: invalid timestamp argument\n | timestamp('yesterday') < timestamp('2024-01-01T00:00:00Z')\n | ..........^",
    );
    expect(compileError(spec, "self.name.matches('[')")).toBe(
      "compilation failed: ERROR: <input>:1:19: invalid matches argument\n | self.name.matches('[')\n | ..................^",
    );
  });

  it('a rule that is not a bool', () => {
    expect(compileError(spec, 'self.replicas + 1')).toBe('cel expression must evaluate to a bool');
    expect(compileError(objectType({ v: { 'x-kubernetes-int-or-string': true } }), 'self.v')).toBe('cel expression must evaluate to a bool');
  });

  it('syntax errors with ANTLR wording', () => {
    expect(compileError(spec, 'self.replicas ==')).toBe(
      "compilation failed: ERROR: <input>:1:17: Syntax error: mismatched input '<EOF>' expecting {'[', '{', '(', '.', '-', '!', 'true', 'false', 'null', NUM_FLOAT, NUM_INT, NUM_UINT, STRING, BYTES, IDENTIFIER}\n | self.replicas ==\n | ................^",
    );
    expect(compileError(spec, 'self.replicas == 1 1')).toBe(
      "compilation failed: ERROR: <input>:1:20: Syntax error: extraneous input '1' expecting <EOF>\n | self.replicas == 1 1\n | ...................^",
    );
    expect(compileError(spec, 'self.name == $')).toMatch(/^compilation failed: ERROR: <input>:1:14: Syntax error: token recognition error at: '\$'/);
    expect(compileError(spec, 'self.true == 1')).toBe(
      "compilation failed: ERROR: <input>:1:6: Syntax error: mismatched input 'true' expecting IDENTIFIER\n | self.true == 1\n | .....^",
    );
  });

  it('reserved identifiers and unsupported backquoted names', () => {
    expect(compileError(spec, 'var == 1')).toBe('compilation failed: ERROR: <input>:1:1: reserved identifier: var\n | var == 1\n | ^');
    expect(compileError(spec, 'self.`name` == "a"')).toBe(
      'compilation failed: ERROR: <input>:1:6: unsupported syntax: \'`\'\n | self.`name` == "a"\n | .....^',
    );
  });

  it("cel.bind and the math extension are not in Kubernetes' environment", () => {
    expect(compileError(spec, 'cel.bind(x, 1, x == 1)')).toMatch(/undeclared reference to 'cel'/);
    expect(compileError(spec, 'math.greatest(1, 2) == 2')).toMatch(/undeclared reference to 'math'/);
  });

  it('points at code points, with wide dots for wide characters', () => {
    expect(compileError(spec, "'é' == self.nope")).toBe(
      "compilation failed: ERROR: <input>:1:12: undefined field 'nope'\n | 'é' == self.nope\n | .．.........^",
    );
  });

  it('a schema node that cannot carry rules', () => {
    expect(ruleScope({ type: 'array' }, { isResourceRoot: false })).toEqual({
      error: "rule declared on schema that does not support validation rules type: 'array' x-kubernetes-preserve-unknown-fields: 'false'",
    });
  });

  it('an empty rule compiles to nothing', () => {
    const c = scopeOf(spec).compileRule({ rule: '  ' });
    expect(c.program).toBeUndefined();
    expect(c.error).toBeUndefined();
  });

  it('reports oldSelf use and optional oldSelf types', () => {
    const s = scopeOf(spec);
    expect(s.compileRule({ rule: 'self.replicas >= oldSelf.replicas' }).usesOldSelf).toBe(true);
    expect(s.compileRule({ rule: 'self.replicas >= 0' }).usesOldSelf).toBe(false);
    // With optionalOldSelf, selecting through oldSelf yields an optional (cel-go's optional field selection).
    expect(s.compileRule({ rule: 'oldSelf.replicas == 1', optionalOldSelf: true }).error?.detail).toBe(
      "compilation failed: ERROR: <input>:1:18: found no matching overload for '_==_' applied to '(optional_type(int), int)'\n | oldSelf.replicas == 1\n | .................^",
    );
    expect(s.compileRule({ rule: 'oldSelf.hasValue() ? self.replicas >= oldSelf.value().replicas : true', optionalOldSelf: true }).error).toBeUndefined();
  });

  it('limits expression size', () => {
    const env = new Environment({ variables: [] });
    const r = env.compile('1'.repeat(100_001));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.issues).toBe('ERROR: <input>:-1:0: expression code point size exceeds limit: size: 100001, limit 100000');
  });

  it('limits nesting depth', () => {
    const env = new Environment({ variables: [] });
    const deep = env.compile(`${'('.repeat(300)}1${')'.repeat(300)} == 1`);
    expect(!deep.ok && deep.issues).toBe('ERROR: <input>:-1:0: expression recursion limit exceeded: 250');
    const chain = env.compile(Array(400).fill('1').join(' + ') + ' > 0');
    expect(!chain.ok && chain.issues).toBe('ERROR: <input>:-1:0: expression recursion limit exceeded: 250');
    expect(env.compile(Array(100).fill('1').join(' + ') + ' > 0').ok).toBe(true);
  });
});
