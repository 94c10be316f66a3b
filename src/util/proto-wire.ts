/**
 * The protobuf wire format, written by hand: varints (64-bit values as bigint), zigzag varints,
 * doubles, fixed 32/64-bit words, length-delimited fields. The CRI client and the metrics
 * exposition (Prometheus' delimited MetricFamily messages) both write with it. The reader checks
 * every length against what is left, so hostile input (truncated varints, lengths past the end,
 * huge length prefixes) fails with a {@link ProtoDecodeError} instead of reading past the buffer
 * or allocating what it claims.
 */

/** The wire types of a field's tag. 3 and 4 (groups) are only skipped. */
export const WireType = { Varint: 0, Fixed64: 1, LengthDelimited: 2, StartGroup: 3, EndGroup: 4, Fixed32: 5 } as const;

/** Malformed protobuf input. */
export class ProtoDecodeError extends Error {
  constructor(message: string) {
    super(`protobuf: ${message}`);
    this.name = 'ProtoDecodeError';
  }
}

/** Accumulates an encoded message. */
export class ProtoWriter {
  private chunks: Uint8Array[] = [];
  private buffer = new Uint8Array(256);
  private position = 0;

  private ensure(bytes: number): void {
    if (this.position + bytes <= this.buffer.length) return;
    this.chunks.push(this.buffer.subarray(0, this.position));
    this.buffer = new Uint8Array(Math.max(256, bytes, this.buffer.length * 2));
    this.position = 0;
  }

  /** An unsigned varint of a non-negative safe integer. */
  uint(value: number): this {
    this.ensure(10);
    let v = value;
    while (v > 0x7f) {
      this.buffer[this.position++] = (v % 128) | 0x80;
      v = Math.floor(v / 128);
    }
    this.buffer[this.position++] = v;
    return this;
  }

  /** A varint of any 64-bit value: negative numbers as their two's complement (ten bytes). */
  varint64(value: bigint): this {
    let v = BigInt.asUintN(64, value);
    if (v <= BigInt(Number.MAX_SAFE_INTEGER)) return this.uint(Number(v));
    this.ensure(10);
    while (v > 0x7fn) {
      this.buffer[this.position++] = Number(v & 0x7fn) | 0x80;
      v >>= 7n;
    }
    this.buffer[this.position++] = Number(v);
    return this;
  }

  /** A zigzag varint (`sint32`, `sint64`) of a safe integer: small magnitudes stay short either sign. */
  sint(value: number): this {
    return this.uint(value >= 0 ? value * 2 : -value * 2 - 1);
  }

  /** A `double` (wire type 1): eight bytes, little-endian IEEE 754. */
  double(value: number): this {
    this.ensure(8);
    new DataView(this.buffer.buffer, this.buffer.byteOffset + this.position, 8).setFloat64(0, value, true);
    this.position += 8;
    return this;
  }

  tag(fieldNumber: number, wireType: number): this {
    return this.uint(fieldNumber * 8 + wireType);
  }

  bytes(data: Uint8Array): this {
    this.uint(data.length);
    this.ensure(data.length);
    this.buffer.set(data, this.position);
    this.position += data.length;
    return this;
  }

  string(text: string): this {
    return this.bytes(Buffer.from(text, 'utf8'));
  }

  /** The bytes written so far, as one array. */
  finish(): Uint8Array {
    const parts = [...this.chunks, this.buffer.subarray(0, this.position)];
    const total = parts.reduce((n, p) => n + p.length, 0);
    const out = new Uint8Array(total);
    let offset = 0;
    for (const p of parts) {
      out.set(p, offset);
      offset += p.length;
    }
    return out;
  }
}

/** Reads one message's bytes field by field. */
export class ProtoReader {
  position = 0;

  constructor(readonly buffer: Uint8Array) {}

  get done(): boolean {
    return this.position >= this.buffer.length;
  }

  /** A varint as a 64-bit unsigned bigint; at most ten bytes. */
  varint64(): bigint {
    const start = this.position;
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.position >= this.buffer.length) throw new ProtoDecodeError(`truncated varint at offset ${start}`);
      const byte = this.buffer[this.position++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return BigInt.asUintN(64, result);
      shift += 7n;
    }
    throw new ProtoDecodeError(`varint longer than ten bytes at offset ${start}`);
  }

  /** A varint that must fit a safe integer (tags and lengths). */
  uint(): number {
    const start = this.position;
    // Fast path: values below 2^28 need no bigint.
    let result = 0;
    for (let i = 0; i < 4; i++) {
      if (this.position >= this.buffer.length) throw new ProtoDecodeError(`truncated varint at offset ${start}`);
      const byte = this.buffer[this.position++]!;
      result |= (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) === 0) return result >>> 0;
    }
    this.position = start;
    const big = this.varint64();
    if (big > BigInt(Number.MAX_SAFE_INTEGER)) throw new ProtoDecodeError(`varint ${big} at offset ${start} is too large here`);
    return Number(big);
  }

  /** The next length-delimited payload, without copying. */
  lengthDelimited(): Uint8Array {
    const at = this.position;
    const length = this.uint();
    const left = this.buffer.length - this.position;
    if (length > left) throw new ProtoDecodeError(`length ${length} at offset ${at} runs past the end (${left} bytes left)`);
    const out = this.buffer.subarray(this.position, this.position + length);
    this.position += length;
    return out;
  }

  fixed(bytes: 4 | 8): Uint8Array {
    if (this.position + bytes > this.buffer.length) throw new ProtoDecodeError(`truncated fixed${bytes * 8} at offset ${this.position}`);
    const out = this.buffer.subarray(this.position, this.position + bytes);
    this.position += bytes;
    return out;
  }

  /** The next tag: field number and wire type. */
  tag(): { fieldNumber: number; wireType: number } {
    const at = this.position;
    const tag = this.uint();
    const fieldNumber = Math.floor(tag / 8);
    const wireType = tag % 8;
    if (fieldNumber === 0) throw new ProtoDecodeError(`field number 0 at offset ${at}`);
    if (fieldNumber > 536_870_911) throw new ProtoDecodeError(`field number ${fieldNumber} at offset ${at} is out of range`);
    if (wireType > 5) throw new ProtoDecodeError(`invalid wire type ${wireType} at offset ${at}`);
    return { fieldNumber, wireType };
  }

  /** Skips a field's value; groups are skipped to their end, at most `depthLeft` deep. */
  skip(fieldNumber: number, wireType: number, depthLeft: number): void {
    switch (wireType) {
      case WireType.Varint:
        this.varint64();
        return;
      case WireType.Fixed64:
        this.fixed(8);
        return;
      case WireType.LengthDelimited:
        this.lengthDelimited();
        return;
      case WireType.Fixed32:
        this.fixed(4);
        return;
      case WireType.StartGroup: {
        if (depthLeft <= 0) throw new ProtoDecodeError('message nested too deeply');
        for (;;) {
          if (this.done) throw new ProtoDecodeError(`group ${fieldNumber} is not closed`);
          const inner = this.tag();
          if (inner.wireType === WireType.EndGroup) {
            if (inner.fieldNumber !== fieldNumber) throw new ProtoDecodeError(`group ${fieldNumber} closed as ${inner.fieldNumber}`);
            return;
          }
          this.skip(inner.fieldNumber, inner.wireType, depthLeft - 1);
        }
      }
      default:
        throw new ProtoDecodeError(`unexpected end of group ${fieldNumber} at offset ${this.position}`);
    }
  }
}
