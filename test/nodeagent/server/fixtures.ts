/** Shared pieces of the node agent server tests: a scripted runtime, a pod source, HTTPS requests. */
import { request as httpsRequest } from 'node:https';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckpointContainerRequest, Container, ContainerState, ContainerStatus, RuntimeService } from '../../../src/cri/api.js';
import { CRI_LABELS, CriError } from '../../../src/cri/api.js';
import type { Pod } from '../../../src/kinds/types/core-v1.js';
import type { NodeAgentPodSource } from '../../../src/nodeagent/server/pod-containers.js';

/** A container the fake runtime knows. */
export interface FakeContainer {
  id: string;
  pod: Pod;
  name: string;
  attempt: number;
  state: ContainerState;
  logPath: string;
}

/** A runtime answering listContainers, containerStatus and checkpointContainer from a list. */
export class FakeRuntime {
  containers: FakeContainer[] = [];
  checkpoints: CheckpointContainerRequest[] = [];
  checkpointError: Error | undefined;
  statusError: Error | undefined;

  asRuntime(): RuntimeService {
    const notUsed = () => Promise.reject(new CriError(12, 'not used in these tests'));
    return {
      version: async () => ({ version: '0.1.0', runtimeName: 'fake', runtimeVersion: '1.0', runtimeApiVersion: 'v1' }),
      runPodSandbox: notUsed,
      stopPodSandbox: notUsed,
      removePodSandbox: notUsed,
      podSandboxStatus: notUsed,
      listPodSandbox: notUsed,
      createContainer: notUsed,
      startContainer: notUsed,
      stopContainer: notUsed,
      removeContainer: notUsed,
      reopenContainerLog: notUsed,
      status: notUsed,
      listContainers: async ({ filter }) => ({
        containers: this.containers
          .filter((c) => !filter?.state || c.state === filter.state)
          .filter((c) => Object.entries(filter?.labelSelector ?? {}).every(([k, v]) => this.labels(c)[k] === v))
          .map((c): Container => ({
            id: c.id,
            podSandboxId: 'sandbox',
            metadata: { name: c.name, attempt: c.attempt },
            image: { image: 'busybox' },
            imageRef: 'sha256:1',
            state: c.state,
            createdAt: BigInt(c.attempt),
            labels: this.labels(c),
          })),
      }),
      containerStatus: async ({ containerId }) => {
        if (this.statusError) throw this.statusError;
        const c = this.containers.find((x) => x.id === containerId);
        if (!c) throw new CriError(5, `an error occurred when try to find container "${containerId}": not found`);
        const status: ContainerStatus = {
          id: c.id,
          metadata: { name: c.name, attempt: c.attempt },
          state: c.state,
          createdAt: 0n,
          startedAt: 0n,
          finishedAt: 0n,
          exitCode: 0,
          image: { image: 'busybox' },
          imageRef: 'sha256:1',
          reason: '',
          message: '',
          logPath: c.logPath,
        };
        return { status };
      },
      checkpointContainer: async (req) => {
        if (this.checkpointError) throw this.checkpointError;
        this.checkpoints.push(req);
        return {};
      },
    };
  }

  private labels(c: FakeContainer): Record<string, string> {
    return {
      [CRI_LABELS.podUid]: c.pod.metadata?.uid ?? '',
      [CRI_LABELS.containerName]: c.name,
      [CRI_LABELS.podName]: c.pod.metadata?.name ?? '',
      [CRI_LABELS.podNamespace]: c.pod.metadata?.namespace ?? '',
    };
  }
}

/** A pod with containers of these names. */
export function pod(namespace: string, name: string, containers: string[], extra: Partial<Pod> = {}): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { namespace, name, uid: `uid-${namespace}-${name}` },
    spec: { containers: containers.map((c) => ({ name: c, image: 'busybox' })) },
    ...extra,
  } as Pod;
}

/** A pod source over a list. */
export function podSource(pods: Pod[]): NodeAgentPodSource {
  return {
    byName: (ns, name) => pods.find((p) => p.metadata?.namespace === ns && p.metadata?.name === name),
    all: () => pods,
  };
}

/** A temporary directory removed by the returned function. */
export function tempDir(): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'memkube-nodeagent-server-'));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** An answer, its body as text. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request to the secured port (any server certificate accepted), optionally with a client certificate or token. */
export function secured(
  port: number,
  path: string,
  o: { method?: string; cert?: string; key?: string; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        path,
        method: o.method ?? 'GET',
        rejectUnauthorized: false,
        agent: false,
        ...(o.cert ? { cert: o.cert, key: o.key } : {}),
        headers: { ...(o.token ? { Authorization: `Bearer ${o.token}` } : {}), ...o.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** One plain HTTP request (the read-only port). */
export function plain(port: number, path: string, method = 'GET'): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end();
  });
}
