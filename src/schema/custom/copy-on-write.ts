/**
 * Copy-on-write edits of JSON documents: defaulting, pruning and coercion never change the value
 * they are given (a stored object is frozen; a caller may still hold the request body), they copy
 * the containers on the path to a change and share everything else.
 */
import { rawTextsOf, setRawText } from '../../util/json-raw.js';

/** A JSON object (not an array, not null). */
export type JsonMap = Record<string, unknown>;

/** True for a JSON object. */
export function isJsonMap(v: unknown): v is JsonMap {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * A shallow copy of a container, keeping the raw texts recorded for its scalars (util/json-raw.ts).
 * Object spread defines own properties, so a `__proto__` member is copied as a member.
 */
export function shallowCopy<T extends object>(v: T): T {
  const copy = (Array.isArray(v) ? v.slice() : { ...v }) as T;
  const raw = rawTextsOf(v);
  if (raw) for (const [slot, text] of raw) setRawText(copy, slot, text);
  return copy;
}

/** The keys of a JSON object that hold a value (`undefined` counts as absent, as in JSON). */
export function definedKeys(o: JsonMap): string[] {
  return Object.keys(o).filter((k) => o[k] !== undefined);
}

/**
 * Edits of one container: the first write copies it; {@link result} is the copy, or the
 * original when nothing changed.
 */
export class ContainerEdit<T extends object> {
  private copy: T | undefined;

  constructor(private readonly original: T) {}

  private target(): T {
    return (this.copy ??= shallowCopy(this.original));
  }

  /** Sets a member or item (a `__proto__` key is defined, never assigned); nothing when `value` is what is there. */
  set(slot: string | number, value: unknown): void {
    const current = (this.copy ?? this.original) as Record<string | number, unknown>;
    if (current[slot] === value && Object.hasOwn(current, slot)) return;
    const t = this.target() as Record<string | number, unknown>;
    if (slot === '__proto__') Object.defineProperty(t, slot, { value, writable: true, enumerable: true, configurable: true });
    else t[slot] = value;
  }

  /** Removes a member. */
  delete(key: string): void {
    delete (this.target() as Record<string, unknown>)[key];
  }

  get result(): T {
    return this.copy ?? this.original;
  }
}
