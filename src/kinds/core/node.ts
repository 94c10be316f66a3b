/** Node (core v1, cluster-scoped). */
import { defineKind } from '../../schema/define-kind.js';
import { Node as NodeSchema } from '../types/core-v1.js';

/** A Node object. */
export type Node = NodeSchema;

/** Node. */
export const NodeKind = defineKind<Node>({
  group: '',
  kind: 'Node',
  plural: 'nodes',
  shortNames: ['no'],
  scope: 'Cluster',
  versions: [{ name: 'v1', schema: NodeSchema, served: true, storage: true }],
  statusSubresource: true,
  selectableFields: { 'spec.unschedulable': (n) => String(n.spec?.unschedulable ?? false) },
});
