/**
 * CRD validation rules (x-kubernetes-validations) as apiextensions-apiserver compiles and runs
 * them (pkg/apiserver/schema/cel/compilation.go, validation.go): `self` bound to the schema node's
 * declared type, `oldSelf` to the same type (or `optional_type` of it with optionalOldSelf), the
 * rule's estimated cost, and messageExpression evaluation with upstream's messages.
 */
import { PER_CALL_LIMIT, MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES } from './cost/constants.js';
import { Environment, type EvalResult, type Program } from './program.js';
import { OptionalValue, type Value } from './values/values.js';
import { assignTypeNames, celTypeOf, maxCardinality, objectTypes, schemaDeclType, type DeclType } from './schema/decl-type.js';
import type { CelSchema } from './schema/schema.js';
import { keywordFieldName } from './schema/escaping.js';
import { schemaSizeEstimator } from './schema/size-estimator.js';
import { toCelValue } from './schema/values.js';
import { BOOL, STRING, optionalType } from './types/types.js';
import type { TypeProvider } from './check/env.js';
import { LIBRARY_OBJECT_TYPES } from './environment.js';

/** An error as apiextensions reports it: `Invalid` for the rule author's mistakes, `Internal` for the server's. */
export interface RuleError {
  readonly type: 'Invalid' | 'Internal';
  readonly detail: string;
}

/** A rule as a CRD declares it (the parts compilation reads). */
export interface ValidationRuleSource {
  readonly rule: string;
  readonly messageExpression?: string;
  readonly optionalOldSelf?: boolean;
}

/** A compiled rule or messageExpression, bound to its schema node. */
export class RuleProgram {
  constructor(
    /** The underlying program. */
    readonly program: Program,
    private readonly declType: DeclType,
    private readonly optionalOldSelf: boolean,
  ) {}

  /**
   * Evaluates with `self` (and `oldSelf`, when given) as JSON data of the node's schema. With
   * optionalOldSelf, an absent `oldSelf` is `optional.none()`. Stops at `costLimit`.
   */
  evaluate(self: unknown, oldSelf?: unknown, costLimit: number = PER_CALL_LIMIT): EvalResult {
    const vars: Record<string, Value | undefined> = { self: toCelValue(self, this.declType) };
    if (this.optionalOldSelf) vars.oldSelf = oldSelf === undefined ? OptionalValue.NONE : OptionalValue.of(toCelValue(oldSelf, this.declType));
    else if (oldSelf !== undefined) vars.oldSelf = toCelValue(oldSelf, this.declType);
    return this.program.evaluate(vars, costLimit);
  }
}

/** The compilation of one rule (apiextensions CompilationResult). */
export interface RuleCompilation {
  /** Undefined with no error when the rule is empty (upstream compiles nothing then). */
  readonly program?: RuleProgram;
  readonly error?: RuleError;
  /** The rule reads `oldSelf`: a transition rule. */
  readonly usesOldSelf: boolean;
  /** The estimated worst-case cost. */
  readonly maxCost: bigint;
  /** How many times the node could appear in one request. */
  readonly maxCardinality: number;
  readonly messageExpression?: RuleProgram;
  readonly messageExpressionError?: RuleError;
  readonly messageExpressionMaxCost: bigint;
}

/** The CEL scope of one schema node: its declared type, and rules compiled against it. */
export class RuleScope {
  private readonly env: Environment;
  private readonly optionalEnv: Environment;

  constructor(
    /** The node's declared type, object types named from `typeName`. */
    readonly declType: DeclType,
  ) {
    const types = objectTypes(declType);
    const provider: TypeProvider = {
      hasStructType: (name) => types.has(name) || LIBRARY_OBJECT_TYPES.has(name),
      fieldType: (name, field) => {
        const fields = types.get(name)?.fields;
        const keyword = keywordFieldName(field);
        const f = fields?.get(field) ?? (keyword !== undefined ? fields?.get(keyword) : undefined);
        return f ? celTypeOf(f.type) : undefined;
      },
    };
    const selfType = celTypeOf(declType);
    const sizeEstimator = schemaSizeEstimator(declType);
    this.env = new Environment({
      variables: [
        { name: 'self', type: selfType },
        { name: 'oldSelf', type: selfType },
      ],
      types: provider,
      sizeEstimator,
    });
    this.optionalEnv = new Environment({
      variables: [
        { name: 'self', type: selfType },
        { name: 'oldSelf', type: optionalType(selfType) },
      ],
      types: provider,
      sizeEstimator,
    });
  }

  /** The most times this node's data could appear in one request. */
  get maxCardinality(): number {
    return maxCardinality(this.declType.minSerializedSize);
  }

