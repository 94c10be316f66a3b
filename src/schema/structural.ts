/**
 * The structural schema: the zod schema of a kind version turned (once, through its JSON Schema)
 * into a small tree that the decoder, unknown-field detection, strategic merge and server-side
 * apply all walk. It keeps what those need: types, required fields and the `x-kubernetes-*` facts.
 */
import { z } from 'zod';
import { getOwn } from '../util/own.js';
import { keepInt32 } from './zod-openapi.js';
import { NotWrittenHere, structuralJsonOf } from './zod-structural-json.js';

/**
 * The `x-kubernetes-*` facts that patching and apply read.
 * @category Defining kinds
 */
export interface ListAndPatchFacts {
  patchStrategy?: string;
  patchMergeKey?: string;
  listType?: 'atomic' | 'set' | 'map';
  listMapKeys?: string[];
  mapType?: 'atomic' | 'granular';
}

interface NodeBase extends ListAndPatchFacts {
  /** The definition this node came from, e.g. `io.k8s.api.core.v1.Container`. */
  readonly id?: string;
}

/**
 * A struct: known properties only.
 * @category Defining kinds
 */
export interface StructNode extends NodeBase {
  readonly type: 'object';
  readonly properties: ReadonlyMap<string, StructuralNode>;
  readonly required: ReadonlySet<string>;
}
/**
 * A map from string keys to values of one schema.
 * @category Defining kinds
 */
export interface MapNode extends NodeBase {
  readonly type: 'map';
  readonly values: StructuralNode;
}
/**
 * A list.
 * @category Defining kinds
 */
export interface ArrayNode extends NodeBase {
  readonly type: 'array';
  readonly items: StructuralNode;
}
/**
 * A scalar; `format` is kept for `byte`, `date-time`, `int32`, `int64`.
 * @category Defining kinds
 */
export interface ScalarNode extends NodeBase {
  readonly type: 'string' | 'integer' | 'number' | 'boolean';
  readonly format?: string;
  readonly enum?: readonly unknown[];
}
/**
 * An integer or a string (IntOrString); `quantity` when it is a `resource.Quantity`.
 * @category Defining kinds
 */
export interface IntOrStringNode extends NodeBase {
  readonly type: 'int-or-string';
  readonly quantity: boolean;
}
/**
 * Anything (RawExtension, FieldsV1, preserve-unknown-fields).
 * @category Defining kinds
 */
export interface AnyNode extends NodeBase {
  readonly type: 'any';
}

/**
 * One node of a structural schema.
 * @category Defining kinds
 */
export type StructuralNode = StructNode | MapNode | ArrayNode | ScalarNode | IntOrStringNode | AnyNode;

type JsonSchema = Record<string, unknown>;

function facts(s: JsonSchema): ListAndPatchFacts {
  const f: ListAndPatchFacts = {};
  if (typeof s['x-kubernetes-patch-strategy'] === 'string') f.patchStrategy = s['x-kubernetes-patch-strategy'];
  if (typeof s['x-kubernetes-patch-merge-key'] === 'string') f.patchMergeKey = s['x-kubernetes-patch-merge-key'];
  const lt = s['x-kubernetes-list-type'];
  if (lt === 'atomic' || lt === 'set' || lt === 'map') f.listType = lt;
  if (Array.isArray(s['x-kubernetes-list-map-keys'])) f.listMapKeys = s['x-kubernetes-list-map-keys'] as string[];
  const mt = s['x-kubernetes-map-type'];
  if (mt === 'atomic' || mt === 'granular') f.mapType = mt;
  return f;
}

