/**
 * Loading `--tracing-config-file` as kube-apiserver does (k8s.io/apiserver
 * pkg/server/options/tracing.go Validate, ApplyTo and ReadTracingConfiguration): the file must
 * exist, decodes strictly and validates; each failure with upstream's message.
 */
import { aggregateMessage } from '../../machinery/field-errors.js';
import { ConfigDecodeError, decodeConfig } from '../decode.js';
import { goReadFile, pathExists } from '../go-read-file.js';
import { TracingConfigurationKind, type TracingConfiguration } from './types.js';
import { validateTracingConfiguration } from './validation.js';

/** A configuration file kube-apiserver would refuse at start; the message is its own. */
export class TracingConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TracingConfigError';
  }
}

/** Decodes a configuration text (YAML or JSON); throws a {@link TracingConfigError} with the decoder's message. */
export function parseTracingConfiguration(text: string): TracingConfiguration {
  try {
    return decodeConfig<TracingConfiguration>(text, TracingConfigurationKind).value;
  } catch (e) {
    if (e instanceof ConfigDecodeError) throw new TracingConfigError(e.message);
    throw e;
  }
}

/** `ReadTracingConfiguration`: throws a {@link TracingConfigError} (`unable to read tracing configuration from ...`). */
export function readTracingConfiguration(path: string): TracingConfiguration {
  if (path === '') throw new TracingConfigError('tracing config file was empty');
  const read = goReadFile(path);
  if (!read.ok) throw new TracingConfigError(`unable to read tracing configuration from ${JSON.stringify(path)}: ${read.error}`);
  try {
    return parseTracingConfiguration(read.data.toString());
  } catch (e) {
    if (e instanceof TracingConfigError) throw new TracingConfigError(`unable to decode tracing configuration data: ${e.message}`);
    throw e;
  }
}

/**
 * What `--tracing-config-file` does at start: checks, reads and validates. Throws a
 * {@link TracingConfigError} with kube-apiserver's message (`failed to validate tracing
 * configuration: samplingRatePerMillion: Invalid value: -1: sampling rate must be positive`).
 */
export function loadTracingConfiguration(path: string): TracingConfiguration {
  if (!pathExists(path)) throw new TracingConfigError(`tracing-config-file ${path} does not exist`);
  let config: TracingConfiguration;
  try {
    config = readTracingConfiguration(path);
  } catch (e) {
    if (e instanceof TracingConfigError) throw new TracingConfigError(`failed to read tracing config: ${e.message}`);
    throw e;
  }
  const errs = validateTracingConfiguration(config);
  if (errs.length) throw new TracingConfigError(`failed to validate tracing configuration: ${aggregateMessage(errs)}`);
  return config;
}
