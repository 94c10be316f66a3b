/**
 * Reading a v1 `JSONSchemaProps` as Kubernetes decodes it: `items` is one schema or a list of
 * them (`JSONSchemaPropsOrArray`), `additionalProperties` a boolean or a schema
 * (`JSONSchemaPropsOrBool`), a `dependencies` entry a schema or a list of names, and a `null`
 * `default` or `example` is no value at all. Maps are read through own keys only (`__proto__` is
 * an ordinary property name).
 */
import type { JSONSchemaProps } from '../../types/apiextensions-v1.js';

/** A JSON object (not an array, not null). */
export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** `items` as one schema (undefined when absent or a list). */
export function itemsSchema(s: JSONSchemaProps): JSONSchemaProps | undefined {
  return isObject(s.items) ? (s.items as JSONSchemaProps) : undefined;
}

/** `items` as a list of schemas (undefined when absent or one schema). */
export function itemsArray(s: JSONSchemaProps): JSONSchemaProps[] | undefined {
  return Array.isArray(s.items) ? (s.items as unknown[]).filter(isObject).map((x) => x as JSONSchemaProps) : undefined;
}

/** Whether `items` is set (Go's non-nil `Items`). */
export function hasItems(s: JSONSchemaProps): boolean {
  return s.items !== undefined && s.items !== null;
}

/** `additionalProperties` as Go decodes it: `{ allows, schema }`, or undefined when absent. */
export interface OrBool {
  readonly allows: boolean;
  readonly schema?: JSONSchemaProps;
}

/** Reads `additionalProperties` (or `additionalItems`). */
export function orBool(v: unknown): OrBool | undefined {
  if (v === undefined || v === null) return undefined;
  if (isObject(v)) return { allows: true, schema: v as JSONSchemaProps };
  return { allows: v === true };
}

/** The `additionalProperties` of a node. */
export function additionalProperties(s: JSONSchemaProps): OrBool | undefined {
  return orBool(s.additionalProperties);
}

/** The `properties` of a node as entries, in the order they were written. */
export function propertyEntries(s: JSONSchemaProps): [string, JSONSchemaProps][] {
  const p = s.properties;
  if (!isObject(p)) return [];
  return Object.entries(p).filter((e): e is [string, JSONSchemaProps] => isObject(e[1]));
}

/** Whether a node has at least one property (Go's `len(Properties) != 0`). */
export function hasProperties(s: JSONSchemaProps): boolean {
  return isObject(s.properties) && Object.keys(s.properties).length > 0;
}

/** One property of a node, by its own key. */
export function property(s: JSONSchemaProps, name: string): JSONSchemaProps | undefined {
  const p = s.properties;
  if (!isObject(p) || !Object.hasOwn(p, name)) return undefined;
  const v = p[name];
  return isObject(v) ? (v as JSONSchemaProps) : undefined;
}

/** The entries of a map-valued keyword (`definitions`, `patternProperties`, `dependencies`). */
export function mapEntries(v: unknown): [string, unknown][] {
  return isObject(v) ? Object.entries(v) : [];
}

/** Whether a node has a `default` (a JSON `null` is none). */
export function hasDefault(s: JSONSchemaProps): boolean {
  return s.default !== undefined && s.default !== null;
}

/** The `x-kubernetes-validations` rules of a node. */
export function validationRules(s: JSONSchemaProps): NonNullable<JSONSchemaProps['x-kubernetes-validations']> {
  const rules = s['x-kubernetes-validations'];
  return Array.isArray(rules) ? rules : [];
}

/** A node's type, `''` when unset (Go's zero string). */
export function typeOf(s: JSONSchemaProps | undefined): string {
  return typeof s?.type === 'string' ? s.type : '';
}

/**
 * Every schema below a node that Kubernetes' `SchemaHas` visits (items, allOf, anyOf, oneOf, not,
 * properties, additionalProperties, patternProperties, additionalItems, definitions,
 * dependencies), the node first. Walked with an explicit stack, so a deep schema cannot overflow
 * the call stack; stops as soon as `pred` is true.
 */
export function schemaHas(root: JSONSchemaProps | undefined, pred: (s: JSONSchemaProps) => boolean): boolean {
  if (!root) return false;
  const stack: JSONSchemaProps[] = [root];
  while (stack.length) {
    const s = stack.pop()!;
    if (pred(s)) return true;
    stack.push(...subSchemas(s).reverse());
  }
  return false;
}

/** The direct sub-schemas of a node, every keyword that holds one. */
export function subSchemas(s: JSONSchemaProps): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  const add = (v: unknown): void => {
    if (isObject(v)) out.push(v as JSONSchemaProps);
  };
  if (Array.isArray(s.items)) (s.items as unknown[]).forEach(add);
  else add(s.items);
  for (const list of [s.allOf, s.anyOf, s.oneOf]) if (Array.isArray(list)) list.forEach(add);
  add(s.not);
  for (const [, v] of propertyEntries(s)) add(v);
  add(s.additionalProperties);
  for (const [, v] of mapEntries(s.patternProperties)) add(v);
  add(s.additionalItems);
  for (const [, v] of mapEntries(s.definitions)) add(v);
  for (const [, v] of mapEntries(s.dependencies)) add(v);
  return out;
}
