/**
 * Go semantics the patch engines need to reproduce Kubernetes byte for byte: how a decoded JSON
 * value looks to Go (`map[string]interface{}`, `[]interface{}`, `int64`, `float64`, ...), how
 * `fmt` prints it (`%v`, `%s`), Go's `==` on `interface{}` values (which panics on maps and
 * slices), and the exact algorithms of `sort.Sort` (pdqsort) and `sort.SliceStable` (insertion
 * sort + SymMerge), whose results differ from any other sort when the comparison is not a strict
 * order (strategic merge patch uses `<=` and "not found sorts first" comparisons).
 *
 * Kubernetes decodes patch bodies with `sigs.k8s.io/json`'s `UnmarshalCaseSensitivePreserveInts`
 * and converts stored objects with `runtime.DefaultUnstructuredConverter`, so integral numbers
 * are `int64` and the rest `float64`. A JavaScript number cannot tell `1` from `1.0`; we classify
 * integral numbers below 2^63 as `int64`, everything else as `float64`, except where the patch
 * text is known (util/json-raw.ts): there a number written with a `.` or an exponent is `float64`
 * whatever its value ({@link goMemberKind}), as `PreserveInts` decodes it.
 *
 * Every helper is safe for `__proto__` keys (own properties only, defined, never assigned) and
 * iterative where it walks a whole document, so deep documents cannot exhaust the stack.
 */
import { compareGoStrings } from '../util/go-format.js';
import { isFloatLiteral, rawTextOf, rawTextsOf, setRawText } from '../util/json-raw.js';
import { hasOwn, setOwn } from '../util/own.js';

/** A JSON object as decoded by `JSON.parse` (own enumerable keys only). */
export type JsonObject = Record<string, unknown>;

/** The dynamic Go type of a decoded JSON value. */
export type GoKind = 'nil' | 'string' | 'int64' | 'float64' | 'bool' | 'map' | 'slice';

/** Thrown where the Go code would panic (the API server answers 500 with a plain-text body). */
export class GoPanic extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GoPanic';
  }
}

const INT64_LIMIT = 2 ** 63;

/** True for a plain JSON object (not an array, not null). */
export function isJsonObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The Go dynamic type of a JSON value. */
export function goKind(v: unknown): GoKind {
  if (v === null || v === undefined) return 'nil';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isInteger(v) && Math.abs(v) < INT64_LIMIT ? 'int64' : 'float64';
    default:
      return Array.isArray(v) ? 'slice' : 'map';
  }
}

/**
 * The Go dynamic type of the value `holder[slot]` of a decoded patch: a number the patch text
 * wrote as a float literal (`80.0`, `1e2`) is `float64` even when integral.
 */
export function goMemberKind(holder: object, slot: string | number, v: unknown): GoKind {
  if (typeof v === 'number') {
    const raw = rawTextOf(holder, slot, v);
    if (raw !== undefined) return isFloatLiteral(raw) ? 'float64' : 'int64';
  }
  return goKind(v);
}

/** `reflect.TypeOf(v).String()` for a decoded JSON value; `%!s(<nil>)` for nil, as `%s` prints it. */
export function goTypeName(v: unknown): string {
  switch (goKind(v)) {
    case 'nil':
      return '%!s(<nil>)';
    case 'map':
      return 'map[string]interface {}';
    case 'slice':
      return '[]interface {}';
    default:
      return goKind(v);
  }
}

export { getOwn, hasOwn, setOwn } from '../util/own.js';

/**
 * A deep copy of a JSON value; iterative, `__proto__`-safe, `undefined` members dropped like JSON.
 * The raw texts recorded for the source's scalars (util/json-raw.ts) are recorded for the copy.
 */
export function deepClone<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  const root: unknown = Array.isArray(value) ? new Array<unknown>() : {};
  const stack: Array<[unknown, unknown]> = [[value, root]];
  while (stack.length) {
    const [src, dst] = stack.pop()!;
    const raw = rawTextsOf(src as object);
    if (raw) for (const [slot, text] of raw) setRawText(dst as object, slot, text);
    if (Array.isArray(src)) {
      const out = dst as unknown[];
      for (const item of src) {
        if (typeof item === 'object' && item !== null) {
          const child: unknown = Array.isArray(item) ? [] : {};
          out.push(child);
          stack.push([item, child]);
        } else out.push(item === undefined ? null : item);
      }
    } else {
      const out = dst as JsonObject;
      for (const k of Object.keys(src as object)) {
        const item = (src as JsonObject)[k];
        if (item === undefined) continue;
        if (typeof item === 'object' && item !== null) {
          const child: unknown = Array.isArray(item) ? [] : {};
          setOwn(out, k, child);
          stack.push([item, child]);
        } else setOwn(out, k, item);
      }
    }
  }
  return root as T;
}

