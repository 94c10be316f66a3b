/**
 * Which texts Go's time parsers accept, for format checks that must agree with Kubernetes:
 * `time.Parse("2006-01-02", s)` (a full date) and `time.ParseDuration(s)`.
 */

const isDigit = (c: number | undefined) => c !== undefined && c >= 0x30 && c <= 0x39;

function daysIn(month: number, year: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * `time.Parse("2006-01-02", s)` succeeds: a year of four characters (`2006`, or a sign and three
 * digits, which Go's `atoi` reads too), a two-digit month 01-12 and a two-digit day that exists
 * in that month.
 */
export function isGoDate(s: string): boolean {
  if (s.length !== 10 || s[4] !== '-' || s[7] !== '-') return false;
  const yearText = s.slice(0, 4);
  const signed = yearText[0] === '-' || yearText[0] === '+';
  const digits = signed ? yearText.slice(1) : yearText;
  for (let i = 0; i < digits.length; i++) if (!isDigit(digits.charCodeAt(i))) return false;
  const year = (yearText[0] === '-' ? -1 : 1) * Number(digits);
  for (const i of [5, 6, 8, 9]) if (!isDigit(s.charCodeAt(i))) return false;
  const month = Number(s.slice(5, 7));
  const day = Number(s.slice(8, 10));
  if (month < 1 || month > 12) return false;
  return day >= 1 && day <= daysIn(month, year);
}

const UNITS: ReadonlyMap<string, bigint> = new Map([
  ['ns', 1n],
  ['us', 1000n],
  ['\u00b5s', 1000n],
  ['\u03bcs', 1000n],
  ['ms', 1000000n],
  ['s', 1000000000n],
  ['m', 60000000000n],
  ['h', 3600000000000n],
]);

const LIMIT = 1n << 63n;

/** `time.ParseDuration(s)` succeeds (`1h30m`, `-1.5s`, `0`; overflow beyond ±2^63 ns fails). */
export function isGoDuration(s: string): boolean {
  return parseGoDuration(s) !== undefined;
}

/** `time.ParseDuration(s)` in nanoseconds; undefined where Go fails. */
export function parseGoDuration(s: string): bigint | undefined {
  let i = 0;
  let neg = false;
  if (s[0] === '-' || s[0] === '+') {
    neg = s[0] === '-';
    i = 1;
  }
  if (s.slice(i) === '0') return 0n;
  if (i === s.length) return undefined;
  let total = 0n;
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (!(c === 0x2e || isDigit(c))) return undefined;
    // The integer part; more than 2^63 overflows.
    let v = 0n;
    const intStart = i;
    for (; i < s.length && isDigit(s.charCodeAt(i)); i++) {
      v = v * 10n + BigInt(s.charCodeAt(i) - 0x30);
      if (v > LIMIT) return undefined;
    }
    const pre = i !== intStart;
    let post = false;
    let fraction = 0n;
    let scale = 1n;
    if (s[i] === '.') {
      i++;
      const fracStart = i;
      let overflow = false;
      for (; i < s.length && isDigit(s.charCodeAt(i)); i++) {
        if (overflow) continue;
        if (fraction > (LIMIT - 1n) / 10n) {
          overflow = true;
          continue;
        }
        fraction = fraction * 10n + BigInt(s.charCodeAt(i) - 0x30);
        scale *= 10n;
      }
      post = i !== fracStart;
    }
    if (!pre && !post) return undefined;
    const unitStart = i;
    for (; i < s.length; i++) {
      const u = s.charCodeAt(i);
      if (u === 0x2e || isDigit(u)) break;
    }
    if (i === unitStart) return undefined;
    const unit = UNITS.get(s.slice(unitStart, i));
    if (unit === undefined) return undefined;
    if (v > LIMIT / unit) return undefined;
    v *= unit;
    if (fraction > 0n) {
      v += BigInt(Math.trunc(Number(fraction) * (Number(unit) / Number(scale))));
      if (v > LIMIT) return undefined;
    }
    total += v;
    if (total > LIMIT) return undefined;
  }
  if (!neg && total > LIMIT - 1n) return undefined;
  return neg ? -total : total;
}

/** Go's `time.Duration.String()` of a number of nanoseconds (`3s`, `1m30s`, `1.5ms`, `0s`). */
export function goDurationText(ns: bigint): string {
  if (ns === 0n) return '0s';
  const sign = ns < 0n ? '-' : '';
  let u = ns < 0n ? -ns : ns;
  const fixed = (v: bigint, div: bigint): string => {
    const whole = v / div;
    const rest = v % div;
    if (rest === 0n) return String(whole);
    const digits = String(rest)
      .padStart(String(div).length - 1, '0')
      .replace(/0+$/, '');
    return `${whole}.${digits}`;
  };
  if (u < 1000n) return `${sign}${u}ns`;
  if (u < 1_000_000n) return `${sign}${fixed(u, 1000n)}µs`;
  if (u < 1_000_000_000n) return `${sign}${fixed(u, 1_000_000n)}ms`;
  const h = u / 3_600_000_000_000n;
  u %= 3_600_000_000_000n;
  const m = u / 60_000_000_000n;
  u %= 60_000_000_000n;
  const s = `${fixed(u, 1_000_000_000n)}s`;
  return `${sign}${h > 0n ? `${h}h${m}m` : m > 0n ? `${m}m` : ''}${s}`;
}
