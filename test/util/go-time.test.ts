import { describe, expect, it } from 'vitest';
import { isGoDate, isGoDuration } from '../../src/util/go-time.js';

describe('isGoDate (time.Parse("2006-01-02"))', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2024-04-31', false],
    ['2024-13-01', false],
    ['2024-1-01', false],
    ['24-01-01', false],
    ['2024-01-01T00:00:00Z', false],
    ['-001-01-01', true],
  ])('%j → %s', (s, want) => expect(isGoDate(s)).toBe(want));
});

describe('isGoDuration (time.ParseDuration)', () => {
  it.each([
    ['1h30m', true],
    ['-1.5s', true],
    ['0', true],
    ['.5ms', true],
    ['1µs', true],
    ['1μs', true],
    ['1d', false],
    ['1', false],
    ['', false],
    ['s', false],
    ['2562047h', true],
    ['2562048h', false],
    ['9223372036854775807ns', true],
    ['9223372036854775808ns', false],
    ['-9223372036854775808ns', true],
  ])('%j → %s', (s, want) => expect(isGoDuration(s)).toBe(want));
});
