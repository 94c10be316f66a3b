/**
 * memkube's node agent (a small kubelet): registers its Node and keeps its status and lease
 * current, takes pods from the API server, static pod files and a static pod URL, runs them in a
 * CRI runtime and reports their status, with mirror pods for static pods and graceful deletion.
 *
 * `syncOnce()` makes one full pass (node, lease, sources, pods) so tests step it by hand; `start()`
 * runs the same work on timers and a watch of the API server. Its metrics (kubelet's names) are
 * kept in a registry of its own, read through `agent.metrics`.
 */
import { hostname as osHostname } from 'node:os';
import type { Pod } from '../kinds/types/core-v1.js';
import type { ImageService, RuntimeService } from '../cri/api.js';
import type { Clock } from '../clock.js';
import { MetricsRegistry, type MetricsReader } from '../metrics/registry.js';
import { KubeletMetrics } from './metrics/kubelet-metrics.js';
import { instrumentRuntime } from './metrics/runtime-metrics.js';
import { SYNC_LOOP_UNHEALTHY } from './server/healthz.js';
import { silentLog, type AgentLog } from './agent-log.js';
import type { KubeApiClient } from './kube-api.js';
import { readHostFacts, type HostFacts } from './node/host-facts.js';
import { DEFAULT_LEASE_DURATION_SECONDS, NodeLease } from './node/lease.js';
import { nodeAddresses, type NodeIdentity } from './node/node-object.js';
import { NodeStatusReporter } from './node/node-status.js';
import { DirectImagePuller, type ImageEnsurer } from './pods/image-ensurer.js';
import { apiServerEnvSources } from './pods/env-sources.js';
import { PodSyncer } from './pods/pod-syncer.js';
import { PodWorkers, type PodAdmitter } from './pods/pod-workers.js';
import { ApiServerPodSource } from './pods/sources/apiserver.js';
import { readStaticPodPath } from './pods/sources/file.js';
import { fetchStaticPodUrl, type UrlFetch } from './pods/sources/http.js';

/**
 * Options of {@link createNodeAgent}; durations in milliseconds, defaults kubelet's.
 * @category Node agent
 */
export interface NodeAgentOptions {
  /** The API server. */
  readonly kube: KubeApiClient;
  /** The CRI runtime (memkube's in-process runtime, or a gRPC client of containerd, CRI-O, `memkube cri`). */
  readonly runtime: RuntimeService & ImageService;
  /** The node's name; else `hostnameOverride`, else `os.hostname()`, lower-cased. */
  readonly nodeName?: string;
  readonly hostnameOverride?: string;
  /** InternalIP of the node; the host's first non-loopback IPv4 address by default. */
  readonly nodeIp?: string;
  /** The port of the agent's HTTPS server, reported in `daemonEndpoints.kubeletEndpoint.Port`. */
  readonly serverPort: number;
  /** A manifest file or directory of static pods. */
  readonly staticPodPath?: string;
  /** A URL serving static pods (a Pod or a PodList). */
  readonly staticPodURL?: string;
  /** Headers sent to `staticPodURL`. */
  readonly staticPodURLHeader?: Readonly<Record<string, readonly string[]>>;
  /** Where container logs go: `<podLogsDir>/<namespace>_<name>_<uid>/<container>/<restartCount>.log`. kubelet: `/var/log/pods`. */
  readonly podLogsDir: string;
  /** The agent's state directory (kubelet's `--root-dir`); ephemeral-storage capacity is measured on its filesystem. */
  readonly rootDir: string;
  /** Capacity `pods`. kubelet: 110. */
  readonly maxPods: number;
  /** Extra node labels (`--node-labels`). */
  readonly nodeLabels?: Readonly<Record<string, string>>;
  /** nodeStatusUpdateFrequency; 10s. */
  readonly nodeStatusUpdateFrequencyMs?: number;
  /** nodeLeaseDurationSeconds; 40. Renewed every quarter of it. */
  readonly nodeLeaseDurationSeconds?: number;
  /** fileCheckFrequency; 20s. */
  readonly fileCheckFrequencyMs?: number;
  /** httpCheckFrequency; 20s. */
  readonly httpCheckFrequencyMs?: number;
  /** How often every pod is synced against the runtime (kubelet's PLEG relist period); 1s. */
  readonly podSyncPeriodMs?: number;
  /** The clock of timestamps, back-off and due work; real time by default. */
  readonly clock?: Clock;
  /** Facts about the host; read from this machine by default. */
  readonly host?: HostFacts;
  /** Admission checks a pod passes before the node runs it (sysctls, ...); a rejected pod fails with their reason. */
  readonly admitters?: readonly PodAdmitter[];
  /** Puts images on the node; a direct CRI pull by default. */
  readonly imageEnsurer?: ImageEnsurer;
  /** The fetch of `staticPodURL`; the global `fetch` by default. */
  readonly urlFetch?: UrlFetch;
  readonly log?: AgentLog;
  /**
   * Where the agent's metrics are kept (the same registry its server serves at `/metrics`); a new
   * one, without native histograms, by default. The runtime's calls are counted into it.
   */
  readonly metrics?: MetricsRegistry;
}

