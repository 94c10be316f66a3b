/**
 * Go's zero values for missing required fields, so that rules written against the generated types
 * see an object the way Kubernetes' validation (which works on decoded Go structs) sees it.
 */
import type { z } from 'zod';
import type { KubeObject } from '../../schema/define-kind.js';
import { structuralOf, type StructuralNode } from '../../schema/structural.js';

function zeroOf(node: StructuralNode): unknown {
  switch (node.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
    case 'int-or-string':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return {};
  }
}

function fill(value: unknown, node: StructuralNode): void {
  if (value === null || typeof value !== 'object') return;
  if (node.type === 'array' && Array.isArray(value)) {
    for (const item of value) fill(item, node.items);
  } else if (node.type === 'map' && !Array.isArray(value)) {
    for (const item of Object.values(value)) fill(item, node.values);
  } else if (node.type === 'object' && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>;
    for (const r of node.required) if (obj[r] === undefined || obj[r] === null) obj[r] = zeroOf(node.properties.get(r)!);
    for (const [k, child] of node.properties) if (obj[k] !== undefined) fill(obj[k], child);
  }
}

/**
 * A copy of `obj` in which every missing required field holds its Go zero value, so that rules
 * written against the generated types see what Kubernetes' validation sees.
 */
export function withZeroValues<T extends KubeObject>(obj: T, schema: z.ZodType): T {
  const copy = structuredClone(obj);
  fill(copy, structuralOf(schema));
  return copy;
}
