/** `SetRecommendedLoggingConfiguration` (component-base logs/api/v1/options.go): the defaults of unset fields. */
import type { LoggingConfiguration, OutputRoutingOptions } from './types.js';
import { TEXT_LOG_FORMAT } from './types.js';
import { flushFrequencyMs } from './values.js';

/** `LogFlushFreqDefault`. */
export const DEFAULT_LOG_FLUSH_FREQUENCY = '5s';

function routing(o: OutputRoutingOptions | undefined): OutputRoutingOptions {
  return { ...o, infoBufferSize: o?.infoBufferSize ?? '0' };
}

/** A copy of `c` with the recommended defaults: text format, flushes every 5 s, no info buffer. */
export function withLoggingDefaults(c: LoggingConfiguration = {}): LoggingConfiguration {
  return {
    ...c,
    format: c.format || TEXT_LOG_FORMAT,
    // A zero duration (either spelling) is unset, as Go's zero value is.
    flushFrequency: c.flushFrequency === undefined || flushFrequencyMs(c.flushFrequency) === 0 ? DEFAULT_LOG_FLUSH_FREQUENCY : c.flushFrequency,
    verbosity: c.verbosity ?? 0,
    options: { text: routing(c.options?.text), json: routing(c.options?.json) },
  };
}
