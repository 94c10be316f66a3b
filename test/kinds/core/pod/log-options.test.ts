/** PodLogOptions from a query and ValidatePodLogOptions, rule by rule. */
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../../src/machinery/errors.js';
import { aggregateMessage } from '../../../../src/machinery/field-errors.js';
import { containerLogsQuery, decodePodLogOptions, validatePodLogOptions } from '../../../../src/kinds/core/pod/log-options.js';

const messageOf = (params: Record<string, string[]>) => aggregateMessage(validatePodLogOptions(decodePodLogOptions(params)));

function decodeFailure(params: Record<string, string[]>): string {
  try {
    decodePodLogOptions(params);
  } catch (e) {
    if (e instanceof ApiError && e.code === 400) return e.message;
    throw e;
  }
  throw new Error('decoded');
}

describe('decodePodLogOptions', () => {
  it('reads booleans and numbers as the parameter codec does', () => {
    expect(decodePodLogOptions({ follow: [''], previous: ['0'], timestamps: ['FALSE'], tailLines: ['5'], limitBytes: ['7'], container: ['a', 'b'] })).toEqual({
      container: 'a',
      follow: true,
      previous: false,
      timestamps: false,
      tailLines: 5,
      limitBytes: 7,
    });
    expect(decodePodLogOptions({ sinceTime: ['null'], tailLines: [''] })).toEqual({});
  });

  it("answers Go's parse errors for malformed numbers and times", () => {
    expect(decodeFailure({ tailLines: ['ten'] })).toBe('strconv.ParseInt: parsing "ten": invalid syntax');
    expect(decodeFailure({ limitBytes: ['99999999999999999999'] })).toBe('strconv.ParseInt: parsing "99999999999999999999": value out of range');
    expect(decodeFailure({ sinceTime: ['yesterday'] })).toBe('parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"');
    expect(decodeFailure({ sinceTime: ['2026/01/01T00:00:00Z'] })).toBe(
      'parsing time "2026/01/01T00:00:00Z" as "2006-01-02T15:04:05Z07:00": cannot parse "/01/01T00:00:00Z" as "-"',
    );
    expect(decodeFailure({ sinceTime: ['2026-01-01T00:00:00'] })).toBe(
      'parsing time "2026-01-01T00:00:00" as "2006-01-02T15:04:05Z07:00": cannot parse "" as "Z07:00"',
    );
    expect(decodeFailure({ sinceTime: ['2026-13-01T00:00:00Z'] })).toBe('parsing time "2026-13-01T00:00:00Z": month out of range');
    expect(decodeFailure({ sinceTime: ['2026-02-30T00:00:00Z'] })).toBe('parsing time "2026-02-30T00:00:00Z": day out of range');
    expect(decodeFailure({ sinceTime: ['2026-01-01T00:00:00Zjunk'] })).toBe('parsing time "2026-01-01T00:00:00Zjunk": extra text: "junk"');
  });

  it('keeps sinceTime as the UTC instant, whole seconds', () => {
    expect(decodePodLogOptions({ sinceTime: ['2026-06-01T12:30:15.999-02:30'] }).sinceTime).toBe('2026-06-01T15:00:15Z');
  });
});

describe('validatePodLogOptions', () => {
  it('accepts what is in range', () => {
    expect(validatePodLogOptions(decodePodLogOptions({ tailLines: ['0'], limitBytes: ['1'], sinceSeconds: ['1'], stream: ['All'] }))).toEqual([]);
  });

  it('refuses a negative tailLines', () => {
    expect(messageOf({ tailLines: ['-1'] })).toBe('tailLines: Invalid value: -1: must be greater than or equal to 0');
  });

  it('refuses a limitBytes below 1', () => {
    expect(messageOf({ limitBytes: ['0'] })).toBe('limitBytes: Invalid value: 0: must be greater than 0');
  });

  it('refuses a sinceSeconds below 1', () => {
    expect(messageOf({ sinceSeconds: ['-5'] })).toBe('sinceSeconds: Invalid value: -5: must be greater than 0');
  });

  it('refuses sinceSeconds with sinceTime, without checking sinceSeconds itself', () => {
    expect(messageOf({ sinceSeconds: ['0'], sinceTime: ['2026-01-01T00:00:00Z'] })).toBe(
      ': Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
    );
  });

  it('refuses an unknown stream, and tailLines with a single stream', () => {
    expect(messageOf({ stream: ['Both'] })).toBe('stream: Unsupported value: "Both": supported values: "Stdout", "Stderr", "All"');
    expect(messageOf({ stream: ['Stderr'], tailLines: ['3'] })).toBe(': Forbidden: `tailLines` and specific `stream` are mutually exclusive for now');
  });

  it('reports every broken rule at once, in order', () => {
    expect(messageOf({ tailLines: ['-1'], limitBytes: ['-1'], sinceSeconds: ['0'] })).toBe(
      '[tailLines: Invalid value: -1: must be greater than or equal to 0, limitBytes: Invalid value: -1: must be greater than 0, sinceSeconds: Invalid value: 0: must be greater than 0]',
    );
  });
});

describe('containerLogsQuery', () => {
  it('sends only what is set, false booleans left out, keys sorted', () => {
    expect(containerLogsQuery({ timestamps: true, follow: false, tailLines: 0, container: 'x' })).toBe('tailLines=0&timestamps=true');
    expect(containerLogsQuery({})).toBe('');
  });
});
