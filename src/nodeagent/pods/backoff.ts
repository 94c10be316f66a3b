/**
 * Exponential back-off per key, as client-go's `flowcontrol.Backoff` serves kubelet's restart and
 * image pull back-off: 10s doubling to 5m, forgotten once a key has been quiet for twice the maximum.
 */
import type { Clock } from '../../clock.js';

/** kubelet's initial container restart back-off. */
export const INITIAL_BACKOFF_MS = 10_000;
/** kubelet's maximum container restart back-off (`MaxContainerBackOff`). */
export const MAX_BACKOFF_MS = 300_000;

interface Entry {
  durationMs: number;
  lastUpdate: number;
}

/** Back-off durations by key. */
export class Backoff {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly clock: Clock,
    private readonly initialMs = INITIAL_BACKOFF_MS,
    private readonly maxMs = MAX_BACKOFF_MS,
  ) {}

  private expired(entry: Entry, at: number): boolean {
    return at - entry.lastUpdate > 2 * this.maxMs;
  }

  /** The current duration of a key (0 when it has none). */
  get(key: string): number {
    return this.entries.get(key)?.durationMs ?? 0;
  }

  /** Records an event at `at`: the first sets the initial duration, each later one doubles it up to the maximum. */
  next(key: string, at: number): void {
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, at)) this.entries.set(key, { durationMs: this.initialMs, lastUpdate: at });
    else this.entries.set(key, { durationMs: Math.min(entry.durationMs * 2, this.maxMs), lastUpdate: at });
  }

  /** Whether less than the key's duration has passed since `since` (`IsInBackOffSince`). */
  inBackoffSince(key: string, since: number): boolean {
    const entry = this.entries.get(key);
    if (!entry || this.expired(entry, since)) return false;
    return this.clock.now() - since < entry.durationMs;
  }

  /** Whether less than the key's duration has passed since its last event (`IsInBackOffSinceUpdate`). */
  inBackoffSinceUpdate(key: string): boolean {
    const entry = this.entries.get(key);
    if (!entry) return false;
    return this.inBackoffSince(key, entry.lastUpdate);
  }

  /** Forgets keys whose prefix matches (a pod that is gone). */
  forgetPrefix(prefix: string): void {
    for (const k of [...this.entries.keys()]) if (k.startsWith(prefix)) this.entries.delete(k);
  }
}

/** Go's `time.Duration.String()` of whole seconds or minutes as kubelet's messages print them (`10s`, `1m20s`, `5m0s`). */
export function durationText(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  return `${m}m${s % 60}s`;
}
