/**
 * CEL types of schema nodes (apiserver/pkg/cel/common/schemas.go SchemaDeclType and
 * apiserver/pkg/cel/types.go DeclType): objects with properties become object types, maps
 * (additionalProperties) `map(string, T)`, arrays `list(T)`, x-kubernetes-int-or-string `dyn`,
 * formats date-time/date `timestamp`, duration `duration`, byte `bytes`. Each type carries the
 * bounds the cost estimator sizes data with (MaxElements) and the smallest JSON it serializes to.
 */
import { MAX_REQUEST_SIZE_BYTES } from '../cost/constants.js';
import { BOOL, BYTES, CelType, DOUBLE, DURATION, DYN, INT, STRING, TIMESTAMP, listType, mapType, structType } from '../types/types.js';
import { escapePropertyName } from './escaping.js';
import type { CelSchema } from './schema.js';

/** One field of an object type. */
export interface DeclField {
  /** The CEL name (escaped). */
  readonly name: string;
  /** The property name in the JSON object. */
  readonly jsonName: string;
  readonly type: DeclType;
  readonly required: boolean;
}

/** A CEL type declared from a schema node. */
export interface DeclType {
  readonly kind: 'object' | 'map' | 'list' | 'string' | 'bytes' | 'int' | 'double' | 'bool' | 'duration' | 'timestamp' | 'dyn';
  /** For objects: the type name (`selfType0.spec`). */
  readonly name: string;
  readonly fields?: ReadonlyMap<string, DeclField>;
  readonly elem?: DeclType;
  readonly key?: DeclType;
  /** x-kubernetes-list-type of a list (`set` and `map` lists compare regardless of order). */
  readonly listType?: string;
  readonly listMapKeys?: readonly string[];
  /** The bound the cost estimator uses: maxLength, maxItems, maxProperties, or an estimate from the request size. */
  readonly maxElements: number;
  /** The smallest JSON text a value of this type serializes to. */
  readonly minSerializedSize: number;
}

const MAX_DURATION_SIZE_JSON = 32;
const MAX_DATETIME_SIZE_JSON = 32;
const MIN_DURATION_SIZE_JSON = 3;
const JSON_DATE_SIZE = 12;
const MIN_DATETIME_SIZE_JSON = 21;
const MIN_STRING_SIZE = 2;
const MIN_BOOL_SIZE = 4;
const MIN_NUMBER_SIZE = 1;

const zeroIfNegative = (n: number): number => (n < 0 ? 0 : n);

function simple(kind: DeclType['kind'], minSerializedSize: number, maxElements = 0): DeclType {
  return { kind, name: kind, maxElements, minSerializedSize };
}

function maxStringLengthPerRequest(s: CelSchema): number {
  if (s['x-kubernetes-int-or-string']) return MAX_REQUEST_SIZE_BYTES - 2;
  switch (s.format) {
    case 'duration':
      return MAX_DURATION_SIZE_JSON;
    case 'date':
      return JSON_DATE_SIZE;
    case 'date-time':
      return MAX_DATETIME_SIZE_JSON;
    default:
      return MAX_REQUEST_SIZE_BYTES - 2;
  }
}

/** A schema with apiVersion, kind and metadata (name, generateName) always present, as at a resource root. */
function withTypeAndObjectMeta(s: CelSchema): CelSchema {
  const p = s.properties;
  if (
    p?.kind?.type === 'string' &&
    p.apiVersion?.type === 'string' &&
    p.metadata?.type === 'object' &&
    p.metadata.properties?.name?.type === 'string' &&
    p.metadata.properties.generateName?.type === 'string'
  ) {
    return s;
  }
  const str: CelSchema = { type: 'string' };
  return { ...s, properties: { ...p, kind: str, apiVersion: str, metadata: { type: 'object', properties: { name: str, generateName: str } } } };
}

/**
 * The CEL type of a schema node, or undefined when the node is not visible to CEL. Set
 * `isResourceRoot` at the root of a custom resource (and of embedded resources, which it finds by
 * itself below the root).
 */
