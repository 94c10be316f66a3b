/**
 * CEL's standard library (cel-go common/stdlib): operators, size, conversions, string tests,
 * timestamp and duration accessors. `&&`, `||`, `?:`, `@not_strictly_false` and `@in` over
 * comprehension results are evaluated lazily by the interpreter; they are declared here for the
 * checker.
 */
import { celEquals, compareValues } from '../values/compare.js';
import { codePoints, typeOfValue } from '../values/runtime-types.js';
import {
  AppendList,
  CelError,
  CelUint,
  Duration,
  INT64_MAX,
  INT64_MIN,
  ListValue,
  MapValue,
  Timestamp,
  TypeValue,
  UINT64_MAX,
  type Result,
  type Value,
} from '../values/values.js';
import {
  MAX_UNIX_SECONDS,
  MIN_UNIX_SECONDS,
  civilFromDays,
  durationInRange,
  floorDiv,
  formatDuration,
  formatTimestamp,
  parseDuration,
  parseTimestamp,
  timestampInRange,
  zoneOffsetMinutes,
} from '../values/time.js';
import { conversionError, divisionByZero, durationOverflow, intOverflow, modulusByZero, noSuchKey, timestampOverflow, uintOverflow } from './errors.js';
import { fn, overload, type FunctionDecl } from './declarations.js';
import { compileRegex } from './regex.js';

const int = (v: bigint): Result => (v < INT64_MIN || v > INT64_MAX ? intOverflow() : v);
const uint = (v: bigint): Result => (v < 0n || v > UINT64_MAX ? uintOverflow() : new CelUint(v));
const dur = (v: bigint): Result => (durationInRange(v) ? new Duration(v) : durationOverflow());
const ts = (v: bigint): Result => (timestampInRange(v) ? new Timestamp(v) : timestampOverflow());
const I = (v: Value): bigint => v as bigint;
const U = (v: Value): bigint => (v as CelUint).value;
const D = (v: Value): number => v as number;
const S = (v: Value): string => v as string;
const B = (v: Value): Uint8Array => v as Uint8Array;
const T = (v: Value): bigint => (v as Timestamp).nanos;
const Du = (v: Value): bigint => (v as Duration).nanos;

function concatBytes(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

/** `a + b` of two lists; appending to a list built by appending stays linear over a whole fold. */
function concatLists(a: ListValue, b: ListValue): ListValue {
  if (b.size === 0) return a;
  if (a.size === 0 && !(a instanceof AppendList)) return b;
  return AppendList.of(a).append(b);
}

const ORDER_OPS: [string, string, (c: number) => boolean][] = [
  ['_<_', 'less', (c) => c < 0],
  ['_<=_', 'less_equals', (c) => c <= 0],
  ['_>_', 'greater', (c) => c > 0],
  ['_>=_', 'greater_equals', (c) => c >= 0],
];
const ORDERED: [string, string][] = [
  ['bool', 'bool'],
  ['int64', 'int'],
  ['int64_double', 'int, double'],
  ['int64_uint64', 'int, uint'],
  ['uint64', 'uint'],
  ['uint64_double', 'uint, double'],
  ['uint64_int64', 'uint, int'],
  ['double', 'double'],
  ['double_int64', 'double, int'],
  ['double_uint64', 'double, uint'],
  ['string', 'string'],
  ['bytes', 'bytes'],
  ['timestamp', 'timestamp'],
  ['duration', 'duration'],
];

function orderFunctions(): FunctionDecl[] {
  return ORDER_OPS.map(([name, prefix, test]) =>
    fn(
      name,
      ...ORDERED.map(([suffix, types]) => {
        const [a, b = a] = types.split(', ');
        return overload(`${prefix}_${suffix}`, `(${a}, ${b}) -> bool`, (args) => {
          const c = compareValues(args[0]!, args[1]!);
          return c === undefined ? false : test(c);
        });
      }),
    ),
  );
}

/** Go's strconv.ParseBool. */
function parseBool(s: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(s)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(s)) return false;
  return undefined;
}

/** Go's fmt %g of a double. */
export function formatDouble(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, expText] = f.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 21) {
    return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  const digits = mant.replace(/^-/, '').replace('.', '').length;
  if (exp >= Math.max(digits, 6) && exp >= 6) return `${mant}e+${String(exp).padStart(2, '0')}`;
  return String(f);
}

