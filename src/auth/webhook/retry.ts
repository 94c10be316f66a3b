/**
 * Retrying a webhook call on transient errors as k8s.io/apiserver's `WithExponentialBackoff` does
 * (over `wait.ExponentialBackoffWithContext`): up to `steps` calls, waiting `initialDelayMs` after
 * the first failure and `factor` times longer after each next one, each wait stretched by up to
 * `jitter` of itself; a failure that is not transient ends at once; the last error is the answer.
 */

/**
 * Backoff parameters (`wait.Backoff`).
 * @category Node agent
 */
export interface RetryBackoff {
  readonly initialDelayMs: number;
  readonly factor: number;
  readonly jitter: number;
  /** The most calls made. */
  readonly steps: number;
}

/** `webhook.DefaultRetryBackoff()` of the authorization webhook: 500 ms, ×1.5, 20% jitter, 5 calls. */
export const DEFAULT_RETRY_BACKOFF: RetryBackoff = { initialDelayMs: 500, factor: 1.5, jitter: 0.2, steps: 5 };

/**
 * How the waits are made: a timer by default; tests pass one that records and returns at once.
 * @category Node agent
 */
export interface RetryTiming {
  /** Waits `ms` milliseconds. */
  readonly sleep: (ms: number) => Promise<void>;
  /** A number in [0, 1), for the jitter. */
  readonly random: () => number;
}

/** Real timers and `Math.random`. */
export const REAL_TIMING: RetryTiming = {
  sleep: (ms) =>
    new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      t.unref?.();
    }),
  random: Math.random,
};

/** Calls `fn` until it succeeds, fails for good (`transient(e)` false), or the steps run out. */
export async function withExponentialBackoff<T>(
  backoff: RetryBackoff,
  timing: RetryTiming,
  fn: () => Promise<T>,
  transient: (e: unknown) => boolean,
): Promise<T> {
  let delay = backoff.initialDelayMs;
  for (let step = 1; ; step++) {
    try {
      return await fn();
    } catch (e) {
      if (!transient(e) || step >= backoff.steps) throw e;
    }
    const wait = backoff.jitter > 0 ? delay + timing.random() * backoff.jitter * delay : delay;
    delay *= backoff.factor;
    await timing.sleep(wait);
  }
}
