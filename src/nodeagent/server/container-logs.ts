/**
 * `GET /containerLogs/{namespace}/{pod}/{container}` (kubelet's `getContainerLogs`, then
 * `GetKubeletContainerLogs` and the runtime manager's `GetContainerLogs`): the query checked, the
 * pod and container looked up, the attempt chosen (the current one, or with `previous` the one
 * before), and its CRI log file streamed. Once the attempt is known the answer is 200 and
 * streaming; a later failure is written into the body, as kubelet's already flushed answer does.
 */
import type { ServerResponse } from 'node:http';
import type { Clock } from '../../clock.js';
import type { RuntimeService } from '../../cri/api.js';
import type { Pod } from '../../kinds/types/core-v1.js';
import { goQuote } from '../../util/go-format.js';
import { CriLogError, readCriLogFile, type CriLogReadOptions } from './cri-log-file.js';
import { containerAttempts, podHasContainer, type NodeAgentPodSource } from './pod-containers.js';
import { podLogOptionsFromQuery, type PodLogOptions } from './pod-log-options.js';
import { writeErrorString } from './respond.js';
import type { RouteContext } from './router.js';

/** What the logs handler needs. */
export interface ContainerLogsDeps {
  pods: NodeAgentPodSource;
  runtime: RuntimeService;
  clock: Clock;
  /** Feature gate `PodLogsQuerySplitStreams`: the `stream` parameter may pick stdout or stderr. */
  splitStreams: boolean;
  /** How often a follow looks at the container when its log does not change; 1 second by default. */
  followCheckMs?: number;
}

/** The container status reasons kubelet words as an image that cannot be pulled. */
const IMAGE_PULL_REASONS = new Set(['ErrImagePull', 'ImagePullBackOff']);

/** Why no attempt has logs, as kubelet's `validateContainerLogStatus` words it. */
function noAttemptText(pod: Pod, container: string, previous: boolean): string {
  const podName = goQuote(pod.metadata?.name ?? '');
  if (previous) return `previous terminated container ${goQuote(container)} in pod ${podName} not found`;
  const status = pod.status;
  const statuses = [...(status?.containerStatuses ?? []), ...(status?.initContainerStatuses ?? []), ...(status?.ephemeralContainerStatuses ?? [])];
  const reason = statuses.find((s) => s.name === container)?.state?.waiting?.reason;
  if (reason === undefined) return `container ${goQuote(container)} in pod ${podName} is not available`;
  return `container ${goQuote(container)} in pod ${podName} is waiting to start: ${IMAGE_PULL_REASONS.has(reason) ? "image can't be pulled" : reason}`;
}

function streamsOf(options: PodLogOptions, splitStreams: boolean): CriLogReadOptions['streams'] | string {
  const stream = options.stream ?? 'All';
  if (!splitStreams) {
    return stream === 'All'
      ? { stdout: true, stderr: true }
      : `unable to return the given log stream: ${goQuote(stream)}. Please enable PodLogsQuerySplitStreams feature gate in kubelet`;
  }
  if (stream === 'All') return { stdout: true, stderr: true };
  if (stream === 'Stdout') return { stdout: true, stderr: false };
  if (stream === 'Stderr') return { stdout: false, stderr: true };
  return `invalid stream type ${goQuote(stream)}`;
}

/** Writes bytes to the answer, waiting while the client is behind; rejects once it went away. */
function sinkOf(res: ServerResponse) {
  return (bytes: Buffer) =>
    new Promise<void>((resolve, reject) => {
      if (res.destroyed) return reject(new Error('the client went away'));
      if (res.write(bytes)) return resolve();
      const settle = () => {
        res.off('drain', settle);
        res.off('close', settle);
        if (res.destroyed) reject(new Error('the client went away'));
        else resolve();
      };
      res.on('drain', settle);
      res.on('close', settle);
    });
}

/** The container logs handler. */
export function containerLogsHandler(deps: ContainerLogsDeps) {
  return async ({ res, params, query }: RouteContext): Promise<void> => {
    const { podNamespace, podID, containerName } = params as { podNamespace: string; podID: string; containerName: string };
    if (!podID) return writeErrorString(res, 400, '{"message": "Missing podID."}');
    if (!containerName) return writeErrorString(res, 400, '{"message": "Missing container name."}');
    if (!podNamespace) return writeErrorString(res, 400, '{"message": "Missing podNamespace."}');
    const options = podLogOptionsFromQuery(query);
    if (options === 'decode') return writeErrorString(res, 400, '{"message": "Unable to decode query."}');
    if (options === 'invalid') return writeErrorString(res, 422, '{"message": "Invalid request."}');
    const pod = deps.pods.byName(podNamespace, podID);
    if (!pod) return writeErrorString(res, 404, `pod ${goQuote(podID)} does not exist`);
    if (!podHasContainer(pod, containerName)) return writeErrorString(res, 404, `container ${goQuote(containerName)} not found in pod ${goQuote(podID)}`);
    const streams = streamsOf(options, deps.splitStreams);
    if (typeof streams === 'string') return writeErrorString(res, 400, streams);

    let containerId: string;
    try {
      const attempts = await containerAttempts(deps.runtime, pod, containerName);
      const attempt = attempts[options.previous ? 1 : 0];
      if (!attempt) return writeErrorString(res, 400, noAttemptText(pod, containerName, options.previous));
      containerId = attempt.id;
    } catch (err) {
      return writeErrorString(res, 400, err instanceof Error ? err.message : String(err));
    }

    // kubelet's zero-byte write flushes a 200 before the runtime is asked anything.
    res.writeHead(200, { 'Transfer-Encoding': 'chunked' });
    res.flushHeaders();
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    try {
      let logPath: string;
      try {
        logPath = (await deps.runtime.containerStatus({ containerId })).status.logPath;
      } catch {
        // kubelet names the container by its typed ID, `<runtime>://<id>`.
        const runtimeName = await deps.runtime.version({}).then(
          (v) => v.runtimeName,
          () => undefined,
        );
        throw new CriLogError(`unable to retrieve container logs for ${runtimeName ? `${runtimeName}://` : ''}${containerId}`);
      }
      const nowNs = BigInt(deps.clock.now()) * 1_000_000n;
      let sinceNs = options.sinceSeconds !== undefined ? nowNs - BigInt(options.sinceSeconds) * 1_000_000_000n : undefined;
      if (options.sinceTimeNs !== undefined && (sinceNs === undefined || options.sinceTimeNs > sinceNs)) sinceNs = options.sinceTimeNs;
      await readCriLogFile(
        logPath,
        {
          tail: options.tailLines ?? -1,
          limitBytes: options.limitBytes ?? -1,
          timestamps: options.timestamps,
          follow: options.follow,
          streams,
          ...(sinceNs !== undefined ? { sinceNs } : {}),
        },
        sinkOf(res),
        {
          signal: abort.signal,
          ...(deps.followCheckMs !== undefined ? { forceCheckMs: deps.followCheckMs } : {}),
          isRunning: async () => {
            const { status } = await deps.runtime.containerStatus({ containerId });
            return status.state !== 'CONTAINER_EXITED' && status.state !== 'CONTAINER_UNKNOWN';
          },
        },
      );
    } catch (err) {
      if (!res.destroyed) res.write(err instanceof Error ? err.message : String(err));
    }
    res.end();
  };
}
