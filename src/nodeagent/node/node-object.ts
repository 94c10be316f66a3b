/**
 * The Node object as kubelet writes it: `initialNode` (labels, the attach-detach annotation) and
 * the status setters of `pkg/kubelet/nodestatus/setters.go` (addresses, machine info with
 * capacity and allocatable, versions, daemon endpoints, images, the four conditions).
 */
import type { Node, NodeCondition } from '../../kinds/types/core-v1.js';
import type { Image, RuntimeCondition, VersionResponse } from '../../cri/api.js';
import type { HostFacts } from './host-facts.js';

/** The kubelet version memkube's node agent reports (the Kubernetes release it follows). */
export const NODE_AGENT_VERSION = 'v1.36.0';

/** What describes this node besides the host facts. */
export interface NodeIdentity {
  readonly nodeName: string;
  /** The `--node-ip` flag: InternalIP instead of the host's first non-loopback IPv4 address. */
  readonly nodeIp?: string;
  /** The port of the agent's server (`daemonEndpoints.kubeletEndpoint.Port`). */
  readonly serverPort: number;
  /** `maxPods`: capacity and allocatable `pods`. */
  readonly maxPods: number;
  readonly kubeletVersion?: string;
  /** Extra labels (`--node-labels`). */
  readonly labels?: Readonly<Record<string, string>>;
}

/** The labels and annotations kubelet registers a node with (`initialNode`). */
export function initialNode(id: NodeIdentity, host: HostFacts): Node {
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name: id.nodeName,
      labels: {
        ...id.labels,
        'kubernetes.io/hostname': id.nodeName,
        'kubernetes.io/os': host.operatingSystem,
        'kubernetes.io/arch': host.architecture,
        'beta.kubernetes.io/os': host.operatingSystem,
        'beta.kubernetes.io/arch': host.architecture,
      },
      // The attach-detach controller, not the agent, attaches volumes (kubelet's default).
      annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': 'true' },
    },
    spec: {},
  };
}

/**
 * The node's addresses: InternalIP (the node IP, else the first non-loopback IPv4), then Hostname:
 * kubelet's hostname, which is `--hostname-override` when given (nodeutil.GetHostname), that is the
 * node's name.
 */
export function nodeAddresses(id: NodeIdentity, host: HostFacts): { type: string; address: string }[] {
  const ip = id.nodeIp ?? host.ipv4Addresses[0];
  return [...(ip ? [{ type: 'InternalIP', address: ip }] : []), { type: 'Hostname', address: id.nodeName }];
}

const KI = 1024;
/** The hard eviction thresholds kubelet subtracts from allocatable by default: memory.available<100Mi, nodefs.available<10%. */
const EVICTION_MEMORY_BYTES = 100 * KI * KI;
const EVICTION_NODEFS_FRACTION = 0.1;

/** Capacity and allocatable, as `MachineInfo` computes them from the host and the eviction defaults. */
export function nodeResources(id: NodeIdentity, host: HostFacts): { capacity: Record<string, string>; allocatable: Record<string, string> } {
  const memoryKi = Math.floor(host.memoryBytes / KI);
  const storageKi = Math.floor(host.ephemeralStorageBytes / KI);
  const capacity = {
    cpu: String(host.cpuCores),
    'ephemeral-storage': `${storageKi}Ki`,
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: `${memoryKi}Ki`,
    pods: String(id.maxPods),
  };
  const storageBytes = storageKi * KI;
  const allocatable = {
    ...capacity,
    'ephemeral-storage': String(Math.max(0, storageBytes - Math.ceil(storageBytes * EVICTION_NODEFS_FRACTION))),
    memory: `${Math.max(0, memoryKi - EVICTION_MEMORY_BYTES / KI)}Ki`,
  };
  return { capacity, allocatable };
}

/** The most images kubelet reports in `status.images` (`--node-status-max-images`). */
export const MAX_NODE_IMAGES = 50;

/** `status.images`: the runtime's images, largest first, their digests and tags as names. */
export function nodeImages(images: readonly Image[]): { names: string[]; sizeBytes: number }[] {
  return [...images]
    .sort((a, b) => (b.size > a.size ? 1 : b.size < a.size ? -1 : 0))
    .slice(0, MAX_NODE_IMAGES)
    .map((i) => ({ names: [...i.repoDigests, ...i.repoTags], sizeBytes: Number(i.size) }));
}

