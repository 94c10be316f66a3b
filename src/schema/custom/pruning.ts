/**
 * Dropping the fields a custom resource's schema does not know, as apiextensions-apiserver does
 * (apiserver/schema/pruning/algorithm.go `PruneWithOptions`), reporting each dropped field's path
 * for `fieldValidation=Warn|Strict`; and dropping `null`s the schema does not allow
 * (apiserver/schema/defaulting/prunenulls.go `PruneNonNullableNullsWithoutDefaults`).
 *
 * Pruning follows the schema: a property or a value of `additionalProperties` is kept and pruned
 * in turn; any other member is dropped. Under `x-kubernetes-preserve-unknown-fields` unknown
 * members are kept (but the known ones are still pruned, and so are items of arrays, which Go
 * walks without pruning their own unknown members); `apiVersion`, `kind` and `metadata` of an
 * embedded resource (and of the resource itself) are left to the ObjectMeta coercion. A value
 * where the schema expects none (an object inside a string field) loses every member.
 *
 * Paths are written as Go writes them: `spec.foo`, `spec.list[0].foo`, `spec.map.key.foo`, sorted
 * in byte order.
 */
import { compareGoStrings } from '../../util/go-format.js';
import { ContainerEdit, definedKeys, isJsonMap } from './copy-on-write.js';
import type { CustomSchemaNode } from './node.js';

const META_FIELDS = new Set(['apiVersion', 'kind', 'metadata']);

const joinKey = (path: string, key: string) => (path === '' ? key : `${path}.${key}`);

/** The walk's state: the unknown field paths found so far. */
interface PruneWalk {
  readonly unknown: string[];
}

/** A value where the schema has nothing: objects lose every member; arrays are walked (iteratively: any depth). */
function pruneUntyped(x: unknown, path: string, walk: PruneWalk): unknown {
  if (isJsonMap(x)) {
    const keys = definedKeys(x);
    if (keys.length === 0) return x;
    for (const k of keys) walk.unknown.push(joinKey(path, k));
    return {};
  }
  if (!Array.isArray(x)) return x;
  interface Frame {
    readonly src: unknown[];
    readonly edit: ContainerEdit<unknown[]>;
    i: number;
    readonly path: string;
  }
  const stack: Frame[] = [{ src: x, edit: new ContainerEdit(x), i: 0, path }];
  let finished: unknown[] | undefined;
  for (;;) {
    const f = stack[stack.length - 1]!;
    if (finished !== undefined) {
      f.edit.set(f.i - 1, finished);
      finished = undefined;
    }
    if (f.i >= f.src.length) {
      stack.pop();
      if (stack.length === 0) return f.edit.result;
      finished = f.edit.result;
      continue;
    }
    const idx = f.i++;
    const v = f.src[idx];
    const itemPath = `${f.path}[${idx}]`;
    if (Array.isArray(v)) stack.push({ src: v, edit: new ContainerEdit(v), i: 0, path: itemPath });
    else if (isJsonMap(v)) f.edit.set(idx, pruneUntyped(v, itemPath, walk));
  }
}

function prune(x: unknown, s: CustomSchemaNode | undefined, path: string, walk: PruneWalk, resourceRoot: boolean): unknown {
  if (!s) return pruneUntyped(x, path, walk);
  if (s.preserveUnknownFields) return skipPrune(x, s, path, walk, resourceRoot);
  const embedded = s.embeddedResource || resourceRoot;
  if (isJsonMap(x)) {
    const edit = new ContainerEdit(x);
    for (const k of definedKeys(x)) {
      if (embedded && META_FIELDS.has(k)) continue;
      const childPath = joinKey(path, k);
      const prop = s.properties?.get(k);
      if (prop) edit.set(k, prune(x[k], prop, childPath, walk, false));
      else if (s.additionalProperties) edit.set(k, prune(x[k], s.additionalProperties.node, childPath, walk, false));
      else {
        if (!META_FIELDS.has(k) || path !== '') walk.unknown.push(childPath);
        edit.delete(k);
      }
    }
    return edit.result;
  }
  if (Array.isArray(x)) {
    const edit = new ContainerEdit(x);
    x.forEach((v, i) => edit.set(i, prune(v, s.items, `${path}[${i}]`, walk, false)));
    return edit.result;
  }
  return x;
}

