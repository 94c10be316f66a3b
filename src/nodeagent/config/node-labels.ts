/**
 * `--node-labels` checks of kubelet's `ValidateKubeletFlags` (cmd/kubelet/app/options/options.go):
 * labels in the `kubernetes.io` and `k8s.io` namespaces must be ones a kubelet may set
 * (k8s.io/kubelet/pkg/apis well_known_labels.go), and every key and value must be well formed.
 */
import { isQualifiedName, isValidLabelValue } from '../../schema/validation/names.js';

/** The namespaces whose labels a kubelet may set on its node. */
export const KUBELET_LABEL_NAMESPACES: readonly string[] = ['kubelet.kubernetes.io', 'node.kubernetes.io'];

/** The `kubernetes.io` labels a kubelet may set, sorted. */
export const KUBELET_LABELS: readonly string[] = [
  'beta.kubernetes.io/arch',
  'beta.kubernetes.io/instance-type',
  'beta.kubernetes.io/os',
  'failure-domain.beta.kubernetes.io/region',
  'failure-domain.beta.kubernetes.io/zone',
  'kubernetes.io/arch',
  'kubernetes.io/hostname',
  'kubernetes.io/os',
  'node.kubernetes.io/instance-type',
  'topology.kubernetes.io/region',
  'topology.kubernetes.io/zone',
];

const namespaceOf = (key: string) => (key.includes('/') ? key.slice(0, key.indexOf('/')) : '');

function isKubernetesLabel(key: string): boolean {
  const ns = namespaceOf(key);
  return ns === 'kubernetes.io' || ns.endsWith('.kubernetes.io') || ns === 'k8s.io' || ns.endsWith('.k8s.io');
}

/** `IsKubeletLabel`: an allowed label, or one in (a subdomain of) an allowed namespace. */
export function isKubeletLabel(key: string): boolean {
  if (KUBELET_LABELS.includes(key)) return true;
  const ns = namespaceOf(key);
  return KUBELET_LABEL_NAMESPACES.some((allowed) => ns === allowed || ns.endsWith(`.${allowed}`));
}

/** kubelet's error for a set of node labels, or undefined when they are fine. */
export function nodeLabelsError(labels: Readonly<Record<string, string>>): string | undefined {
  const unknown = new Set<string>();
  const invalid = new Map<string, string[]>();
  const note = (what: string, errs: string[]) => {
    if (errs.length) invalid.set(what, [...(invalid.get(what) ?? []), ...errs]);
  };
  for (const [k, v] of Object.entries(labels)) {
    if (isKubernetesLabel(k) && !isKubeletLabel(k)) unknown.add(k);
    note(k, isQualifiedName(k));
    note(v, isValidLabelValue(v));
  }
  if (unknown.size > 0) {
    return (
      `unknown 'kubernetes.io' or 'k8s.io' labels specified with --node-labels: [${[...unknown].sort().join(' ')}]\n` +
      `--node-labels in the 'kubernetes.io' namespace must begin with an allowed prefix (${KUBELET_LABEL_NAMESPACES.join(', ')}) or be in the specifically allowed set (${KUBELET_LABELS.join(', ')})`
    );
  }
  if (invalid.size > 0) {
    // Go walks a map in random order; sorted here so the text is stable.
    const parts = [...invalid.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, errs]) => `'${k}' - ${errs.join(', ')}`);
    return `invalid node labels: ${parts.join('; ')}`;
  }
  return undefined;
}
