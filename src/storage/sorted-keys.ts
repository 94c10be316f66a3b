/**
 * A sorted array of keys with binary-search insert and delete. Keys compare as Kubernetes'
 * etcd keys do (`namespace/name`, byte order), so lists come out in Kubernetes' order.
 */
export class SortedKeys {
  private readonly keys: string[] = [];

  get size(): number {
    return this.keys.length;
  }

  /** Index of the first key `>= key`. */
  lowerBound(key: string): number {
    let lo = 0;
    let hi = this.keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.keys[mid]! < key) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The key at position `i` (undefined past the end). */
  at(i: number): string | undefined {
    return this.keys[i];
  }

  /** Index of the first key `> key`. */
  upperBound(key: string): number {
    const i = this.lowerBound(key);
    return this.keys[i] === key ? i + 1 : i;
  }

  insert(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] !== key) this.keys.splice(i, 0, key);
  }

  remove(key: string): void {
    const i = this.lowerBound(key);
    if (this.keys[i] === key) this.keys.splice(i, 1);
  }

  /** Keys from `start` (inclusive) while they begin with `prefix`. */
  *range(prefix: string): IterableIterator<string> {
    for (let i = this.lowerBound(prefix); i < this.keys.length; i++) {
      const k = this.keys[i]!;
      if (!k.startsWith(prefix)) return;
      yield k;
    }
  }
}