/**
 * True when the value nests more than `max` arrays/objects. Go's JSON scanner refuses text nested
 * deeper than 10000 (`maxNestingDepth`), so `json.Valid` fails and the API server answers
 * 400 `invalid JSON patch` before looking at the patch.
 */
export function nestingExceeds(value: unknown, max: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > max) return true;
    const children = Array.isArray(v) ? v : Object.values(v as object);
    for (const c of children) if (typeof c === 'object' && c !== null) stack.push([c, depth + 1]);
  }
  return false;
}

/**
 * Go's `==` on two `interface{}` values holding decoded JSON: false when the dynamic types
 * differ, a runtime panic when both hold the same uncomparable type (map or slice). The kinds
 * default to the values' own ({@link goKind}); pass {@link goMemberKind}s for patch members.
 */
export function goEqual(a: unknown, b: unknown, ka: GoKind = goKind(a), kb: GoKind = goKind(b)): boolean {
  if (ka !== kb) return false;
  if (ka === 'map' || ka === 'slice') throw new GoPanic(`runtime error: comparing uncomparable type ${goTypeName(a)}`);
  if (ka === 'nil') return true;
  return a === b;
}

/**
 * A key that is equal for two scalars exactly when Go's `==` says they are equal (so it can index
 * a `Map`). `undefined` for maps and slices, which Go cannot hash or compare. `kind` defaults to
 * the value's own ({@link goKind}); pass {@link goMemberKind} for a patch member.
 */
export function scalarKey(v: unknown, kind: GoKind = goKind(v)): string | undefined {
  switch (kind) {
    case 'nil':
      return 'n';
    case 'string':
      return 's' + (v as string);
    case 'bool':
      return v ? 'T' : 'F';
    case 'int64':
      return 'i' + String(v);
    case 'float64':
      // String(-0) is "0": Go's float64 -0 == 0 too.
      return 'f' + String(v);
    default:
      return undefined;
  }
}

/** {@link scalarKey} of the member `holder[slot]` (its Go type as {@link goMemberKind} sees it). */
export function memberScalarKey(holder: JsonObject, slot: string): string | undefined {
  const v = holder[slot];
  return scalarKey(v, goMemberKind(holder, slot, v));
}

/** `reflect.DeepEqual` on decoded JSON values (numbers compare by value, see the module note). */
export function goDeepEqual(a: unknown, b: unknown): boolean {
  const stack: Array<[unknown, unknown]> = [[a, b]];
  while (stack.length) {
    const [x, y] = stack.pop()!;
    const kx = goKind(x);
    if (kx !== goKind(y)) return false;
    if (kx === 'slice') {
      const xa = x as unknown[];
      const ya = y as unknown[];
      if (xa.length !== ya.length) return false;
      for (let i = 0; i < xa.length; i++) stack.push([xa[i], ya[i]]);
    } else if (kx === 'map') {
      const xo = x as JsonObject;
      const yo = y as JsonObject;
      const keys = Object.keys(xo);
      if (keys.length !== Object.keys(yo).length) return false;
      for (const k of keys) {
        if (!hasOwn(yo, k)) return false;
        stack.push([xo[k], yo[k]]);
      }
    } else if (kx !== 'nil' && x !== y) return false;
  }
  return true;
}

/** `strconv.FormatFloat(f, 'g', -1, 64)`, which is what `%v` prints for a float64. */
export function goFloat(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return '+Inf';
  if (n === -Infinity) return '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const m = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(n.toExponential())!;
  const sign = m[1]!;
  const digits = m[2]! + (m[3] ?? '');
  const exp = Number(m[4]);
  // Shortest formatting: %e when the exponent is < -4 or >= 6 (eprec is 6 for shortest).
  if (exp < -4 || exp >= 6) {
    const mant = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    return `${sign}${mant}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' + e : e}`;
  }
  if (exp < 0) return `${sign}0.${'0'.repeat(-exp - 1)}${digits}`;
  const intPart = digits.slice(0, exp + 1).padEnd(exp + 1, '0');
  const frac = digits.slice(exp + 1);
  return `${sign}${intPart}${frac ? '.' + frac : ''}`;
}

