/** Go's `time.Duration.String()` of a number of nanoseconds: `0s`, `850ns`, `1.5µs`, `1.234567ms`, `2m3.5s`. */

function frac(value: number, digits: number): string {
  const whole = Math.floor(value / 10 ** digits);
  const rest = value % 10 ** digits;
  if (rest === 0) return String(whole);
  return `${whole}.${String(rest).padStart(digits, '0').replace(/0+$/, '')}`;
}

/** The text Go prints for a duration of `ns` nanoseconds (rounded to a whole nanosecond). */
export function goDurationString(ns: number): string {
  let n = Math.round(ns);
  const sign = n < 0 ? '-' : '';
  n = Math.abs(n);
  if (n === 0) return '0s';
  if (n < 1e3) return `${sign}${n}ns`;
  if (n < 1e6) return `${sign}${frac(n, 3)}µs`;
  if (n < 1e9) return `${sign}${frac(n, 6)}ms`;
  const h = Math.floor(n / 3.6e12);
  const m = Math.floor((n % 3.6e12) / 6e10);
  const s = frac(n % 6e10, 9);
  return `${sign}${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}
