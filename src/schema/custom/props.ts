/**
 * A CustomResourceDefinition version's `openAPIV3Schema` as JSON (apiextensions.k8s.io/v1
 * JSONSchemaProps), and safe readers for it: the schema comes from a client, so every member is
 * read as an own property and checked for its JSON type; a member of the wrong type counts as
 * absent (the CRD's own validation has refused such schemas before they get here).
 */
import { getOwn } from '../../util/own.js';

/** The members of a JSONSchemaProps that custom resource handling reads (any others are kept, unread). */
export interface JsonSchemaProps {
  readonly type?: string;
  readonly format?: string;
  readonly nullable?: boolean;
  readonly default?: unknown;
  readonly enum?: readonly unknown[];
  readonly maximum?: number;
  readonly exclusiveMaximum?: boolean;
  readonly minimum?: number;
  readonly exclusiveMinimum?: boolean;
  readonly multipleOf?: number;
  readonly maxLength?: number;
  readonly minLength?: number;
  readonly pattern?: string;
  readonly maxItems?: number;
  readonly minItems?: number;
  readonly uniqueItems?: boolean;
  readonly maxProperties?: number;
  readonly minProperties?: number;
  readonly required?: readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchemaProps>>;
  readonly additionalProperties?: JsonSchemaProps | boolean;
  readonly items?: JsonSchemaProps | readonly JsonSchemaProps[];
  readonly allOf?: readonly JsonSchemaProps[];
  readonly anyOf?: readonly JsonSchemaProps[];
  readonly oneOf?: readonly JsonSchemaProps[];
  readonly not?: JsonSchemaProps;
  readonly 'x-kubernetes-preserve-unknown-fields'?: boolean;
  readonly 'x-kubernetes-embedded-resource'?: boolean;
  readonly 'x-kubernetes-int-or-string'?: boolean;
  readonly 'x-kubernetes-list-type'?: string;
  readonly 'x-kubernetes-list-map-keys'?: readonly string[];
  readonly 'x-kubernetes-map-type'?: string;
  readonly 'x-kubernetes-validations'?: readonly unknown[];
  readonly [member: string]: unknown;
}

/** True for a JSON object (a schema), not an array or null. */
export function isSchemaObject(v: unknown): v is JsonSchemaProps {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Typed reads of one schema's members. */
export class PropsReader {
  constructor(readonly props: JsonSchemaProps) {}

  private get(name: string): unknown {
    return getOwn(this.props, name);
  }

  string(name: string): string {
    const v = this.get(name);
    return typeof v === 'string' ? v : '';
  }

  bool(name: string): boolean {
    return this.get(name) === true;
  }

  number(name: string): number | undefined {
    const v = this.get(name);
    return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
  }

  /** An integer member (`maxLength`, ...); a non-integer counts as absent. */
  int(name: string): number | undefined {
    const v = this.number(name);
    return v !== undefined && Number.isInteger(v) ? v : undefined;
  }

  strings(name: string): string[] {
    const v = this.get(name);
    return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
  }

  schema(name: string): JsonSchemaProps | undefined {
    const v = this.get(name);
    return isSchemaObject(v) ? v : undefined;
  }

  schemas(name: string): JsonSchemaProps[] {
    const v = this.get(name);
    return Array.isArray(v) ? v.filter(isSchemaObject) : [];
  }

  /** `properties`: own members in document order. */
  properties(): Array<[string, JsonSchemaProps]> {
    const v = this.get('properties');
    if (!isSchemaObject(v)) return [];
    return Object.keys(v)
      .map((k): [string, unknown] => [k, getOwn(v, k)])
      .filter((e): e is [string, JsonSchemaProps] => isSchemaObject(e[1]));
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  /** The raw member (`default`, `enum`, `additionalProperties`). */
  raw(name: string): unknown {
    return this.get(name);
  }
}
