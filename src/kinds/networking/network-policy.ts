/** NetworkPolicy (networking.k8s.io/v1, namespaced). */
import { defineKind } from '../../schema/define-kind.js';
import { labelSelectorFromObject } from '../../selectors/label-selector.js';
import { specGeneration } from '../shared/semantic-equal.js';
import { NetworkPolicy as NetworkPolicySchema } from '../types/networking-v1.js';
import { defaultNetworkPolicy, existingCIDRs, validateNetworkPolicySpec } from './network-policy/validation.js';
import { lazyVersion } from '../shared/lazy-version.js';

/** A NetworkPolicy object. */
export type NetworkPolicy = NetworkPolicySchema;

/** `metav1.FormatLabelSelector`: the selector's text, `<none>` when empty, `<error>` when invalid. */
function formatSelector(np: Readonly<NetworkPolicy>): string {
  try {
    return labelSelectorFromObject(np.spec?.podSelector ?? {}).toString() || '<none>';
  } catch {
    return '<error>';
  }
}

/**
 * NetworkPolicy: the v1 defaults (policyTypes, port protocol TCP) and validation of Kubernetes
 * v1.36 (ports and endPort, peers, ipBlock CIDRs and excepts, policyTypes); no status.
 */
export const NetworkPolicyKind = defineKind<NetworkPolicy>({
  group: 'networking.{api_domain}',
  kind: 'NetworkPolicy',
  plural: 'networkpolicies',
  shortNames: ['netpol'],
  scope: 'Namespaced',
  // 1 on create, +1 when the spec changes (pkg/registry/networking/networkpolicy/strategy.go).
  generation: specGeneration(NetworkPolicySchema),
  versions: [lazyVersion('v1', NetworkPolicySchema, { storage: true })],
  schemaRequired: false,
  printerColumns: [
    { name: 'Pod-Selector', type: 'string', description: 'podSelector selects the pods to which this NetworkPolicy object applies.', value: formatSelector },
  ],
  strategy: {
    defaults: defaultNetworkPolicy,
    validate: (np, ctx) => (ctx.operation === 'create' ? validateNetworkPolicySpec(np.spec ?? {}) : []),
    validateUpdate(np, old) {
      // The strategy runs ValidateNetworkPolicy and then ValidateNetworkPolicyUpdate, which checks
      // the spec again, tolerating the stored CIDRs: each spec error is reported twice (the
      // message lists it once), and a stored invalid CIDR still fails the first check.
      const spec = np.spec ?? {};
      return [...validateNetworkPolicySpec(spec), ...validateNetworkPolicySpec(spec, existingCIDRs(old))];
    },
  },
});
