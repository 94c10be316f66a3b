/**
 * Go's sort algorithms, step for step: `sort.Sort` (pattern-defeating quicksort, zsortinterface.go)
 * and `sort.SliceStable` (insertion sort on blocks, then SymMerge). Their results differ from any
 * other sort when the comparison is not a strict order, and strategic merge patch sorts with `<=`
 * and "not found sorts first" comparisons, so only the same algorithms give Kubernetes' order.
 */
import { compareGoStrings } from './go-format.js';

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
