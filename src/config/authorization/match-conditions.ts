/**
 * A webhook authorizer's `matchConditions`: CEL expressions over the `request` variable, the
 * SubjectAccessReviewSpec the webhook would be sent (k8s.io/apiserver `pkg/authorization/cel`
 * compile.go and matcher.go). Compiled once, when the configuration is validated; evaluated before
 * every call of the webhook.
 */
import { Environment, PER_CALL_LIMIT, celTypeOf, toCelValue, type CelType, type DeclType, type Program } from '../../cel/index.js';
import type { DeclField } from '../../cel/index.js';
import type { TypeProvider } from '../../cel/check/env.js';
import { keywordFieldName } from '../../cel/schema/escaping.js';
import { fieldError, type FieldError } from '../../machinery/field-errors.js';

/** The most match conditions one webhook may have. */
export const MAX_MATCH_CONDITIONS = 64;

function scalar(kind: 'string'): DeclType {
  return { kind, name: kind, maxElements: 0, minSerializedSize: 2 };
}
function list(elem: DeclType): DeclType {
  return { kind: 'list', name: 'list', elem, maxElements: 0, minSerializedSize: 2 };
}
function object(name: string, fields: Record<string, DeclType>): DeclType {
  const map = new Map<string, DeclField>();
  for (const [field, type] of Object.entries(fields)) {
    const celName = keywordFieldName(field) ?? field;
    map.set(celName, { name: celName, jsonName: field, type, required: false });
  }
  return { kind: 'object', name, fields: map, maxElements: 0, minSerializedSize: 2 };
}

const STRING = scalar('string');
const SELECTOR_REQUIREMENT = object('kubernetes.SelectorRequirement', { key: STRING, operator: STRING, values: list(STRING) });
const selector = (name: string) => object(name, { rawSelector: STRING, requirements: list(SELECTOR_REQUIREMENT) });

/** The declared type of `request` (`buildRequestType`). */
export const SUBJECT_ACCESS_REVIEW_SPEC_TYPE: DeclType = object('kubernetes.SubjectAccessReviewSpec', {
  resourceAttributes: object('kubernetes.ResourceAttributes', {
    namespace: STRING,
    verb: STRING,
    group: STRING,
    version: STRING,
    resource: STRING,
    subresource: STRING,
    name: STRING,
    fieldSelector: selector('kubernetes.FieldSelectorAttributes'),
    labelSelector: selector('kubernetes.LabelSelectorAttributes'),
  }),
  nonResourceAttributes: object('kubernetes.NonResourceAttributes', { path: STRING, verb: STRING }),
  user: STRING,
  groups: list(STRING),
  extra: { kind: 'map', name: 'map', key: STRING, elem: list(STRING), maxElements: 0, minSerializedSize: 2 },
  uid: STRING,
});

function collectObjects(t: DeclType, out: Map<string, DeclType>): Map<string, DeclType> {
  if (t.kind === 'object') {
    out.set(t.name, t);
    for (const f of t.fields!.values()) collectObjects(f.type, out);
  } else if (t.elem) collectObjects(t.elem, out);
  return out;
}

let environment: Environment | undefined;

/** The environment with `request` declared, made on first use. */
function requestEnvironment(): Environment {
  if (environment) return environment;
  const objects = collectObjects(SUBJECT_ACCESS_REVIEW_SPEC_TYPE, new Map());
  const types: TypeProvider = {
    hasStructType: (name) => objects.has(name),
    fieldType: (name, field) => {
      const fields = objects.get(name)?.fields;
      const f = fields?.get(field) ?? fields?.get(keywordFieldName(field) ?? field);
      return f ? celTypeOf(f.type) : undefined;
    },
  };
  environment = new Environment({ variables: [{ name: 'request', type: celTypeOf(SUBJECT_ACCESS_REVIEW_SPEC_TYPE) }], types });
  return environment;
}

/** cel-go's `Type.String()`: the declared name, then the parameters in parentheses. */
function typeString(t: CelType): string {
  return t.params.length === 0 ? t.name : `${t.name}(${t.params.map(typeString).join(', ')})`;
}

