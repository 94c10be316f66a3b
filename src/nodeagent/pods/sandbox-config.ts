/**
 * The `PodSandboxConfig` of a pod, as kuberuntime's `generatePodSandboxConfig` writes it: the
 * pod's metadata and attempt, hostname (none for a host-network pod), the log directory
 * `<podLogsDir>/<namespace>_<name>_<uid>`, the pod's labels with kubelet's three, its
 * annotations, host port mappings and the Linux namespaces.
 */
import { join } from 'node:path';
import type { Pod } from '../../kinds/types/core-v1.js';
import { CRI_LABELS, type NamespaceMode, type PodSandboxConfig, type PortMapping } from '../../cri/api.js';
import { containersOf, isHostNetwork } from './pod-util.js';

/** `BuildPodLogsDirectory`: `<podLogsDir>/<namespace>_<name>_<uid>`. */
export function podLogsDirectory(podLogsDir: string, pod: Pod): string {
  return join(podLogsDir, `${pod.metadata?.namespace ?? ''}_${pod.metadata?.name ?? ''}_${pod.metadata?.uid ?? ''}`);
}

/** The labels of a pod's sandbox (`newPodLabels`): the pod's own, then name, namespace and uid. */
export function sandboxLabels(pod: Pod): Record<string, string> {
  return {
    ...pod.metadata?.labels,
    [CRI_LABELS.podName]: pod.metadata?.name ?? '',
    [CRI_LABELS.podNamespace]: pod.metadata?.namespace ?? '',
    [CRI_LABELS.podUid]: pod.metadata?.uid ?? '',
  };
}

/** The hostname of a pod (`GeneratePodHostNameAndDomain`): spec.hostname, else its name, cut to 63 characters. */
export function podHostname(pod: Pod): string {
  const name = pod.spec?.hostname || pod.metadata?.name || '';
  return name.slice(0, 63).replace(/[-.]+$/, '');
}

function portMappings(pod: Pod): PortMapping[] {
  const out: PortMapping[] = [];
  for (const c of containersOf(pod)) {
    for (const p of c.ports ?? []) {
      if (!p.hostPort && !isHostNetwork(pod)) continue;
      out.push({
        protocol: p.protocol === 'UDP' || p.protocol === 'SCTP' ? p.protocol : 'TCP',
        containerPort: p.containerPort,
        hostPort: p.hostPort ?? (isHostNetwork(pod) ? p.containerPort : 0),
        ...(p.hostIP ? { hostIp: p.hostIP } : {}),
      });
    }
  }
  return out;
}

/** The sandbox's Linux namespaces (`namespacesForPod`). */
function namespaceOptions(pod: Pod): { network: NamespaceMode; pid: NamespaceMode; ipc: NamespaceMode } {
  return {
    network: isHostNetwork(pod) ? 'NODE' : 'POD',
    pid: pod.spec?.hostPID ? 'NODE' : pod.spec?.shareProcessNamespace ? 'POD' : 'CONTAINER',
    ipc: pod.spec?.hostIPC ? 'NODE' : 'POD',
  };
}

/** The configuration of the sandbox at `attempt`. */
export function sandboxConfigOf(pod: Pod, attempt: number, podLogsDir: string): PodSandboxConfig {
  const hostNetwork = isHostNetwork(pod);
  const ports = portMappings(pod);
  return {
    metadata: { name: pod.metadata?.name ?? '', namespace: pod.metadata?.namespace ?? '', uid: pod.metadata?.uid ?? '', attempt },
    // A host-network pod has the node's hostname: the runtime is not asked to set one.
    ...(hostNetwork ? {} : { hostname: podHostname(pod) }),
    logDirectory: podLogsDirectory(podLogsDir, pod),
    labels: sandboxLabels(pod),
    annotations: { ...pod.metadata?.annotations },
    ...(ports.length ? { portMappings: ports } : {}),
    linux: {
      securityContext: {
        namespaceOptions: namespaceOptions(pod),
        ...(pod.spec?.containers?.some((c) => c.securityContext?.privileged) ? { privileged: true } : {}),
      },
    },
  };
}
