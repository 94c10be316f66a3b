import { describe, expect, it } from 'vitest';
import { fnv1a64, parseShardSelector, ShardSelectorParseError } from '../../src/selectors/shard-selector.js';

describe('fnv1a64', () => {
  it('matches the published FNV-1a 64-bit vectors', () => {
    expect(fnv1a64('')).toBe(0xcbf29ce484222325n);
    expect(fnv1a64('a')).toBe(0xaf63dc4c8601ec8cn);
    expect(fnv1a64('foobar')).toBe(0x85944171f73967e8n);
  });
});

describe('parseShardSelector', () => {
  const obj = (uid: string, namespace = 'default') => ({ metadata: { uid, namespace } });

  it('selects by hash range, lower inclusive and upper exclusive, over the full 64-bit space', () => {
    const h = fnv1a64('u1');
    const hex = (n: bigint) => `0x${n.toString(16)}`;
    expect(parseShardSelector(`shardRange(object.metadata.uid, '${hex(h)}', '${hex(h + 1n)}')`).matches(obj('u1'))).toBe(true);
    expect(parseShardSelector(`shardRange(object.metadata.uid, '0x0', '${hex(h)}')`).matches(obj('u1'))).toBe(false);
    const halves = [
      "shardRange(object.metadata.uid, '0x0', '0x8000000000000000')",
      "shardRange(object.metadata.uid, '0x8000000000000000', '0x10000000000000000')",
    ].map(parseShardSelector);
    for (const uid of ['a', 'b', 'c', 'd', 'e', 'f']) expect(halves.filter((s) => s.matches(obj(uid))).length).toBe(1);
  });

  it('joins ranges with || and hashes the namespace too', () => {
    const s = parseShardSelector("shardRange(object.metadata.namespace, '0x0', '0x1') || shardRange(object.metadata.namespace, '0x1', '0x10000000000000000')");
    expect(s.ranges).toHaveLength(2);
    expect(s.matches(obj('x', 'anything'))).toBe(true);
    expect(parseShardSelector('').empty()).toBe(true);
  });

  it.each([
    ['shardRange(object.metadata.name, "0x0", "0x1")', 'unsupported field "object.metadata.name"'],
    ["shardRange(object.metadata.uid, '0', '0x1')", 'must be a hexadecimal number'],
    ["shardRange(object.metadata.uid, '0x0', '0x10000000000000001')", 'out of the hash range'],
    ["shardRange(object.metadata.uid, '0x5', '0x5')", 'must be less than upper bound'],
    ["shardRange(object.metadata.uid, '0x0')", 'expected shardRange('],
    ["shardRange(object.metadata.uid, '0x0', '0x1') ||", 'expected shardRange('],
    ['garbage', 'expected shardRange('],
  ])('rejects %s', (text, message) => {
    expect(() => parseShardSelector(text)).toThrow(ShardSelectorParseError);
    expect(() => parseShardSelector(text)).toThrow(message);
  });
});
