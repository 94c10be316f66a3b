/**
 * Decodes a Kubernetes protobuf message to the JSON object Kubernetes' JSON encoder would write for
 * the same Go struct: the JSON field names, repeated fields as arrays, maps as objects, `bytes` as
 * base64, Time as RFC 3339, Quantity as its string, IntOrString as a number or a string, raw JSON
 * (RawExtension, FieldsV1) parsed. A scalar is emitted only when it was on the wire, and then not
 * when its Go field is a non-pointer `omitempty` one holding its zero value. Unknown fields are skipped.
 */
import { F_INLINE, F_MAP, F_OMITEMPTY, F_OMITZERO, F_REPEATED, type FieldDescriptor, type MessageDescriptor } from './descriptor.js';
import { MESSAGES } from './descriptors.generated.js';
import { ProtobufError, WIRE_BYTES, WIRE_FIXED32, WIRE_FIXED64, WIRE_VARINT, WireReader } from './wire.js';

/** How deep messages may nest (Kubernetes objects need about 15). */
export const MAX_DEPTH = 64;

export { ProtobufError };

/** Whether there is a descriptor for the message. */
export function hasMessage(name: string): boolean {
  return Object.hasOwn(MESSAGES, name) || SPECIAL.has(name);
}

const SPECIAL = new Set([
  'meta.v1.Time',
  'meta.v1.MicroTime',
  'meta.v1.Duration',
  'meta.v1.FieldsV1',
  'resource.Quantity',
  'intstr.IntOrString',
  'runtime.RawExtension',
]);

const byNumber = new Map<string, Map<number, FieldDescriptor>>();

function fieldsOf(name: string): { message: MessageDescriptor; fields: Map<number, FieldDescriptor> } {
  if (!Object.hasOwn(MESSAGES, name)) throw new ProtobufError(`no descriptor for message ${name}`);
  const message = MESSAGES[name]!;
  let fields = byNumber.get(name);
  if (!fields) {
    fields = new Map(message.fields.map((f) => [f[0], f]));
    byNumber.set(name, fields);
  }
  return { message, fields };
}

const utf8 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');
const base64 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('base64');

const VARINT_TYPES = new Set(['bool', 'int32', 'int64', 'uint32', 'uint64', 'sint32', 'sint64']);
const FIXED64_TYPES = new Set(['double', 'fixed64', 'sfixed64']);
const FIXED32_TYPES = new Set(['float', 'fixed32', 'sfixed32']);

function wireTypeOf(type: string): number {
  if (VARINT_TYPES.has(type)) return WIRE_VARINT;
  if (FIXED64_TYPES.has(type)) return WIRE_FIXED64;
  if (FIXED32_TYPES.has(type)) return WIRE_FIXED32;
  return WIRE_BYTES;
}

function isScalar(type: string): boolean {
  return type === 'string' || type === 'bytes' || VARINT_TYPES.has(type) || FIXED64_TYPES.has(type) || FIXED32_TYPES.has(type);
}

function int64ToNumber(v: bigint): number {
  return Number(v);
}

/** Reads one non-length-delimited scalar. */
function readNumeric(r: WireReader, type: string): number | boolean {
  switch (type) {
    case 'bool':
      return r.varint() !== 0n;
    case 'int32':
      return Number(BigInt.asIntN(32, r.varint()));
    case 'uint32':
      return Number(BigInt.asUintN(32, r.varint()));
    case 'int64':
      return int64ToNumber(BigInt.asIntN(64, r.varint()));
    case 'uint64':
      return int64ToNumber(r.varint());
    case 'sint32':
    case 'sint64': {
      const v = r.varint();
      return int64ToNumber((v >> 1n) ^ -(v & 1n));
    }
    case 'double': {
      const b = r.take(8);
      return new DataView(b.buffer, b.byteOffset, 8).getFloat64(0, true);
    }
    case 'float': {
      const b = r.take(4);
      return new DataView(b.buffer, b.byteOffset, 4).getFloat32(0, true);
    }
    case 'fixed64':
      return int64ToNumber(r.fixed64());
    case 'sfixed64':
      return int64ToNumber(BigInt.asIntN(64, r.fixed64()));
    case 'fixed32':
      return r.fixed32();
    case 'sfixed32':
      return r.fixed32() | 0;
    default:
      throw new ProtobufError(`unsupported scalar type ${type}`);
  }
}

function isZero(v: unknown): boolean {
  return v === '' || v === 0 || v === false;
}

/** One value of a field of type `type` whose bytes (length-delimited) or reader position is given. */
function decodeValue(type: string, r: WireReader, wireType: number, depth: number, context: string): unknown {
  if (type === 'string' || type === 'bytes') {
    if (wireType !== WIRE_BYTES) throw new ProtobufError(`${context}: wire type ${wireType} for a ${type} field`);
    const b = r.bytes();
    return type === 'string' ? utf8(b) : base64(b);
  }
  if (isScalar(type)) {
    if (wireType !== wireTypeOf(type)) throw new ProtobufError(`${context}: wire type ${wireType} for a ${type} field`);
    return readNumeric(r, type);
  }
  if (wireType !== WIRE_BYTES) throw new ProtobufError(`${context}: wire type ${wireType} for a message field`);
  return decodeMessage(type, r.bytes(), depth + 1);
}

