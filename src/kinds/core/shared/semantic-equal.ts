/**
 * `apiequality.Semantic.DeepEqual` over JSON objects: the equality Kubernetes' strategies and
 * update rules use to decide whether something changed. Go compares decoded structs, so what
 * counts as "the same" follows Go's types, read here from the kind's structural schema:
 * - a map or list that is empty equals an absent one (the forked `reflect.DeepEqual` behind
 *   `Semantic` treats a nil and an empty map or slice as equal);
 * - quantities compare by value (`Quantity.Cmp`), so `1000m` equals `1`;
 * - an absent struct is a nil pointer and differs from `{}`, an absent scalar from its zero
 *   value (optional struct and scalar fields are pointers in most Kubernetes types). The schema
 *   does not say which fields are not pointers (`hostNetwork`), so for those `false` and absent
 *   still count as different here, where Go sees the same zero value.
 */
import type { z } from 'zod';
import { compareQuantities, parseQuantity } from '../../../schema/quantity.js';
import { structuralOf, type StructuralNode } from '../../../schema/structural.js';
import type { KubeObject } from '../../../schema/define-kind.js';

function isEmptyCollection(v: unknown): boolean {
  if (v === undefined || v === null) return true;
  if (Array.isArray(v)) return v.length === 0;
  return typeof v === 'object' && Object.keys(v).every((k) => (v as Record<string, unknown>)[k] === undefined);
}

function quantityEqual(a: unknown, b: unknown): boolean {
  if ((typeof a !== 'string' && typeof a !== 'number') || (typeof b !== 'string' && typeof b !== 'number')) return false;
  const qa = parseQuantity(a);
  const qb = parseQuantity(b);
  return qa && qb ? compareQuantities(qa, qb) === 0 : String(a) === String(b);
}

function sameKeysEqual(a: Record<string, unknown>, b: Record<string, unknown>, nodeOf: (k: string) => StructuralNode | undefined): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) if (!semanticEqual(a[k], b[k], nodeOf(k))) return false;
  return true;
}

/**
 * Whether `a` and `b` are equal as `apiequality.Semantic.DeepEqual` sees the Go values they
 * decode to; `node` is the structural schema of both. Without a schema (or for free-form
 * values) only empty lists equal absent ones, as in the schema-less comparisons Kubernetes makes.
 */
export function semanticEqual(a: unknown, b: unknown, node?: StructuralNode): boolean {
  if (a === b) return true;
  switch (node?.type) {
    case 'map':
      if (isEmptyCollection(a) && isEmptyCollection(b)) return true;
      if (!isPlainObject(a) || !isPlainObject(b)) return false;
      return sameKeysEqual(a, b, () => node.values);
    case 'array':
      if (isEmptyCollection(a) && isEmptyCollection(b)) return true;
      if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
      return a.every((x, i) => semanticEqual(x, b[i], node.items));
    case 'object':
      if ((a === undefined || a === null) && (b === undefined || b === null)) return true;
      if (!isPlainObject(a) || !isPlainObject(b)) return false;
      return sameKeysEqual(a, b, (k) => node.properties.get(k));
    case 'int-or-string':
      if (node.quantity) return quantityEqual(a, b);
      return a === b;
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean':
      return a === b;
    default:
      return schemalessEqual(a, b);
  }
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function schemalessEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === undefined || a === null || (Array.isArray(a) && a.length === 0)) && (b === undefined || b === null || (Array.isArray(b) && b.length === 0))) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => schemalessEqual(x, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  return sameKeysEqual(a, b, () => undefined);
}

/** The structural node of a top-level field (`spec`) of a kind's schema. */
export function fieldNode(schema: z.ZodType, field: string): StructuralNode | undefined {
  const root = structuralOf(schema);
  return root.type === 'object' ? root.properties.get(field) : undefined;
}

/**
 * The `metadata.generation` policy of most built-in kinds with a generation (StatefulSet, Pod,
 * MutatingAdmissionPolicy, ...): 1 on create, one more whenever an update leaves `spec`
 * semantically different (`!apiequality.Semantic.DeepEqual(old.Spec, new.Spec)` in their
 * strategies' PrepareForUpdate).
 */
export function specGeneration(schema: z.ZodType): { readonly changed: (obj: Readonly<KubeObject>, old: Readonly<KubeObject>) => boolean } {
  let node: StructuralNode | undefined;
  return {
    changed(obj, old) {
      node ??= fieldNode(schema, 'spec');
      return !semanticEqual(obj['spec'], old['spec'], node);
    },
  };
}
