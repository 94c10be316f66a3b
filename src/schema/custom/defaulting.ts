/**
 * Defaulting a custom resource from its schema's `default`s, as apiextensions-apiserver does on
 * every decode, from a request or from storage (apiserver/schema/defaulting/algorithm.go
 * `Default`).
 *
 * At each object: first every property that is absent, or `null` while not nullable, gets its
 * default; then every member is defaulted in turn (properties by their schema, other members by
 * `additionalProperties`, where a non-nullable `null` value takes the values' default). At each
 * array, a non-nullable `null` item takes the items' default, then every item is defaulted. So a
 * default is itself defaulted further down, and defaults apply under
 * `x-kubernetes-preserve-unknown-fields` too, wherever the schema names properties.
 *
 * Defaulting twice gives what defaulting once gave. Each use gets its own copy of a default.
 */
import { cloneJsonDocument } from '../../util/json-clone.js';
import { ContainerEdit, definedKeys, isJsonMap } from './copy-on-write.js';
import type { CustomSchemaNode } from './node.js';

const isNonNullableNull = (x: unknown, s: CustomSchemaNode | undefined): s is CustomSchemaNode => x === null && s !== undefined && !s.nullable;

/** A fresh copy of a node's default; `null` (Go's nil) when it has none. */
function defaultOf(s: CustomSchemaNode): unknown {
  return s.default === undefined ? null : cloneJsonDocument(s.default);
}

/** Go's `Default(x, s)`, copy-on-write: the input is never changed; unchanged parts are shared. */
export function applyDefaults(x: unknown, s: CustomSchemaNode | undefined): unknown {
  if (!s) return x;
  if (isJsonMap(x)) {
    const edit = new ContainerEdit(x);
    if (s.properties) {
      for (const [k, prop] of s.properties) {
        if (prop.default === undefined) continue;
        const current = Object.hasOwn(x, k) ? x[k] : undefined;
        if (current === undefined || isNonNullableNull(current, prop)) edit.set(k, defaultOf(prop));
      }
    }
    const filled = edit.result;
    for (const k of definedKeys(filled)) {
      const prop = s.properties?.get(k);
      if (prop) {
        edit.set(k, applyDefaults(filled[k], prop));
      } else if (s.additionalProperties) {
        const values = s.additionalProperties.node;
        let v = filled[k];
        if (isNonNullableNull(v, values)) {
          v = defaultOf(values);
          edit.set(k, v);
        }
        edit.set(k, applyDefaults(v, values));
      }
    }
    return edit.result;
  }
  if (Array.isArray(x)) {
    const edit = new ContainerEdit(x);
    const items = s.items;
    x.forEach((item, i) => {
      const v = isNonNullableNull(item, items) ? defaultOf(items) : item;
      edit.set(i, applyDefaults(v, items));
    });
    return edit.result;
  }
  return x;
}