function goNumber(n: number): string {
  return goKind(n) === 'int64' ? BigInt(n).toString() : goFloat(n);
}

function sortedKeys(o: JsonObject): string[] {
  return Object.keys(o).sort(compareGoStrings);
}

type Piece = string | { v: unknown; depth: number };

/** fmt's `%v` (and `%+v`) of a decoded JSON value: `map[a:1 b:[x y]]`, `<nil>`, `1e+06`. */
export function goV(value: unknown): string {
  return goPrint(value, 'v');
}

/** fmt's `%s` of a decoded JSON value: strings as is, others as `%!s(int64=5)`. */
export function goS(value: unknown): string {
  if (value === null || value === undefined) return '%!s(<nil>)';
  return goPrint(value, 's');
}

function goPrint(value: unknown, verb: 'v' | 's'): string {
  let out = '';
  const stack: Piece[] = [{ v: value, depth: 0 }];
  while (stack.length) {
    const p = stack.pop()!;
    if (typeof p === 'string') {
      out += p;
      continue;
    }
    const v = p.v;
    switch (goKind(v)) {
      case 'nil':
        out += '<nil>';
        break;
      case 'string':
        out += v as string;
        break;
      case 'bool':
        out += verb === 'v' ? String(v) : `%!s(bool=${String(v)})`;
        break;
      case 'int64':
      case 'float64':
        out += verb === 'v' ? goNumber(v as number) : `%!s(${goKind(v)}=${goNumber(v as number)})`;
        break;
      case 'slice': {
        const arr = v as unknown[];
        const parts: Piece[] = ['['];
        arr.forEach((item, i) => {
          if (i) parts.push(' ');
          parts.push({ v: item, depth: p.depth + 1 });
        });
        parts.push(']');
        for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
        break;
      }
      case 'map': {
        const o = v as JsonObject;
        const parts: Piece[] = ['map['];
        sortedKeys(o).forEach((k, i) => {
          if (i) parts.push(' ');
          parts.push(k + ':');
          parts.push({ v: o[k], depth: p.depth + 1 });
        });
        parts.push(']');
        for (let i = parts.length - 1; i >= 0; i--) stack.push(parts[i]!);
        break;
      }
    }
  }
  return out;
}

/** Go's `<` on strings (UTF-8 byte order). */
export function goLess(a: string, b: string): boolean {
  return compareGoStrings(a, b) < 0;
}

/** `sort.StringsAreSorted([]string{a, b})`, i.e. `a <= b`: the comparison SMP's sorters use. */
export function goLessEq(a: string, b: string): boolean {
  return compareGoStrings(a, b) <= 0;
}

// ---------------------------------------------------------------------------------------------
// sort.Sort: pattern-defeating quicksort as in Go's sort package (zsortinterface.go), so that
// non-strict comparisons (`<=`) give the same order of equal elements as Kubernetes.

type Less<T> = (a: T, b: T) => boolean;

function swap<T>(d: T[], i: number, j: number): void {
  const t = d[i]!;
  d[i] = d[j]!;
  d[j] = t;
}

function insertionSort<T>(d: T[], less: Less<T>, a: number, b: number): void {
  for (let i = a + 1; i < b; i++) {
    for (let j = i; j > a && less(d[j]!, d[j - 1]!); j--) swap(d, j, j - 1);
  }
}

function siftDown<T>(d: T[], less: Less<T>, lo: number, hi: number, first: number): void {
  let root = lo;
  for (;;) {
    let child = 2 * root + 1;
    if (child >= hi) return;
    if (child + 1 < hi && less(d[first + child]!, d[first + child + 1]!)) child++;
    if (!less(d[first + root]!, d[first + child]!)) return;
    swap(d, first + root, first + child);
    root = child;
  }
}

function heapSort<T>(d: T[], less: Less<T>, a: number, b: number): void {
  const first = a;
  const hi = b - a;
  for (let i = Math.floor((hi - 1) / 2); i >= 0; i--) siftDown(d, less, i, hi, first);
  for (let i = hi - 1; i >= 0; i--) {
    swap(d, first, first + i);
    siftDown(d, less, 0, i, first);
  }
}

const enum Hint {
  Unknown,
  Increasing,
  Decreasing,
}

