/** The state memkube's runtime keeps per sandbox and per container. */
import type { ContainerConfig, ContainerState, PodSandboxConfig, PodSandboxState } from '../api.js';
import type { LogStream } from './cri-log.js';

/**
 * One line (or chunk) of scripted output.
 * @category CRI runtime
 */
export interface ScriptedLog {
  readonly stream: LogStream;
  /** Written as the container printed it: a text without a final newline ends in a partial line. */
  readonly text: string;
  /** Milliseconds after the start when the container prints it (0, the default: at the start). */
  readonly afterMs?: number;
}

/**
 * What a container does, since memkube runs no processes: what it prints, and whether and when it
 * exits on its own. A container with neither `exitCode` nor `exitAfterMs` runs until stopped.
 * @category CRI runtime
 */
export interface ContainerBehaviour {
  readonly logs?: readonly ScriptedLog[];
  /** The exit code when it exits on its own (0 when only `exitAfterMs` is given). */
  readonly exitCode?: number;
  /** Milliseconds after the start when it exits (0 when only `exitCode` is given). */
  readonly exitAfterMs?: number;
  /** The exit code when stopped by StopContainer or StopPodSandbox (default 0: it handled SIGTERM). */
  readonly stopExitCode?: number;
  /** How a checkpoint of this container goes: it fails with `error` (gRPC UNKNOWN), or takes `delayMs` of the runtime's clock. */
  readonly checkpoint?: { readonly error?: string; readonly delayMs?: number };
}

/** @internal */
export interface SandboxRecord {
  readonly id: string;
  readonly config: PodSandboxConfig;
  readonly runtimeHandler: string;
  readonly createdAtMs: number;
  readonly ip: string;
  readonly nameKey: string;
  state: PodSandboxState;
}

/** @internal */
export interface ContainerRecord {
  readonly id: string;
  readonly sandboxId: string;
  readonly config: ContainerConfig;
  readonly sandboxConfig: PodSandboxConfig;
  readonly nameKey: string;
  readonly imageName: string;
  readonly imageId: string;
  readonly imageDigestRef: string;
  readonly createdAtMs: number;
  readonly behaviour: ContainerBehaviour;
  /** Absolute log file path, or '' when the sandbox or container gave none. */
  readonly logFile: string;
  state: ContainerState;
  startedAtMs?: number;
  finishedAtMs?: number;
  exitCode: number;
  reason: string;
  message: string;
  /** Scripted logs not yet written, in order. */
  pendingLogs: ScriptedLog[];
  /** When it exits on its own, if it does. */
  exitDueAtMs?: number;
}
