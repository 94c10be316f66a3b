/**
 * The logging flags of kube-apiserver and the other components (component-base logs/api/v1
 * options.go `addFlags`, pflags.go): each sets a field of a LoggingConfiguration, and a bad value
 * fails with pflag's `invalid argument "x" for "--flag" flag: ...` message.
 */
import { quantityParseError } from '../../schema/quantity.js';
import type { LoggingConfiguration, OutputRoutingOptions } from './types.js';
import { goDurationMs } from './values.js';

/** The flags, without their dashes. */
export const LOGGING_FLAGS = [
  'logging-format',
  'v',
  'vmodule',
  'log-flush-frequency',
  'log-text-split-stream',
  'log-json-split-stream',
  'log-text-info-buffer-size',
  'log-json-info-buffer-size',
] as const;
/** One of the logging flags, without its dashes. */
export type LoggingFlag = (typeof LOGGING_FLAGS)[number];

/** Flags that need no value (`--log-text-split-stream` is `=true`). */
export const BOOLEAN_LOGGING_FLAGS: ReadonlySet<string> = new Set(['log-text-split-stream', 'log-json-split-stream']);

/** A flag value pflag would refuse. */
export class LoggingFlagError extends Error {
  constructor(flag: LoggingFlag, value: string, reason: string) {
    super(`invalid argument ${JSON.stringify(value)} for "${flag === 'v' ? '-v, --v' : `--${flag}`}" flag: ${reason}`);
    this.name = 'LoggingFlagError';
  }
}

/** Go's `strconv.ParseUint(text, 10, 31)`: the value or its error text. */
function parseUint31(text: string): number | string {
  if (!/^\d+$/.test(text)) return `strconv.ParseUint: parsing ${JSON.stringify(text)}: invalid syntax`;
  const n = Number(text);
  if (n > 2147483647) return `strconv.ParseUint: parsing ${JSON.stringify(text)}: value out of range`;
  return n;
}

/** Go's `strconv.ParseBool`. */
function parseBool(text: string): boolean | string {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return `strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`;
}

function withRouting(c: LoggingConfiguration, format: 'text' | 'json', change: OutputRoutingOptions): LoggingConfiguration {
  return { ...c, options: { ...c.options, [format]: { ...c.options?.[format], ...change } } };
}

/** `c` with one flag applied; throws {@link LoggingFlagError}. */
export function applyLoggingFlag(c: LoggingConfiguration, flag: LoggingFlag, value: string): LoggingConfiguration {
  const fail = (reason: string): never => {
    throw new LoggingFlagError(flag, value, reason);
  };
  switch (flag) {
    case 'logging-format':
      return { ...c, format: value };
    case 'v': {
      const v = parseUint31(value);
      return typeof v === 'string' ? fail(v) : { ...c, verbosity: v };
    }
    case 'vmodule': {
      const items = [...(c.vmodule ?? [])];
      for (const pat of value.split(',')) {
        if (pat === '') continue;
        const parts = pat.split('=');
        if (parts.length !== 2 || parts[0] === '' || parts[1] === '') fail(`${JSON.stringify(pat)} does not have the pattern=N format`);
        const v = parseUint31(parts[1]!);
        if (typeof v === 'string') fail(`parsing verbosity in ${JSON.stringify(pat)}: ${v}`);
        items.push({ filePattern: parts[0]!, verbosity: v as number });
      }
      return { ...c, vmodule: items };
    }
    case 'log-flush-frequency':
      return goDurationMs(value) === undefined ? fail(`time: invalid duration ${JSON.stringify(value)}`) : { ...c, flushFrequency: value };
    case 'log-text-split-stream':
    case 'log-json-split-stream': {
      const b = parseBool(value);
      return typeof b === 'string' ? fail(b) : withRouting(c, flag === 'log-text-split-stream' ? 'text' : 'json', { splitStream: b });
    }
    case 'log-text-info-buffer-size':
    case 'log-json-info-buffer-size': {
      const problem = quantityParseError(value);
      return problem ? fail(problem) : withRouting(c, flag === 'log-text-info-buffer-size' ? 'text' : 'json', { infoBufferSize: value });
    }
  }
}
