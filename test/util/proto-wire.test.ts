import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ProtoDecodeError, ProtoReader, ProtoWriter } from '../../src/util/proto-wire.js';

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString('hex');

describe('protobuf wire: varints', () => {
  it('encodes the protobuf documentation examples', () => {
    expect(hex(new ProtoWriter().uint(1).finish())).toBe('01');
    expect(hex(new ProtoWriter().uint(150).finish())).toBe('9601');
    expect(hex(new ProtoWriter().uint(300).finish())).toBe('ac02');
    // -1 as int64: ten bytes of two's complement.
    expect(hex(new ProtoWriter().varint64(-1n).finish())).toBe('ffffffffffffffffff01');
    expect(hex(new ProtoWriter().varint64(2n ** 64n - 1n).finish())).toBe('ffffffffffffffffff01');
  });

  it('round-trips every 64-bit value', () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (v) => {
        expect(new ProtoReader(new ProtoWriter().varint64(v).finish()).varint64()).toBe(v);
      }),
    );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (v) => {
        expect(new ProtoReader(new ProtoWriter().uint(v).finish()).uint()).toBe(v);
      }),
    );
  });

  it('fails on a truncated varint and on one longer than ten bytes', () => {
    expect(() => new ProtoReader(Uint8Array.from([0x96])).varint64()).toThrow(new ProtoDecodeError('truncated varint at offset 0'));
    expect(() => new ProtoReader(Uint8Array.from([0x80, 0x80])).uint()).toThrow(/truncated varint/);
    expect(() => new ProtoReader(new Uint8Array(11).fill(0x80)).varint64()).toThrow(/longer than ten bytes/);
  });
});

describe('protobuf wire: lengths and tags', () => {
  it('refuses a length past the end without allocating it', () => {
    // A 2^50-byte claim: must fail on the check, not try to read or allocate.
    const w = new ProtoWriter().uint(2 ** 50);
    expect(() => new ProtoReader(w.finish()).lengthDelimited()).toThrow(/length 1125899906842624 at offset 0 runs past the end \(0 bytes left\)/);
    expect(() => new ProtoReader(Uint8Array.from([5, 1, 2])).lengthDelimited()).toThrow(/length 5 .* \(2 bytes left\)/);
    expect(() => new ProtoReader(new ProtoWriter().varint64(2n ** 63n).finish()).lengthDelimited()).toThrow(/too large/);
  });

  it('refuses field number 0 and wire types 6 and 7', () => {
    expect(() => new ProtoReader(Uint8Array.from([0x02])).tag()).toThrow(/field number 0/);
    expect(() => new ProtoReader(Uint8Array.from([0x0e])).tag()).toThrow(/invalid wire type 6/);
    expect(() => new ProtoReader(Uint8Array.from([0x0f])).tag()).toThrow(/invalid wire type 7/);
  });

  it('skips groups and fixed words, refusing unclosed or mismatched groups', () => {
    // field 1 start group, field 2 varint 5, field 1 end group
    const r = new ProtoReader(Uint8Array.from([0x0b, 0x10, 0x05, 0x0c, 0x1d, 1, 2, 3, 4]));
    const t = r.tag();
    r.skip(t.fieldNumber, t.wireType, 10);
    const f = r.tag();
    r.skip(f.fieldNumber, f.wireType, 10);
    expect(r.done).toBe(true);
    const unclosed = new ProtoReader(Uint8Array.from([0x0b, 0x10, 0x05]));
    unclosed.tag();
    expect(() => unclosed.skip(1, 3, 10)).toThrow(/group 1 is not closed/);
    const mismatched = new ProtoReader(Uint8Array.from([0x0b, 0x14]));
    mismatched.tag();
    expect(() => mismatched.skip(1, 3, 10)).toThrow(/group 1 closed as 2/);
    expect(() => new ProtoReader(Uint8Array.from([1, 2])).fixed(4)).toThrow(/truncated fixed32/);
  });

  it('refuses groups nested beyond the depth limit', () => {
    const deep = new Uint8Array(2000).fill(0x0b);
    const r = new ProtoReader(deep);
    r.tag();
    expect(() => r.skip(1, 3, 100)).toThrow(/nested too deeply/);
  });
});

describe('protobuf wire: zigzag varints and doubles', () => {
  it('writes sint values zigzagged, as the protobuf documentation shows', () => {
    expect(hex(new ProtoWriter().sint(0).finish())).toBe('00');
    expect(hex(new ProtoWriter().sint(-1).finish())).toBe('01');
    expect(hex(new ProtoWriter().sint(1).finish())).toBe('02');
    expect(hex(new ProtoWriter().sint(-2).finish())).toBe('03');
    expect(hex(new ProtoWriter().sint(2147483647).finish())).toBe('feffffff0f');
    expect(hex(new ProtoWriter().sint(-2147483648).finish())).toBe('ffffffff0f');
  });

  it('writes doubles as eight little-endian bytes, also past a buffer boundary', () => {
    expect(hex(new ProtoWriter().double(1).finish())).toBe('000000000000f03f');
    const w = new ProtoWriter();
    for (let i = 0; i < 300; i++) w.double(i + 0.5);
    const bytes = w.finish();
    expect(bytes.length).toBe(2400);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length);
    for (let i = 0; i < 300; i++) expect(view.getFloat64(i * 8, true)).toBe(i + 0.5);
  });
});
