/**
 * The cron schedule syntax CronJobs accept: `cron.ParseStandard` of github.com/robfig/cron/v3, the
 * parser Kubernetes validates `spec.schedule` with (five fields — minute, hour, day of month, month,
 * day of week — with `*`, `?`, ranges, steps, lists and month/weekday names; or a descriptor
 * `@yearly`, `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight`, `@hourly`, `@every <duration>`;
 * optionally after `TZ=<zone> ` or `CRON_TZ=<zone> `). Answers the parser's error text, which
 * Kubernetes shows as is.
 */
import { goQuote } from '../../../util/go-format.js';
import { goAtoi } from '../job/indexes.js';
import { loadLocationError } from './time-zone.js';

interface Bounds {
  readonly min: bigint;
  readonly max: bigint;
  readonly names?: Readonly<Record<string, bigint>>;
}

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

const FIELDS: readonly Bounds[] = [
  { min: 0n, max: 59n }, // minutes
  { min: 0n, max: 23n }, // hours
  { min: 1n, max: 31n }, // day of month
  { min: 1n, max: 12n, names: Object.fromEntries(MONTHS.map((m, i) => [m, BigInt(i + 1)])) },
  { min: 0n, max: 6n, names: Object.fromEntries(DAYS.map((d, i) => [d, BigInt(i)])) },
];

/** A schedule the parser refused (its message), or a Go panic of the parser (`panic`). */
export type ScheduleError = { readonly message: string; readonly panic?: true };