/** One compiled match condition. */
export interface CompiledMatchCondition {
  readonly expression: string;
  readonly program: Program;
}

/**
 * Compiles `expression` against `request`: a program, or the detail of the `Invalid` field error
 * (`compilation failed: ERROR: <input>:1:6: ...`, `must evaluate to bool but got string`).
 */
export function compileMatchCondition(expression: string): { program: Program } | { error: string } {
  const compiled = requestEnvironment().compile(expression);
  if (!compiled.ok) return { error: `compilation failed: ${compiled.issues}` };
  const out = compiled.program.outputType;
  if (out.kind !== 'bool') return { error: `must evaluate to bool but got ${typeString(out)}` };
  return { program: compiled.program };
}

/**
 * Validates and compiles a webhook's match conditions (`compileMatchConditions`): at most 64, none
 * blank, none repeated, each compiling to a bool. `path` is the authorizer's field path.
 */
export function compileMatchConditions(
  conditions: readonly { readonly expression?: string }[],
  path: string,
): { compiled: CompiledMatchCondition[]; errors: FieldError[] } {
  const errors: FieldError[] = [];
  const compiled: CompiledMatchCondition[] = [];
  const listPath = path ? `${path}.matchConditions` : 'matchConditions';
  if (conditions.length > MAX_MATCH_CONDITIONS) {
    return { compiled, errors: [fieldError.tooMany(listPath, conditions.length, MAX_MATCH_CONDITIONS)] };
  }
  const seen = new Set<string>();
  conditions.forEach((condition, i) => {
    const fieldPath = `${listPath}[${i}].expression`;
    const expression = condition.expression ?? '';
    if (expression.trim() === '') {
      errors.push(fieldError.required(fieldPath));
      return;
    }
    if (seen.has(expression)) {
      errors.push(fieldError.duplicate(fieldPath, expression));
      return;
    }
    seen.add(expression);
    const result = compileMatchCondition(expression);
    if ('error' in result) {
      errors.push(fieldError.invalid(fieldPath, expression, result.error));
      return;
    }
    compiled.push({ expression, program: result.program });
  });
  return { compiled, errors };
}

/** The request a match condition sees: the SubjectAccessReviewSpec (v1) as JSON. */
export interface MatchRequest {
  readonly resourceAttributes?: Readonly<Record<string, unknown>>;
  readonly nonResourceAttributes?: { readonly path: string; readonly verb: string };
  readonly user: string;
  readonly groups: readonly string[];
  readonly extra: Readonly<Record<string, readonly string[]>>;
  readonly uid: string;
}

/**
 * Evaluates match conditions in order (`CELMatcher.Eval`): the first that is false skips the
 * webhook (`false`, `errored` when a condition before it failed to evaluate, which the error metric
 * counts); otherwise any errors are the answer (`cel evaluation error: expression '...' resulted in
 * error: ...`, aggregated); otherwise `true`. Each evaluation is bounded by Kubernetes' per-call
 * cost limit.
 */
export function evaluateMatchConditions(
  conditions: readonly CompiledMatchCondition[],
  request: MatchRequest,
): { matches: boolean; error?: string; errored?: boolean } {
  const errors: string[] = [];
  const value = toCelValue(request, SUBJECT_ACCESS_REVIEW_SPEC_TYPE);
  for (const c of conditions) {
    let r;
    try {
      r = c.program.evaluate({ request: value }, PER_CALL_LIMIT);
    } catch (e) {
      r = { ok: false as const, error: e instanceof Error ? e.message : String(e) };
    }
    if (!r.ok) {
      errors.push(`cel evaluation error: expression '${c.expression}' resulted in error: ${r.error}`);
      continue;
    }
    if (typeof r.value !== 'boolean') {
      errors.push(`cel evaluation error: expression '${c.expression}' eval result type should be bool but got ${typeof r.value}`);
      continue;
    }
    if (!r.value) return errors.length > 0 ? { matches: false, errored: true } : { matches: false };
  }
  if (errors.length === 0) return { matches: true };
  return { matches: false, error: errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]` };
}
