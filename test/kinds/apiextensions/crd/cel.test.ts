import { describe, expect, it } from 'vitest';
import {
  defaultCustomResourceDefinition,
  validateCustomResourceDefinition,
  validateCustomResourceDefinitionUpdate,
  type CelCompileRequest,
  type CelRuleCompilation,
  type CelRuleCompiler,
  type CrdValidationHooks,
  type CustomResourceDefinition,
} from '../../../../src/kinds/apiextensions/index.js';
import { fieldErrorBody } from '../../../../src/machinery/field-errors.js';
import { withSpec } from './support.js';

/** A fake compiler: `bad` fails to compile, `old` uses oldSelf, `costly` costs 2,000,000 a run; everything else compiles for 1. */
const requests: CelCompileRequest[] = [];
const fake: CelRuleCompiler = {
  compile(request) {
    requests.push(request);
    return (request.schema['x-kubernetes-validations'] ?? []).map((r): CelRuleCompilation => ({
      error: r.rule === 'bad' ? { type: 'invalid', detail: "compilation failed: ERROR: <input>:1:1: undeclared reference to 'bad'" } : undefined,
      maxCost: r.rule === 'costly' ? 2_000_000 : 1,
      maxCardinality: 1,
      hasMessageExpression: !!r.messageExpression,
      messageExpressionMaxCost: 1,
      usesOldSelf: r.rule === 'old',
    }));
  },
};

/** The causes `ValidateCustomResourceDefinition` gives for `crd` with `hooks` (the kind's strategy calls it the same way). */
function causesOf(crd: CustomResourceDefinition, hooks: CrdValidationHooks = { celCompiler: fake }) {
  defaultCustomResourceDefinition(crd);
  return validateCustomResourceDefinition(crd, hooks).map((e) => ({ reason: e.type, field: e.field, message: fieldErrorBody(e) }));
}
const S = 'spec.validation.openAPIV3Schema.properties[spec]';

describe('CustomResourceDefinition CEL rules through the compiler hook', () => {
  it('places compilation errors at the rule, the rule printed as the internal struct', () => {
    const causes = causesOf(withSpec({ type: 'object', 'x-kubernetes-validations': [{ rule: 'bad' }] }));
    expect(causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: `${S}.x-kubernetes-validations[0].rule`,
        message:
          'Invalid value: {"Rule":"bad","Message":"","MessageExpression":"","Reason":null,"FieldPath":"","OptionalOldSelf":null}: compilation failed: ERROR: <input>:1:1: undeclared reference to \'bad\'',
      },
    ]);
    const last = requests.at(-1)!;
    expect(last.steps).toEqual([{ kind: 'property', name: 'spec' }]);
    expect(last.isResourceRoot).toBe(false);
  });

  it('multiplies a rule cost by the cardinality and holds it to the limit', () => {
    const crd = withSpec({ type: 'array', maxItems: 10, items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'costly' }] } });
    const causes = causesOf(crd);
    expect(causes).toEqual([
      {
        reason: 'FieldValueForbidden',
        field: `${S}.items.x-kubernetes-validations[0].rule`,
        message:
          'Forbidden: estimated rule cost exceeds budget by factor of 2.0x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
      },
    ]);
  });

  it('forbids oldSelf below a list that does not correlate items', () => {
    const crd = withSpec({ type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'old' }] } });
    const causes = causesOf(crd);
    expect(causes).toContainEqual({
      reason: 'FieldValueInvalid',
      field: `${S}.items.x-kubernetes-validations[0].rule`,
      message: `Invalid value: "old": oldSelf cannot be used on the uncorrelatable portion of the schema within ${S}`,
    });
  });

  it('refuses optionalOldSelf on a rule without oldSelf', () => {
    const causes = causesOf(withSpec({ type: 'object', 'x-kubernetes-validations': [{ rule: 'true', optionalOldSelf: true }] }));
    expect(causes).toEqual([
      {
        reason: 'FieldValueInvalid',
        field: `${S}.x-kubernetes-validations[0].optionalOldSelf`,
        message: 'Invalid value: true: may not be set if oldSelf is not used in rule',
      },
    ]);
  });

  it('does not compile rules of a schema with errors', () => {
    const before = requests.length;
    causesOf(withSpec({ type: 'object', properties: { a: {} }, 'x-kubernetes-validations': [{ rule: 'bad' }] }));
    expect(requests.length).toBe(before);
  });

  it('reports a compiler failure as an internal error', () => {
    const broken: CelRuleCompiler = {
      compile() {
        throw new Error('internal error: failed to construct type information for x-kubernetes-validations rules: no type');
      },
    };
    expect(causesOf(withSpec({ type: 'object', 'x-kubernetes-validations': [{ rule: 'true' }] }), { celCompiler: broken })).toEqual([
      {
        reason: 'InternalError',
        field: `${S}.x-kubernetes-validations`,
        message: 'Internal error: internal error: failed to construct type information for x-kubernetes-validations rules: no type',
      },
    ]);
  });

  it('compiles stored rules in the stored environment on update, and skips the cost limit of unchanged schemas', () => {
    const old = withSpec({ type: 'array', maxItems: 10, items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'costly' }] } });
    defaultCustomResourceDefinition(old);
    const next = structuredClone(old);
    next.metadata!.labels = { a: 'b' };
    expect(validateCustomResourceDefinitionUpdate(next, old, { celCompiler: fake })).toEqual([]);
    expect(requests.at(-1)!.preexistingRules).toEqual(new Set(['costly']));
  });

  it('refuses a schema whose rules cost more than the total budget', () => {
    const props = Object.fromEntries(
      Array.from({ length: 11 }, (_, i) => [
        `p${i}`,
        { type: 'array', maxItems: 5, items: { type: 'string', 'x-kubernetes-validations': [{ rule: 'costly' }] } },
      ]),
    );
    const causes = causesOf(withSpec({ type: 'object', properties: props }));
    expect(causes.at(-1)).toEqual({
      reason: 'FieldValueForbidden',
      field: 'spec.validation.openAPIV3Schema',
      message:
        'Forbidden: x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 1.100000x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
    });
    expect(causes.filter((c) => c.message.includes('contributed to estimated rule cost total'))).toHaveLength(4);
  });
});
