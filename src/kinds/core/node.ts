/** Node (core v1, cluster-scoped). */
import { badRequest } from '../../machinery/errors.js';
import { defineKind } from '../../schema/define-kind.js';
import { Node as NodeSchema } from '../types/core-v1.js';
import { withZeroValues } from '../shared/zero-values.js';
import { applyNodeDefaults, prepareNodeCreate, prepareNodeUpdate, validateNode, validateNodeUpdate } from './node/rules.js';
import { QuantityDecodeError } from '../shared/resource-lists.js';
import { nodeProxy } from './node/proxy.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A Node object. */
export type Node = NodeSchema;

/** Decode-time defaults; a malformed quantity fails the request as Kubernetes' decoder does (400). */
function defaultNode(node: Node): void {
  try {
    applyNodeDefaults(node);
  } catch (e) {
    if (e instanceof QuantityDecodeError) throw badRequest(`Node in version "v1" cannot be handled as a Node: ${e.message}`);
    throw e;
  }
}

/** Node: defaults, the not-ready taint of TaintNodesByCondition admission, `ValidateNode` and `ValidateNodeUpdate`. */
export const NodeKind = defineKind<Node>({
  group: '',
  kind: 'Node',
  plural: 'nodes',
  shortNames: ['no'],
  scope: 'Cluster',
  // No generation: pkg/registry/core/node/strategy.go never sets it.
  generation: false,
  versions: [lazyVersion('v1', NodeSchema, { storage: true })],
  connectSubresources: { proxy: nodeProxy },
  printerColumns: [
    {
      name: 'Status',
      type: 'string',
      description: 'The status of the node',
      value: (n) => {
        const ready = (n.status?.conditions ?? []).find((c) => c.type === 'Ready');
        const base = !ready ? 'Unknown' : ready.status === 'True' ? 'Ready' : ready.status === 'False' ? 'NotReady' : 'Unknown';
        return n.spec?.unschedulable ? `${base},SchedulingDisabled` : base;
      },
    },
    {
      name: 'Roles',
      type: 'string',
      description: 'The roles of the node',
      value: (n) =>
        Object.keys(n.metadata?.labels ?? {})
          .map((k) => /^node-role\.[^/]+\/(.+)$/.exec(k)?.[1])
          .filter((r): r is string => !!r)
          .sort()
          .join(',') || '<none>',
    },
    { name: 'Age', type: 'date', value: (n) => n.metadata?.creationTimestamp },
    { name: 'Version', type: 'string', description: 'Kubelet Version reported by the node.', value: (n) => n.status?.nodeInfo?.kubeletVersion ?? '' },
  ],
  statusSubresource: true,
  resetStatusOnCreate: false,
  // Node rules check required fields in code, with Kubernetes' own paths and messages.
  schemaRequired: false,
  strategy: {
    prepareForCreate(node, ctx) {
      prepareNodeCreate(node, ctx.reservedDomain);
    },
    prepareForUpdate(node, old) {
      prepareNodeUpdate(node, old);
    },
    defaults(node) {
      defaultNode(node);
    },
    validate(node, ctx) {
      // Node status writes run `ValidateNodeUpdate` only.
      if (ctx.subresource === 'status') return [];
      return validateNode(withZeroValues(node, NodeSchema()));
    },
    validateUpdate(node, old) {
      return validateNodeUpdate(withZeroValues(node, NodeSchema()), withZeroValues(old as Node, NodeSchema()));
    },
  },
  selectableFields: { 'spec.unschedulable': (n) => String(n.spec?.unschedulable ?? false) },
  metadataFieldSelectors: ['metadata.name'],
});
