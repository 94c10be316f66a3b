import { describe, expect, it } from 'vitest';
import { parseMicroTime } from '../../../src/kinds/coordination/micro-time.js';

const LAYOUT = '"2006-01-02T15:04:05.000000Z07:00"';

describe('MicroTime decoding', () => {
  it('normalizes to UTC with six fraction digits', () => {
    expect(parseMicroTime('2026-03-01T00:30:00.000001-01:00')).toEqual({ value: '2026-03-01T01:30:00.000001Z' });
    expect(parseMicroTime('2026-01-01T00:00:00.999999+00:00')).toEqual({ value: '2026-01-01T00:00:00.999999Z' });
  });

  it.each([
    ['2026-01-01T00:00:00Z', '"Z" as ".000000"'],
    ['2026-01-01T00:00:00.123Z', '".123Z" as ".000000"'],
    ['2026-01-01T00:00:00.123456789Z', '"789Z" as "Z07:00"'],
    ['yesterday', '"yesterday" as "2006"'],
  ])('rejects %j as Go does', (v, tail) => {
    expect(parseMicroTime(v)).toEqual({ error: `parsing time ${JSON.stringify(v)} as ${LAYOUT}: cannot parse ${tail}` });
  });
});
