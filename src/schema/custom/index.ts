/**
 * A CustomResourceDefinition version's OpenAPI schema at work on custom resources: compiled once
 * by {@link compileCustomSchema}, then run on every read and write.
 *
 * The order the API server applies it in (apiextensions-apiserver, customresource_handler.go and
 * registry/customresource): on decoding a request body or a stored object, the resource's own
 * `metadata` is read as ObjectMeta (the engine's part), then {@link CompiledCustomSchema.prune}
 * (unknown fields, non-nullable nulls, embedded resources' metadata), then
 * {@link CompiledCustomSchema.default}; on create {@link CompiledCustomSchema.validate}, on update
 * {@link CompiledCustomSchema.validateUpdate} (with ratcheting), on a status update
 * {@link CompiledCustomSchema.validateStatusUpdate}. The CEL rules (`x-kubernetes-validations`)
 * run after these, over the same nodes and {@link Correlation}.
 */
import type { FieldError } from '../../machinery/field-errors.js';
import { goKind } from '../../util/go-value.js';
import { getOwn } from '../../util/own.js';
import type { StructuralNode } from '../structural.js';
import { compileSchemaTree } from './compile.js';
import { isJsonMap } from './copy-on-write.js';
import { Correlation, type CorrelationSchema } from './correlation.js';
import { applyDefaults } from './defaulting.js';
import { coerceEmbeddedResources, validateEmbeddedResources } from './embedded.js';
import { validateListSetsAndMaps } from './list-type.js';
import type { CustomSchemaNode } from './node.js';
import { openApiErrorsToFieldErrors, type OpenApiError } from './openapi-errors.js';
import type { JsonSchemaProps } from './props.js';
import { pruneNonNullableNulls, pruneUnknownFields } from './pruning.js';
import { toStructuralNode } from './to-structural.js';
import { validateWith } from './validator.js';

export { CustomSchemaError, MAX_SCHEMA_DEPTH } from './compile.js';
export { Correlation, type CorrelationSchema } from './correlation.js';
export type { AdditionalProperties, CustomSchemaNode } from './node.js';
export type { JsonSchemaProps } from './props.js';
export type { ValidatorNode } from './validator.js';
export { readObjectMeta, marshalObjectMeta, type ObjectMetaOptions, type ObjectMetaReading } from './object-meta.js';
export { applyDefaults } from './defaulting.js';
export { pruneUnknownFields, pruneNonNullableNulls, type PruneOutcome } from './pruning.js';
export { coerceEmbeddedResources, validateEmbeddedResources, type CoerceOptions, type CoerceOutcome } from './embedded.js';
export { validateListSetsAndMaps } from './list-type.js';

/** What {@link compileCustomSchema} needs besides the schema. */
export interface CompileCustomSchemaOptions {
  /** The structural schema of `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` (`structuralOf(ObjectMeta)`), for embedded resources. */
  readonly objectMeta: StructuralNode;
}

/** What pruning a decoded custom resource found. */
export interface CustomPruneResult {
  /** The pruned object (the input itself when nothing changed; the input is never modified). */
  readonly value: unknown;
  /**
   * The dropped fields, as `fieldValidation=Warn|Strict` reports them (`unknown field "spec.foo"`):
   * the pruned paths sorted, then embedded resources' unknown metadata members sorted. The
   * resource's own unknown `metadata` members come before both (the engine reads that metadata).
   */
  readonly unknownFields: string[];
  /**
   * An embedded resource that cannot be read (`spec.template.kind: Invalid value: 1: must be a
   * string`, `spec.template.metadata: Invalid value: ...: json: cannot unmarshal ...`): the API
   * server fails decoding the request with it. Undefined when `dropInvalidMetadata`.
   */
  readonly error: FieldError | undefined;
}

/** Options of {@link CompiledCustomSchema.prune}. */
export interface CustomPruneOptions {
  /** Drop embedded metadata that does not decode instead of failing, as the API server does for objects read from storage. */
  readonly dropInvalidMetadata?: boolean;
}

/** Options of the update validations. */
export interface CustomValidateUpdateOptions {
  /** Drop errors of values unchanged from the old object (`CRDValidationRatcheting`, GA); default true. */
  readonly ratcheting?: boolean;
  /** A correlation of the new and old objects to reuse (the one CEL rules use), from {@link CompiledCustomSchema.correlate}. */
  readonly correlation?: Correlation<CustomSchemaNode>;
}

