/** Go's `time.Duration.String()` of a latency measured in (fractional) nanoseconds: `850ns`, `1.5µs`, `2m3.5s`. */
import { goDurationText } from '../util/go-time.js';

/** The text Go prints for a duration of `ns` nanoseconds (rounded to a whole nanosecond). */
export function goDurationString(ns: number): string {
  return goDurationText(BigInt(Math.round(ns)));
}