/** Builds a structural schema from a JSON Schema document with `$defs` (as `z.toJSONSchema` emits). */
export function structuralFromJsonSchema(root: JsonSchema): StructuralNode {
  const defs = (root.$defs ?? {}) as Record<string, JsonSchema>;
  const byRef = new Map<string, StructuralNode>();

  const build = (s: JsonSchema, extra: ListAndPatchFacts = {}, id?: string): StructuralNode => {
    if (typeof s.$ref === 'string') {
      const name = decodeURIComponent(s.$ref.replace(/^#\/\$defs\//, ''));
      const local = { ...facts(s), ...extra };
      const target = getOwn(defs, name) as JsonSchema | undefined;
      if (!target) return { type: 'any', ...local };
      // Definitions are shared: build each once; properties attach per use through a wrapper.
      let node = byRef.get(name);
      if (!node) {
        const placeholder = { type: 'object', properties: new Map(), required: new Set() } as StructNode;
        byRef.set(name, placeholder);
        node = build(target, {}, (target.id as string | undefined) ?? name);
        Object.assign(placeholder, node);
        node = placeholder;
        byRef.set(name, node);
      }
      return Object.keys(local).length ? ({ ...node, ...local } as StructuralNode) : node;
    }
    const f = { ...facts(s), ...extra };
    const ident = (s.id as string | undefined) ?? id;
    const withId = ident ? { id: ident } : {};
    if (s['x-kubernetes-int-or-string'] === true) {
      return { type: 'int-or-string', quantity: ident?.endsWith('resource.Quantity') ?? false, ...withId, ...f };
    }
    if (s['x-kubernetes-preserve-unknown-fields'] === true) return { type: 'any', ...withId, ...f };
    const anyOf = (s.anyOf ?? s.oneOf) as JsonSchema[] | undefined;
    if (anyOf) {
      // Only nullable wrappers are expected here; take the first non-null branch.
      const branch = anyOf.find((b) => b.type !== 'null');
      return branch ? build(branch, f, ident) : { type: 'any', ...withId, ...f };
    }
    const type = s.type;
    switch (type) {
      case 'object': {
        if (s.properties && typeof s.properties === 'object') {
          const properties = new Map<string, StructuralNode>();
          for (const [name, p] of Object.entries(s.properties as Record<string, JsonSchema>)) properties.set(name, build(p));
          return { type: 'object', properties, required: new Set((s.required as string[] | undefined) ?? []), ...withId, ...f };
        }
        const ap = s.additionalProperties;
        if (ap && typeof ap === 'object') return { type: 'map', values: build(ap as JsonSchema), ...withId, ...f };
        return { type: 'any', ...withId, ...f };
      }
      case 'array':
        return { type: 'array', items: s.items ? build(s.items as JsonSchema) : { type: 'any' }, ...withId, ...f };
      case 'string':
      case 'integer':
      case 'number':
      case 'boolean': {
        const format = typeof s.format === 'string' ? s.format : undefined;
        const node: ScalarNode = { type, ...withId, ...f, ...(format ? { format } : {}), ...(Array.isArray(s.enum) ? { enum: s.enum } : {}) };
        if (type === 'integer' && !format) {
          const max = s.maximum;
          return { ...node, format: max === 2147483647 ? 'int32' : 'int64' };
        }
        return node;
      }
      default:
        if (Array.isArray(type)) {
          // zod prints z.union([z.string(), z.number()]) as type: [...] when not marked int-or-string.
          return { type: 'any', ...withId, ...f };
        }
        return { type: 'any', ...withId, ...f };
    }
  };

  return build(root);
}

const cache = new WeakMap<z.ZodType, StructuralNode>();

/** The structural schema of a zod schema's JSON Schema, as `z.toJSONSchema` writes it. */
export function structuralOfJsonSchema(schema: z.ZodType): StructuralNode {
  return structuralFromJsonSchema(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', reused: 'inline', override: keepInt32 }) as JsonSchema);
}

/**
 * The structural schema of a zod schema (computed once per schema): from the part of its JSON
 * Schema written straight from the zod definitions where that covers the schema (the built-in
 * kinds'), else from zod's own `toJSONSchema`; the two give the same tree.
 */
export function structuralOf(schema: z.ZodType): StructuralNode {
  let node = cache.get(schema);
  if (!node) {
    try {
      node = structuralFromJsonSchema(structuralJsonOf(schema));
    } catch (e) {
      if (!(e instanceof NotWrittenHere)) throw e;
      node = structuralOfJsonSchema(schema);
    }
    cache.set(schema, node);
  }
  return node;
}