/** Go's `bits.Len`: the number of bits needed to represent n. */
function bitsLen(n: number): number {
  let bits = 0;
  for (let x = n; x > 0; x = Math.floor(x / 2)) bits++;
  return bits;
}

function pdqsort<T>(d: T[], less: Less<T>, a: number, b: number, limit: number): void {
  const maxInsertion = 12;
  let wasBalanced = true;
  let wasPartitioned = true;
  for (;;) {
    const length = b - a;
    if (length <= maxInsertion) {
      insertionSort(d, less, a, b);
      return;
    }
    if (limit === 0) {
      heapSort(d, less, a, b);
      return;
    }
    if (!wasBalanced) {
      breakPatterns(d, a, b);
      limit--;
    }
    let [pivot, hint] = choosePivot(d, less, a, b);
    if (hint === Hint.Decreasing) {
      reverseRange(d, a, b);
      pivot = b - 1 - (pivot - a);
      hint = Hint.Increasing;
    }
    if (wasBalanced && wasPartitioned && hint === Hint.Increasing) {
      if (partialInsertionSort(d, less, a, b)) return;
    }
    if (a > 0 && !less(d[a - 1]!, d[pivot]!)) {
      a = partitionEqual(d, less, a, b, pivot);
      continue;
    }
    const [mid, alreadyPartitioned] = partition(d, less, a, b, pivot);
    wasPartitioned = alreadyPartitioned;
    const leftLen = mid - a;
    const rightLen = b - mid;
    const balanceThreshold = Math.floor(length / 8);
    if (leftLen < rightLen) {
      wasBalanced = leftLen >= balanceThreshold;
      pdqsort(d, less, a, mid, limit);
      a = mid + 1;
    } else {
      wasBalanced = rightLen >= balanceThreshold;
      pdqsort(d, less, mid + 1, b, limit);
      b = mid;
    }
  }
}

function partition<T>(d: T[], less: Less<T>, a: number, b: number, pivot: number): [number, boolean] {
  swap(d, a, pivot);
  let i = a + 1;
  let j = b - 1;
  while (i <= j && less(d[i]!, d[a]!)) i++;
  while (i <= j && !less(d[j]!, d[a]!)) j--;
  if (i > j) {
    swap(d, j, a);
    return [j, true];
  }
  swap(d, i, j);
  i++;
  j--;
  for (;;) {
    while (i <= j && less(d[i]!, d[a]!)) i++;
    while (i <= j && !less(d[j]!, d[a]!)) j--;
    if (i > j) break;
    swap(d, i, j);
    i++;
    j--;
  }
  swap(d, j, a);
  return [j, false];
}

function partitionEqual<T>(d: T[], less: Less<T>, a: number, b: number, pivot: number): number {
  swap(d, a, pivot);
  let i = a + 1;
  let j = b - 1;
  for (;;) {
    while (i <= j && !less(d[a]!, d[i]!)) i++;
    while (i <= j && less(d[a]!, d[j]!)) j--;
    if (i > j) break;
    swap(d, i, j);
    i++;
    j--;
  }
  return i;
}

function partialInsertionSort<T>(d: T[], less: Less<T>, a: number, b: number): boolean {
  const maxSteps = 5;
  const shortestShifting = 50;
  let i = a + 1;
  for (let step = 0; step < maxSteps; step++) {
    while (i < b && !less(d[i]!, d[i - 1]!)) i++;
    if (i === b) return true;
    if (b - a < shortestShifting) return false;
    swap(d, i, i - 1);
    if (i - a >= 2) {
      for (let j = i - 1; j >= 1; j--) {
        if (!less(d[j]!, d[j - 1]!)) break;
        swap(d, j, j - 1);
      }
    }
    if (b - i >= 2) {
      for (let j = i + 1; j < b; j++) {
        if (!less(d[j]!, d[j - 1]!)) break;
        swap(d, j, j - 1);
      }
    }
  }
  return false;
}

function breakPatterns<T>(d: T[], a: number, b: number): void {
  const length = b - a;
  if (length < 8) return;
  // Go's xorshift (13, 7, 17) on a uint64 seeded with the length.
  let random = BigInt(length);
  const mask64 = (1n << 64n) - 1n;
  const next = (): bigint => {
    random ^= (random << 13n) & mask64;
    random ^= random >> 7n;
    random ^= (random << 17n) & mask64;
    return random;
  };
  const modulus = BigInt(2 ** bitsLen(length));
  for (let idx = a + Math.floor(length / 4) * 2 - 1; idx <= a + Math.floor(length / 4) * 2 + 1; idx++) {
    let other = Number(next() & (modulus - 1n));
    if (other >= length) other -= length;
    swap(d, idx, a + other);
  }
}

