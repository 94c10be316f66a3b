/**
 * Kubernetes' CEL for memkube: an implementation of CEL that follows cel-go and the libraries of
 * Kubernetes' v1.36 environment, the CEL types of CRD schemas, cost estimation and budgets.
 * docs/cel.md describes what it supports.
 */
export { Environment, Program, type CompileResult, type EnvironmentOptions, type EvalResult, type VariableDecl } from './program.js';
export {
  RuleProgram,
  RuleScope,
  costErrorMessage,
  evaluateMessageExpression,
  ruleScope,
  type MessageResult,
  type RuleCompilation,
  type RuleError,
  type ValidationRuleSource,
} from './crd-rules.js';
export { schemaDeclType, assignTypeNames, celTypeOf, maxCardinality, type DeclType, type DeclField } from './schema/decl-type.js';
export { CEL_RESERVED_SYMBOLS, escapePropertyName, unescapePropertyName } from './schema/escaping.js';
export type { CelSchema } from './schema/schema.js';
export { toCelValue } from './schema/values.js';
export {
  MAX_EVALUATED_MESSAGE_EXPRESSION_SIZE_BYTES,
  MAX_REQUEST_SIZE_BYTES,
  PER_CALL_LIMIT,
  RUNTIME_CEL_COST_BUDGET,
  STATIC_ESTIMATED_COST_LIMIT,
  STATIC_ESTIMATED_CRD_COST_LIMIT,
} from './cost/constants.js';
export type { Value } from './values/values.js';
export { CelType } from './types/types.js';