/** Go's `strings.Fields` separators (`unicode.IsSpace`). */
const GO_SPACE = /[\t\n\v\f\r \u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/;

/** `strconv.Atoi`'s error, as `%s` prints it. */
function atoiError(s: string): string {
  const range = /^[+-]?[0-9]+$/.test(s);
  return `strconv.Atoi: parsing ${goQuote(s)}: ${range ? 'value out of range' : 'invalid syntax'}`;
}

/** `mustParseInt`. */
function mustParseInt(expr: string): bigint | ScheduleError {
  const n = goAtoi(expr);
  if (n === undefined) return { message: `failed to parse int from ${expr}: ${atoiError(expr)}` };
  if (n < 0n) return { message: `negative number (${n}) not allowed: ${expr}` };
  return n;
}

/** `parseIntOrName`. */
function parseIntOrName(expr: string, names: Bounds['names']): bigint | ScheduleError {
  const named = names?.[expr.toLowerCase()];
  return named ?? mustParseInt(expr);
}

const isError = (v: unknown): v is ScheduleError => typeof v === 'object' && v !== null;

/** `getRange`: one `start[-end][/step]` of a field. */
function rangeError(expr: string, r: Bounds): ScheduleError | undefined {
  const rangeAndStep = expr.split('/');
  const lowAndHigh = rangeAndStep[0]!.split('-');
  const singleDigit = lowAndHigh.length === 1;
  let start: bigint;
  let end: bigint;
  if (lowAndHigh[0] === '*' || lowAndHigh[0] === '?') {
    start = r.min;
    end = r.max;
  } else {
    const s = parseIntOrName(lowAndHigh[0]!, r.names);
    if (isError(s)) return s;
    start = s;
    if (lowAndHigh.length === 1) end = start;
    else if (lowAndHigh.length === 2) {
      const e = parseIntOrName(lowAndHigh[1]!, r.names);
      if (isError(e)) return e;
      end = e;
    } else return { message: `too many hyphens: ${expr}` };
  }
  let step = 1n;
  if (rangeAndStep.length === 2) {
    const s = mustParseInt(rangeAndStep[1]!);
    if (isError(s)) return s;
    step = s;
    // "N/step" means "N-max/step".
    if (singleDigit) end = r.max;
  } else if (rangeAndStep.length > 2) return { message: `too many slashes: ${expr}` };
  if (start < r.min) return { message: `beginning of range (${start}) below minimum (${r.min}): ${expr}` };
  if (end > r.max) return { message: `end of range (${end}) above maximum (${r.max}): ${expr}` };
  if (start > end) return { message: `beginning of range (${start}) beyond end of range (${end}): ${expr}` };
  if (step === 0n) return { message: `step of range should be a positive number: ${expr}` };
  return undefined;
}

/** Go's `time` package quoting of a duration or location in its errors. */
function timeQuote(s: string): string {
  let out = '"';
  for (const byte of Buffer.from(s, 'utf8')) {
    if (byte >= 0x80 || byte < 0x20) out += `\\x${byte.toString(16).padStart(2, '0')}`;
    else {
      const c = String.fromCharCode(byte);
      out += c === '"' || c === '\\' ? `\\${c}` : c;
    }
  }
  return `${out}"`;
}

const UNITS: Readonly<Record<string, bigint>> = {
  ns: 1n,
  us: 1000n,
  µs: 1000n,
  μs: 1000n,
  ms: 1_000_000n,
  s: 1_000_000_000n,
  m: 60_000_000_000n,
  h: 3_600_000_000_000n,
};

/** The error of Go's `time.ParseDuration`, or undefined for a valid duration. */
export function parseDurationError(input: string): string | undefined {
  const invalid = `time: invalid duration ${timeQuote(input)}`;
  let s = input;
  if (s.startsWith('-') || s.startsWith('+')) s = s.slice(1);
  if (s === '0') return undefined;
  if (s === '') return invalid;
  const LIMIT = 1n << 63n;
  let total = 0n;
  while (s !== '') {
    if (!/^[0-9.]/.test(s)) return invalid;
    const whole = /^[0-9]*/.exec(s)![0];
    s = s.slice(whole.length);
    let value = whole === '' ? 0n : BigInt(whole);
    if (value > LIMIT) return invalid;
    let frac = '';
    if (s.startsWith('.')) {
      frac = /^[0-9]*/.exec(s.slice(1))![0];
      s = s.slice(1 + frac.length);
      if (whole === '' && frac === '') return invalid;
    } else if (whole === '') return invalid;
    const unitMatch = /^[^0-9.]*/.exec(s)![0];
    if (unitMatch === '') return `time: missing unit in duration ${timeQuote(input)}`;
    s = s.slice(unitMatch.length);
    const unit = UNITS[unitMatch];
    if (unit === undefined) return `time: unknown unit ${timeQuote(unitMatch)} in duration ${timeQuote(input)}`;
    if (value > LIMIT / unit) return invalid;
    value *= unit;
    if (frac !== '') {
      const digits = frac.replace(/0+$/, '').slice(0, 18);
      if (digits) value += (BigInt(digits) * unit) / 10n ** BigInt(digits.length);
      if (value > LIMIT) return invalid;
    }
    total += value;
    if (total > LIMIT) return invalid;
  }
  if (!input.startsWith('-') && total > LIMIT - 1n) return invalid;
  return undefined;
}

/** `parseDescriptor`. */
function descriptorError(descriptor: string): ScheduleError | undefined {
  if (['@yearly', '@annually', '@monthly', '@weekly', '@daily', '@midnight', '@hourly'].includes(descriptor)) return undefined;
  const every = '@every ';
  if (descriptor.startsWith(every)) {
    const err = parseDurationError(descriptor.slice(every.length));
    return err ? { message: `failed to parse duration ${descriptor}: ${err}` } : undefined;
  }
  return { message: `unrecognized descriptor: ${descriptor}` };
}

/** Why `cron.ParseStandard(spec)` fails, or undefined when the schedule parses. */
export function parseStandardError(input: string): ScheduleError | undefined {
  let spec = input;
  if (spec.length === 0) return { message: 'empty spec string' };
  if (spec.startsWith('TZ=') || spec.startsWith('CRON_TZ=')) {
    const space = spec.indexOf(' ');
    const eq = spec.indexOf('=');
    // The parser slices spec[eq+1:i] without checking for a space: Go panics.
    if (space < 0) return { message: `runtime error: slice bounds out of range [:-1]`, panic: true };
    if (space < eq + 1) return { message: `runtime error: slice bounds out of range [${eq + 1}:${space}]`, panic: true };
    const zone = spec.slice(eq + 1, space);
    const err = loadLocationError(zone);
    if (err) return { message: `provided bad location ${zone}: ${err}` };
    spec = spec.slice(space).trim();
  }
  if (spec.startsWith('@')) return descriptorError(spec);
  const fields = spec.split(GO_SPACE).filter((f) => f !== '');
  if (fields.length !== 5) return { message: `expected exactly 5 fields, found ${fields.length}: [${fields.join(' ')}]` };
  for (let i = 0; i < 5; i++) {
    for (const expr of fields[i]!.split(',').filter((r) => r !== '')) {
      const err = rangeError(expr, FIELDS[i]!);
      if (err) return err;
    }
  }
  return undefined;
}
