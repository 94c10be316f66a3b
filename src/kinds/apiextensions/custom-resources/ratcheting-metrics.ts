/**
 * `apiextensions_apiserver_validation_ratcheting_seconds` (apiextensions-apiserver
 * pkg/apiserver/validation/metrics.go): the time each update of a custom resource spends comparing
 * the new object with the stored one so that errors on unchanged values are let through.
 */
import type { MetricsRegistry } from '../../../metrics/registry.js';
import type { RatchetingObserver } from './rules.js';

/**
 * Upstream's buckets, `ExponentialBuckets(0.00001, 4, 10)`: 10 µs, then each 4 times the last, up
 * to about 2.6 s. Multiplied in turn as Go does, so the bounds print as Go prints them.
 */
export const RATCHETING_BUCKETS: readonly number[] = (() => {
  const out = [0.00001];
  while (out.length < 10) out.push(out[out.length - 1]! * 4);
  return out;
})();

/** Declares the histogram in `metrics` and answers the observer the custom resource kinds call. */
export function ratchetingSeconds(metrics: MetricsRegistry): RatchetingObserver {
  const histogram = metrics.histogram({
    name: 'apiextensions_apiserver_validation_ratcheting_seconds',
    help: 'Time for comparison of old to new for the purposes of CRDValidationRatcheting during an UPDATE in seconds.',
    stability: 'ALPHA',
    buckets: RATCHETING_BUCKETS,
  });
  return (seconds) => histogram.observe({}, seconds);
}
