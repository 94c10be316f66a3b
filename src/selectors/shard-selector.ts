/**
 * Shard selectors (alpha feature ShardedListAndWatch, Kubernetes 1.36): a list or watch asks for
 * the objects whose hashed field falls in one of a few ranges,
 *
 *     shardRange(object.metadata.uid, '0x0', '0x8000000000000000') || shardRange(...)
 *
 * The hash is 64-bit FNV-1a of the field's UTF-8 bytes; a range includes its lower bound and
 * excludes its upper one, over [0x0, 0x10000000000000000). Supported fields:
 * `object.metadata.uid` and `object.metadata.namespace`.
 */
import type { KubeObject } from '../schema/define-kind.js';

/** A malformed shard selector; `message` says what is wrong. */
export class ShardSelectorParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShardSelectorParseError';
  }
}

/** The fields a shard selector may hash. */
export type ShardField = 'object.metadata.uid' | 'object.metadata.namespace';

/** One `shardRange(field, lower, upper)` term. */
export interface ShardRange {
  readonly field: ShardField;
  /** Inclusive. */
  readonly lower: bigint;
  /** Exclusive; at most 2^64. */
  readonly upper: bigint;
}

/** A parsed shard selector: an object matches when any range holds. */
export interface ShardSelector {
  readonly ranges: readonly ShardRange[];
  /** Whether `obj` falls in one of the ranges. */
  matches(obj: Readonly<KubeObject>): boolean;
  /** True for the empty selector (matches everything). */
  empty(): boolean;
}

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK = 0xffffffffffffffffn;
const HASH_SPACE = 0x10000000000000000n;
const FIELDS: readonly ShardField[] = ['object.metadata.uid', 'object.metadata.namespace'];

/** 64-bit FNV-1a of the UTF-8 bytes of `text`. */
export function fnv1a64(text: string): bigint {
  let h = FNV_OFFSET;
  for (const byte of Buffer.from(text, 'utf8')) {
    h ^= BigInt(byte);
    h = (h * FNV_PRIME) & MASK;
  }
  return h;
}

function fieldValue(obj: Readonly<KubeObject>, field: ShardField): string {
  const meta = obj.metadata;
  return (field === 'object.metadata.uid' ? meta?.uid : meta?.namespace) ?? '';
}

const TERM = /^\s*shardRange\s*\(\s*([A-Za-z_][\w.]*)\s*,\s*(?:'([^']*)'|"([^"]*)")\s*,\s*(?:'([^']*)'|"([^"]*)")\s*\)\s*$/;
const HEX = /^0x[0-9a-fA-F]{1,17}$/;

function parseBound(text: string, which: string, whole: string): bigint {
  if (!HEX.test(text)) {
    throw new ShardSelectorParseError(
      `invalid shard selector ${JSON.stringify(whole)}: ${which} bound ${JSON.stringify(text)} must be a hexadecimal number with a 0x prefix`,
    );
  }
  const value = BigInt(text);
  if (value > HASH_SPACE) {
    throw new ShardSelectorParseError(
      `invalid shard selector ${JSON.stringify(whole)}: ${which} bound ${text} is out of the hash range [0x0, 0x10000000000000000]`,
    );
  }
  return value;
}

/** Parses a shard selector; `''` selects everything. @throws ShardSelectorParseError */
export function parseShardSelector(text: string): ShardSelector {
  const ranges: ShardRange[] = [];
  if (text.trim() !== '') {
    for (const term of text.split('||')) {
      const m = TERM.exec(term);
      if (!m) {
        throw new ShardSelectorParseError(
          `invalid shard selector ${JSON.stringify(text)}: expected shardRange(<field>, '<0x lower>', '<0x upper>') terms joined by ||, got ${JSON.stringify(term.trim())}`,
        );
      }
      const field = m[1]!;
      if (!(FIELDS as readonly string[]).includes(field)) {
        throw new ShardSelectorParseError(
          `invalid shard selector ${JSON.stringify(text)}: unsupported field ${JSON.stringify(field)}: supported fields are "object.metadata.uid", "object.metadata.namespace"`,
        );
      }
      const lower = parseBound(m[2] ?? m[3]!, 'lower', text);
      const upper = parseBound(m[4] ?? m[5]!, 'upper', text);
      if (lower >= upper) {
        throw new ShardSelectorParseError(
          `invalid shard selector ${JSON.stringify(text)}: lower bound ${m[2] ?? m[3]} must be less than upper bound ${m[4] ?? m[5]}`,
        );
      }
      ranges.push({ field: field as ShardField, lower, upper });
    }
  }
  return {
    ranges,
    empty: () => ranges.length === 0,
    matches(obj) {
      if (ranges.length === 0) return true;
      const hashes = new Map<ShardField, bigint>();
      for (const r of ranges) {
        let h = hashes.get(r.field);
        if (h === undefined) {
          h = fnv1a64(fieldValue(obj, r.field));
          hashes.set(r.field, h);
        }
        if (h >= r.lower && h < r.upper) return true;
      }
      return false;
    },
  };
}
