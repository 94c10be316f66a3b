/**
 * `apiequality.Semantic.DeepEqual` over JSON objects: the equality Kubernetes' strategies and
 * update rules use to decide whether something changed. Go compares decoded structs, so what
 * counts as "the same" follows Go's types, read here from the kind's structural schema:
 * - a map or list that is empty equals an absent one (the forked `reflect.DeepEqual` behind
 *   `Semantic` treats a nil and an empty map or slice as equal), and so does an empty `[]byte`
 *   (a base64 string, `format: byte`);
 * - quantities compare by value (`Quantity.Cmp`), so `1000m` equals `1`, and times as instants;
 * - an absent struct is a nil pointer and differs from `{}`, an absent scalar from its zero
 *   value (optional struct and scalar fields are pointers in most Kubernetes types). The schema
 *   does not say which fields are not pointers (`hostNetwork`), so for those `false` and absent
 *   still count as different here, where Go sees the same zero value.
 */
import type { z } from 'zod';
import { compareQuantities, parseQuantity } from '../../schema/quantity.js';
import { structuralOf, type StructuralNode } from '../../schema/structural.js';
import type { KubeObject } from '../../schema/define-kind.js';

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
      if (node.format === 'byte' && !a && !b) return true;
      // metav1.Time and MicroTime compare as instants (`a.UTC() == b.UTC()`).
      if (node.format === 'date-time' && typeof a === 'string' && typeof b === 'string') return sameInstant(a, b);
      return a === b;
    case 'integer':
    case 'number':
    case 'boolean':
      return a === b;
    default:
      return schemalessEqual(a, b);
  }
}

function sameInstant(a: string, b: string): boolean {
  const ta = Date.parse(a);
  const tb = Date.parse(b);
  return Number.isNaN(ta) || Number.isNaN(tb) ? a === b : ta === tb && fraction(a) === fraction(b);
}

/** The sub-millisecond digits of a timestamp (Date keeps milliseconds only; MicroTime has microseconds). */
function fraction(t: string): string {
  const m = /\.(\d+)/.exec(t);
  return (m?.[1] ?? '').padEnd(9, '0').slice(3).replace(/0+$/, '');
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function schemalessEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a === undefined || a === null || (Array.isArray(a) && a.length === 0)) && (b === undefined || b === null || (Array.isArray(b) && b.length === 0)))
    return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => schemalessEqual(x, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  return sameKeysEqual(a, b, () => undefined);
}

/** The structural node of a field of a kind's schema, e.g. `fieldNode(Pod, 'spec')` for PodSpec. */
export function fieldNode(schema: z.ZodType, ...path: string[]): StructuralNode | undefined {
  return childNode(structuralOf(schema), ...path);
}

/**
 * `semanticEqual` at a field of a kind's schema, as the `equal` of a declared immutable field
 * (`ImmutableField`): `semanticEqualAt(ServiceCIDRSchema, 'spec', 'cidrs')`. The schema is given as
 * the function that builds it; it is built, and the structural node found, at the first
 * comparison, not when the kind is declared.
 */
export function semanticEqualAt(schema: () => z.ZodType, ...path: string[]): (a: unknown, b: unknown) => boolean {
  let node: StructuralNode | undefined;
  return (a, b) => semanticEqual(a, b, (node ??= fieldNode(schema(), ...path)));
}

/** The structural node below `node` at `path` (struct fields; `[]` steps into list items, `{}` into map values). */
export function childNode(node: StructuralNode | undefined, ...path: string[]): StructuralNode | undefined {
  let at = node;
  for (const step of path) {
    if (!at) return undefined;
    if (step === '[]') at = at.type === 'array' ? at.items : undefined;
    else if (step === '{}') at = at.type === 'map' ? at.values : undefined;
    else at = at.type === 'object' ? at.properties.get(step) : undefined;
  }
  return at;
}

/**
 * The `metadata.generation` policy of most built-in kinds with a generation (StatefulSet, Pod,
 * MutatingAdmissionPolicy, ...): 1 on create, one more whenever an update leaves `spec`
 * semantically different (`!apiequality.Semantic.DeepEqual(old.Spec, new.Spec)` in their
 * strategies' PrepareForUpdate). The schema, given as the function that builds it, is built at the
 * first update.
 */
export function specGeneration(schema: () => z.ZodType): { readonly changed: (obj: Readonly<KubeObject>, old: Readonly<KubeObject>) => boolean } {
  let node: StructuralNode | undefined;
  return {
    changed(obj, old) {
      node ??= fieldNode(schema(), 'spec');
      return !semanticEqual(obj['spec'], old['spec'], node);
    },
  };
}
