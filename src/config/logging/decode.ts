/**
 * Decoding a LoggingConfiguration on its own (it has no apiVersion or kind: a component embeds it
 * in its configuration), strictly as the component's codec does: unknown and duplicated fields
 * refused, and the two fields with custom JSON decoding (`flushFrequency`, `infoBufferSize`)
 * checked with Go's messages.
 */
import { YamlSyntaxError, parseYamlDocuments } from '../../codec/yaml.js';
import { quantityParseError } from '../../schema/quantity.js';
import { ConfigDecodeError, MAX_CONFIG_BYTES, decodeStrictly } from '../decode.js';
import { LoggingConfigurationSchema, type LoggingConfiguration } from './types.js';
import { goDurationMs } from './values.js';

/** Go's JSON name of a value's type in `cannot unmarshal X into ...`. */
function jsonTypeName(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (value === null) return 'null';
  if (typeof value === 'object') return 'object';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'number' ? `number ${String(value)}` : typeof value;
}

/** `TimeOrMetaDuration.UnmarshalJSON`: a string is a `metav1.Duration`, anything else nanoseconds. */
function checkFlushFrequency(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'string') return goDurationMs(value) === undefined ? `time: invalid duration ${JSON.stringify(value)}` : undefined;
  if (typeof value === 'number' && Number.isInteger(value) && Math.abs(value) <= 2 ** 63) return undefined;
  return `invalid duration ${JSON.stringify(JSON.stringify(value))}: json: cannot unmarshal ${jsonTypeName(value)} into Go value of type time.Duration`;
}

/** `Quantity.UnmarshalJSON`: a string or a number matching the quantity grammar. */
function checkQuantity(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' && typeof value !== 'number') return `json: cannot unmarshal ${jsonTypeName(value)} into Go value of type resource.Quantity`;
  return quantityParseError(String(value));
}

/** Go's `uint32` range for `verbosity` fields. */
function checkUint32(path: string, value: unknown): string | undefined {
  if (typeof value !== 'number' || (Number.isInteger(value) && value >= 0 && value <= 4294967295)) return undefined;
  return `json: cannot unmarshal number ${String(value)} into Go struct field ${path} of type v1.VerbosityLevel`;
}

/**
 * Decodes a LoggingConfiguration from YAML or JSON text (or a parsed value). Throws
 * {@link ConfigDecodeError} for syntax, type, unknown or duplicated fields.
 */
export function decodeLoggingConfiguration(input: string | unknown): LoggingConfiguration {
  let value: unknown = input;
  let duplicates: readonly string[] = [];
  if (typeof input === 'string') {
    if (Buffer.byteLength(input) > MAX_CONFIG_BYTES) throw new ConfigDecodeError(`configuration is larger than ${MAX_CONFIG_BYTES} bytes`);
    try {
      const docs = parseYamlDocuments(input);
      value = docs[0]?.value ?? {};
      duplicates = docs[0]?.duplicateFields ?? [];
    } catch (e) {
      throw new ConfigDecodeError(e instanceof YamlSyntaxError ? `error converting YAML to JSON: yaml: ${e.message}` : String(e));
    }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw new ConfigDecodeError(`json: cannot unmarshal ${jsonTypeName(value)} into Go value of type v1.LoggingConfiguration`);
  }
  const raw = value as Record<string, unknown>;
  const options = (raw.options ?? {}) as Record<string, Record<string, unknown> | undefined>;
  const custom = [
    checkFlushFrequency(raw.flushFrequency),
    checkUint32('LoggingConfiguration.verbosity', raw.verbosity),
    ...(Array.isArray(raw.vmodule)
      ? raw.vmodule.map((item: unknown) => checkUint32('VModuleItem.verbosity', (item as Record<string, unknown> | null)?.verbosity))
      : []),
    ...(options && typeof options === 'object' ? ['text', 'json'].map((f) => checkQuantity(options[f]?.infoBufferSize)) : []),
  ].find((m) => m !== undefined);
  if (custom) throw new ConfigDecodeError(custom);
  return decodeStrictly<LoggingConfiguration>(raw, LoggingConfigurationSchema(), duplicates);
}