/**
 * Decodes the message `name` (a short name such as `core.v1.ConfigMap`) from `bytes`.
 * Throws {@link ProtobufError} on malformed data.
 */
export function decodeMessage(name: string, bytes: Uint8Array, depth = 0): unknown {
  if (depth > MAX_DEPTH) throw new ProtobufError(`messages nested deeper than ${MAX_DEPTH}`);
  switch (name) {
    case 'meta.v1.Time':
      return decodeTime(bytes, false);
    case 'meta.v1.MicroTime':
      return decodeTime(bytes, true);
    case 'meta.v1.Duration':
      return goDuration(BigInt.asIntN(64, singleVarint(bytes, 1) ?? 0n));
    case 'meta.v1.FieldsV1':
    case 'runtime.RawExtension':
      return decodeRawJson(singleBytes(bytes, 1), name);
    case 'resource.Quantity': {
      const s = singleBytes(bytes, 1);
      return s === undefined ? '0' : utf8(s);
    }
    case 'intstr.IntOrString':
      return decodeIntOrString(bytes);
  }
  const { message, fields } = fieldsOf(name);
  const out: Record<string, unknown> = {};
  const inlined: Record<string, unknown>[] = [];
  // Singular message fields: protobuf merges repeated occurrences, i.e. decodes their concatenation.
  const chunks = new Map<FieldDescriptor, Uint8Array[]>();
  const r = new WireReader(bytes);
  while (!r.done()) {
    const { field, wireType } = r.tag();
    const f = fields.get(field);
    if (!f) {
      r.skip(wireType);
      continue;
    }
    const [, json, type, flags] = f;
    const context = `${name}.${json}`;
    if (flags & F_MAP) {
      if (wireType !== WIRE_BYTES) throw new ProtobufError(`${context}: wire type ${wireType} for a map entry`);
      const [key, value] = decodeMapEntry(r.bytes(), type, depth + 1, context);
      const map = (out[json] ??= {}) as Record<string, unknown>;
      Object.defineProperty(map, key, { value, enumerable: true, writable: true, configurable: true });
    } else if (flags & F_REPEATED) {
      const list = (out[json] ??= []) as unknown[];
      if (wireType === WIRE_BYTES && isScalar(type) && type !== 'string' && type !== 'bytes') {
        // Packed repeated numbers.
        const packed = new WireReader(r.bytes());
        while (!packed.done()) list.push(readNumeric(packed, type));
      } else {
        list.push(decodeValue(type, r, wireType, depth, context));
      }
    } else if (!isScalar(type)) {
      if (wireType !== WIRE_BYTES) throw new ProtobufError(`${context}: wire type ${wireType} for a message field`);
      const list = chunks.get(f) ?? [];
      list.push(r.bytes());
      chunks.set(f, list);
    } else {
      const v = decodeValue(type, r, wireType, depth, context);
      if (flags & F_OMITEMPTY && isZero(v)) delete out[json];
      else out[json] = v;
    }
  }
  for (const [f, list] of chunks) {
    const [, json, type, flags] = f;
    const v = decodeMessage(type, list.length === 1 ? list[0]! : Buffer.concat(list), depth + 1);
    if (flags & F_INLINE) {
      if (v !== null && typeof v === 'object' && !Array.isArray(v)) inlined.push(v as Record<string, unknown>);
      continue;
    }
    if (v === null && flags & F_OMITZERO) continue;
    out[json] = v;
  }
  for (const v of inlined) {
    for (const [k, value] of Object.entries(v)) if (!(k in out)) out[k] = value;
  }
  if (message.list) return (out.items as unknown[] | undefined) ?? [];
  return out;
}

function decodeMapEntry(bytes: Uint8Array, valueType: string, depth: number, context: string): [string, unknown] {
  if (depth > MAX_DEPTH) throw new ProtobufError(`messages nested deeper than ${MAX_DEPTH}`);
  const r = new WireReader(bytes);
  let key = '';
  let value: unknown;
  while (!r.done()) {
    const { field, wireType } = r.tag();
    if (field === 1) {
      if (wireType !== WIRE_BYTES) throw new ProtobufError(`${context}: wire type ${wireType} for a map key`);
      key = utf8(r.bytes());
    } else if (field === 2) value = decodeValue(valueType, r, wireType, depth, context);
    else r.skip(wireType);
  }
  if (value === undefined) value = zeroOf(valueType, depth);
  return [key, value];
}