  /** Compiles one x-kubernetes-validations rule (apiextensions compileRule). */
  compileRule(rule: ValidationRuleSource): RuleCompilation {
    const base = { usesOldSelf: false, maxCost: 0n, maxCardinality: 0, messageExpressionMaxCost: 0n };
    if (rule.rule.trim() === '') return base;
    const optional = rule.optionalOldSelf === true;
    const env = optional ? this.optionalEnv : this.env;
    const compiled = env.compile(rule.rule);
    if (!compiled.ok) return { ...base, error: { type: 'Invalid', detail: `compilation failed: ${compiled.issues}` } };
    const program = compiled.program;
    const out = program.outputType;
    if (out.kind !== BOOL.kind) return { ...base, error: { type: 'Invalid', detail: 'cel expression must evaluate to a bool' } };
    const result: RuleCompilation = {
      ...base,
      program: new RuleProgram(program, this.declType, optional),
      usesOldSelf: program.references('oldSelf'),
      maxCost: program.estimatedCost(),
      maxCardinality: this.maxCardinality,
    };
    if (rule.messageExpression === undefined || rule.messageExpression === '') return result;
    const msg = env.compile(rule.messageExpression);
    if (!msg.ok) return { ...result, messageExpressionError: { type: 'Invalid', detail: `messageExpression compilation failed: ${msg.issues}` } };
    if (msg.program.outputType.kind !== STRING.kind)
      return { ...result, messageExpressionError: { type: 'Invalid', detail: 'messageExpression must evaluate to a string' } };
    return { ...result, messageExpression: new RuleProgram(msg.program, this.declType, optional), messageExpressionMaxCost: msg.program.estimatedCost() };
  }
}

/**
 * The rule scope of a schema node, or the error apiextensions reports when the node cannot carry
 * rules. `typeName` names the node's object type (upstream generates `selfType<nanoseconds>`;
 * memkube uses a fixed name so messages are reproducible).
 */
export function ruleScope(
  schema: CelSchema,
  options: { readonly isResourceRoot: boolean; readonly typeName?: string },
): RuleScope | { readonly error: string } {
  const decl = schemaDeclType(schema, options.isResourceRoot);
  if (!decl) {
    return {
      error: `rule declared on schema that does not support validation rules type: '${schema.type ?? ''}' x-kubernetes-preserve-unknown-fields: '${schema['x-kubernetes-preserve-unknown-fields'] === true}'`,
    };
  }
  return new RuleScope(assignTypeNames(decl, options.typeName ?? 'selfType0'));
}

/** Go's %.1f: rounds half to even on exact ties. */
function fixed1(x: number): string {
  const scaled = x * 10;
  const floor = Math.floor(scaled);
  if (scaled - floor === 0.5) return ((floor % 2 === 0 ? floor : floor + 1) / 10).toFixed(1);
  return x.toFixed(1);
}

/**
 * apiextensions' getCostErrorMessage: `<costName> exceeds budget by factor of <factor> (try
 * simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and
 * strings are declared)`.
 */
export function costErrorMessage(costName: string, cost: bigint | number, limit: number): string {
  const factor = Number(cost) / limit;
  const shown = factor > 100 ? 'more than 100x' : factor < 1.5 ? `${factor.toFixed(6)}x` : `${fixed1(factor)}x`;
  return `${costName} exceeds budget by factor of ${shown} (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
}

/** The outcome of a messageExpression: the message, or an error; and the budget left. */
export type MessageResult =
  | { readonly ok: true; readonly message: string; readonly remainingBudget: number }
  | { readonly ok: false; readonly error: RuleError | { readonly type: undefined; readonly detail: string }; readonly remainingBudget: number };

/**
 * Evaluates a messageExpression as apiextensions' evalMessageExpression does: the budget check,
 * then the string checks (`messageExpression failed to convert to string`, `messageExpression
 * should not contain line breaks`, `messageExpression should evaluate to a non-empty string`,
 * `messageExpression beyond allowable length of 5120`). A remaining budget of -1 means no further
 * rule may run.
 */
export function evaluateMessageExpression(
  program: RuleProgram,
  source: string,
  self: unknown,
  oldSelf: unknown,
  remainingBudget: number,
  perCallLimit: number = PER_CALL_LIMIT,
): MessageResult {
  const r = program.evaluate(self, oldSelf, perCallLimit);
  if (r.cost > remainingBudget) {
    return {
      ok: false,
      error: { type: 'Invalid', detail: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run' },
      remainingBudget: -1,
    };
  }
  if (!r.ok) {
    if (r.costLimitExceeded) {
      return {
        ok: false,
        error: {
          type: 'Invalid',
          detail: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${JSON.stringify(source)}`,
        },
        remainingBudget: -1,
      };
    }
    return {
      ok: false,
      error: { type: undefined, detail: `messageExpression evaluation failed due to: ${r.error}` },
      remainingBudget: remainingBudget - r.cost,
    };
  }
  const left = remainingBudget - r.cost;
  if (typeof r.value !== 'string')
    return { ok: false, error: { type: undefined, detail: 'messageExpression failed to convert to string' }, remainingBudget: left };
  const trimmed = r.value.trim();
  if (Buffer.byteLength(trimmed, 'utf8') > MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES) {
    return {
      ok: false,
      error: { type: undefined, detail: `messageExpression beyond allowable length of ${MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES}` },
      remainingBudget: left,
    };
  }
  if (trimmed.includes('\n'))
    return { ok: false, error: { type: undefined, detail: 'messageExpression should not contain line breaks' }, remainingBudget: left };
  if (trimmed.length === 0)
    return { ok: false, error: { type: undefined, detail: 'messageExpression should evaluate to a non-empty string' }, remainingBudget: left };
  return { ok: true, message: trimmed, remainingBudget: left };
}
