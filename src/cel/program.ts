/**
 * Compiling and running CEL expressions in an environment: parse, type-check, validate, estimate
 * the cost, and evaluate with a cost limit. Knows nothing of schemas or Kubernetes objects; the CRD
 * rule compiler (crd-rules.ts) builds on it.
 */
import { check, type CheckedExpr } from './check/checker.js';
import { CheckerEnv, type IdentDecl, type TypeProvider } from './check/env.js';
import { validate } from './check/validators.js';
import { estimateCost, type SizeEstimator } from './cost/estimator.js';
import { PER_CALL_LIMIT } from './cost/constants.js';
import { kubernetesFunctions } from './environment.js';
import { MapActivation } from './runtime/activation.js';
import { CostLimitExceeded, CostTracker } from './runtime/cost-tracker.js';
import { planExpr, type Step } from './runtime/interpreter.js';
import { CelError, type Value } from './values/values.js';
import { formatIssues } from './syntax/issues.js';
import { parse } from './syntax/parser.js';
import type { CelType } from './types/types.js';

/** A variable an environment declares. */
export interface VariableDecl {
  readonly name: string;
  readonly type: CelType;
}

/** What an environment is made of: its variables, the object types they use, and how data is sized for cost estimates. */
export interface EnvironmentOptions {
  readonly variables: readonly VariableDecl[];
  readonly types?: TypeProvider;
  readonly sizeEstimator?: SizeEstimator;
}

/** The outcome of evaluating a program. */
export type EvalResult =
  | { readonly ok: true; readonly value: Value; readonly cost: number }
  | { readonly ok: false; readonly error: string; readonly cost: number; readonly costLimitExceeded: boolean };

/** A compiled expression, ready to evaluate as often as needed. */
export class Program {
  private readonly step: Step;
  private estimated: bigint | undefined;

  constructor(
    /** The checked expression. */
    readonly checked: CheckedExpr,
    private readonly sizeEstimator: SizeEstimator,
  ) {
    this.step = planExpr(checked, kubernetesFunctions());
  }

  /** The type the expression evaluates to. */
  get outputType(): CelType {
    return this.checked.types.get(this.checked.parsed.expr.id)!;
  }

  /** True when the expression reads the variable `name`. */
  references(name: string): boolean {
    for (const r of this.checked.refs.values()) if (r.kind === 'ident' && r.name === name) return true;
    return false;
  }

  /** The worst-case cost cel-go's estimator assigns the expression (its Max), computed once. */
  estimatedCost(): bigint {
    this.estimated ??= estimateCost(this.checked, this.sizeEstimator).max;
    return this.estimated;
  }

  /**
   * Evaluates with the given variables; stops with `operation cancelled: actual cost limit
   * exceeded` once the running cost passes `costLimit` (default: Kubernetes' per-call limit).
   */
  evaluate(variables: Readonly<Record<string, Value | undefined>>, costLimit: number = PER_CALL_LIMIT): EvalResult {
    const tracker = new CostTracker(costLimit);
    let r: Value | CelError;
    try {
      r = this.step(new MapActivation(variables), tracker);
    } catch (e) {
      if (e instanceof CostLimitExceeded) return { ok: false, error: e.message, cost: tracker.cost, costLimitExceeded: true };
      // Deep data can exhaust the JavaScript stack; that is an evaluation error, never a crash.
      if (e instanceof RangeError) return { ok: false, error: 'evaluation exceeded the maximum nesting depth', cost: tracker.cost, costLimitExceeded: false };
      throw e;
    }
    if (r instanceof CelError) return { ok: false, error: r.message, cost: tracker.cost, costLimitExceeded: false };
    return { ok: true, value: r, cost: tracker.cost };
  }
}

/** A compilation: the program, or the issues as cel-go prints them (`ERROR: <input>:1:5: ...`). */
export type CompileResult = { readonly ok: true; readonly program: Program } | { readonly ok: false; readonly issues: string };

const NO_SIZES: SizeEstimator = { estimateSize: () => undefined };

/** A CEL environment: Kubernetes' function library plus the declared variables and types. */
export class Environment {
  private readonly env: CheckerEnv;
  private readonly sizeEstimator: SizeEstimator;

  constructor(options: EnvironmentOptions) {
    const types = options.types ?? { hasStructType: () => false, fieldType: () => undefined };
    this.env = new CheckerEnv(kubernetesFunctions(), types, options.variables as IdentDecl[]);
    this.sizeEstimator = options.sizeEstimator ?? NO_SIZES;
  }

  /** Parses, checks and validates `source`. */
  compile(source: string): CompileResult {
    const parsed = parse(source);
    if (!parsed.parsed) return { ok: false, issues: formatIssues(source, parsed.issues) };
    let checked;
    try {
      checked = check(parsed.parsed, this.env);
    } catch (e) {
      if (e instanceof RangeError)
        return { ok: false, issues: formatIssues(source, [{ offset: undefined, message: 'expression recursion limit exceeded: 250' }]) };
      throw e;
    }
    if (!checked.checked) return { ok: false, issues: formatIssues(source, checked.issues) };
    const invalid = validate(checked.checked);
    if (invalid.length > 0) return { ok: false, issues: formatIssues(source, invalid) };
    return { ok: true, program: new Program(checked.checked, this.sizeEstimator) };
  }
}
