/**
 * A reader of the protobuf wire format (varints, 64-bit, length-delimited, 32-bit), bounds-checked
 * for hostile input: every read stays inside its slice and malformed data throws a
 * {@link ProtobufError}, never anything else.
 */

/** Malformed protobuf data. */
export class ProtobufError extends Error {
  override name = 'ProtobufError';
}

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_BYTES = 2;
export const WIRE_START_GROUP = 3;
export const WIRE_END_GROUP = 4;
export const WIRE_FIXED32 = 5;

/** The largest field number protobuf allows (2^29 - 1). */
const MAX_FIELD_NUMBER = 0x1fffffff;

export interface Tag {
  field: number;
  wireType: number;
}

/** Reads one message's bytes, front to back. */
export class WireReader {
  private pos: number;

  constructor(
    private readonly buf: Uint8Array,
    start = 0,
    private readonly end = buf.length,
  ) {
    if (start < 0 || end > buf.length || start > end) throw new ProtobufError('invalid slice');
    this.pos = start;
  }

  /** Whether all the bytes have been read. */
  done(): boolean {
    return this.pos >= this.end;
  }

  /** The offset of the next byte (for error messages). */
  offset(): number {
    return this.pos;
  }

  /** A varint of up to 64 bits, as an unsigned bigint. */
  varint(): bigint {
    let result = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new ProtobufError('unexpected end of data in varint');
      const b = this.buf[this.pos++]!;
      if (i === 9 && b > 1) throw new ProtobufError('varint overflows 64 bits');
      result |= BigInt(b & 0x7f) << BigInt(7 * i);
      if (b < 0x80) return result;
    }
    throw new ProtobufError('varint overflows 64 bits');
  }

  /** A varint that must fit in a non-negative safe integer (lengths, tags). */
  smallVarint(what: string): number {
    const v = this.varint();
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ProtobufError(`${what} too large`);
    return Number(v);
  }

  /** A field's tag; field number 0 and the deprecated group wire types are errors. */
  tag(): Tag {
    const v = this.smallVarint('tag');
    const wireType = v % 8;
    const field = Math.floor(v / 8);
    if (field === 0) throw new ProtobufError(`illegal field number 0 at offset ${this.pos}`);
    if (field > MAX_FIELD_NUMBER) throw new ProtobufError(`illegal field number ${field}`);
    if (wireType === WIRE_START_GROUP || wireType === WIRE_END_GROUP) throw new ProtobufError(`unsupported group wire type ${wireType} (field ${field})`);
    if (wireType > WIRE_FIXED32) throw new ProtobufError(`illegal wire type ${wireType} (field ${field})`);
    return { field, wireType };
  }

  /** A length-delimited field's bytes (a view, not a copy). */
  bytes(): Uint8Array {
    const length = this.smallVarint('length');
    if (length > this.end - this.pos) throw new ProtobufError(`length ${length} runs past the end of the data`);
    const out = this.buf.subarray(this.pos, this.pos + length);
    this.pos += length;
    return out;
  }

  /** 8 bytes, little-endian, as an unsigned bigint. */
  fixed64(): bigint {
    const b = this.take(8);
    return new DataView(b.buffer, b.byteOffset, 8).getBigUint64(0, true);
  }

  /** 4 bytes, little-endian, unsigned. */
  fixed32(): number {
    const b = this.take(4);
    return new DataView(b.buffer, b.byteOffset, 4).getUint32(0, true);
  }

  /** 4 or 8 raw bytes of a float/double. */
  take(n: number): Uint8Array {
    if (n > this.end - this.pos) throw new ProtobufError(`unexpected end of data (${n} bytes wanted)`);
    const out = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }

  /** Skips the value of a field of the given wire type. */
  skip(wireType: number): void {
    switch (wireType) {
      case WIRE_VARINT:
        this.varint();
        return;
      case WIRE_FIXED64:
        this.take(8);
        return;
      case WIRE_BYTES:
        this.bytes();
        return;
      case WIRE_FIXED32:
        this.take(4);
        return;
      default:
        throw new ProtobufError(`cannot skip wire type ${wireType}`);
    }
  }
}