export function schemaDeclType(s: CelSchema | undefined, isResourceRoot: boolean): DeclType | undefined {
  if (!s) return undefined;
  if (s['x-kubernetes-int-or-string']) {
    const max = s.maxLength !== undefined ? zeroIfNegative(s.maxLength) * 4 : maxStringLengthPerRequest(s);
    return { kind: 'dyn', name: 'dyn', maxElements: max, minSerializedSize: 1 };
  }
  if (isResourceRoot) s = withTypeAndObjectMeta(s);
  switch (s.type) {
    case 'array': {
      if (!s.items || Array.isArray(s.items)) return undefined;
      const items = s.items as CelSchema;
      const elem = schemaDeclType(items, items['x-kubernetes-embedded-resource'] === true);
      if (!elem) return undefined;
      const maxItems = s.maxItems !== undefined ? zeroIfNegative(s.maxItems) : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (elem.minSerializedSize + 1));
      return {
        kind: 'list',
        name: 'list',
        elem,
        listType: s['x-kubernetes-list-type'],
        listMapKeys: s['x-kubernetes-list-map-keys'],
        maxElements: maxItems,
        minSerializedSize: 2,
      };
    }
    case 'object': {
      if (s.additionalProperties !== undefined && typeof s.additionalProperties === 'object') {
        const ap = s.additionalProperties;
        const value = schemaDeclType(ap, ap['x-kubernetes-embedded-resource'] === true);
        if (!value) return undefined;
        const maxProperties =
          s.maxProperties !== undefined ? zeroIfNegative(s.maxProperties) : Math.floor((MAX_REQUEST_SIZE_BYTES - 2) / (value.minSerializedSize + 6));
        return { kind: 'map', name: 'map', key: simple('string', MIN_STRING_SIZE), elem: value, maxElements: maxProperties, minSerializedSize: 2 };
      }
      const required = new Set(s.required ?? []);
      const fields = new Map<string, DeclField>();
      let minSerializedSize = 2;
      for (const [name, prop] of Object.entries(s.properties ?? {})) {
        const t = schemaDeclType(prop, prop['x-kubernetes-embedded-resource'] === true);
        if (!t) continue;
        const escaped = escapePropertyName(name);
        if (escaped !== undefined) fields.set(escaped, { name: escaped, jsonName: name, type: t, required: required.has(name) });
        if (required.has(name) && prop.default === undefined) minSerializedSize += name.length + t.minSerializedSize + 4;
      }
      return { kind: 'object', name: 'object', fields, maxElements: 0, minSerializedSize };
    }
    case 'string':
      switch (s.format) {
        case 'byte':
          return simple('bytes', MIN_STRING_SIZE, s.maxLength !== undefined ? zeroIfNegative(s.maxLength) : maxStringLengthPerRequest(s));
        case 'duration':
          return simple('duration', MIN_DURATION_SIZE_JSON, maxStringLengthPerRequest(s));
        case 'date':
          return simple('timestamp', JSON_DATE_SIZE, maxStringLengthPerRequest(s));
        case 'date-time':
          return simple('timestamp', MIN_DATETIME_SIZE_JSON, maxStringLengthPerRequest(s));
        default: {
          let max: number;
          if (s.maxLength !== undefined) max = zeroIfNegative(s.maxLength) * 4;
          else if (s.enum && s.enum.length > 0) max = Math.max(0, ...s.enum.map((e) => (typeof e === 'string' ? Buffer.byteLength(e) : 0)));
          else max = maxStringLengthPerRequest(s);
          return simple('string', MIN_STRING_SIZE, max);
        }
      }
    case 'boolean':
      return simple('bool', MIN_BOOL_SIZE);
    case 'number':
      return simple('double', MIN_NUMBER_SIZE);
    case 'integer':
      return simple('int', MIN_NUMBER_SIZE);
    default:
      return undefined;
  }
}

/**
 * Names object types by where they sit (apiserver DeclType.MaybeAssignTypeName): the root takes
 * `name`, a property's object `name.property`, a list's elements `name.@idx`, a map's values
 * `name.@elem`.
 */
export function assignTypeNames(t: DeclType, name: string): DeclType {
  switch (t.kind) {
    case 'object': {
      const fields = new Map<string, DeclField>();
      for (const [k, f] of t.fields!) fields.set(k, { ...f, type: assignTypeNames(f.type, `${name}.${k}`) });
      return { ...t, name, fields };
    }
    case 'list':
      return { ...t, elem: assignTypeNames(t.elem!, `${name}.@idx`) };
    case 'map':
      return { ...t, elem: assignTypeNames(t.elem!, `${name}.@elem`) };
    default:
      return t;
  }
}

/** The CEL type of a declared type. */
export function celTypeOf(t: DeclType): CelType {
  switch (t.kind) {
    case 'object':
      return structType(t.name);
    case 'list':
      return listType(celTypeOf(t.elem!));
    case 'map':
      return mapType(STRING, celTypeOf(t.elem!));
    case 'string':
      return STRING;
    case 'bytes':
      return BYTES;
    case 'int':
      return INT;
    case 'double':
      return DOUBLE;
    case 'bool':
      return BOOL;
    case 'duration':
      return DURATION;
    case 'timestamp':
      return TIMESTAMP;
    default:
      return DYN;
  }
}

/** Every object type below (and including) `t`, by name. */
export function objectTypes(t: DeclType, out = new Map<string, DeclType>()): Map<string, DeclType> {
  if (t.kind === 'object') {
    out.set(t.name, t);
    for (const f of t.fields!.values()) objectTypes(f.type, out);
  } else if (t.elem) objectTypes(t.elem, out);
  return out;
}

/**
 * The most times data of a schema node with this minimum size could appear in one request
 * (apiextensions compilation.go maxCardinality): the request size over the size plus a comma.
 */
export function maxCardinality(minSerializedSize: number): number {
  return Math.floor(MAX_REQUEST_SIZE_BYTES / (minSerializedSize + 1));
}
