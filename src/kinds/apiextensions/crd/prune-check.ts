/**
 * Whether pruning would change a value (apiextensions-apiserver/pkg/apiserver/schema/pruning
 * algorithm.go `Prune`): fields the schema does not specify are dropped, except under
 * `x-kubernetes-preserve-unknown-fields` and the `apiVersion`, `kind` and `metadata` of an embedded
 * resource. Used to refuse a `default` that would not survive pruning. Only answers yes or no: the
 * value is never changed.
 */
import type { JSONSchemaProps } from '../../types/apiextensions-v1.js';
import { additionalProperties, isObject, itemsSchema, property } from './schema-access.js';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

const embedded = (s: JSONSchemaProps): boolean => s['x-kubernetes-embedded-resource'] === true;

/** The schema a map member falls under: its property, else the additionalProperties schema; `null` when the member is unknown. */
function memberSchema(s: JSONSchemaProps, k: string): JSONSchemaProps | undefined | null {
  const p = property(s, k);
  if (p) return p;
  const ap = additionalProperties(s);
  return ap ? ap.schema : null;
}

/** Whether pruning `value` under `s` (undefined: no schema) would drop something. */
export function wouldPrune(value: unknown, s: JSONSchemaProps | undefined): boolean {
  if (s && s['x-kubernetes-preserve-unknown-fields'] === true) return wouldPruneKept(value, s);
  if (Array.isArray(value)) {
    const items = s ? itemsSchema(s) : undefined;
    return value.some((v) => wouldPrune(v, items));
  }
  if (!isObject(value)) return false;
  if (!s) return Object.keys(value).length > 0;
  for (const [k, v] of Object.entries(value)) {
    if (embedded(s) && META_FIELDS.has(k)) continue;
    const sub = memberSchema(s, k);
    if (sub === null) return true;
    if (wouldPrune(v, sub)) return true;
  }
  return false;
}

/** `skipPrune`: unknown fields stay, known ones are pruned by their own schema. */
function wouldPruneKept(value: unknown, s: JSONSchemaProps): boolean {
  if (Array.isArray(value)) {
    const items = itemsSchema(s);
    return items ? value.some((v) => wouldPruneKept(v, items)) : false;
  }
  if (!isObject(value)) return false;
  for (const [k, v] of Object.entries(value)) {
    if (embedded(s) && META_FIELDS.has(k)) continue;
    const sub = memberSchema(s, k);
    if (sub !== null && wouldPrune(v, sub)) return true;
  }
  return false;
}
