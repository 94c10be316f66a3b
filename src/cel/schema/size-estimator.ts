/**
 * How Kubernetes sizes the data a CRD rule reads (apiextensions compilation.go sizeEstimator):
 * follow the node's path from `self` (or `oldSelf`) through the declared types and answer
 * [0, MaxElements] of the type found there.
 */
import type { AstNode, SizeEstimator } from '../cost/estimator.js';
import type { Range } from '../cost/estimate.js';
import type { DeclType } from './decl-type.js';

/** A size estimator over a rule's declared root type. */
export function schemaSizeEstimator(root: DeclType): SizeEstimator {
  return {
    estimateSize(node: AstNode): Range | undefined {
      const path = node.path;
      if (!path || path.length === 0) return undefined;
      let cur: DeclType | undefined = root;
      for (const name of path.slice(1)) {
        if (!cur) return undefined;
        if (name === '@items' || name === '@values') cur = cur.elem;
        else if (name === '@keys') cur = cur.key;
        else cur = cur.fields?.get(name)?.type;
      }
      if (!cur) return undefined;
      return { min: 0n, max: BigInt(cur.maxElements) };
    },
  };
}
