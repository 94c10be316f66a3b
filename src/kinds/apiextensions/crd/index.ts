/**
 * CustomResourceDefinition validation and defaulting: the entry points the kind's strategy (and
 * the cluster's wiring of CEL and schema validation) call.
 */
export { defaultCustomResourceDefinition } from './defaults.js';
export { validateCustomResourceDefinition } from './validate.js';
export { validateCustomResourceDefinitionUpdate, validateCustomResourceDefinitionStatusUpdate } from './validate-update.js';
export { customResourceDefinitionWarnings } from './warnings.js';
export { apiApprovalCondition } from './api-approval.js';
export type {
  CelCompileRequest,
  CelRuleCompilation,
  CelRuleCompiler,
  CelRuleError,
  CrdValidationHooks,
  DefaultValueCheck,
  DefaultValueValidator,
  SchemaStep,
} from './hooks.js';
