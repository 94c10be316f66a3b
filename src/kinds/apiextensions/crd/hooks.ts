/**
 * What the CustomResourceDefinition validator leaves to other parts of memkube, passed in as hooks:
 * compiling CEL `x-kubernetes-validations` rules (and estimating their cost), validating a schema's
 * `default` values as a custom resource's value would be validated, and checking a `pattern` as Go's
 * RE2 does. Each hook is optional: without it, that part is not checked.
 */
import type { FieldError } from '../../../machinery/field-errors.js';
import type { JSONSchemaProps } from '../../types/apiextensions-v1.js';

/** One step from a schema node to a child: a property, the array items, or the map values. */
export type SchemaStep = { readonly kind: 'property'; readonly name: string } | { readonly kind: 'items' } | { readonly kind: 'additionalProperties' };

/** The rules of one schema node to compile (apiextensions-apiserver's `cel.Compile` input). */
export interface CelCompileRequest {
  /** The root `openAPIV3Schema` the node sits in. */
  readonly root: JSONSchemaProps;
  /** The steps from `root` to the node; `[]` for the root itself. */
  readonly steps: readonly SchemaStep[];
  /** The node that carries the rules (`self` has its type). */
  readonly schema: JSONSchemaProps;
  /** Whether the node is the root of a resource (the schema's root, or `x-kubernetes-embedded-resource`): `self` then has `apiVersion`, `kind` and `metadata.name`/`generateName`. */
  readonly isResourceRoot: boolean;
  /**
   * Rules and message expressions the stored definition already had (empty on create): they are
   * compiled in the environment of stored expressions, which keeps libraries a newer server dropped.
   */
  readonly preexistingRules: ReadonlySet<string>;
  readonly preexistingMessageExpressions: ReadonlySet<string>;
}

/** A CEL error of one rule: `required` becomes a `Required value`, any other an `Invalid value`. */
export interface CelRuleError {
  readonly type: 'required' | 'invalid' | 'internal';
  /** The whole detail, e.g. `compilation failed: ERROR: <input>:1:6: ...`. */
  readonly detail: string;
}

/** The compilation of one rule, in the order of the node's `x-kubernetes-validations`. */
export interface CelRuleCompilation {
  readonly error?: CelRuleError;
  /** An error compiling `messageExpression` (its detail, e.g. `messageExpression compilation failed: ...`). */
  readonly messageExpressionError?: { readonly detail: string };
  /** The estimated cost of one evaluation of the rule. */
  readonly maxCost: number;
  /**
   * How many times the compiler estimates the rule runs per object when the schema does not bound
   * it (the cardinality cel-go's estimator finds); used when a list or map above the node has no
   * `maxItems`/`maxProperties`.
   */
  readonly maxCardinality: number;
  /** Whether the rule has a `messageExpression` (then its cost counts too). */
  readonly hasMessageExpression: boolean;
  /** The estimated cost of one evaluation of `messageExpression`. */
  readonly messageExpressionMaxCost: number;
  /** Whether the rule reads `oldSelf` (a transition rule). */
  readonly usesOldSelf: boolean;
}

/**
 * Compiles the `x-kubernetes-validations` of one schema node. Throwing an Error reports an internal
 * error at the node's `x-kubernetes-validations` (as Kubernetes reports a failure to build the
 * declared type of `self`).
 */
export interface CelRuleCompiler {
  /** Compiles the `x-kubernetes-validations` rules of one schema node. */
  compile(request: CelCompileRequest): readonly CelRuleCompilation[];
}

/** A default value to check (apiextensions-apiserver's `defaulting.ValidateDefaults`, beyond pruning). */
export interface DefaultValueCheck {
  /** The field path of the node's `default`, e.g. `spec.validation.openAPIV3Schema.properties[spec].default`. */
  readonly path: string;
  /** The node that carries the default; the value must validate against it as a custom resource's field would. */
  readonly schema: JSONSchemaProps;
  /** The root of the resource the node belongs to (the schema's root or the nearest embedded resource). */
  readonly resourceRoot: JSONSchemaProps;
  /** Whether the node is inside `apiVersion`, `kind` or `metadata` of an embedded resource. */
  readonly insideMeta: boolean;
  readonly value: unknown;
}

/**
 * Validates a `default` against its schema node: OpenAPI value validation, the metadata of
 * embedded resources and CEL rules, with errors at `check.path` (upstream `ValidateCustomResource`
 * and the CEL validator run on the default).
 */
export interface DefaultValueValidator {
  /** The errors of one default value; empty when it is valid. */
  validateDefault(check: DefaultValueCheck): FieldError[];
}

/** The hooks of CustomResourceDefinition validation. */
export interface CrdValidationHooks {
  readonly celCompiler?: CelRuleCompiler;
  readonly defaultValidator?: DefaultValueValidator;
  /**
   * Go's `regexp.Compile` verdict on a `pattern`: undefined when it compiles, else Go's error text
   * (`error parsing regexp: ...`). Without it, memkube's own approximation of RE2 is used.
   */
  readonly checkPattern?: (pattern: string) => string | undefined;
}
