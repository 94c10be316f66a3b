/**
 * The cluster's clock. Every timestamp the server writes, every expiry and every interval uses it,
 * so a test can move time forward deterministically instead of sleeping.
 */

/**
 * A source of time for the cluster.
 * @category Cluster
 */
export interface Clock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/**
 * A clock that can be moved forward by hand.
 * @category Cluster
 */
export interface ManualClock extends Clock {
  /** Moves the clock forward by `ms` milliseconds (fires timers that fall due). */
  advance(ms: number): void;
  /** Sets the clock to an absolute time; must not go backwards. */
  set(epochMs: number): void;
  /** Whether the clock follows real time between manual moves. */
  readonly realTime: boolean;
}

/**
 * Called with the new time after the clock was moved by hand.
 * @category Cluster
 */
export type ClockListener = (now: number) => void;

/**
 * A clock that follows real time, offset by every `advance()`; or, with `frozenAt`, stands still
 * until advanced. Listeners registered with `onAdvance` run after each manual move, so time-based
 * work (expiry, graceful deletion) can react without timers.
 * @category Cluster
 */
export class CombinedClock implements ManualClock {
  readonly realTime: boolean;
  private offset = 0;
  private frozen: number;
  private readonly listeners = new Set<ClockListener>();

  constructor(options: { frozenAt?: number | Date } = {}) {
    const frozenAt = options.frozenAt instanceof Date ? options.frozenAt.getTime() : options.frozenAt;
    this.realTime = frozenAt === undefined;
    this.frozen = frozenAt ?? 0;
  }

  now(): number {
    return this.realTime ? Date.now() + this.offset : this.frozen;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`clock.advance: ${ms} is not a non-negative number of milliseconds`);
    if (this.realTime) this.offset += ms;
    else this.frozen += ms;
    this.notify();
  }

  set(epochMs: number): void {
    const delta = epochMs - this.now();
    if (delta < 0) throw new RangeError('clock.set: the cluster clock never goes backwards');
    this.advance(delta);
  }

  /** Registers a listener called after each manual move; returns a function that removes it. */
  onAdvance(listener: ClockListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private notify(): void {
    const now = this.now();
    for (const l of this.listeners) l(now);
  }
}

/**
 * RFC 3339 time with second precision, as `metav1.Time` serializes: `2026-11-22T10:00:00Z`.
 * @category Utilities
 */
export function formatTime(epochMs: number): string {
  return new Date(Math.floor(epochMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/**
 * RFC 3339 time with microsecond precision, as `metav1.MicroTime` serializes: `2026-11-22T10:00:00.123000Z`.
 * @category Utilities
 */
export function formatMicroTime(epochMs: number): string {
  const iso = new Date(epochMs).toISOString();
  return `${iso.slice(0, 23)}000Z`;
}
