/**
 * Warnings a Pod create gets (`podStrategy.WarningsOnCreate` and `GetWarningsForPod`, the common
 * ones): a name that is not a DNS label, deprecated node labels, null topology selectors,
 * deprecated volume plugins, fractional byte quantities, duplicates that `apply` would lose.
 */
import { isDNS1123Label } from '../../../schema/validation/names.js';
import type { Pod } from '../../types/core-v1.js';
import { quantityValue } from '../resource-lists.js';

/** `nodeapi.GetNodeLabelDeprecatedMessage`. */
function deprecatedNodeLabel(label: string, reservedDomain: string): string | undefined {
  const map: Record<string, string> = {
    [`beta.${reservedDomain}/arch`]: `deprecated since v1.14; use "${reservedDomain}/arch" instead`,
    [`beta.${reservedDomain}/os`]: `deprecated since v1.14; use "${reservedDomain}/os" instead`,
    [`failure-domain.beta.${reservedDomain}/region`]: `deprecated since v1.17; use "topology.${reservedDomain}/region" instead`,
    [`failure-domain.beta.${reservedDomain}/zone`]: `deprecated since v1.17; use "topology.${reservedDomain}/zone" instead`,
    [`beta.${reservedDomain}/instance-type`]: `deprecated since v1.17; use "node.${reservedDomain}/instance-type" instead`,
  };
  return map[label];
}

const DEPRECATED_VOLUMES: Record<string, string> = {
  photonPersistentDisk: 'deprecated in v1.11, non-functional in v1.16+',
  gitRepo: 'deprecated in v1.11',
  scaleIO: 'deprecated in v1.16, non-functional in v1.22+',
  flocker: 'deprecated in v1.22, non-functional in v1.25+',
  storageos: 'deprecated in v1.22, non-functional in v1.25+',
  quobyte: 'deprecated in v1.22, non-functional in v1.25+',
  glusterfs: 'deprecated in v1.25, non-functional in v1.26+',
  cephfs: 'deprecated in v1.28, non-functional in v1.31+',
  rbd: 'deprecated in v1.28, non-functional in v1.31+',
};
/** Kubernetes names the storageos warning's field `storageOS`. */
const WARNING_FIELD: Record<string, string> = { storageos: 'storageOS' };

/** The warnings of a Pod create. */
export function podCreateWarnings(pod: Pod, reservedDomain: string): string[] {
  const warnings: string[] = [];
  const name = pod.metadata?.name ?? '';
  const nameMsgs = isDNS1123Label(name);
  if (name && nameMsgs.length) {
    warnings.push(
      `metadata.name: this is used in the Pod's hostname, which can result in surprising behavior; a DNS label is recommended: [${nameMsgs.join(' ')}]`,
    );
  }
  const spec = pod.spec;
  if (!spec) return warnings;
  for (const k of Object.keys(spec.nodeSelector ?? {})) {
    const msg = deprecatedNodeLabel(k, reservedDomain);
    if (msg) warnings.push(`spec.nodeSelector[${k}]: ${msg}`);
  }
  (spec.topologySpreadConstraints ?? []).forEach((t, i) => {
    const msg = deprecatedNodeLabel(t.topologyKey, reservedDomain);
    if (msg) warnings.push(`spec.topologySpreadConstraints[${i}].topologyKey: ${t.topologyKey} is ${msg}`);
    if (!t.labelSelector) warnings.push(`spec.topologySpreadConstraints[${i}].labelSelector: a null labelSelector results in matching no pod`);
  });
  (spec.volumes ?? []).forEach((v, i) => {
    for (const [source, msg] of Object.entries(DEPRECATED_VOLUMES)) {
      if ((v as Record<string, unknown>)[source] !== undefined) warnings.push(`spec.volumes[${i}].${WARNING_FIELD[source] ?? source}: ${msg}`);
    }
  });
  const seenPull = new Set<string>();
  (spec.imagePullSecrets ?? []).forEach((s, i) => {
    const n = s.name ?? '';
    if (seenPull.has(n) && spec.imagePullSecrets!.length > 1) warnings.push(`spec.imagePullSecrets[${i}].name: duplicate name ${JSON.stringify(n)}`);
    seenPull.add(n);
    if (n === '') warnings.push(`spec.imagePullSecrets[${i}].name: invalid empty name ""`);
  });
  for (const [list, field] of [
    [spec.initContainers ?? [], 'initContainers'],
    [spec.containers, 'containers'],
  ] as const) {
    list.forEach((c, ci) => {
      const p = `spec.${field}[${ci}]`;
      for (const res of ['memory', 'ephemeral-storage']) {
        for (const kind of ['limits', 'requests'] as const) {
          const raw = c.resources?.[kind]?.[res];
          const q = quantityValue(raw);
          if (raw !== undefined && q && q.nanos % 1_000_000_000n !== 0n) {
            warnings.push(`${p}.resources.${kind}[${res}]: fractional byte value ${JSON.stringify(String(raw))} is invalid, must be an integer`);
          }
        }
      }
      const names = new Set<string>();
      (c.env ?? []).forEach((e, i) => {
        if (!names.has(e.name)) {
          names.add(e.name);
          return;
        }
        const ref = `$(${e.name})`;
        if (e.valueFrom || e.value === ref || !(e.value ?? '').includes(ref)) {
          warnings.push(`${p}.env[${i}]: hides previous definition of ${JSON.stringify(e.name)}, which may be dropped when using apply`);
        }
      });
    });
  }
  return warnings;
}