/** `RuntimeCondition.String()` of cri-api: `Type=status reason:R message:M`. */
function conditionText(c: RuntimeCondition | undefined): string {
  return c ? `${c.type}=${c.status} reason:${c.reason} message:${c.message}` : '<nil>';
}

/**
 * The errors that make the node not ready, worded as kubelet's runtime state: the runtime down,
 * its RuntimeReady or NetworkReady condition false. `undefined` runtime conditions mean the
 * runtime's status could not be read: before any status was read that is `container runtime status
 * check may not have completed yet`, after one `container runtime is down` (kubelet's runtimeState).
 */
export function runtimeErrors(conditions: readonly RuntimeCondition[] | undefined, everRead = false): string[] {
  if (!conditions) return [everRead ? 'container runtime is down' : 'container runtime status check may not have completed yet'];
  const errors: string[] = [];
  const runtime = conditions.find((c) => c.type === 'RuntimeReady');
  const network = conditions.find((c) => c.type === 'NetworkReady');
  if (!runtime?.status) errors.push(`container runtime not ready: ${conditionText(runtime)}`);
  if (!network?.status) errors.push(`container runtime network not ready: ${conditionText(network)}`);
  return errors;
}

/** k8s.io/apimachinery's `errors.NewAggregate(...).Error()`: one message as is, several in brackets. */
function aggregate(errors: readonly string[]): string {
  return errors.length === 1 ? errors[0]! : `[${errors.join(', ')}]`;
}

interface ConditionWanted {
  readonly type: string;
  readonly status: 'True' | 'False';
  readonly reason: string;
  readonly message: string;
}

/** The four conditions, each keeping its lastTransitionTime while its status holds. */
export function nodeConditions(previous: readonly NodeCondition[] | undefined, errors: readonly string[], now: string): NodeCondition[] {
  const wanted: ConditionWanted[] = [
    { type: 'MemoryPressure', status: 'False', reason: 'KubeletHasSufficientMemory', message: 'kubelet has sufficient memory available' },
    { type: 'DiskPressure', status: 'False', reason: 'KubeletHasNoDiskPressure', message: 'kubelet has no disk pressure' },
    { type: 'PIDPressure', status: 'False', reason: 'KubeletHasSufficientPID', message: 'kubelet has sufficient PID available' },
    errors.length === 0
      ? { type: 'Ready', status: 'True', reason: 'KubeletReady', message: 'kubelet is posting ready status' }
      : { type: 'Ready', status: 'False', reason: 'KubeletNotReady', message: aggregate(errors) },
  ];
  return wanted.map((w) => {
    const old = previous?.find((c) => c.type === w.type);
    const lastTransitionTime = old && old.status === w.status && old.lastTransitionTime ? old.lastTransitionTime : now;
    return { ...w, lastHeartbeatTime: now, lastTransitionTime };
  });
}

/** Everything the agent reports in `status`, from the host and the runtime. */
export interface NodeStatusInputs {
  readonly id: NodeIdentity;
  readonly host: HostFacts;
  readonly version?: VersionResponse;
  readonly runtimeConditions?: readonly RuntimeCondition[];
  /** Whether the runtime's status was read successfully before (decides the text when it cannot be read now). */
  readonly runtimeStatusEverRead?: boolean;
  readonly images: readonly Image[];
  /** RFC 3339 seconds: the heartbeat. */
  readonly now: string;
}

/** The node's `status` as the setters make it. */
export function nodeStatus(inputs: NodeStatusInputs, previous: Node['status'] | undefined): NonNullable<Node['status']> {
  const { id, host, version } = inputs;
  return {
    ...nodeResources(id, host),
    conditions: nodeConditions(previous?.conditions, runtimeErrors(inputs.runtimeConditions, inputs.runtimeStatusEverRead), inputs.now),
    addresses: nodeAddresses(id, host),
    daemonEndpoints: { kubeletEndpoint: { Port: id.serverPort } },
    nodeInfo: {
      machineID: host.machineID,
      systemUUID: host.systemUUID,
      bootID: host.bootID,
      kernelVersion: host.kernelVersion,
      osImage: host.osImage,
      containerRuntimeVersion: version ? `${version.runtimeName}://${version.runtimeVersion}` : '',
      kubeletVersion: id.kubeletVersion ?? NODE_AGENT_VERSION,
      kubeProxyVersion: '',
      operatingSystem: host.operatingSystem,
      architecture: host.architecture,
    },
    images: nodeImages(inputs.images),
  };
}
