import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  applyLoggingFlag,
  decodeLoggingConfiguration,
  flushFrequencyMs,
  infoBufferBytes,
  validateLoggingConfiguration,
  withLoggingDefaults,
  type LoggingConfiguration,
} from '../../../src/config/logging/index.js';
import { ConfigDecodeError as DecodeError } from '../../../src/config/decode.js';
import { aggregateMessage, fieldErrorMessage } from '../../../src/machinery/field-errors.js';

const messages = (c: LoggingConfiguration, gates = {}) => validateLoggingConfiguration(withLoggingDefaults(c), gates).map(fieldErrorMessage);

describe('LoggingConfiguration decoding', () => {
  it('decodes every field, from YAML or JSON', () => {
    const yaml =
      'format: json\nflushFrequency: 10s\nverbosity: 4\nvmodule:\n- filePattern: httplog\n  verbosity: 5\noptions:\n  json: {splitStream: true, infoBufferSize: 1Mi}\n  text: {infoBufferSize: 512}\n';
    expect(decodeLoggingConfiguration(yaml)).toEqual({
      format: 'json',
      flushFrequency: '10s',
      verbosity: 4,
      vmodule: [{ filePattern: 'httplog', verbosity: 5 }],
      options: { json: { splitStream: true, infoBufferSize: '1Mi' }, text: { infoBufferSize: 512 } },
    });
    expect(decodeLoggingConfiguration('{"flushFrequency": 2000000000}')).toEqual({ flushFrequency: 2000000000 });
    expect(decodeLoggingConfiguration({ verbosity: 2 })).toEqual({ verbosity: 2 });
    expect(decodeLoggingConfiguration('')).toEqual({});
  });

  it("refuses what the component's strict codec refuses, with Go's messages", () => {
    const refuses = (input: string | unknown, message: string) => {
      expect(() => decodeLoggingConfiguration(input)).toThrow(DecodeError);
      expect(() => decodeLoggingConfiguration(input)).toThrow(message);
    };
    refuses('formatt: text\n', 'strict decoding error: unknown field "formatt"');
    refuses('options: {text: {splitStreams: true}}\n', 'strict decoding error: unknown field "options.text.splitStreams"');
    refuses('verbosity: 1\nverbosity: 2\n', 'strict decoding error: json: duplicate field "verbosity"');
    refuses('flushFrequency: soon\n', 'time: invalid duration "soon"');
    refuses('flushFrequency: 1.5\n', 'invalid duration "1.5": json: cannot unmarshal number 1.5 into Go value of type time.Duration');
    refuses('flushFrequency: true\n', 'invalid duration "true": json: cannot unmarshal bool into Go value of type time.Duration');
    refuses('verbosity: -1\n', 'json: cannot unmarshal number -1 into Go struct field LoggingConfiguration.verbosity of type v1.VerbosityLevel');
    refuses(
      'vmodule: [{filePattern: a, verbosity: 4294967296}]\n',
      'json: cannot unmarshal number 4294967296 into Go struct field VModuleItem.verbosity of type v1.VerbosityLevel',
    );
    refuses('options: {json: {infoBufferSize: lots}}\n', "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
    refuses('options: {json: {infoBufferSize: [1]}}\n', 'json: cannot unmarshal array into Go value of type resource.Quantity');
    refuses('[]', 'json: cannot unmarshal array into Go value of type v1.LoggingConfiguration');
    refuses('format: [\n', 'error converting YAML to JSON: yaml: ');
    refuses('verbosity: "3"\n', 'json: cannot unmarshal string');
  });

  it('answers any JSON value with a configuration or a ConfigDecodeError', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        try {
          decodeLoggingConfiguration(value);
        } catch (e) {
          expect(e).toBeInstanceOf(DecodeError);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('LoggingConfiguration defaults and values', () => {
  it('defaults to text, 5s flushes, verbosity 0 and no info buffer', () => {
    expect(withLoggingDefaults({})).toEqual({
      format: 'text',
      flushFrequency: '5s',
      verbosity: 0,
      options: { text: { infoBufferSize: '0' }, json: { infoBufferSize: '0' } },
    });
    expect(withLoggingDefaults({ format: 'json', flushFrequency: 0, options: { json: { splitStream: true } } })).toMatchObject({
      format: 'json',
      flushFrequency: '5s',
      options: { json: { splitStream: true, infoBufferSize: '0' } },
    });
    expect(withLoggingDefaults({ flushFrequency: '100ms' }).flushFrequency).toBe('100ms');
  });

  it('reads durations and buffer sizes', () => {
    expect(flushFrequencyMs('1m30s')).toBe(90_000);
    expect(flushFrequencyMs(2_500_000_000)).toBe(2500);
    expect(flushFrequencyMs('x')).toBeUndefined();
    expect(infoBufferBytes('2Ki')).toBe(2048);
    expect(infoBufferBytes('1k')).toBe(1000);
    expect(infoBufferBytes(512)).toBe(512);
    expect(infoBufferBytes('1m')).toBe(1);
    expect(infoBufferBytes('junk')).toBeUndefined();
  });
});

describe('LoggingConfiguration validation', () => {
  it('accepts the defaults and both formats', () => {
    expect(messages({})).toEqual([]);
    expect(messages({ format: 'json' })).toEqual([]);
    expect(messages({ vmodule: [{ filePattern: 'serve*', verbosity: 4 }] })).toEqual([]);
  });

  it("says what is wrong in component-base's words", () => {
    expect(messages({ format: 'xml' })).toEqual(['format: Invalid value: "xml": Unsupported log format']);
    expect(messages({ format: 'json' }, { LoggingBetaOptions: false })).toEqual([
      'format: Forbidden: Log format json is disabled, see LoggingBetaOptions feature',
    ]);
    expect(messages({ verbosity: 2147483648 })).toEqual(['verbosity: Invalid value: 2147483648: Must be <= 2147483647']);
    expect(messages({ format: 'json', vmodule: [{ filePattern: 'a', verbosity: 1 }] })).toEqual(['vmodule: Forbidden: Only supported for text log format']);
    expect(
      messages({
        vmodule: [
          { filePattern: '', verbosity: 1 },
          { filePattern: 'a=b', verbosity: 1 },
          { filePattern: 'c', verbosity: 4294967295 },
        ],
      }),
    ).toEqual([
      'vmodule[0]: Required value: File pattern must not be empty',
      'vmodule[1]: Invalid value: "a=b": File pattern must not contain equal sign or comma',
      'vmodule[2]: Invalid value: 4294967295: Must be <= 2147483647',
    ]);
    expect(messages({ options: { text: { splitStream: true, infoBufferSize: '1Ki' }, json: { splitStream: true, infoBufferSize: 5 } } })).toEqual([
      'options.text.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled',
      'options.text.infoBufferSize: Forbidden: Feature LoggingAlphaOptions is disabled',
      'options.json.splitStream: Forbidden: Feature LoggingAlphaOptions is disabled',
      'options.json.infoBufferSize: Forbidden: Feature LoggingAlphaOptions is disabled',
    ]);
    expect(messages({ options: { text: { splitStream: true, infoBufferSize: '1Ki' } } }, { LoggingAlphaOptions: true })).toEqual([]);
  });

  it('prefixes the paths of an embedded configuration', () => {
    const errs = validateLoggingConfiguration(withLoggingDefaults({ format: 'xml', verbosity: 2147483648 }), {}, 'logging');
    expect(aggregateMessage(errs)).toBe(
      '[logging.format: Invalid value: "xml": Unsupported log format, logging.verbosity: Invalid value: 2147483648: Must be <= 2147483647]',
    );
  });
});

describe('the logging flags', () => {
  it('set their fields', () => {
    let c: LoggingConfiguration = {};
    c = applyLoggingFlag(c, 'logging-format', 'json');
    c = applyLoggingFlag(c, 'v', '3');
    c = applyLoggingFlag(c, 'vmodule', 'serve=4,httplog*=5,');
    c = applyLoggingFlag(c, 'vmodule', 'x=1');
    c = applyLoggingFlag(c, 'log-flush-frequency', '100ms');
    c = applyLoggingFlag(c, 'log-json-split-stream', 'true');
    c = applyLoggingFlag(c, 'log-json-info-buffer-size', '4Ki');
    c = applyLoggingFlag(c, 'log-text-split-stream', 'F');
    c = applyLoggingFlag(c, 'log-text-info-buffer-size', '0');
    expect(c).toEqual({
      format: 'json',
      verbosity: 3,
      vmodule: [
        { filePattern: 'serve', verbosity: 4 },
        { filePattern: 'httplog*', verbosity: 5 },
        { filePattern: 'x', verbosity: 1 },
      ],
      flushFrequency: '100ms',
      options: { json: { splitStream: true, infoBufferSize: '4Ki' }, text: { splitStream: false, infoBufferSize: '0' } },
    });
  });

  it("refuse bad values with pflag's message", () => {
    const refuses = (flag: Parameters<typeof applyLoggingFlag>[1], value: string, message: string) =>
      expect(() => applyLoggingFlag({}, flag, value)).toThrow(message);
    refuses('v', 'x', 'invalid argument "x" for "-v, --v" flag: strconv.ParseUint: parsing "x": invalid syntax');
    refuses('v', '-1', 'invalid argument "-1" for "-v, --v" flag: strconv.ParseUint: parsing "-1": invalid syntax');
    refuses('v', '2147483648', 'invalid argument "2147483648" for "-v, --v" flag: strconv.ParseUint: parsing "2147483648": value out of range');
    refuses('vmodule', 'a', 'invalid argument "a" for "--vmodule" flag: "a" does not have the pattern=N format');
    refuses('vmodule', 'a=1=2', 'invalid argument "a=1=2" for "--vmodule" flag: "a=1=2" does not have the pattern=N format');
    refuses('vmodule', 'a=x', 'invalid argument "a=x" for "--vmodule" flag: parsing verbosity in "a=x": strconv.ParseUint: parsing "x": invalid syntax');
    refuses('log-flush-frequency', '5', 'invalid argument "5" for "--log-flush-frequency" flag: time: invalid duration "5"');
    refuses('log-text-split-stream', 'yes', 'invalid argument "yes" for "--log-text-split-stream" flag: strconv.ParseBool: parsing "yes": invalid syntax');
    refuses('log-json-info-buffer-size', 'big', 'invalid argument "big" for "--log-json-info-buffer-size" flag: quantities must match the regular expression');
  });
});