/** Go's strconv.ParseFloat, for the spellings JavaScript does not share. */
function parseFloatGo(s: string): number | undefined {
  const t = s.replaceAll('_', '');
  if (/^[+-]?(inf|infinity)$/i.test(t)) return t.startsWith('-') ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(t)) return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s) && !/^[+-]?0[xX]/.test(s)) return undefined;
  const v = Number(s);
  return Number.isNaN(v) ? undefined : v;
}

function decodeUtf8(b: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(b);
  } catch {
    return undefined;
  }
}

const TWO_63 = 2 ** 63;
const TWO_64 = 2 ** 64;

/** cel-go doubleToInt64Checked: the bounds themselves overflow too. */
function doubleToInt(d: number): Result {
  if (!Number.isFinite(d) || d <= -TWO_63 || d >= TWO_63) return intOverflow();
  return BigInt(Math.trunc(d));
}

function doubleToUint(d: number): Result {
  if (!(d >= 0 && d < TWO_64)) return uintOverflow();
  return new CelUint(BigInt(Math.trunc(d)));
}

/** The calendar fields of a timestamp in a time zone. */
interface Fields {
  year: number;
  month: number;
  day: number;
  dayOfYear: number;
  weekday: number;
  h: number;
  m: number;
  s: number;
  ms: number;
}

function fields(nanos: bigint, zone: string | undefined): Fields | CelError {
  const secs = floorDiv(nanos, 1_000_000_000n);
  let offset = 0;
  if (zone !== undefined) {
    const o = zoneOffsetMinutes(zone, Number(secs) * 1000);
    if (o === undefined) return new CelError(`unknown time zone ${zone}`);
    offset = o * 60;
  }
  const local = secs + BigInt(offset);
  const days = Number(floorDiv(local, 86400n));
  const rem = Number(local - BigInt(days) * 86400n);
  const { year, month, day } = civilFromDays(days);
  const jan1 = Date.UTC(year, 0, 1) / 86400000;
  const ms = Number((nanos - secs * 1_000_000_000n) / 1_000_000n);
  return {
    year,
    month,
    day,
    dayOfYear: days - jan1,
    weekday: (((days + 4) % 7) + 7) % 7,
    h: Math.floor(rem / 3600),
    m: Math.floor(rem / 60) % 60,
    s: rem % 60,
    ms,
  };
}

type Field = 'year' | 'month0' | 'dayOfYear' | 'day0' | 'day1' | 'weekday' | 'h' | 'm' | 's' | 'ms';

function timeGetter(field: Field): (args: Value[]) => Result {
  return (args) => {
    const f = fields(T(args[0]!), args[1] as string | undefined);
    if (f instanceof CelError) return f;
    switch (field) {
      case 'year':
        return BigInt(f.year);
      case 'month0':
        return BigInt(f.month - 1);
      case 'dayOfYear':
        return BigInt(f.dayOfYear);
      case 'day0':
        return BigInt(f.day - 1);
      case 'day1':
        return BigInt(f.day);
      case 'weekday':
        return BigInt(f.weekday);
      case 'h':
        return BigInt(f.h);
      case 'm':
        return BigInt(f.m);
      case 's':
        return BigInt(f.s);
      default:
        return BigInt(f.ms);
    }
  };
}

function timeFunction(name: string, id: string, field: Field, durationUnit?: bigint): FunctionDecl {
  const overloads = [
    overload(`timestamp_to_${id}`, 'timestamp.() -> int', timeGetter(field)),
    overload(`timestamp_to_${id}_with_tz`, 'timestamp.(string) -> int', timeGetter(field)),
  ];
  if (durationUnit !== undefined) overloads.push(overload(`duration_to_${id}`, 'duration.() -> int', (a) => Du(a[0]!) / durationUnit));
  return fn(name, ...overloads);
}

/** The `_[_]` of a list: an int, or a uint or double holding a whole number. */
export function indexList(list: ListValue, index: Value): Result {
  let i: bigint;
  if (typeof index === 'bigint') i = index;
  else if (index instanceof CelUint) i = index.value;
  else if (typeof index === 'number' && Number.isInteger(index)) i = BigInt(index);
  else if (typeof index === 'number') return new CelError(`unsupported index value ${formatDouble(index)} in list`);
  else return new CelError('no such overload');
  if (i < 0n || i >= BigInt(list.size)) return new CelError(`index out of bounds: ${i}`);
  return list.get(Number(i));
}

