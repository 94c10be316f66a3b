/**
 * One node of a compiled custom resource schema: apiextensions-apiserver's structural schema
 * (apiserver/schema/structural.go `Structural`: type, properties, additionalProperties, items,
 * default, nullable and the `x-kubernetes-*` extensions), which defaulting, pruning, the list-type
 * checks, embedded resources and old/new correlation walk, plus the compiled value validator of
 * the same schema position (which also holds its `allOf`/`anyOf`/`oneOf`/`not` clauses).
 */
import type { JsonSchemaProps } from './props.js';
import type { ValidatorNode } from './validator.js';

/** `additionalProperties`: a schema for the values of keys that are not properties, or a bare `true`/`false`. */
export interface AdditionalProperties {
  /** The schema of the other keys' values; undefined for a bare boolean. */
  readonly node: CustomSchemaNode | undefined;
  /** The boolean (true when a schema is given). */
  readonly allows: boolean;
}

/** A compiled node of a custom resource's structural schema. */
export interface CustomSchemaNode {
  /** `type` as written (`object`, `array`, `string`, `integer`, `number`, `boolean`), `''` when absent. */
  readonly type: string;
  readonly nullable: boolean;
  /**
   * The `default`, already pruned as the API server prunes defaults when it starts serving the
   * CRD (`PruneDefaults`); undefined when there is none (`default: null` is none).
   */
  readonly default: unknown;
  /** `properties`, in the schema's order; undefined when the schema declares none. */
  readonly properties: ReadonlyMap<string, CustomSchemaNode> | undefined;
  readonly additionalProperties: AdditionalProperties | undefined;
  readonly items: CustomSchemaNode | undefined;
  /** `x-kubernetes-preserve-unknown-fields: true`. */
  readonly preserveUnknownFields: boolean;
  /** `x-kubernetes-embedded-resource: true`: `apiVersion`, `kind` and `metadata` are implied. */
  readonly embeddedResource: boolean;
  /** `x-kubernetes-int-or-string: true`. */
  readonly intOrString: boolean;
  /** `x-kubernetes-list-type` (`atomic`, `set`, `map`). */
  readonly listType: string | undefined;
  /** `x-kubernetes-list-map-keys`. */
  readonly listMapKeys: readonly string[];
  /** `x-kubernetes-map-type` (`atomic`, `granular`). */
  readonly mapType: string | undefined;
  /** The schema this node was compiled from (`x-kubernetes-validations` and the rest live here). */
  readonly props: JsonSchemaProps;
  /** The compiled value validation of this schema position. */
  readonly validator: ValidatorNode;
}
