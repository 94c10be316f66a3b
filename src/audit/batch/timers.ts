/**
 * The time a batching backend waits by: real timers by default, a manual one in tests, so that a
 * 30 second batch wait or a throttle delay passes without anyone sleeping.
 */

/** Timers and the current time. */
export interface AuditTimers {
  /** Milliseconds since the epoch (any monotonic origin will do). */
  now(): number;
  /** Runs `fn` after `ms` milliseconds; returns a function that cancels it. */
  after(ms: number, fn: () => void): () => void;
}

/** The longest wait `setTimeout` takes (a longer one would fire at once). */
export const MAX_TIMER_MS = 2 ** 31 - 1;

/** `setTimeout`, unreferenced so that a pending batch wait does not keep the process alive; long waits are chained. */
export const REAL_AUDIT_TIMERS: AuditTimers = {
  now: () => performance.now(),
  after(ms, fn) {
    let timer: ReturnType<typeof setTimeout>;
    const arm = (left: number) => {
      timer = setTimeout(() => (left > MAX_TIMER_MS ? arm(left - MAX_TIMER_MS) : fn()), Math.min(Math.max(0, left), MAX_TIMER_MS));
      timer.unref?.();
    };
    arm(ms);
    return () => clearTimeout(timer);
  },
};

/** A clock that moves only when told: timers fire, in order, as {@link ManualAuditTimers.advance} passes them. */
export class ManualAuditTimers implements AuditTimers {
  private time = 0;
  private seq = 0;
  private readonly pending = new Map<number, { at: number; fn: () => void }>();

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): () => void {
    const id = this.seq++;
    this.pending.set(id, { at: this.time + Math.max(0, ms), fn });
    return () => this.pending.delete(id);
  }

  /** How many timers are set. */
  get waiting(): number {
    return this.pending.size;
  }

  /** Moves time forward by `ms`, firing each timer that falls due at its own time. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      let next: [number, { at: number; fn: () => void }] | undefined;
      for (const entry of this.pending) if (entry[1].at <= end && (!next || entry[1].at < next[1].at)) next = entry;
      if (!next) break;
      this.pending.delete(next[0]);
      this.time = next[1].at;
      next[1].fn();
    }
    this.time = end;
  }
}
