/**
 * Compiling a CRD version's `openAPIV3Schema` into {@link CustomSchemaNode}s, once: the
 * structural view (apiserver/schema/convert.go `NewStructural`) with each position's validator,
 * then the defaults pruned as the API server prunes them when it starts serving the CRD
 * (apiserver/schema/defaulting/prune.go `PruneDefaults`: each default is placed in an object
 * around it, its embedded metadata coerced and unknown fields pruned, and read back; a default
 * pruned away entirely is no default).
 */
import { cloneJsonDocument } from '../../util/json-clone.js';
import type { StructuralNode } from '../structural.js';
import { isJsonMap } from './copy-on-write.js';
import { coerceEmbeddedResources } from './embedded.js';
import type { AdditionalProperties, CustomSchemaNode } from './node.js';
import { PropsReader, type JsonSchemaProps } from './props.js';
import { pruneUnknownFields } from './pruning.js';
import { compileValidator, type ValidatorNode } from './validator.js';

/**
 * How deep a schema may nest (properties, items, additionalProperties and logical clauses
 * together). Kubernetes sets no such limit; memkube's walks recurse along the schema, so a
 * schema is refused beyond a depth no real CRD comes near.
 */
export const MAX_SCHEMA_DEPTH = 500;

/** A schema memkube cannot compile (nested deeper than {@link MAX_SCHEMA_DEPTH}). */
export class CustomSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CustomSchemaError';
  }
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function checkDepth(props: JsonSchemaProps, depth: number): void {
  // Iterative, so the check itself cannot exhaust the stack on a hostile schema.
  const stack: Array<[JsonSchemaProps, number]> = [[props, depth]];
  while (stack.length) {
    const [p, d] = stack.pop()!;
    if (d > MAX_SCHEMA_DEPTH) throw new CustomSchemaError(`the schema nests deeper than ${MAX_SCHEMA_DEPTH} levels`);
    const r = new PropsReader(p);
    for (const [, sub] of r.properties()) stack.push([sub, d + 1]);
    for (const name of ['items', 'additionalProperties', 'not']) {
      const sub = r.schema(name);
      if (sub) stack.push([sub, d + 1]);
    }
    for (const name of ['allOf', 'anyOf', 'oneOf']) for (const sub of r.schemas(name)) stack.push([sub, d + 1]);
  }
}

function compileNode(props: JsonSchemaProps): Mutable<CustomSchemaNode> {
  const r = new PropsReader(props);
  let properties: Map<string, CustomSchemaNode> | undefined;
  if (r.has('properties')) {
    properties = new Map();
    for (const [k, p] of r.properties()) properties.set(k, compileNode(p));
  }
  const itemsProps = r.schema('items');
  const items = itemsProps ? compileNode(itemsProps) : undefined;
  let additionalProperties: AdditionalProperties | undefined;
  const ap = r.raw('additionalProperties');
  const apProps = r.schema('additionalProperties');
  if (apProps) additionalProperties = { node: compileNode(apProps), allows: true };
  else if (typeof ap === 'boolean') additionalProperties = { node: undefined, allows: ap };
  const childValidators = properties ? new Map<string, ValidatorNode>([...properties].map(([k, n]) => [k, n.validator])) : undefined;
  const validator = compileValidator(props, {
    properties: childValidators,
    items: items?.validator,
    additionalProperties: additionalProperties?.node?.validator,
  });
  const def = r.raw('default');
  return {
    type: r.string('type'),
    nullable: r.bool('nullable'),
    default: def === undefined || def === null ? undefined : cloneJsonDocument(def),
    properties,
    additionalProperties,
    items,
    preserveUnknownFields: r.bool('x-kubernetes-preserve-unknown-fields'),
    embeddedResource: r.bool('x-kubernetes-embedded-resource'),
    intOrString: r.bool('x-kubernetes-int-or-string'),
    listType: r.string('x-kubernetes-list-type') || undefined,
    listMapKeys: r.strings('x-kubernetes-list-map-keys'),
    mapType: r.string('x-kubernetes-map-type') || undefined,
    props,
    validator,
  };
}

/** A step from the root to a node: a property (`*` for additionalProperties) or an item. */
type Step = { readonly key: string } | { readonly item: true };

function wrap(value: unknown, steps: readonly Step[]): unknown {
  let x = value;
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    if ('key' in step) {
      const o: Record<string, unknown> = {};
      Object.defineProperty(o, step.key, { value: x, enumerable: true, writable: true, configurable: true });
      x = o;
    } else x = [x];
  }
  return x;
}

function unwrap(root: unknown, steps: readonly Step[]): unknown {
  let x = root;
  for (const step of steps) {
    if ('key' in step) {
      if (!isJsonMap(x) || !Object.hasOwn(x, step.key)) return undefined;
      x = x[step.key];
    } else {
      if (!Array.isArray(x) || x.length === 0) return undefined;
      x = x[0];
    }
  }
  return x;
}

/** Go's `PruneDefaults`: every default as it would end up inside a resource. */
function pruneDefaults(root: CustomSchemaNode, objectMeta: StructuralNode): void {
  const stack: Array<[Mutable<CustomSchemaNode>, Step[]]> = [[root as Mutable<CustomSchemaNode>, []]];
  while (stack.length) {
    const [node, steps] = stack.pop()!;
    if (node.default !== undefined) {
      const surrounding = wrap(cloneJsonDocument(node.default), steps);
      // The root default must be an object; Go refuses to serve otherwise, the CRD's validation refuses it first.
      if (isJsonMap(surrounding)) {
        const coerced = coerceEmbeddedResources(surrounding, root, { objectMeta, dropInvalidFields: true, isResourceRoot: true }).value;
        const pruned = pruneUnknownFields(coerced, root, true).value;
        const back = unwrap(pruned, steps);
        node.default = back === null ? undefined : back;
      }
    }
    if (node.additionalProperties?.node) stack.push([node.additionalProperties.node as Mutable<CustomSchemaNode>, [...steps, { key: '*' }]]);
    if (node.items) stack.push([node.items as Mutable<CustomSchemaNode>, [...steps, { item: true }]]);
    for (const [k, p] of node.properties ?? []) stack.push([p as Mutable<CustomSchemaNode>, [...steps, { key: k }]]);
  }
}

/**
 * Compiles a version's `openAPIV3Schema` (already validated as structural); `objectMeta` is the
 * structural schema of `metav1.ObjectMeta`, for embedded resources' metadata.
 * Throws {@link CustomSchemaError} for a schema nested beyond {@link MAX_SCHEMA_DEPTH}.
 */
export function compileSchemaTree(props: JsonSchemaProps, objectMeta: StructuralNode): CustomSchemaNode {
  checkDepth(props, 0);
  const root = compileNode(props);
  pruneDefaults(root, objectMeta);
  return root;
}