/**
 * The agent's pods as its server shows them (`/pods`, exec, logs).
 * @category Node agent
 */
export interface NodeAgentPods {
  /** The pod `namespace/name`, if the agent runs it. */
  byName(namespace: string, name: string): Pod | undefined;
  /** Every pod the agent runs. */
  all(): Pod[];
}

/**
 * A node agent.
 * @category Node agent
 */
export interface NodeAgent {
  readonly nodeName: string;
  /** Registers the node and runs everything on timers and the API server's watch. */
  start(): Promise<void>;
  /** Stops the timers and the watch; leaves pods running (as a kubelet restart does). */
  stop(): Promise<void>;
  /** One deterministic pass: node status, lease, every pod source, every pod. */
  syncOnce(): Promise<void>;
  readonly pods: NodeAgentPods;
  /** The agent's metrics (`kubelet_*`, `rest_client_*` when its API client counts into the same registry). */
  readonly metrics: MetricsReader;
  /**
   * kubelet's `syncloop` health check: why the pod sync loop is unhealthy (it has not started or
   * finished a pass for twice the sync period, and at least 5 minutes), or undefined when healthy
   * or before its first pass.
   */
  syncLoopHealth(): string | undefined;
}

const realClock: Clock = { now: () => Date.now() };

/** The node name kubelet uses: the override, else the hostname, lower-cased. */
export function nodeNameOf(options: Pick<NodeAgentOptions, 'nodeName' | 'hostnameOverride'>, hostname = osHostname()): string {
  return (options.nodeName ?? options.hostnameOverride ?? hostname).trim().toLowerCase();
}

/**
 * Builds a node agent; nothing runs until `start()` or `syncOnce()`.
 * @category Node agent
 */
