/**
 * The webhook authorizer's answer cache (k8s.io/apimachinery `cache.LRUExpireCache`): at most
 * `size` entries, the least recently used dropped first, each valid until its own expiry on an
 * injected clock (an entry is still valid at the very instant it expires, gone after).
 */
export class ExpiringLruCache<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly expiresAt: number }>();

  constructor(
    private readonly size: number,
    private readonly now: () => number,
  ) {}

  /** The value under `key`, if present and not expired (it becomes the most recently used). */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (this.now() > entry.expiresAt) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` under `key` for `ttlMs` milliseconds from now. */
  add(key: string, value: V, ttlMs: number): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlMs });
    if (this.entries.size > this.size) this.entries.delete(this.entries.keys().next().value!);
  }

  /** How many entries are held (expired ones included until they are read or pushed out). */
  get length(): number {
    return this.entries.size;
  }
}
