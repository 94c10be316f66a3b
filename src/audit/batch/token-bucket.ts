/**
 * The throttle of a batching backend (client-go `flowcontrol.NewTokenBucketRateLimiter` over
 * golang.org/x/time/rate): `burst` tokens to start with, `qps` more each second up to `burst`; each
 * batch takes one, waiting for it when none is left.
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly qps: number,
    private readonly burst: number,
    now: number,
  ) {
    this.tokens = burst;
    this.last = now;
  }

  /** Takes a token; answers how many milliseconds to wait before using it (0 when one was there). */
  take(now: number): number {
    if (this.qps === Infinity) return 0;
    const elapsed = Math.max(0, now - this.last);
    this.last = Math.max(this.last, now);
    this.tokens = Math.min(this.burst, this.tokens + (elapsed * this.qps) / 1000);
    this.tokens -= 1;
    // A reservation: the token is owed, and arrives when the deficit is refilled.
    return this.tokens >= 0 ? 0 : (-this.tokens / this.qps) * 1000;
  }
}