/** The text of a map key in `no such key` errors, as cel-go's %v prints it. */
export function keyText(k: Value): string {
  if (typeof k === 'string') return k;
  if (k instanceof CelUint) return String(k.value);
  if (typeof k === 'number') return formatDouble(k);
  return String(k);
}

/** The `_[_]` of a map. */
export function indexMap(map: MapValue, key: Value): Result {
  const v = map.get(key);
  return v === undefined ? noSuchKey(keyText(key)) : v;
}

/** The declarations of the standard library. */
export function standardFunctions(): FunctionDecl[] {
  return [
    fn('_?_:_', overload('conditional', '(bool, A, A) -> A')),
    fn('_&&_', overload('logical_and', '(bool, bool) -> bool')),
    fn('_||_', overload('logical_or', '(bool, bool) -> bool')),
    fn(
      '!_',
      overload('logical_not', '(bool) -> bool', (a) => !a[0]),
    ),
    fn(
      '@not_strictly_false',
      overload('not_strictly_false', '(bool) -> bool', (a) => a[0] !== false),
    ),
    fn(
      '_==_',
      overload('equals', '(A, A) -> bool', (a) => celEquals(a[0]!, a[1]!)),
    ),
    fn(
      '_!=_',
      overload('not_equals', '(A, A) -> bool', (a) => !celEquals(a[0]!, a[1]!)),
    ),
    fn(
      '_+_',
      overload('add_bytes', '(bytes, bytes) -> bytes', (a) => concatBytes(B(a[0]!), B(a[1]!))),
      overload('add_double', '(double, double) -> double', (a) => D(a[0]!) + D(a[1]!)),
      overload('add_duration_duration', '(duration, duration) -> duration', (a) => dur(Du(a[0]!) + Du(a[1]!))),
      overload('add_duration_timestamp', '(duration, timestamp) -> timestamp', (a) => ts(Du(a[0]!) + T(a[1]!))),
      overload('add_timestamp_duration', '(timestamp, duration) -> timestamp', (a) => ts(T(a[0]!) + Du(a[1]!))),
      overload('add_int64', '(int, int) -> int', (a) => int(I(a[0]!) + I(a[1]!))),
      overload('add_list', '(list(A), list(A)) -> list(A)', (a) => concatLists(a[0] as ListValue, a[1] as ListValue)),
      overload('add_string', '(string, string) -> string', (a) => S(a[0]!) + S(a[1]!)),
      overload('add_uint64', '(uint, uint) -> uint', (a) => uint(U(a[0]!) + U(a[1]!))),
    ),
    fn(
      '_/_',
      overload('divide_double', '(double, double) -> double', (a) => D(a[0]!) / D(a[1]!)),
      overload('divide_int64', '(int, int) -> int', (a) => (I(a[1]!) === 0n ? divisionByZero() : int(I(a[0]!) / I(a[1]!)))),
      overload('divide_uint64', '(uint, uint) -> uint', (a) => (U(a[1]!) === 0n ? divisionByZero() : new CelUint(U(a[0]!) / U(a[1]!)))),
    ),
    fn(
      '_%_',
      overload('modulo_int64', '(int, int) -> int', (a) =>
        I(a[1]!) === 0n ? modulusByZero() : I(a[1]!) === -1n && I(a[0]!) === INT64_MIN ? intOverflow() : I(a[0]!) % I(a[1]!),
      ),
      overload('modulo_uint64', '(uint, uint) -> uint', (a) => (U(a[1]!) === 0n ? modulusByZero() : new CelUint(U(a[0]!) % U(a[1]!)))),
    ),
    fn(
      '_*_',
      overload('multiply_double', '(double, double) -> double', (a) => D(a[0]!) * D(a[1]!)),
      overload('multiply_int64', '(int, int) -> int', (a) => int(I(a[0]!) * I(a[1]!))),
      overload('multiply_uint64', '(uint, uint) -> uint', (a) => uint(U(a[0]!) * U(a[1]!))),
    ),
    fn(
      '-_',
      overload('negate_double', '(double) -> double', (a) => -D(a[0]!)),
      overload('negate_int64', '(int) -> int', (a) => int(-I(a[0]!))),
    ),
    fn(
      '_-_',
      overload('subtract_double', '(double, double) -> double', (a) => D(a[0]!) - D(a[1]!)),
      overload('subtract_duration_duration', '(duration, duration) -> duration', (a) => dur(Du(a[0]!) - Du(a[1]!))),
      overload('subtract_int64', '(int, int) -> int', (a) => int(I(a[0]!) - I(a[1]!))),
      overload('subtract_timestamp_duration', '(timestamp, duration) -> timestamp', (a) => ts(T(a[0]!) - Du(a[1]!))),
      overload('subtract_timestamp_timestamp', '(timestamp, timestamp) -> duration', (a) => dur(T(a[0]!) - T(a[1]!))),
      overload('subtract_uint64', '(uint, uint) -> uint', (a) => uint(U(a[0]!) - U(a[1]!))),
    ),
    ...orderFunctions(),
    fn(
      '_[_]',
      overload('index_list', '(list(A), int) -> A', (a) => indexList(a[0] as ListValue, a[1]!)),
      overload('index_map', '(map(A, B), A) -> B', (a) => indexMap(a[0] as MapValue, a[1]!)),
    ),
    fn(
      '@in',
      overload('in_list', '(A, list(A)) -> bool', (a) => {
        for (const e of a[1] as ListValue) if (celEquals(e, a[0]!)) return true;
        return false;
      }),
      overload('in_map', '(A, map(A, B)) -> bool', (a) => (a[1] as MapValue).get(a[0]!) !== undefined),
    ),
    fn(
      'size',
      overload('size_bytes', '(bytes) -> int', (a) => BigInt(B(a[0]!).length)),
      overload('bytes_size', 'bytes.() -> int', (a) => BigInt(B(a[0]!).length)),
      overload('size_list', '(list(A)) -> int', (a) => BigInt((a[0] as ListValue).size)),
      overload('list_size', 'list(A).() -> int', (a) => BigInt((a[0] as ListValue).size)),
      overload('size_map', '(map(A, B)) -> int', (a) => BigInt((a[0] as MapValue).size)),
      overload('map_size', 'map(A, B).() -> int', (a) => BigInt((a[0] as MapValue).size)),
      overload('size_string', '(string) -> int', (a) => BigInt(codePoints(S(a[0]!)))),
      overload('string_size', 'string.() -> int', (a) => BigInt(codePoints(S(a[0]!)))),
    ),
    fn(
      'type',
      overload('type', '(A) -> type(A)', (a) => new TypeValue(typeOfValue(a[0]!))),
    ),
    fn(
      'bool',
      overload('bool_to_bool', '(bool) -> bool', (a) => a[0]!),
      overload('string_to_bool', '(string) -> bool', (a) => parseBool(S(a[0]!)) ?? conversionError('string', 'bool')),
    ),
    fn(
      'bytes',
      overload('bytes_to_bytes', '(bytes) -> bytes', (a) => a[0]!),
      overload('string_to_bytes', '(string) -> bytes', (a) => new Uint8Array(Buffer.from(S(a[0]!), 'utf8'))),
    ),
    fn(
      'double',
      overload('double_to_double', '(double) -> double', (a) => a[0]!),
      overload('int64_to_double', '(int) -> double', (a) => Number(I(a[0]!))),
      overload('string_to_double', '(string) -> double', (a) => parseFloatGo(S(a[0]!)) ?? conversionError('string', 'double')),
      overload('uint64_to_double', '(uint) -> double', (a) => Number(U(a[0]!))),
    ),
    fn(
      'duration',
      overload('duration_to_duration', '(duration) -> duration', (a) => a[0]!),
      overload('string_to_duration', '(string) -> duration', (a) => {
        const d = parseDuration(S(a[0]!));
        return d === undefined ? conversionError('string', 'google.protobuf.Duration') : new Duration(d);
      }),
    ),
    fn(
      'dyn',
      overload('to_dyn', '(A) -> dyn', (a) => a[0]!),
    ),
    fn(
      'int',
      overload('int64_to_int64', '(int) -> int', (a) => a[0]!),
      overload('double_to_int64', '(double) -> int', (a) => doubleToInt(D(a[0]!))),
      overload('duration_to_int64', '(duration) -> int', (a) => Du(a[0]!)),
      overload('string_to_int64', '(string) -> int', (a) => (/^[+-]?\d+$/.test(S(a[0]!)) ? int(BigInt(S(a[0]!))) : conversionError('string', 'int'))),
      overload('timestamp_to_int64', '(timestamp) -> int', (a) => floorDiv(T(a[0]!), 1_000_000_000n)),
      overload('uint64_to_int64', '(uint) -> int', (a) => int(U(a[0]!))),
    ),
    fn(
      'string',
      overload('string_to_string', '(string) -> string', (a) => a[0]!),
      overload('bool_to_string', '(bool) -> string', (a) => String(a[0]!)),
      overload('bytes_to_string', '(bytes) -> string', (a) => decodeUtf8(B(a[0]!)) ?? new CelError('invalid UTF-8 in bytes, cannot convert to string')),
      overload('double_to_string', '(double) -> string', (a) => formatDouble(D(a[0]!))),
      overload('duration_to_string', '(duration) -> string', (a) => formatDuration(Du(a[0]!))),
      overload('int64_to_string', '(int) -> string', (a) => String(I(a[0]!))),
      overload('timestamp_to_string', '(timestamp) -> string', (a) => formatTimestamp(T(a[0]!))),
      overload('uint64_to_string', '(uint) -> string', (a) => String(U(a[0]!))),
    ),
    fn(
      'timestamp',
      overload('timestamp_to_timestamp', '(timestamp) -> timestamp', (a) => a[0]!),
      overload('int64_to_timestamp', '(int) -> timestamp', (a) => {
        const s = I(a[0]!);
        return s < MIN_UNIX_SECONDS || s > MAX_UNIX_SECONDS ? timestampOverflow() : new Timestamp(s * 1_000_000_000n);
      }),
      overload('string_to_timestamp', '(string) -> timestamp', (a) => {
        const t = parseTimestamp(S(a[0]!));
        if (t === undefined) return conversionError('string', 'google.protobuf.Timestamp');
        return ts(t);
      }),
    ),
    fn(
      'uint',
      overload('uint64_to_uint64', '(uint) -> uint', (a) => a[0]!),
      overload('double_to_uint64', '(double) -> uint', (a) => doubleToUint(D(a[0]!))),
      overload('int64_to_uint64', '(int) -> uint', (a) => uint(I(a[0]!))),
      overload('string_to_uint64', '(string) -> uint', (a) => (/^\+?\d+$/.test(S(a[0]!)) ? uint(BigInt(S(a[0]!))) : conversionError('string', 'uint'))),
    ),
    fn(
      'contains',
      overload('contains_string', 'string.(string) -> bool', (a) => S(a[0]!).includes(S(a[1]!))),
    ),
    fn(
      'endsWith',
      overload('ends_with_string', 'string.(string) -> bool', (a) => S(a[0]!).endsWith(S(a[1]!))),
    ),
    fn(
      'startsWith',
      overload('starts_with_string', 'string.(string) -> bool', (a) => S(a[0]!).startsWith(S(a[1]!))),
    ),
    fn(
      'matches',
      overload('matches', '(string, string) -> bool', (a) => matches(S(a[0]!), S(a[1]!))),
      overload('matches_string', 'string.(string) -> bool', (a) => matches(S(a[0]!), S(a[1]!))),
    ),
    timeFunction('getFullYear', 'year', 'year'),
    timeFunction('getMonth', 'month', 'month0'),
    timeFunction('getDayOfYear', 'day_of_year', 'dayOfYear'),
    timeFunction('getDayOfMonth', 'day_of_month', 'day0'),
    fn(
      'getDate',
      overload('timestamp_to_day_of_month_1_based', 'timestamp.() -> int', timeGetter('day1')),
      overload('timestamp_to_day_of_month_1_based_with_tz', 'timestamp.(string) -> int', timeGetter('day1')),
    ),
    timeFunction('getDayOfWeek', 'day_of_week', 'weekday'),
    timeFunction('getHours', 'hours', 'h', 3_600_000_000_000n),
    timeFunction('getMinutes', 'minutes', 'm', 60_000_000_000n),
    timeFunction('getSeconds', 'seconds', 's', 1_000_000_000n),
    timeFunction('getMilliseconds', 'milliseconds', 'ms', 1_000_000n),
  ];
}

function matches(s: string, pattern: string): Result {
  const re = compileRegex(pattern);
  if (re instanceof CelError) return re;
  return re.matcher(s).find();
}
