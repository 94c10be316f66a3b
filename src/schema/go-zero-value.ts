/**
 * Go's zero values of the fields a structural schema describes, for code that must see an object
 * as Kubernetes does once it is decoded into its Go type.
 */
import type { StructuralNode } from './structural.js';

/**
 * The zero value of a Go scalar field (`""`, `0`, `false`; `null` for a time, as a zero
 * `metav1.Time` marshals), or `undefined` when the node is not a scalar.
 */
export function goScalarZeroValue(node: StructuralNode): string | number | boolean | null | undefined {
  switch (node.type) {
    case 'string':
      return node.format === 'date-time' ? null : '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    default:
      return undefined;
  }
}

/**
 * Go's zero value for a JSON `null` in a list item or map value of this schema: `""`, `0`,
 * `false`, `{}` for structs and maps, `null` for lists, times (a zero `metav1.Time` marshals as
 * null) and anything else.
 */
export function goZeroValue(node: StructuralNode): unknown {
  if (node.type === 'object' || node.type === 'map') return {};
  return goScalarZeroValue(node) ?? null;
}
