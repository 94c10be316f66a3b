/**
 * Timestamps and durations as Go reads and prints them: RFC 3339 with nanoseconds (time.Parse with
 * time.RFC3339, RFC3339Nano output), time.ParseDuration, and cel-go's range limits (years 0001 to
 * 9999; durations that fit Go's int64 nanoseconds).
 */
import { INT64_MAX, INT64_MIN } from './values.js';

const NANOS = 1_000_000_000n;
/** 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z in Unix seconds (cel-go minUnixTime, maxUnixTime). */
export const MIN_UNIX_SECONDS = -62135596800n;
/** 9999-12-31T23:59:59Z in Unix seconds. */
export const MAX_UNIX_SECONDS = 253402300799n;

/** True when a timestamp (in nanoseconds) is within cel-go's range. */
export function timestampInRange(nanos: bigint): boolean {
  const s = floorDiv(nanos, NANOS);
  return s >= MIN_UNIX_SECONDS && s <= MAX_UNIX_SECONDS;
}

/** True when a duration (in nanoseconds) fits Go's time.Duration. */
export function durationInRange(nanos: bigint): boolean {
  return nanos >= INT64_MIN && nanos <= INT64_MAX;
}

/** Floor division of bigints. */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** The civil date of a day number (days since 1970-01-01). */
export function civilFromDays(z: number): { year: number; month: number; day: number } {
  z += 719468;
  const era = Math.floor(z / 146097);
  const doe = z - era * 146097;
  const yoe = Math.floor((doe - Math.floor(doe / 1460) + Math.floor(doe / 36524) - Math.floor(doe / 146096)) / 365);
  const y = yoe + era * 400;
  const doy = doe - (365 * yoe + Math.floor(yoe / 4) - Math.floor(yoe / 100));
  const mp = Math.floor((5 * doy + 2) / 153);
  const d = doy - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp + (mp < 10 ? 3 : -9);
  return { year: y + (m <= 2 ? 1 : 0), month: m, day: d };
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** Parses an RFC 3339 timestamp as Go's time.Parse(time.RFC3339, s); nanoseconds since the epoch, or undefined. */
export function parseTimestamp(s: string): bigint | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|([+-])(\d{2}):(\d{2}))$/.exec(s);
  if (!m) return undefined;
  const [, ys, mos, ds, hs, mis, ss, frac = '', , sign, ohs, oms] = m;
  const y = Number(ys);
  const mo = Number(mos);
  const d = Number(ds);
  const h = Number(hs);
  const mi = Number(mis);
  const sec = Number(ss);
  if (mo < 1 || mo > 12) return undefined;
  const dim = mo === 2 && isLeap(y) ? 29 : DAYS_IN_MONTH[mo - 1]!;
  if (d < 1 || d > dim || h > 23 || mi > 59 || sec > 59) return undefined;
  let offset = 0;
  if (sign) {
    const oh = Number(ohs);
    const om = Number(oms);
    if (oh > 23 || om > 59) return undefined;
    offset = (oh * 3600 + om * 60) * (sign === '-' ? -1 : 1);
  }
  const seconds = BigInt(daysFromCivil(y, mo, d)) * 86400n + BigInt(h * 3600 + mi * 60 + sec - offset);
  return seconds * NANOS + BigInt(frac.padEnd(9, '0') || '0');
}

const pad = (n: number, w = 2): string => String(n).padStart(w, '0');

/** Go's RFC3339Nano text of a timestamp, in UTC: trailing zeros of the fraction dropped. */
export function formatTimestamp(nanos: bigint): string {
  const secs = floorDiv(nanos, NANOS);
  const frac = Number(nanos - secs * NANOS);
  const days = Number(floorDiv(secs, 86400n));
  const rem = Number(secs - BigInt(days) * 86400n);
  const { year, month, day } = civilFromDays(days);
  let text = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(Math.floor(rem / 3600))}:${pad(Math.floor(rem / 60) % 60)}:${pad(rem % 60)}`;
  if (frac !== 0) text += `.${String(frac).padStart(9, '0').replace(/0+$/, '')}`;
  return `${text}Z`;
}

const UNITS: Record<string, bigint> = { ns: 1n, us: 1000n, µs: 1000n, μs: 1000n, ms: 1_000_000n, s: NANOS, m: 60n * NANOS, h: 3600n * NANOS };

/** Go's time.ParseDuration; nanoseconds, or undefined when invalid or out of range. */
export function parseDuration(input: string): bigint | undefined {
  let s = input;
  let neg = false;
  if (s.startsWith('-') || s.startsWith('+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return 0n;
  if (s === '') return undefined;
  let total = 0n;
  while (s !== '') {
    const m = /^(\d*)(?:\.(\d*))?([a-z\u00b5\u03bc]+)/.exec(s);
    if (!m || (m[1] === '' && (m[2] === undefined || m[2] === ''))) return undefined;
    const unit = UNITS[m[3]!];
    if (unit === undefined) return undefined;
    const whole = BigInt(m[1] || '0');
    let v = whole * unit;
    const frac = m[2] ?? '';
    if (frac !== '') v += (BigInt(frac) * unit) / 10n ** BigInt(frac.length);
    total += v;
    if (total > INT64_MAX + (neg ? 1n : 0n)) return undefined;
    s = s.slice(m[0].length);
  }
  return neg ? -total : total;
}

/** cel-go's duration text: seconds as Go's FormatFloat(seconds, 'f', -1, 64), then `s`. */
export function formatDuration(nanos: bigint): string {
  const seconds = Number(nanos) / 1e9;
  return `${fixedShortest(seconds)}s`;
}

/** The shortest decimal text of a double without an exponent (Go's 'f' format with precision -1). */
export function fixedShortest(x: number): string {
  const s = String(x);
  if (!/e/.test(s)) return s;
  const [mant, expText] = s.split('e') as [string, string];
  const exp = Number(expText);
  const neg = mant.startsWith('-');
  const digits = mant.replace(/^-/, '').replace('.', '');
  const point = (mant.replace(/^-/, '').indexOf('.') === -1 ? mant.replace(/^-/, '').length : mant.replace(/^-/, '').indexOf('.')) + exp;
  let out: string;
  if (point <= 0) out = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) out = digits + '0'.repeat(point - digits.length);
  else out = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (neg ? '-' : '') + out;
}

/** The UTC offset in minutes of a time zone at an instant: `+02:00`, `-0530`, `02:00` or an IANA name. */
export function zoneOffsetMinutes(zone: string, epochMillis: number): number | undefined {
  const m = /^([+-])?(\d{2}):?(\d{2})$/.exec(zone);
  if (m) return (Number(m[2]) * 60 + Number(m[3])) * (m[1] === '-' ? -1 : 1);
  if (zone === 'UTC' || zone === '') return 0;
  try {
    const fmt = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' });
    const part = fmt.formatToParts(new Date(epochMillis)).find((p) => p.type === 'timeZoneName')?.value ?? '';
    const o = /GMT([+-])(\d{2}):(\d{2})/.exec(part);
    if (!o) return 0;
    return (Number(o[2]) * 60 + Number(o[3])) * (o[1] === '-' ? -1 : 1);
  } catch {
    return undefined;
  }
}
