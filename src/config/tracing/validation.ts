/**
 * Validation of a TracingConfiguration as k8s.io/component-base/tracing/api/v1 config.go
 * ValidateTracingConfiguration: the sampling rate in 0..1,000,000, and the endpoint a gRPC target
 * (`host:port`, or a `dns:`, `unix:` or `unix-abstract:` URL). kube-apiserver passes no field
 * path, so paths are the bare field names.
 */
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { goParseURL } from '../../util/go-url.js';
import { MAX_SAMPLING_RATE_PER_MILLION, type TracingConfiguration } from './types.js';

/** The problems of a decoded configuration, in upstream's order; empty when it is valid. */
export function validateTracingConfiguration(config: TracingConfiguration): FieldError[] {
  const errs: FieldError[] = [];
  const rate = config.samplingRatePerMillion;
  if (rate !== undefined) {
    if (rate < 0) errs.push(fieldError.invalid('samplingRatePerMillion', rate, 'sampling rate must be positive'));
    if (rate > MAX_SAMPLING_RATE_PER_MILLION) {
      errs.push(fieldError.invalid('samplingRatePerMillion', rate, 'sampling rate per million must be less than or equal to one million'));
    }
  }
  if (config.endpoint !== undefined) errs.push(...validateEndpoint(config.endpoint));
  return errs;
}

function validateEndpoint(written: string): FieldError[] {
  const endpoint = written.includes('//') ? written : `dns://${written}`;
  const parsed = goParseURL(endpoint);
  if (!parsed.ok) return [fieldError.invalid('endpoint', endpoint, parsed.error)];
  const scheme = parsed.url.scheme;
  if (scheme === 'dns' || scheme === 'unix' || scheme === 'unix-abstract') return [];
  return [
    fieldError.invalid(
      'endpoint',
      endpoint,
      `unsupported scheme: ${scheme}.  Options are none, dns, unix, or unix-abstract.  See https://github.com/grpc/grpc/blob/master/doc/naming.md`,
    ),
  ];
}
