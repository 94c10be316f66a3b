/**
 * A custom resource's `x-kubernetes-validations`, run as apiextensions-apiserver's CEL validator
 * runs them (pkg/apiserver/schema/cel/validation.go `Validator.validate`): every schema node's
 * rules, with `self` its value and `oldSelf` the correlated old value (transition rules run only
 * when there is one, unless `optionalOldSelf`), within the runtime cost budget of one request; a
 * failed rule reports its message (or its evaluated `messageExpression`) at its node or its
 * `fieldPath`, with its `reason`; on update, an error of a rule that does not read `oldSelf` on a
 * value left unchanged becomes a warning (validation ratcheting).
 */
import { evaluateMessageExpression, ruleScope, RUNTIME_CEL_COST_BUDGET, type CelSchema, type RuleCompilation, type RuleProgram } from '../../../cel/index.js';
import { fieldError, fieldErrorMessage, type FieldError } from '../../../machinery/field-errors.js';
import type { Correlation, CustomSchemaNode } from '../../../schema/custom/index.js';
import { goKind, isJsonObject } from '../../../util/go-value.js';
import type { ValidationRule } from '../../types/apiextensions-v1.js';

interface CompiledRule {
  readonly rule: ValidationRule;
  readonly compiled: RuleCompilation;
  /** The rule's `fieldPath` as a path to append (`.spec.x` → `.spec.x`, `['a.b']` → `[a.b]`). */
  readonly fieldPath: string;
}

interface NodeRules {
  readonly rules: readonly CompiledRule[];
  /** A node whose CEL type could not be built. */
  readonly compileError?: string;
}

/** What validation found. */
export interface CelOutcome {
  readonly errors: FieldError[];
  /** Errors ratcheting turned into warnings. */
  readonly warnings: string[];
}

/** `ruleErrorString`: the message, or else the rule, trimmed. */
function ruleText(rule: ValidationRule): string {
  return (rule.message || rule.rule).trim();
}

/** Turns a rule's `fieldPath` (`.a.b`, `['x.y']`) into path text to append to the node's path. */
function normalizeFieldPath(fieldPath: string | undefined): string {
  if (!fieldPath) return '';
  let out = '';
  const re = /\.([^.[\]]+)|\[\s*'((?:[^'\\]|\\.)*)'\s*\]/gy;
  for (let m = re.exec(fieldPath); m; m = re.exec(fieldPath)) out += m[1] !== undefined ? `.${m[1]}` : `[${m[2]!.replace(/\\(.)/g, '$1')}]`;
  return out;
}

function join(path: string, more: string): string {
  if (!more) return path;
  if (path === '') return more.startsWith('.') ? more.slice(1) : more;
  return path + more;
}

/** Compiles and runs the rules of one schema; compilation happens once per node, on first use. */
export class CelRules {
  private readonly nodes = new Map<CustomSchemaNode, NodeRules | null>();

  /**
   * `rootIsResource`: whether the root node is a resource's root (it is for a custom resource's
   * schema; not for a node compiled alone, such as the schema of one default value).
   */
  constructor(
    private readonly root: CustomSchemaNode,
    private readonly rootIsResource = true,
  ) {}

  private rulesOf(node: CustomSchemaNode, isResourceRoot: boolean): NodeRules | null {
    let rules = this.nodes.get(node);
    if (rules !== undefined) return rules;
    const declared = (node.props['x-kubernetes-validations'] ?? []) as ValidationRule[];
    if (declared.length === 0) {
      rules = null;
    } else {
      const scope = ruleScope(node.props as CelSchema, { isResourceRoot });
      if ('error' in scope) {
        rules = { rules: [], compileError: scope.error };
      } else {
        rules = {
          rules: declared.map((rule) => ({
            rule,
            compiled: scope.compileRule({
              rule: rule.rule,
              ...(rule.messageExpression ? { messageExpression: rule.messageExpression } : {}),
              ...(rule.optionalOldSelf !== undefined ? { optionalOldSelf: rule.optionalOldSelf } : {}),
            }),
            fieldPath: normalizeFieldPath(rule.fieldPath),
          })),
        };
      }
    }
    this.nodes.set(node, rules);
    return rules;
  }

  /**
   * Runs every rule over `obj` (with `old` and its correlation on update). `basePath` and `node`
   * select a part (`status` and its schema, for a status update).
   */
  validate(obj: unknown, correlation: Correlation | undefined, node: CustomSchemaNode = this.root, basePath = '', ratchet = true): CelOutcome {
    const run: Run = { errors: [], warnings: [], budget: RUNTIME_CEL_COST_BUDGET, ratchet };
    this.walk(run, node, obj, correlation?.oldValue, correlation, undefined, basePath, (node === this.root && this.rootIsResource) || node.embeddedResource);
    return { errors: run.errors, warnings: run.warnings };
  }

