/**
 * `POST /checkpoint/{namespace}/{pod}/{container}[?timeout=S]` (kubelet's `checkpoint` handler and
 * `Kubelet.CheckpointContainer`): the container's running instance is checkpointed by the runtime
 * into `<root-dir>/checkpoints/checkpoint-<pod>_<namespace>-<container>-<RFC3339 time>.tar`, and the
 * answer lists that archive.
 */
import { mkdir } from 'node:fs/promises';
import { join, resolve, sep } from 'node:path';
import type { RuntimeService } from '../../cri/api.js';
import type { Clock } from '../../clock.js';
import { containerAttempts, podFullName, podHasContainer, type NodeAgentPodSource } from './pod-containers.js';
import { writeErrorString, writeJson } from './respond.js';
import type { RouteContext } from './router.js';

/** What the checkpoint handler needs. */
export interface CheckpointDeps {
  pods: NodeAgentPodSource;
  runtime: RuntimeService;
  rootDir: string;
  clock: Clock;
}

/** kubelet's checkpoints directory under its root directory. */
export function checkpointsDir(rootDir: string): string {
  return join(rootDir, 'checkpoints');
}

/** kubelet creates the checkpoints directory with mode 0700 when the feature is on. */
export async function createCheckpointsDir(rootDir: string): Promise<void> {
  await mkdir(checkpointsDir(rootDir), { recursive: true, mode: 0o700 });
}

/** Go's `time.Format(time.RFC3339)` of a UTC time: whole seconds, `Z`. */
function rfc3339(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * The archive's path for the pod's container at time `ms`, or undefined when the parts would not
 * name one file directly in the checkpoints directory (a separator, NUL, `..`, a name too long).
 */
export function checkpointLocation(rootDir: string, fullName: string, container: string, ms: number): string | undefined {
  const dir = resolve(checkpointsDir(rootDir));
  const file = `checkpoint-${fullName}-${container}-${rfc3339(ms)}.tar`;
  if (/[/\\\0]/.test(file) || Buffer.byteLength(file) > 255) return undefined;
  const location = resolve(dir, file);
  return location.startsWith(dir + sep) && !location.slice(dir.length + 1).includes(sep) ? location : undefined;
}

/** The checkpoint handler. */
export function checkpointHandler(deps: CheckpointDeps) {
  return async ({ res, params, query }: RouteContext): Promise<void> => {
    const { podNamespace, podID, containerName } = params as { podNamespace: string; podID: string; containerName: string };
    const pod = deps.pods.byName(podNamespace, podID);
    if (!pod) return writeErrorString(res, 404, 'pod does not exist');
    if (!podHasContainer(pod, containerName)) return writeErrorString(res, 404, `container ${containerName} does not exist`);
    let timeout = 0n;
    const timeouts = query.getAll('timeout');
    if (timeouts.length) {
      // The last value wins, read as Go's ParseInt.
      const value = timeouts[timeouts.length - 1]!;
      const n = /^[+-]?\d+$/.test(value) ? BigInt(value) : undefined;
      if (n === undefined || n < -(2n ** 63n) || n >= 2n ** 63n) return writeErrorString(res, 404, 'cannot parse value of timeout parameter');
      timeout = n;
    }
    const failed = (reason: string) => writeErrorString(res, 500, `checkpointing of ${podNamespace}/${podID}/${containerName} failed (${reason})`);
    try {
      // kubelet looks among the pod's running containers (`GetPods(false)`).
      const [container] = await containerAttempts(deps.runtime, pod, containerName, 'CONTAINER_RUNNING');
      if (!container) return failed(`container ${containerName} not found`);
      const location = checkpointLocation(deps.rootDir, podFullName(pod), containerName, deps.clock.now());
      if (!location) return failed(`invalid checkpoint location for container ${containerName}`);
      await createCheckpointsDir(deps.rootDir);
      await deps.runtime.checkpointContainer({ containerId: container.id, location, timeout });
      writeJson(res, `{"items":[${JSON.stringify(location)}]}`);
    } catch (err) {
      failed(err instanceof Error ? err.message : String(err));
    }
  };
}
