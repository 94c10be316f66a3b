/**
 * Failure injection for memkube's CRI runtime: what the next (or every) call of a kind does instead
 * of succeeding. Tests use it to drive the node agent through a runtime's failure paths.
 */

/**
 * How many calls a fault applies to: a number of calls, or every call until cleared.
 * @category CRI runtime
 */
export interface FaultOptions {
  /** Calls to fail; omitted, every call fails until {@link CriFaults.clear}. */
  readonly times?: number;
}

interface CountedFault {
  message: string;
  remaining: number;
}

function take(fault: CountedFault | undefined): string | undefined {
  if (!fault || fault.remaining <= 0) return undefined;
  fault.remaining--;
  return fault.message;
}

function counted(message: string, options: FaultOptions | undefined): CountedFault {
  const times = options?.times ?? Infinity;
  if (!(times >= 0)) throw new RangeError(`times must be a non-negative number, not ${times}`);
  return { message, remaining: times };
}

/**
 * The faults a runtime currently injects. Created by the runtime; reach it as `runtime.faults`.
 * @category CRI runtime
 */
export class CriFaults {
  private checkpointFault: CountedFault | undefined;
  private pullFault: CountedFault | undefined;
  private runPodSandboxFault: CountedFault | undefined;
  private checkpointDelay = 0;
  private checkpointMissing = false;

  /** CheckpointContainer fails with gRPC UNKNOWN and this message (as a failed CRIU dump would). */
  failCheckpoints(message: string, options?: FaultOptions): this {
    this.checkpointFault = counted(message, options);
    return this;
  }

  /**
   * Every CheckpointContainer takes `ms` milliseconds of the runtime's clock; one whose request
   * `timeout` (seconds, when not 0) is shorter fails with DEADLINE_EXCEEDED once the timeout has passed.
   */
  delayCheckpoints(ms: number): this {
    if (!(ms >= 0) || !Number.isFinite(ms)) throw new RangeError(`delay must be a non-negative number of milliseconds, not ${ms}`);
    this.checkpointDelay = ms;
    return this;
  }

  /**
   * CheckpointContainer answers UNIMPLEMENTED with containerd 1.6's message
   * (`method CheckpointContainer not implemented`), as a runtime without checkpoint support does.
   */
  checkpointsUnimplemented(unimplemented = true): this {
    this.checkpointMissing = unimplemented;
    return this;
  }

  /** PullImage fails with gRPC UNKNOWN and this message. */
  failPulls(message: string, options?: FaultOptions): this {
    this.pullFault = counted(message, options);
    return this;
  }

  /** RunPodSandbox fails with gRPC UNKNOWN and this message (a CNI failure, say). */
  failRunPodSandbox(message: string, options?: FaultOptions): this {
    this.runPodSandboxFault = counted(message, options);
    return this;
  }

  /** Removes every injected fault. */
  clear(): this {
    this.checkpointFault = this.pullFault = this.runPodSandboxFault = undefined;
    this.checkpointDelay = 0;
    this.checkpointMissing = false;
    return this;
  }

  /** @internal The message the next checkpoint fails with, consuming one use. */
  takeCheckpointFailure(): string | undefined {
    return take(this.checkpointFault);
  }
  /** @internal */
  takePullFailure(): string | undefined {
    return take(this.pullFault);
  }
  /** @internal */
  takeRunPodSandboxFailure(): string | undefined {
    return take(this.runPodSandboxFault);
  }
  /** @internal */
  get checkpointDelayMs(): number {
    return this.checkpointDelay;
  }
  /** @internal */
  get checkpointUnimplemented(): boolean {
    return this.checkpointMissing;
  }
}