export function createNodeAgent(options: NodeAgentOptions): NodeAgent {
  const clock = options.clock ?? realClock;
  const log = options.log ?? silentLog;
  const host = options.host ?? readHostFacts(options.rootDir);
  const nodeName = nodeNameOf(options, host.hostname);
  const id: NodeIdentity = {
    nodeName,
    ...(options.nodeIp ? { nodeIp: options.nodeIp } : {}),
    serverPort: options.serverPort,
    maxPods: options.maxPods,
    ...(options.nodeLabels ? { labels: options.nodeLabels } : {}),
  };
  const registry = options.metrics ?? new MetricsRegistry();
  const kubeletMetrics = new KubeletMetrics(registry);
  kubeletMetrics.setNodeName(nodeName);
  const kube = options.kube;
  const runtime = instrumentRuntime(options.runtime, registry);
  const node = new NodeStatusReporter(kube, runtime, id, host, clock, options.nodeStatusUpdateFrequencyMs ?? 10_000);
  const lease = new NodeLease(kube, nodeName, clock, () => node.nodeUid, options.nodeLeaseDurationSeconds ?? DEFAULT_LEASE_DURATION_SECONDS);
  const apiSource = new ApiServerPodSource(kube, nodeName, log);
  const syncer = new PodSyncer(
    runtime,
    options.imageEnsurer ?? new DirectImagePuller(runtime, clock),
    clock,
    options.podLogsDir,
    log,
    apiServerEnvSources(kube),
    kubeletMetrics,
  );
  const workers = new PodWorkers(kube, runtime, syncer, clock, log, nodeName, options.admitters, kubeletMetrics);
  const hostIPs = nodeAddresses(id, host)
    .filter((a) => a.type === 'InternalIP')
    .map((a) => a.address);
  let runtimeName: string | undefined;

  // Static pods by uid; a manifest read again unchanged keeps its first `config.seen`.
  let filePods = new Map<string, Pod>();
  let urlPods = new Map<string, Pod>();
  const merge = (old: Map<string, Pod>, fresh: readonly Pod[]) => new Map(fresh.map((p) => [p.metadata!.uid!, old.get(p.metadata!.uid!) ?? p]));
  const seenNow = () => new Date(clock.now()).toISOString();

  const readFiles = () => {
    if (!options.staticPodPath) return;
    try {
      filePods = merge(filePods, readStaticPodPath(options.staticPodPath, nodeName, log, seenNow()));
    } catch (e) {
      log.errorS(e, 'Unable to read config path', 'path', options.staticPodPath);
    }
  };
  const readUrl = async () => {
    if (!options.staticPodURL) return;
    try {
      urlPods = merge(urlPods, await fetchStaticPodUrl(options.staticPodURL, options.staticPodURLHeader, nodeName, seenNow(), options.urlFetch));
    } catch (e) {
      log.errorS(e, 'Unable to read config from URL', 'URL', options.staticPodURL);
    }
  };

  // kubelet's syncLoopMonitor: when the loop last entered or left an iteration.
  let loopSeenAt: number | undefined;
  const syncLoopAllowanceMs = Math.max(2 * (options.podSyncPeriodMs ?? 1000), 5 * 60_000);
  // What the runtime has, after each pass, as kubelet's PLEG relist counts it.
  const countRuntime = async () => {
    const [sandboxes, containers] = await Promise.all([runtime.listPodSandbox({}), runtime.listContainers({})]);
    kubeletMetrics.runtimeInventory({
      sandboxes: sandboxes.items.map((s) => ({ podUid: s.metadata.uid, state: s.state })),
      containerStates: containers.containers.map((c) => c.state),
    });
  };

  // One pass over the pods at a time; a request during a pass runs another after it.
  let passing: Promise<void> | undefined;
  let again = false;
  const podPass = async (): Promise<void> => {
    if (passing) {
      again = true;
      return passing;
    }
    passing = (async () => {
      do {
        again = false;
        loopSeenAt = clock.now();
        try {
          runtimeName ??= (await runtime.version({ version: '0.1.0' })).runtimeName;
          await workers.syncAll(
            apiSource.all(),
            [...filePods.values(), ...urlPods.values()],
            { nodeName, nodeUid: node.nodeUid, hostIPs, runtimeName },
            apiSource.synced,
          );
          await countRuntime();
        } catch (e) {
          log.errorS(e, 'Pod sync pass failed');
        }
        loopSeenAt = clock.now();
      } while (again);
    })().finally(() => (passing = undefined));
    return passing;
  };

  const guarded = async (what: string, work: () => Promise<void>) => {
    try {
      await work();
    } catch (e) {
      log.errorS(e, what, 'node', nodeName);
    }
  };

  let abort: AbortController | undefined;
  const timers: NodeJS.Timeout[] = [];
  let watching: Promise<void> | undefined;
  const every = (ms: number, work: () => Promise<void> | void) => {
    let running = false;
    const t = setInterval(() => {
      if (running) return;
      running = true;
      void Promise.resolve(work()).finally(() => (running = false));
    }, ms);
    timers.push(t);
  };

  return {
    nodeName,
    pods: { byName: (ns, name) => workers.byName(ns, name), all: () => workers.all() },
    metrics: registry,
    syncLoopHealth() {
      return loopSeenAt !== undefined && clock.now() - loopSeenAt > syncLoopAllowanceMs ? SYNC_LOOP_UNHEALTHY : undefined;
    },
    async syncOnce() {
      await guarded('Unable to update node status', () => node.sync());
      await guarded('Failed to update lease', () => lease.sync());
      await guarded('Unable to list pods of the node', () => apiSource.relist());
      readFiles();
      await readUrl();
      await podPass();
    },
    async start() {
      if (abort) return;
      abort = new AbortController();
      await guarded('Unable to register node with API server', () => node.sync(true));
      await guarded('Failed to update lease', () => lease.sync(true));
      readFiles();
      await readUrl();
      every(options.nodeStatusUpdateFrequencyMs ?? 10_000, () => guarded('Unable to update node status', () => node.sync()));
      every(lease.renewIntervalMs, () => guarded('Failed to update lease', () => lease.sync()));
      every(options.fileCheckFrequencyMs ?? 20_000, () => {
        readFiles();
        return podPass();
      });
      if (options.staticPodURL) every(options.httpCheckFrequencyMs ?? 20_000, () => readUrl().then(podPass));
      every(options.podSyncPeriodMs ?? 1000, podPass);
      watching = apiSource.run(abort.signal, () => void podPass());
      await podPass();
    },
    async stop() {
      abort?.abort();
      for (const t of timers.splice(0)) clearInterval(t);
      await watching;
      await passing;
      abort = undefined;
    },
  };
}
