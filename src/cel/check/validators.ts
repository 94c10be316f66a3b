/**
 * The AST validators of Kubernetes' environment since 1.29 (cel-go cel/validator.go), run after a
 * successful type check: literal arguments of duration(), timestamp() and matches() must be valid,
 * and list and map literals must be homogeneous.
 */
import { compileRegex } from '../functions/regex.js';
import { parseDuration, parseTimestamp, timestampInRange } from '../values/time.js';
import { CelError } from '../values/values.js';
import { walkExpr, type Expr } from '../syntax/ast.js';
import type { Issue } from '../syntax/issues.js';
import { formatType, isExactType, isOptional, type CelType } from '../types/types.js';
import type { CheckedExpr } from './checker.js';

function literalArgIssue(checked: CheckedExpr, call: Extract<Expr, { kind: 'call' }>): Issue | undefined {
  const arg = call.args[0];
  if (!arg || arg.kind !== 'literal' || typeof arg.value !== 'string') return undefined;
  const at = checked.parsed.offsets.get(arg.id);
  const s = arg.value;
  if (call.fn === 'duration' && !call.target && parseDuration(s) === undefined) return { offset: at, message: 'invalid duration argument' };
  if (call.fn === 'timestamp' && !call.target) {
    const t = parseTimestamp(s);
    if (t === undefined || !timestampInRange(t)) return { offset: at, message: 'invalid timestamp argument' };
  }
  if (call.fn === 'matches' && compileRegex(s) instanceof CelError) return { offset: at, message: 'invalid matches argument' };
  return undefined;
}

/** cel-go's Type.IsEquivalentType: the same type, ignoring nothing but identity. */
function equivalent(a: CelType, b: CelType): boolean {
  return isExactType(a, b);
}

/** Runs the validators; their errors. */
export function validate(checked: CheckedExpr): Issue[] {
  const issues: Issue[] = [];
  const typeOf = (e: Expr): CelType => checked.types.get(e.id)!;
  const mismatch = (e: Expr, expected: CelType, actual: CelType): void => {
    issues.push({ offset: checked.parsed.offsets.get(e.id), message: `expected type '${formatType(expected)}' but found '${formatType(actual)}'` });
  };
  walkExpr(checked.parsed.expr, (e) => {
    if (e.kind === 'call') {
      const issue = literalArgIssue(checked, e);
      if (issue) issues.push(issue);
    } else if (e.kind === 'list') {
      const optional = new Set(e.optionalIndices);
      let elemType: CelType | undefined;
      for (let i = 0; i < e.elements.length; i++) {
        const el = e.elements[i]!;
        let t = typeOf(el);
        if (optional.has(i) && isOptional(t)) t = t.params[0]!;
        if (!elemType) elemType = t;
        else if (!equivalent(elemType, t)) {
          mismatch(el, elemType, t);
          break;
        }
      }
    } else if (e.kind === 'map') {
      let keyType: CelType | undefined;
      let valType: CelType | undefined;
      for (const entry of e.entries) {
        const kt = typeOf(entry.key);
        let vt = typeOf(entry.value);
        if (entry.optional && isOptional(vt)) vt = vt.params[0]!;
        if (!keyType || !valType) {
          keyType = kt;
          valType = vt;
          continue;
        }
        if (!equivalent(keyType, kt)) mismatch(entry.key, keyType, kt);
        if (!equivalent(valType, vt)) mismatch(entry.value, valType, vt);
      }
    }
  });
  return issues;
}
