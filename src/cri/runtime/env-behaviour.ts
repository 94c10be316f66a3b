/**
 * What a container of `memkube cri` does, read from its environment: a pod's manifest scripts
 * its containers without any code, so kubectl users (and tests that drive `memkube cri` as a
 * separate process) can have a container print, crash or finish.
 *
 * - `MEMKUBE_CRI_STDOUT` / `MEMKUBE_CRI_STDERR`: text the container prints at its start (end it
 *   with a newline for a whole line);
 * - `MEMKUBE_CRI_EXIT_CODE`: the code it exits with on its own;
 * - `MEMKUBE_CRI_EXIT_AFTER_MS`: when it exits, in milliseconds after its start (0 by default
 *   when only an exit code is given);
 * - `MEMKUBE_CRI_STOP_EXIT_CODE`: the code it exits with when stopped (0: it handled SIGTERM);
 * - `MEMKUBE_CRI_CHECKPOINT_ERROR`: a checkpoint of it fails with this message (gRPC UNKNOWN);
 * - `MEMKUBE_CRI_CHECKPOINT_DELAY_MS`: a checkpoint of it takes this long (beyond the request's
   timeout it fails with DEADLINE_EXCEEDED).
 *
 * A container with none of them runs, silently, until it is stopped.
 */
import type { ContainerConfig } from '../api.js';
import type { ContainerBehaviour, ScriptedLog } from './records.js';

/**
 * The environment variables {@link behaviourFromEnv} reads.
 * @category CRI runtime
 */
export const CRI_BEHAVIOUR_ENV = {
  stdout: 'MEMKUBE_CRI_STDOUT',
  stderr: 'MEMKUBE_CRI_STDERR',
  exitCode: 'MEMKUBE_CRI_EXIT_CODE',
  exitAfterMs: 'MEMKUBE_CRI_EXIT_AFTER_MS',
  stopExitCode: 'MEMKUBE_CRI_STOP_EXIT_CODE',
  checkpointError: 'MEMKUBE_CRI_CHECKPOINT_ERROR',
  checkpointDelayMs: 'MEMKUBE_CRI_CHECKPOINT_DELAY_MS',
} as const;

/** An exit code as a process has one: 0 to 255. */
function exitCode(name: string, text: string): number {
  if (!/^\d{1,3}$/.test(text) || Number(text) > 255) throw new Error(`${name} must be an exit code from 0 to 255, not ${JSON.stringify(text)}`);
  return Number(text);
}

function milliseconds(name: string, text: string): number {
  if (!/^\d{1,15}$/.test(text)) throw new Error(`${name} must be a whole number of milliseconds, not ${JSON.stringify(text)}`);
  return Number(text);
}

/**
 * The behaviour a container's `envs` script. Throws for a malformed value, which the runtime
 * answers as a failed CreateContainer, so the pod shows the reason.
 * @category CRI runtime
 */
export function behaviourFromEnv(config: ContainerConfig): ContainerBehaviour | undefined {
  const env = new Map((config.envs ?? []).map((e) => [e.key, e.value]));
  const logs: ScriptedLog[] = [];
  const stdout = env.get(CRI_BEHAVIOUR_ENV.stdout);
  const stderr = env.get(CRI_BEHAVIOUR_ENV.stderr);
  if (stdout) logs.push({ stream: 'stdout', text: stdout });
  if (stderr) logs.push({ stream: 'stderr', text: stderr });
  const code = env.get(CRI_BEHAVIOUR_ENV.exitCode);
  const after = env.get(CRI_BEHAVIOUR_ENV.exitAfterMs);
  const stop = env.get(CRI_BEHAVIOUR_ENV.stopExitCode);
  const checkpointError = env.get(CRI_BEHAVIOUR_ENV.checkpointError);
  const checkpointDelay = env.get(CRI_BEHAVIOUR_ENV.checkpointDelayMs);
  const checkpoint = {
    ...(checkpointError ? { error: checkpointError } : {}),
    ...(checkpointDelay !== undefined ? { delayMs: milliseconds(CRI_BEHAVIOUR_ENV.checkpointDelayMs, checkpointDelay) } : {}),
  };
  const scriptsCheckpoint = Object.keys(checkpoint).length > 0;
  if (!logs.length && code === undefined && after === undefined && stop === undefined && !scriptsCheckpoint) return undefined;
  return {
    ...(logs.length ? { logs } : {}),
    ...(code !== undefined ? { exitCode: exitCode(CRI_BEHAVIOUR_ENV.exitCode, code) } : {}),
    ...(after !== undefined ? { exitAfterMs: milliseconds(CRI_BEHAVIOUR_ENV.exitAfterMs, after) } : {}),
    ...(stop !== undefined ? { stopExitCode: exitCode(CRI_BEHAVIOUR_ENV.stopExitCode, stop) } : {}),
    ...(scriptsCheckpoint ? { checkpoint } : {}),
  };
}