/** Under `x-kubernetes-preserve-unknown-fields`: known members are pruned, unknown ones kept. */
function skipPrune(x: unknown, s: CustomSchemaNode | undefined, path: string, walk: PruneWalk, resourceRoot: boolean): unknown {
  if (!s) return x;
  const embedded = s.embeddedResource || resourceRoot;
  if (isJsonMap(x)) {
    const edit = new ContainerEdit(x);
    for (const k of definedKeys(x)) {
      if (embedded && META_FIELDS.has(k)) continue;
      const prop = s.properties?.get(k);
      if (prop) edit.set(k, prune(x[k], prop, joinKey(path, k), walk, false));
      else if (s.additionalProperties) edit.set(k, prune(x[k], s.additionalProperties.node, joinKey(path, k), walk, false));
    }
    return edit.result;
  }
  if (Array.isArray(x)) {
    const edit = new ContainerEdit(x);
    x.forEach((v, i) => edit.set(i, skipPrune(v, s.items, `${path}[${i}]`, walk, false)));
    return edit.result;
  }
  return x;
}

/** A resource without a schema (Go substitutes an empty one): every member but apiVersion, kind and metadata goes. */
function pruneRootWithoutSchema(x: unknown, walk: PruneWalk): unknown {
  if (!isJsonMap(x)) return pruneUntyped(x, '', walk);
  const edit = new ContainerEdit(x);
  for (const k of definedKeys(x)) {
    if (META_FIELDS.has(k)) continue;
    walk.unknown.push(k);
    edit.delete(k);
  }
  return edit.result;
}

/** What pruning dropped. */
export interface PruneOutcome {
  /** The pruned value (the input itself when nothing was dropped). */
  readonly value: unknown;
  /** Paths of the dropped fields, sorted in byte order (`spec.foo`, `spec.list[0].bar`). */
  readonly unknownFields: string[];
}

/**
 * Go's `PruneWithOptions(obj, schema, isResourceRoot)`: drops unknown fields. At a resource root
 * `apiVersion`, `kind` and `metadata` are kept (the root is treated as an embedded resource).
 */
export function pruneUnknownFields(value: unknown, schema: CustomSchemaNode | undefined, isResourceRoot: boolean): PruneOutcome {
  const walk: PruneWalk = { unknown: [] };
  const pruned = !schema && isResourceRoot ? pruneRootWithoutSchema(value, walk) : prune(value, schema, '', walk, isResourceRoot);
  walk.unknown.sort(compareGoStrings);
  return { value: pruned, unknownFields: walk.unknown };
}

function schemaForField(s: CustomSchemaNode, key: string): CustomSchemaNode | undefined {
  return s.properties?.get(key) ?? s.additionalProperties?.node;
}

/**
 * Go's `PruneNonNullableNullsWithoutDefaults`: a `null` member whose schema is not nullable and has
 * no default is removed (a defaulted one is left for defaulting to fill).
 */
export function pruneNonNullableNulls(x: unknown, s: CustomSchemaNode | undefined): unknown {
  if (!s) return x; // below an unknown schema nothing can be removed
  if (isJsonMap(x)) {
    const edit = new ContainerEdit(x);
    for (const k of definedKeys(x)) {
      const schema = schemaForField(s, k);
      const v = x[k];
      if (v === null && schema && !schema.nullable && schema.default === undefined) edit.delete(k);
      else edit.set(k, pruneNonNullableNulls(v, schema));
    }
    return edit.result;
  }
  if (Array.isArray(x)) {
    const edit = new ContainerEdit(x);
    x.forEach((v, i) => edit.set(i, pruneNonNullableNulls(v, s.items)));
    return edit.result;
  }
  return x;
}
