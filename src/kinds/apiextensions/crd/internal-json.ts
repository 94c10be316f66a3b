/**
 * Bad values as Kubernetes prints them when they are internal `apiextensions` structs: those have
 * no JSON tags, so `json.Marshal` (what a field error prints for a composite value) writes Go's
 * field names in declaration order, every field present (`null` for a nil pointer or slice, zero
 * values as is), and map keys sorted. E.g. `spec.versions: Invalid value:
 * [{"Name":"v1","Served":true,"Storage":false,...}]: must have exactly one version marked as
 * storage version`.
 */
import { compareGoStrings } from '../../../util/go-format.js';
import type { JSONSchemaProps, ValidationRule } from '../../types/apiextensions-v1.js';
import type { InternalVersion } from './internal.js';
import { isObject, mapEntries } from './schema-access.js';

type Json = unknown;

const orNull = <T>(v: T | undefined | null, f: (x: T) => Json): Json => (v === undefined || v === null ? null : f(v));
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const bool = (v: unknown): boolean => v === true;
const num = (v: unknown): Json => (typeof v === 'number' ? v : null);
const strList = (v: unknown): Json => (Array.isArray(v) ? v : null);
const jsonValue = (v: unknown): Json => (v === undefined ? null : v);

function sortedMap<T>(entries: [string, T][], f: (x: T) => Json): Json {
  if (!entries.length) return null;
  const out: Record<string, Json> = {};
  for (const [k, v] of [...entries].sort((a, b) => compareGoStrings(a[0], b[0]))) {
    Object.defineProperty(out, k, { value: f(v), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

const schemaList = (v: unknown): Json => (Array.isArray(v) ? v.map((x) => internalSchemaJson(isObject(x) ? (x as JSONSchemaProps) : {})) : null);

function orBoolJson(v: unknown): Json {
  if (v === undefined || v === null) return null;
  return isObject(v) ? { Allows: true, Schema: internalSchemaJson(v as JSONSchemaProps) } : { Allows: v === true, Schema: null };
}

/** An internal `ValidationRule`. */
export function internalRuleJson(r: ValidationRule): Json {
  return {
    Rule: str(r.rule),
    Message: str(r.message),
    MessageExpression: str(r.messageExpression),
    Reason: orNull(r.reason, (x) => x),
    FieldPath: str(r.fieldPath),
    OptionalOldSelf: orNull(r.optionalOldSelf, (x) => x),
  };
}

/** An internal `JSONSchemaProps`. */
export function internalSchemaJson(s: JSONSchemaProps): Json {
  const items = s.items;
  return {
    ID: str(s.id),
    Schema: str(s.$schema),
    Ref: orNull(s.$ref, (x) => x),
    Description: str(s.description),
    Type: str(s.type),
    Nullable: bool(s.nullable),
    Format: str(s.format),
    Title: str(s.title),
    Default: jsonValue(s.default),
    Maximum: num(s.maximum),
    ExclusiveMaximum: bool(s.exclusiveMaximum),
    Minimum: num(s.minimum),
    ExclusiveMinimum: bool(s.exclusiveMinimum),
    MaxLength: num(s.maxLength),
    MinLength: num(s.minLength),
    Pattern: str(s.pattern),
    MaxItems: num(s.maxItems),
    MinItems: num(s.minItems),
    UniqueItems: bool(s.uniqueItems),
    MultipleOf: num(s.multipleOf),
    Enum: Array.isArray(s.enum) ? s.enum : null,
    MaxProperties: num(s.maxProperties),
    MinProperties: num(s.minProperties),
    Required: strList(s.required),
    Items: internalItemsJson(items),
    AllOf: schemaList(s.allOf),
    OneOf: schemaList(s.oneOf),
    AnyOf: schemaList(s.anyOf),
    Not: orNull(s.not, internalSchemaJson),
    Properties: sortedMap(mapEntries(s.properties), (v) => internalSchemaJson(isObject(v) ? (v as JSONSchemaProps) : {})),
    AdditionalProperties: orBoolJson(s.additionalProperties),
    PatternProperties: sortedMap(mapEntries(s.patternProperties), (v) => internalSchemaJson(isObject(v) ? (v as JSONSchemaProps) : {})),
    Dependencies: sortedMap(mapEntries(s.dependencies), (v) =>
      Array.isArray(v) ? { Schema: null, Property: v } : { Schema: isObject(v) ? internalSchemaJson(v as JSONSchemaProps) : null, Property: null },
    ),
    AdditionalItems: orBoolJson(s.additionalItems),
    Definitions: sortedMap(mapEntries(s.definitions), (v) => internalSchemaJson(isObject(v) ? (v as JSONSchemaProps) : {})),
    ExternalDocs: orNull(s.externalDocs, (d) => ({ Description: str(d.description), URL: str(d.url) })),
    Example: jsonValue(s.example),
    XPreserveUnknownFields: orNull(s['x-kubernetes-preserve-unknown-fields'], (x) => x),
    XEmbeddedResource: bool(s['x-kubernetes-embedded-resource']),
    XIntOrString: bool(s['x-kubernetes-int-or-string']),
    XListMapKeys: strList(s['x-kubernetes-list-map-keys']),
    XListType: orNull(s['x-kubernetes-list-type'], (x) => x),
    XMapType: orNull(s['x-kubernetes-map-type'], (x) => x),
    XValidations: Array.isArray(s['x-kubernetes-validations']) ? s['x-kubernetes-validations'].map(internalRuleJson) : null,
  };
}

/** An internal `JSONSchemaPropsOrArray` (`items`). */
export function internalItemsJson(items: unknown): Json {
  if (items === undefined || items === null) return null;
  if (Array.isArray(items)) return { Schema: null, JSONSchemas: schemaList(items) };
  return { Schema: isObject(items) ? internalSchemaJson(items as JSONSchemaProps) : null, JSONSchemas: null };
}

/** The internal `[]CustomResourceDefinitionVersion`. */
export function internalVersionsJson(versions: readonly InternalVersion[]): Json {
  return versions.map((v) => ({
    Name: v.name,
    Served: v.served,
    Storage: v.storage,
    Deprecated: v.deprecated,
    DeprecationWarning: orNull(v.deprecationWarning, (x) => x),
    Schema: orNull(v.schema, (x) => ({ OpenAPIV3Schema: orNull(x.openAPIV3Schema, internalSchemaJson) })),
    Subresources: orNull(v.subresources, (x) => ({
      Status: orNull(x.status, () => ({})),
      Scale: orNull(x.scale, (sc) => ({
        SpecReplicasPath: str(sc.specReplicasPath),
        StatusReplicasPath: str(sc.statusReplicasPath),
        LabelSelectorPath: orNull(sc.labelSelectorPath, (p) => p),
      })),
    })),
    AdditionalPrinterColumns: v.additionalPrinterColumns.length
      ? v.additionalPrinterColumns.map((c) => ({
          Name: str(c.name),
          Type: str(c.type),
          Format: str(c.format),
          Description: str(c.description),
          Priority: typeof c.priority === 'number' ? c.priority : 0,
          JSONPath: str(c.jsonPath),
        }))
      : null,
    SelectableFields: v.selectableFields.length ? v.selectableFields.map((f) => ({ JSONPath: str(f.jsonPath) })) : null,
  }));
}