function zeroOf(type: string, depth: number): unknown {
  if (type === 'string' || type === 'bytes') return '';
  if (type === 'bool') return false;
  if (isScalar(type)) return 0;
  return decodeMessage(type, new Uint8Array(0), depth + 1);
}

/** The last value of varint field `n` of a small message. */
function singleVarint(bytes: Uint8Array, n: number): bigint | undefined {
  const r = new WireReader(bytes);
  let out: bigint | undefined;
  while (!r.done()) {
    const { field, wireType } = r.tag();
    if (field === n && wireType === WIRE_VARINT) out = r.varint();
    else if (field === n) throw new ProtobufError(`wire type ${wireType} for a varint field`);
    else r.skip(wireType);
  }
  return out;
}

/** The last value of bytes field `n` of a small message. */
function singleBytes(bytes: Uint8Array, n: number): Uint8Array | undefined {
  const r = new WireReader(bytes);
  let out: Uint8Array | undefined;
  while (!r.done()) {
    const { field, wireType } = r.tag();
    if (field === n && wireType === WIRE_BYTES) out = r.bytes();
    else if (field === n) throw new ProtobufError(`wire type ${wireType} for a bytes field`);
    else r.skip(wireType);
  }
  return out;
}

function decodeRawJson(raw: Uint8Array | undefined, name: string): unknown {
  if (raw === undefined || raw.length === 0) return null;
  try {
    return JSON.parse(utf8(raw)) as unknown;
  } catch {
    throw new ProtobufError(`${name}: the raw bytes are not JSON`);
  }
}

function decodeIntOrString(bytes: Uint8Array): number | string {
  const r = new WireReader(bytes);
  let type = 0n;
  let intVal = 0;
  let strVal = '';
  while (!r.done()) {
    const { field, wireType } = r.tag();
    if (field === 1 && wireType === WIRE_VARINT) type = r.varint();
    else if (field === 2 && wireType === WIRE_VARINT) intVal = Number(BigInt.asIntN(32, r.varint()));
    else if (field === 3 && wireType === WIRE_BYTES) strVal = utf8(r.bytes());
    else if (field <= 3) throw new ProtobufError(`IntOrString: wire type ${wireType} for field ${field}`);
    else r.skip(wireType);
  }
  return type === 1n ? strVal : intVal;
}

/** `metav1.Time` (seconds) / `MicroTime` (microseconds) as RFC 3339 in UTC; the zero time is `null`. */
function decodeTime(bytes: Uint8Array, micro: boolean): string | null {
  const r = new WireReader(bytes);
  let seconds = 0n;
  let nanos = 0;
  while (!r.done()) {
    const { field, wireType } = r.tag();
    if (field === 1 && wireType === WIRE_VARINT) seconds = BigInt.asIntN(64, r.varint());
    else if (field === 2 && wireType === WIRE_VARINT) nanos = Number(BigInt.asIntN(32, r.varint()));
    else if (field <= 2) throw new ProtobufError(`Time: wire type ${wireType} for field ${field}`);
    else r.skip(wireType);
  }
  if (seconds === 0n && nanos === 0) return null;
  if (nanos < 0 || nanos > 999_999_999) throw new ProtobufError(`Time: nanos ${nanos} out of range`);
  // 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59Z
  if (seconds < -62135596800n || seconds > 253402300799n) throw new ProtobufError(`Time: seconds ${seconds} out of range`);
  const iso = new Date(Number(seconds) * 1000).toISOString(); // YYYY-MM-DDTHH:MM:SS.000Z
  const base = iso.slice(0, 19);
  if (!micro) return `${base}Z`;
  return `${base}.${String(Math.floor(nanos / 1000)).padStart(6, '0')}Z`;
}

/** Go's `time.Duration.String()`: `1h2m3.5s`, `150ms`, `0s`. */
export function goDuration(ns: bigint): string {
  if (ns === 0n) return '0s';
  const neg = ns < 0n;
  let u = neg ? -ns : ns;
  const sign = neg ? '-' : '';
  const frac = (v: bigint, digits: number): string => {
    const s = v.toString().padStart(digits, '0').replace(/0+$/, '');
    return s ? `.${s}` : '';
  };
  if (u < 1_000_000_000n) {
    if (u < 1000n) return `${sign}${u}ns`;
    if (u < 1_000_000n) return `${sign}${u / 1000n}${frac(u % 1000n, 3)}µs`;
    return `${sign}${u / 1_000_000n}${frac(u % 1_000_000n, 6)}ms`;
  }
  const secFrac = frac(u % 1_000_000_000n, 9);
  u /= 1_000_000_000n;
  const s = u % 60n;
  u /= 60n;
  if (u === 0n) return `${sign}${s}${secFrac}s`;
  const m = u % 60n;
  const h = u / 60n;
  if (h === 0n) return `${sign}${m}m${s}${secFrac}s`;
  return `${sign}${h}h${m}m${s}${secFrac}s`;
}
