/**
 * The cost per request of a feature, from the throughput with it (ours) and without it (baseline) of
 * the same round: `1e6 / ours - 1e6 / baseline` microseconds. With the load generator keeping the
 * server busy, a request's share of the wall time is the inverse of the throughput, so the
 * difference is what the feature adds to each request on this machine (CPU time, not latency).
 */
import { summarize, type Summary } from './stats.js';

/** Microseconds added per request, one sample per round (paired by index). */
export function costPerRequestMicros(ours: readonly number[], baseline: readonly number[]): number[] {
  if (ours.length !== baseline.length) throw new Error(`${ours.length} rounds of ours beside ${baseline.length} of the baseline`);
  return ours.map((o, i) => 1e6 / o - 1e6 / baseline[i]!);
}

/** The per-round costs, summarized. */
export function costSummary(ours: readonly number[], baseline: readonly number[]): Summary {
  return summarize(costPerRequestMicros(ours, baseline));
}
