/**
 * Sorted keys with ordered access by position. Keys compare as Kubernetes' etcd keys do
 * (`namespace/name`, byte order), so lists come out in Kubernetes' order.
 *
 * The keys sit in chunks of at most {@link MAX_CHUNK} (split in two when one fills), so an insert
 * or delete moves at most a chunk's keys plus a pointer per chunk (O(sqrt n)-like, not O(n) as one
 * big array's splice), while a lookup stays two binary searches. Positions (`lowerBound`, `at`)
 * are global; the chunks' start positions are recomputed lazily after writes.
 */
const MAX_CHUNK = 512;

export class SortedKeys {
  private chunks: string[][] = [];
  /** Global position of each chunk's first key; stale while `dirty`. */
  private starts: number[] = [];
  private dirty = false;
  private count = 0;
  /** The chunk `at` read last (sequential reads stay O(1)). */
  private hint = 0;

  get size(): number {
    return this.count;
  }

  /** An independent copy (the chunks are copied, the key strings shared). */
  clone(): SortedKeys {
    const copy = new SortedKeys();
    copy.chunks = this.chunks.map((chunk) => chunk.slice());
    copy.starts = this.starts.slice();
    copy.dirty = this.dirty;
    copy.count = this.count;
    return copy;
  }

  /** Index of the first key `>= key`. */
  lowerBound(key: string): number {
    const c = this.chunkFor(key);
    if (c === this.chunks.length) return this.count;
    this.refresh();
    return this.starts[c]! + lowerIn(this.chunks[c]!, key);
  }

  /** The key at position `i` (undefined past the end). */
  at(i: number): string | undefined {
    if (i < 0 || i >= this.count) return undefined;
    this.refresh();
    let c = this.hint;
    if (!(c < this.chunks.length && this.starts[c]! <= i && i < this.starts[c]! + this.chunks[c]!.length)) {
      // The last chunk starting at or before i.
      let lo = 0;
      let hi = this.chunks.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >>> 1;
        if (this.starts[mid]! <= i) lo = mid;
        else hi = mid - 1;
      }
      c = lo;
      this.hint = c;
    }
    return this.chunks[c]![i - this.starts[c]!];
  }

  /** Index of the first key `> key`. */
  upperBound(key: string): number {
    const i = this.lowerBound(key);
    return this.at(i) === key ? i + 1 : i;
  }

  insert(key: string): void {
    if (this.chunks.length === 0) {
      this.chunks.push([key]);
      this.count = 1;
      this.dirty = true;
      return;
    }
    let c = this.chunkFor(key);
    if (c === this.chunks.length) c--; // after every key: the last chunk takes it
    const chunk = this.chunks[c]!;
    const j = lowerIn(chunk, key);
    if (chunk[j] === key) return;
    chunk.splice(j, 0, key);
    this.count++;
    this.dirty = true;
    if (chunk.length > MAX_CHUNK) this.chunks.splice(c + 1, 0, chunk.splice(chunk.length >>> 1));
  }

  remove(key: string): void {
    const c = this.chunkFor(key);
    if (c === this.chunks.length) return;
    const chunk = this.chunks[c]!;
    const j = lowerIn(chunk, key);
    if (chunk[j] !== key) return;
    chunk.splice(j, 1);
    this.count--;
    this.dirty = true;
    if (chunk.length === 0) this.chunks.splice(c, 1);
  }

  /** Keys from `start` (inclusive) while they begin with `prefix`. */
  *range(prefix: string): IterableIterator<string> {
    for (let i = this.lowerBound(prefix); i < this.count; i++) {
      const k = this.at(i)!;
      if (!k.startsWith(prefix)) return;
      yield k;
    }
  }

  /** The first chunk whose last key is `>= key` (`chunks.length` when none is). */
  private chunkFor(key: string): number {
    let lo = 0;
    let hi = this.chunks.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const chunk = this.chunks[mid]!;
      if (chunk[chunk.length - 1]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private refresh(): void {
    if (!this.dirty) return;
    const starts = new Array<number>(this.chunks.length);
    let at = 0;
    for (let c = 0; c < this.chunks.length; c++) {
      starts[c] = at;
      at += this.chunks[c]!.length;
    }
    this.starts = starts;
    this.dirty = false;
  }
}

/** Index of the first key of `keys` that is `>= key`. */
function lowerIn(keys: readonly string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