/** A CRD version's schema, compiled. */
export interface CompiledCustomSchema {
  /** The root node of the compiled schema. */
  readonly root: CustomSchemaNode;
  /** The schema as the engine's structural schema, for server-side apply and managedFields. */
  readonly structural: StructuralNode;
  /** The node of `status`, when the schema declares it (what the status subresource validates against). */
  readonly status: CustomSchemaNode | undefined;
  /**
   * Defaulting (`structuraldefaulting.Default`), on requests and on objects read from storage
   * alike. Copy-on-write: answers the defaulted object, sharing what did not change.
   */
  default(obj: unknown): unknown;
  /** Pruning of a decoded object: unknown fields, non-nullable nulls without default, embedded resources' metadata. */
  prune(obj: unknown, options?: CustomPruneOptions): CustomPruneResult;
  /** Validation of a new object: the schema's value validations, embedded resources, list-type set and map invariants. */
  validate(obj: unknown): FieldError[];
  /** Validation of an update: as {@link validate}, with ratcheting; list invariants only checked when the old object met them. */
  validateUpdate(obj: unknown, old: unknown, options?: CustomValidateUpdateOptions): FieldError[];
  /**
   * Validation of a status update: `status` against its own schema (paths under `status`, names in
   * messages relative to it), with ratcheting; list invariants of the whole object when the old met them.
   */
  validateStatusUpdate(obj: unknown, old: unknown, options?: Pick<CustomValidateUpdateOptions, 'ratcheting'>): FieldError[];
  /** The correlation of a new object with its old one, for ratcheting and CEL transition rules. */
  correlate(obj: unknown, old: unknown): Correlation<CustomSchemaNode>;
}

/**
 * kube-openapi's schema validation of `value` at `node`, as `ValidateCustomResource(basePath, ...)`
 * reports it; with `correlation`, ratcheting.
 */
export function validateCustomValue(
  node: CustomSchemaNode,
  value: unknown,
  options: { basePath?: string; correlation?: Correlation<CorrelationSchema> } = {},
): FieldError[] {
  const run: { out: OpenApiError[] } = { out: [] };
  validateWith(node.validator, value, goKind(value), '', run, options.correlation);
  return openApiErrorsToFieldErrors(run.out, options.basePath ?? '');
}

class Compiled implements CompiledCustomSchema {
  readonly structural: StructuralNode;
  readonly status: CustomSchemaNode | undefined;

  constructor(
    readonly root: CustomSchemaNode,
    private readonly objectMeta: StructuralNode,
  ) {
    this.structural = toStructuralNode(root, objectMeta, true);
    this.status = root.properties?.get('status');
  }

  default(obj: unknown): unknown {
    return applyDefaults(obj, this.root);
  }

  prune(obj: unknown, options: CustomPruneOptions = {}): CustomPruneResult {
    const pruned = pruneUnknownFields(obj, this.root, true);
    const withoutNulls = pruneNonNullableNulls(pruned.value, this.root);
    const coerced = coerceEmbeddedResources(withoutNulls, this.root, { objectMeta: this.objectMeta, dropInvalidFields: options.dropInvalidMetadata ?? false });
    return { value: coerced.value, unknownFields: [...pruned.unknownFields, ...coerced.unknownFields], error: coerced.error };
  }

  validate(obj: unknown): FieldError[] {
    return [
      ...validateCustomValue(this.root, obj),
      ...validateEmbeddedResources(obj, this.root, { objectMeta: this.objectMeta }),
      ...validateListSetsAndMaps(obj, this.root),
    ];
  }

  validateUpdate(obj: unknown, old: unknown, options: CustomValidateUpdateOptions = {}): FieldError[] {
    const ratcheting = options.ratcheting ?? true;
    const correlation = ratcheting ? (options.correlation ?? this.correlate(obj, old)) : undefined;
    const listErrors = validateListSetsAndMaps(old, this.root).length === 0 ? validateListSetsAndMaps(obj, this.root) : [];
    return [
      ...validateCustomValue(this.root, obj, { correlation }),
      ...validateEmbeddedResources(obj, this.root, { objectMeta: this.objectMeta }),
      ...listErrors,
    ];
  }

  validateStatusUpdate(obj: unknown, old: unknown, options: Pick<CustomValidateUpdateOptions, 'ratcheting'> = {}): FieldError[] {
    const errs: FieldError[] = [];
    const status = isJsonMap(obj) ? getOwn(obj, 'status') : undefined;
    if (status !== undefined && this.status) {
      const oldStatus = isJsonMap(old) ? getOwn(old, 'status') : undefined;
      const correlation = (options.ratcheting ?? true) ? new Correlation(status, oldStatus, this.status) : undefined;
      errs.push(...validateCustomValue(this.status, status, { basePath: 'status', correlation }));
    }
    const listErrors = validateListSetsAndMaps(obj, this.root);
    if (listErrors.length && validateListSetsAndMaps(old, this.root).length === 0) errs.push(...listErrors);
    return errs;
  }

  correlate(obj: unknown, old: unknown): Correlation<CustomSchemaNode> {
    return new Correlation<CustomSchemaNode>(obj, old, this.root);
  }
}

/**
 * Compiles one CRD version's `openAPIV3Schema` (a structural schema, already validated as such by
 * the CRD's validation). Throws {@link CustomSchemaError} for a schema nested too deep to walk.
 */
export function compileCustomSchema(props: JsonSchemaProps, options: CompileCustomSchemaOptions): CompiledCustomSchema {
  return new Compiled(compileSchemaTree(props, options.objectMeta), options.objectMeta);
}
