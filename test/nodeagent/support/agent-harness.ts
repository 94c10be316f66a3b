/**
 * A node agent against memkube in the same process: a cluster on a frozen clock, its Fetch
 * handler as the agent's API server, memkube's in-process CRI runtime on the same clock (its
 * containers do what their command says: `exit <code> after <ms>`), and fixed host facts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCluster, type Cluster } from '../../../src/cluster.js';
import { createFetchHandler } from '../../../src/http/handler.js';
import { kubeApiClientOverFetch } from '../../../src/nodeagent/kube-api-fetch.js';
import type { KubeApiClient, KubeObjectJson } from '../../../src/nodeagent/kube-api.js';
import { createNodeAgent, type NodeAgent, type NodeAgentOptions } from '../../../src/nodeagent/agent.js';
import type { HostFacts } from '../../../src/nodeagent/node/host-facts.js';
import type { AgentLog } from '../../../src/nodeagent/agent-log.js';
import { createInProcessCriRuntime, type InProcessCriRuntime, type ContainerBehaviour } from '../../../src/cri/runtime/index.js';
import type { ContainerConfig, ImageService, RuntimeService } from '../../../src/cri/api.js';

/** Calls made to the runtime, by method. */
export type CallLog = { method: string; request: unknown }[];

/**
 * A container's behaviour from its command: `exit <code> [after <ms>]` exits, `exit <code> then
 * <code>` exits with the first code on its first run and the second on restarts, anything else
 * runs until stopped.
 */
export function behaviourOf(config: ContainerConfig): ContainerBehaviour | undefined {
  const m = /^exit (\d+)(?: after (\d+))?(?: then (\d+))?$/.exec([...(config.command ?? []), ...(config.args ?? [])].join(' '));
  if (!m) return undefined;
  const code = m[3] !== undefined && config.metadata.attempt > 0 ? Number(m[3]) : Number(m[1]);
  return { exitCode: code, exitAfterMs: Number(m[2] ?? 0) };
}

/** Requests sent to the API server. */
export type RequestLog = { method: string; path: string; body?: unknown; query?: unknown }[];

function recordedKube(kube: KubeApiClient, requests: RequestLog): KubeApiClient {
  return {
    server: kube.server,
    request: (method, path, options) => {
      requests.push({ method, path, body: options?.body, query: options?.query });
      return kube.request(method, path, options);
    },
    watch: (path, options) => kube.watch(path, options),
    close: () => kube.close(),
  };
}

/** The runtime with every call recorded. */
function recorded(runtime: InProcessCriRuntime, calls: CallLog): RuntimeService & ImageService {
  return new Proxy(runtime, {
    get(target, prop, receiver) {
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      return (request: unknown) => {
        calls.push({ method: String(prop), request });
        return (v as (r: unknown) => unknown).call(target, request);
      };
    },
  });
}

export const HOST: HostFacts = {
  hostname: 'Worker-1',
  machineID: 'd2b1a0c9e8f74a6b9c5d4e3f2a1b0c9d',
  systemUUID: '4c4c4544-0031-3510-8052-b2c04f4e3432',
  bootID: '7f3e9a62-1b8c-4d2e-9f0a-5c6b7d8e9f01',
  kernelVersion: '6.8.0-45-generic',
  osImage: 'Ubuntu 24.04.1 LTS',
  operatingSystem: 'linux',
  architecture: 'amd64',
  cpuCores: 4,
  memoryBytes: 8 * 1024 * 1024 * 1024,
  ephemeralStorageBytes: 100 * 1024 * 1024 * 1024,
  ipv4Addresses: ['192.168.1.20', '10.0.0.5'],
};

/** A log that keeps what is written. */
export function recordingLog(): AgentLog & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    infoS: (msg, ...kv) => lines.push(`I ${msg} ${kv.map(String).join(' ')}`),
    errorS: (err, msg, ...kv) => lines.push(`E ${msg} err=${err instanceof Error ? err.message : String(err)} ${kv.map(String).join(' ')}`),
  };
}

export interface Harness {
  cluster: Cluster;
  kube: KubeApiClient;
  runtime: InProcessCriRuntime;
  calls: CallLog;
  requests: RequestLog;
  logsDir: string;
  agent: NodeAgent;
  log: ReturnType<typeof recordingLog>;
  pod(name: string, namespace?: string): Promise<KubeObjectJson & { status?: Record<string, unknown> }>;
  close(): Promise<void>;
}

export const START = Date.parse('2026-12-01T10:00:00Z');

/** Starts a cluster and an agent (not started: tests step it with `syncOnce`). */
export async function harness(options: Partial<NodeAgentOptions> = {}): Promise<Harness> {
  const cluster = await createCluster({ clock: START });
  const kube = kubeApiClientOverFetch(
    'http://memkube.invalid',
    createFetchHandler(cluster, { defaultUser: { username: 'admin', groups: ['system:masters'] } }),
  );
  const logsDir = mkdtempSync(join(tmpdir(), 'memkube-agent-'));
  const runtime = createInProcessCriRuntime({ clock: cluster.clock, containers: behaviourOf, rootDir: logsDir });
  const calls: CallLog = [];
  const log = recordingLog();
  const requests: RequestLog = [];
  const agent = createNodeAgent({
    kube: recordedKube(kube, requests),
    runtime: recorded(runtime, calls),
    serverPort: 10250,
    podLogsDir: join(logsDir, 'pods'),
    rootDir: '/var/lib/kubelet',
    maxPods: 110,
    host: HOST,
    clock: cluster.clock,
    log,
    ...options,
  });
  return {
    cluster,
    kube,
    runtime,
    calls,
    requests,
    logsDir,
    agent,
    log,
    pod: (name, namespace = 'default') => kube.request('GET', `/api/v1/namespaces/${namespace}/pods/${name}`),
    async close() {
      await agent.stop();
      runtime.close();
      await cluster.close();
      rmSync(logsDir, { recursive: true, force: true });
    },
  };
}

/** A pod bound to the node. */
export function boundPod(name: string, spec: Record<string, unknown> = {}, nodeName = 'worker-1'): KubeObjectJson {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels: { app: name } },
    spec: { nodeName, containers: [{ name: 'main', image: 'busybox:1.36', command: ['sleep', '3600'] }], ...spec },
  };
}