  private walk(
    run: Run,
    node: CustomSchemaNode,
    value: unknown,
    old: unknown,
    correlation: Correlation | undefined,
    parent: Correlation | undefined,
    path: string,
    isResourceRoot: boolean,
  ): void {
    if (run.budget < 0 || value === null || value === undefined) return;
    this.runRules(run, node, value, old, correlation, parent, path, isResourceRoot);
    if (run.budget < 0) return;
    if (Array.isArray(value)) {
      if (!node.items) return;
      for (let i = 0; i < value.length && run.budget >= 0; i++) {
        const c = correlation?.index(i);
        this.walk(run, node.items, value[i], c?.oldValue, c, correlation ?? parent, `${path}[${i}]`, node.items.embeddedResource);
      }
    } else if (isJsonObject(value)) {
      for (const [k, v] of Object.entries(value)) {
        if (run.budget < 0) return;
        const child = node.properties?.get(k) ?? node.additionalProperties?.node;
        if (!child) continue;
        const named = node.properties?.has(k) === true;
        // The resource's own apiVersion and kind never ratchet against a parent.
        const c = correlation?.key(k);
        const oldChild = isJsonObject(old) ? old[k] : undefined;
        const childPath = named ? (path === '' ? k : `${path}.${k}`) : `${path}[${k}]`;
        this.walk(run, child, v, c?.oldValue ?? (correlation ? undefined : oldChild), c, correlation ?? parent, childPath, child.embeddedResource);
      }
    }
  }

  private runRules(
    run: Run,
    node: CustomSchemaNode,
    value: unknown,
    old: unknown,
    correlation: Correlation | undefined,
    parent: Correlation | undefined,
    path: string,
    isResourceRoot: boolean,
  ): void {
    const rules = this.rulesOf(node, isResourceRoot);
    if (!rules) return;
    const at = path === '' ? '<nil>' : path;
    const type = node.type;
    if (rules.compileError !== undefined) {
      run.errors.push(fieldError.invalid(at, type, `rule compiler initialization error: ${rules.compileError}`));
      return;
    }
    if (run.budget <= 0) {
      run.errors.push(fieldError.invalid(at, type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
      run.budget = -1;
      return;
    }
    // A value unchanged from the old object keeps its old errors as warnings (ratcheting).
    const unchanged = run.ratchet && (correlation ? correlation.deepEqual() : (parent?.deepEqual() ?? false));
    for (const { rule, compiled, fieldPath } of rules.rules) {
      if (compiled.error) {
        run.errors.push(fieldError.invalid(at, type, `rule compile error: ${compiled.error.detail}`));
        continue;
      }
      const program: RuleProgram | undefined = compiled.program;
      if (!program) continue;
      if (compiled.usesOldSelf && old === undefined && rule.optionalOldSelf !== true) continue;
      const result = program.evaluate(value, old, Math.min(run.budget, Number.MAX_SAFE_INTEGER));
      if (result.cost > run.budget) {
        run.errors.push(fieldError.invalid(at, type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
        run.budget = -1;
        return;
      }
      run.budget -= result.cost;
      if (!result.ok) {
        const message = result.error;
        if (message.startsWith('no such overload')) {
          run.errors.push(
            fieldError.invalid(
              at,
              type,
              `'${message}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleText(rule)}`,
            ),
          );
        } else if (result.costLimitExceeded) {
          run.errors.push(
            fieldError.invalid(at, type, `'${message}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleText(rule)}`),
          );
          run.budget = -1;
          return;
        } else {
          run.errors.push(fieldError.invalid(at, type, `${message} evaluating rule: ${ruleText(rule)}`));
        }
        continue;
      }
      if (result.value === true) continue;

      const where = join(path, fieldPath) || '<nil>';
      const add = (e: FieldError) => {
        if (!compiled.usesOldSelf && unchanged) run.warnings.push(fieldErrorMessage(e));
        else run.errors.push(e);
      };
      let detail: string | undefined;
      if (compiled.messageExpression && rule.messageExpression) {
        const m = evaluateMessageExpression(compiled.messageExpression, rule.messageExpression, value, old, run.budget);
        if (m.ok) {
          detail = m.message;
          run.budget = m.remainingBudget;
        } else if (m.error.type === 'Internal') {
          add(fieldError.internal(where, m.error.detail));
          run.budget = -1;
          return;
        } else if (m.error.type === 'Invalid') {
          add(fieldError.invalid(where, type, m.error.detail));
          run.budget = -1;
          return;
        } else {
          run.budget = m.remainingBudget;
        }
      }
      detail ??= rule.message ? rule.message.trim() : `failed rule: ${ruleText(rule)}`;
      // Objects and lists are not shown as the bad value (field.OmitValueType).
      const shown = type === 'object' || type === 'array' ? undefined : scalarShown(value);
      add(errorForReason(where, shown, detail, rule.reason));
    }
  }
}

interface Run {
  errors: FieldError[];
  warnings: string[];
  budget: number;
  /** Whether errors on unchanged values become warnings. */
  readonly ratchet: boolean;
}

function scalarShown(value: unknown): unknown {
  return goKind(value) === 'map' || goKind(value) === 'slice' ? undefined : value;
}

/** `fieldErrorForReason`. */
function errorForReason(path: string, value: unknown, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return fieldError.forbidden(path, detail);
    case 'FieldValueRequired':
      return fieldError.required(path, detail);
    case 'FieldValueDuplicate':
      return fieldError.duplicate(path, value);
    default:
      return { type: 'FieldValueInvalid', field: path, ...(value !== undefined ? { badValue: value } : {}), detail };
  }
}
