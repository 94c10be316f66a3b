/**
 * A custom resource schema as the engine's structural schema (schema/structural.ts), which server-
 * side apply, managedFields and the decoder walk for built-in kinds too: structs with their
 * properties, maps, lists with `x-kubernetes-list-type`/`-list-map-keys`, scalars, int-or-string,
 * and `any` for `x-kubernetes-preserve-unknown-fields` (whose members apply then deduces from the
 * values, as structured-merge-diff does for a schema it cannot see into).
 *
 * The resource itself and every embedded resource get `apiVersion` and `kind` (strings) and
 * `metadata` (ObjectMeta) when their schema does not declare them, as the OpenAPI that the API
 * server publishes for a CRD has them.
 */
import type { ListAndPatchFacts, StructuralNode } from '../structural.js';
import type { CustomSchemaNode } from './node.js';
import { PropsReader } from './props.js';

function facts(node: CustomSchemaNode): ListAndPatchFacts {
  const f: ListAndPatchFacts = {};
  const lt = node.listType;
  if (lt === 'atomic' || lt === 'set' || lt === 'map') f.listType = lt;
  if (node.listMapKeys.length) f.listMapKeys = [...node.listMapKeys];
  const mt = node.mapType;
  if (mt === 'atomic' || mt === 'granular') f.mapType = mt;
  return f;
}

/** The node, with its `default` attached where apply reads map-list key defaults from. */
function withDefault(s: StructuralNode, node: CustomSchemaNode): StructuralNode {
  return node.default === undefined ? s : (Object.assign({}, s, { default: node.default }) as StructuralNode);
}

const ANY: StructuralNode = { type: 'any' };
const STRING: StructuralNode = { type: 'string' };

/** Converts a compiled custom schema node (`resource`: the resource's root) to a structural node. */
export function toStructuralNode(node: CustomSchemaNode, objectMeta: StructuralNode | undefined, resource: boolean): StructuralNode {
  const f = facts(node);
  if (node.intOrString) return withDefault({ type: 'int-or-string', quantity: false, ...f }, node);
  if (node.preserveUnknownFields) return withDefault({ type: 'any', ...f }, node);
  const embedded = node.embeddedResource || resource;
  switch (node.type) {
    case 'object': {
      if (!node.properties && !embedded && node.additionalProperties) {
        const values = node.additionalProperties.node ? toStructuralNode(node.additionalProperties.node, objectMeta, false) : ANY;
        return withDefault({ type: 'map', values, ...f }, node);
      }
      const properties = new Map<string, StructuralNode>();
      for (const [k, p] of node.properties ?? []) properties.set(k, toStructuralNode(p, objectMeta, false));
      if (embedded) {
        if (!properties.has('apiVersion')) properties.set('apiVersion', STRING);
        if (!properties.has('kind')) properties.set('kind', STRING);
        if (!properties.has('metadata')) properties.set('metadata', objectMeta ?? ANY);
      }
      return withDefault({ type: 'object', properties, required: new Set(new PropsReader(node.props).strings('required')), ...f }, node);
    }
    case 'array':
      return withDefault({ type: 'array', items: node.items ? toStructuralNode(node.items, objectMeta, false) : ANY, ...f }, node);
    case 'string':
    case 'integer':
    case 'number':
    case 'boolean': {
      const r = new PropsReader(node.props);
      const format = r.string('format');
      const enumValues = r.raw('enum');
      return withDefault(
        {
          type: node.type,
          ...f,
          ...(format ? { format } : {}),
          ...(Array.isArray(enumValues) ? { enum: enumValues } : {}),
        },
        node,
      );
    }
    default:
      return withDefault({ type: 'any', ...f }, node);
  }
}