function choosePivot<T>(d: T[], less: Less<T>, a: number, b: number): [number, Hint] {
  const shortestNinther = 50;
  const maxSwaps = 4 * 3;
  const l = b - a;
  const swaps = { n: 0 };
  let i = a + Math.floor(l / 4) * 1;
  let j = a + Math.floor(l / 4) * 2;
  let k = a + Math.floor(l / 4) * 3;
  if (l >= 8) {
    if (l >= shortestNinther) {
      i = median(d, less, i - 1, i, i + 1, swaps);
      j = median(d, less, j - 1, j, j + 1, swaps);
      k = median(d, less, k - 1, k, k + 1, swaps);
    }
    j = median(d, less, i, j, k, swaps);
  }
  if (swaps.n === 0) return [j, Hint.Increasing];
  if (swaps.n === maxSwaps) return [j, Hint.Decreasing];
  return [j, Hint.Unknown];
}

function order2<T>(d: T[], less: Less<T>, a: number, b: number, swaps: { n: number }): [number, number] {
  if (less(d[b]!, d[a]!)) {
    swaps.n++;
    return [b, a];
  }
  return [a, b];
}

function median<T>(d: T[], less: Less<T>, a: number, b: number, c: number, swaps: { n: number }): number {
  [a, b] = order2(d, less, a, b, swaps);
  [b, c] = order2(d, less, b, c, swaps);
  [a, b] = order2(d, less, a, b, swaps);
  return b;
}

function reverseRange<T>(d: T[], a: number, b: number): void {
  let i = a;
  let j = b - 1;
  while (i < j) swap(d, i++, j--);
}

/** Go's `sort.Sort` (pdqsort) in place. */
export function goSort<T>(d: T[], less: Less<T>): T[] {
  const n = d.length;
  if (n > 1) pdqsort(d, less, 0, n, bitsLen(n));
  return d;
}

// ---------------------------------------------------------------------------------------------
// sort.SliceStable: insertion sort on blocks of 20, then SymMerge.

function swapRange<T>(d: T[], a: number, b: number, n: number): void {
  for (let i = 0; i < n; i++) swap(d, a + i, b + i);
}

function rotate<T>(d: T[], a: number, m: number, b: number): void {
  let i = m - a;
  let j = b - m;
  while (i !== j) {
    if (i > j) {
      swapRange(d, m - i, m, j);
      i -= j;
    } else {
      swapRange(d, m - i, m + j - i, i);
      j -= i;
    }
  }
  swapRange(d, m - i, m, i);
}

function symMerge<T>(d: T[], less: Less<T>, a: number, m: number, b: number): void {
  if (m - a === 1) {
    let i = m;
    let j = b;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (less(d[h]!, d[a]!)) i = h + 1;
      else j = h;
    }
    for (let k = a; k < i - 1; k++) swap(d, k, k + 1);
    return;
  }
  if (b - m === 1) {
    let i = a;
    let j = m;
    while (i < j) {
      const h = (i + j) >>> 1;
      if (!less(d[m]!, d[h]!)) i = h + 1;
      else j = h;
    }
    for (let k = m; k > i; k--) swap(d, k, k - 1);
    return;
  }
  const mid = (a + b) >>> 1;
  const n = mid + m;
  let start: number;
  let r: number;
  if (m > mid) {
    start = n - b;
    r = mid;
  } else {
    start = a;
    r = m;
  }
  const p = n - 1;
  while (start < r) {
    const c = (start + r) >>> 1;
    if (!less(d[p - c]!, d[c]!)) start = c + 1;
    else r = c;
  }
  const end = n - start;
  if (start < m && m < end) rotate(d, start, m, end);
  if (a < start && start < mid) symMerge(d, less, a, start, mid);
  if (mid < end && end < b) symMerge(d, less, mid, end, b);
}

/** Go's `sort.SliceStable` in place. */
export function goSliceStable<T>(d: T[], less: Less<T>): T[] {
  const n = d.length;
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(d, less, a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(d, less, a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(d, less, a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(d, less, a, m, n);
    blockSize *= 2;
  }
  return d;
}
