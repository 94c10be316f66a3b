import { describe, expect, it } from 'vitest';
import { criLogLines, formatRfc3339Nano } from '../../../src/cri/runtime/cri-log.js';

const T = 1_475_713_029_669_794_202n; // 2016-10-06T00:17:09.669794202Z

describe('CRI log format', () => {
  it('formats timestamps as Go RFC3339Nano, trailing zeros trimmed', () => {
    expect(formatRfc3339Nano(T)).toBe('2016-10-06T00:17:09.669794202Z');
    expect(formatRfc3339Nano(1_475_713_029_500_000_000n)).toBe('2016-10-06T00:17:09.5Z');
    expect(formatRfc3339Nano(1_475_713_029_000_000_000n)).toBe('2016-10-06T00:17:09Z');
  });

  it('writes full lines with F and a last line without newline with P', () => {
    expect(criLogLines(T, 'stdout', 'a\nb\r\nc')).toBe(
      '2016-10-06T00:17:09.669794202Z stdout F a\n' + '2016-10-06T00:17:09.669794202Z stdout F b\n' + '2016-10-06T00:17:09.669794202Z stdout P c\n',
    );
    expect(criLogLines(T, 'stderr', '\n')).toBe('2016-10-06T00:17:09.669794202Z stderr F \n');
  });

  it('cuts lines longer than the maximum into partial lines', () => {
    expect(criLogLines(T, 'stdout', 'abcdefg\n', 3)).toBe(
      '2016-10-06T00:17:09.669794202Z stdout P abc\n' + '2016-10-06T00:17:09.669794202Z stdout P def\n' + '2016-10-06T00:17:09.669794202Z stdout F g\n',
    );
  });
});
