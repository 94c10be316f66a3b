/**
 * The parts of CustomResourceDefinition validation that need the rest of memkube, as the
 * validator's hooks: CEL compilation and cost estimation of `x-kubernetes-validations` (memkube's
 * CEL), validation of schema defaults (the custom resource schema compiler) and Go's verdict on a
 * `pattern` (the RE2 port).
 */
import { ruleScope, type CelSchema } from '../../cel/index.js';
import { compileCustomSchema, validateCustomValue, type JsonSchemaProps } from '../../schema/custom/index.js';
import { compileGoRegexp } from '../../util/go-regexp.js';
import type { CelRuleCompilation, CelRuleCompiler, CrdValidationHooks, DefaultValueValidator } from './crd/hooks.js';
import { CelRules } from './custom-resources/cel-rules.js';
import { objectMetaStructural } from './custom-resources/published-schema.js';
import type { ValidationRule } from '../types/apiextensions-v1.js';

/** Compiles a node's rules against the node's CEL type (apiextensions' `cel.Compile`). */
const celCompiler: CelRuleCompiler = {
  compile(request) {
    const scope = ruleScope(request.schema as CelSchema, { isResourceRoot: request.isResourceRoot });
    // Kubernetes reports a node whose type rules cannot see as an internal error at its rules.
    if ('error' in scope) throw new Error(scope.error);
    const rules = (request.schema['x-kubernetes-validations'] ?? []) as ValidationRule[];
    return rules.map((rule): CelRuleCompilation => {
      const c = scope.compileRule({
        rule: rule.rule,
        ...(rule.messageExpression !== undefined ? { messageExpression: rule.messageExpression } : {}),
        ...(rule.optionalOldSelf !== undefined ? { optionalOldSelf: rule.optionalOldSelf } : {}),
      });
      return {
        ...(c.error ? { error: { type: c.error.type === 'Internal' ? 'internal' : 'invalid', detail: c.error.detail } } : {}),
        ...(c.messageExpressionError ? { messageExpressionError: { detail: c.messageExpressionError.detail } } : {}),
        maxCost: Number(c.maxCost),
        maxCardinality: c.maxCardinality,
        hasMessageExpression: rule.messageExpression !== undefined && rule.messageExpression !== '',
        messageExpressionMaxCost: Number(c.messageExpressionMaxCost),
        usesOldSelf: c.usesOldSelf,
      };
    });
  },
};

/** A default must validate against its node as a custom resource's value would (OpenAPI rules). */
const defaultValidator: DefaultValueValidator = {
  validateDefault(check) {
    const compiled = compileCustomSchema(check.schema as JsonSchemaProps, { objectMeta: objectMetaStructural() });
    const errors = validateCustomValue(compiled.root, check.value, { basePath: check.path });
    if (errors.length) return errors;
    // Then the node's CEL rules, with the default as self and as oldSelf, and (when that passes)
    // with no oldSelf, as a create would run them (pkg/apiserver/schema/defaulting/validation.go).
    const cel = new CelRules(compiled.root, check.resourceRoot === check.schema);
    const withOld = cel.validate(check.value, compiled.correlate(check.value, check.value), compiled.root, check.path, false);
    if (withOld.errors.length) return withOld.errors;
    return cel.validate(check.value, undefined, compiled.root, check.path).errors;
  },
};

/** The hooks CustomResourceDefinition validation runs with in a cluster. */
export const crdValidationHooks: CrdValidationHooks = {
  celCompiler,
  defaultValidator,
  checkPattern: (pattern) => {
    const result = compileGoRegexp(pattern);
    return result.ok ? undefined : result.error;
  },
};
