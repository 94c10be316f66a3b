/**
 * Table-driven protobuf messages: a message is a list of fields (number, JSON name, kind), and one
 * generic encoder and decoder walk the table. proto3 rules: default values (0, '', false, the first
 * enum value, empty lists and maps) are not written; a field absent on the wire decodes to its
 * default, or stays undefined when the TypeScript type marks it optional. Fields the table does
 * not name are skipped, so a runtime newer than these tables is still read.
 */
import { ProtoDecodeError, ProtoReader, ProtoWriter, WireType } from '../../util/proto-wire.js';

/** A protobuf enum: the names by number, and the name an unknown number decodes to. */
export interface EnumDef {
  readonly names: readonly string[];
  /** Default: the name of 0. */
  readonly unknown?: string;
}

/** Scalar kinds and how they are held in TypeScript. */
export type ScalarKind = 'string' | 'bytes' | 'bool' | 'int32' | 'uint32' | 'int64' | 'uint64';

/** One field of a message. */
export type FieldDef =
  | { readonly no: number; readonly name: string; readonly kind: ScalarKind; readonly repeated?: boolean; readonly optional?: boolean }
  | {
      readonly no: number;
      readonly name: string;
      readonly kind: 'enum';
      readonly enum: EnumDef;
      readonly optional?: boolean;
      /** Held on the wire in a wrapper message (`PodSandboxStateValue`) whose field 1 is the enum. */
      readonly wrapped?: boolean;
    }
  | {
      readonly no: number;
      readonly name: string;
      readonly kind: 'message';
      readonly message: () => MessageDef;
      readonly repeated?: boolean;
      readonly optional?: boolean;
    }
  | { readonly no: number; readonly name: string; readonly kind: 'map'; readonly optional?: boolean };

/** A message: its protobuf name (for errors) and its fields. */
export interface MessageDef {
  readonly name: string;
  readonly fields: readonly FieldDef[];
}

/** How deep messages may nest on decode: protobuf's own parsers stop at about a hundred as well. */
export const MAX_DEPTH = 100;

type Value = unknown;
type Obj = Record<string, Value>;

const isVarintKind = (kind: ScalarKind | 'enum'): boolean => kind !== 'string' && kind !== 'bytes';

function writeScalar(w: ProtoWriter, kind: ScalarKind, value: Value): void {
  switch (kind) {
    case 'string':
      w.string(String(value));
      return;
    case 'bytes':
      w.bytes(value as Uint8Array);
      return;
    case 'bool':
      w.uint(value ? 1 : 0);
      return;
    case 'int32':
    case 'uint32':
      // A negative int32 is sign-extended to ten bytes, as protobuf writes it.
      w.varint64(BigInt(Math.trunc(Number(value))));
      return;
    case 'int64':
    case 'uint64':
      w.varint64(BigInt(value as bigint));
  }
}

function isDefault(kind: ScalarKind, value: Value): boolean {
  switch (kind) {
    case 'string':
      return value === '';
    case 'bytes':
      return (value as Uint8Array).length === 0;
    case 'bool':
      return value === false;
    case 'int32':
    case 'uint32':
      return value === 0;
    default:
      return value === 0n || value === 0;
  }
}

function enumNumber(def: EnumDef, value: Value, field: string): number {
  if (typeof value === 'number') return value;
  const n = def.names.indexOf(String(value));
  if (n === -1) throw new TypeError(`${field}: ${JSON.stringify(value)} is not one of ${def.names.join(', ')}`);
  return n;
}

/** Encodes `value` as message `def`. */
export function encodeMessage(def: MessageDef, value: Obj): Uint8Array {
  const w = new ProtoWriter();
  writeFields(w, def, value);
  return w.finish();
}

function writeFields(w: ProtoWriter, def: MessageDef, value: Obj): void {
  for (const field of def.fields) {
    const v = value[field.name];
    if (v === undefined || v === null) continue;
    switch (field.kind) {
      case 'message':
        if (field.repeated) {
          for (const item of v as Obj[]) w.tag(field.no, WireType.LengthDelimited).bytes(encodeMessage(field.message(), item));
        } else {
          w.tag(field.no, WireType.LengthDelimited).bytes(encodeMessage(field.message(), v as Obj));
        }
        break;
      case 'map':
        for (const [k, val] of Object.entries(v as Record<string, string>)) {
          const entry = new ProtoWriter();
          if (k !== '') entry.tag(1, WireType.LengthDelimited).string(k);
          if (val !== '') entry.tag(2, WireType.LengthDelimited).string(String(val));
          w.tag(field.no, WireType.LengthDelimited).bytes(entry.finish());
        }
        break;
      case 'enum': {
        const n = enumNumber(field.enum, v, `${def.name}.${field.name}`);
        if (field.wrapped) {
          // The wrapper is the point: it is written even for the zero value, so the filter is set.
          const inner = new ProtoWriter();
          if (n !== 0) inner.tag(1, WireType.Varint).uint(n);
          w.tag(field.no, WireType.LengthDelimited).bytes(inner.finish());
        } else if (n !== 0) {
          w.tag(field.no, WireType.Varint).uint(n);
        }
        break;
      }
      default:
        if (field.repeated) {
          const items = v as Value[];
          if (items.length === 0) break;
          if (isVarintKind(field.kind)) {
            // proto3 packs repeated numbers.
            const packed = new ProtoWriter();
            for (const item of items) writeScalar(packed, field.kind, item);
            w.tag(field.no, WireType.LengthDelimited).bytes(packed.finish());
          } else {
            for (const item of items) {
              w.tag(field.no, WireType.LengthDelimited);
              writeScalar(w, field.kind, item);
            }
          }
        } else if (!isDefault(field.kind, v)) {
          w.tag(field.no, isVarintKind(field.kind) ? WireType.Varint : WireType.LengthDelimited);
          writeScalar(w, field.kind, v);
        }
    }
  }
}

function readVarintAs(kind: ScalarKind, raw: bigint): Value {
  switch (kind) {
    case 'bool':
      return raw !== 0n;
    case 'int32':
      return Number(BigInt.asIntN(32, raw));
    case 'uint32':
      return Number(BigInt.asUintN(32, raw));
    case 'int64':
      return BigInt.asIntN(64, raw);
    default:
      return raw;
  }
}

function scalarDefault(kind: ScalarKind): Value {
  switch (kind) {
    case 'string':
      return '';
    case 'bytes':
      return new Uint8Array(0);
    case 'bool':
      return false;
    case 'int32':
    case 'uint32':
      return 0;
    default:
      return 0n;
  }
}

function enumName(def: EnumDef, n: number): string {
  return def.names[n] ?? def.unknown ?? def.names[0]!;
}

function decodeMapEntry(bytes: Uint8Array): [string, string] {
  const r = new ProtoReader(bytes);
  let key = '';
  let value = '';
  while (!r.done) {
    const { fieldNumber, wireType } = r.tag();
    if ((fieldNumber === 1 || fieldNumber === 2) && wireType === WireType.LengthDelimited) {
      const text = Buffer.from(r.lengthDelimited()).toString('utf8');
      if (fieldNumber === 1) key = text;
      else value = text;
    } else {
      r.skip(fieldNumber, wireType, MAX_DEPTH);
    }
  }
  return [key, value];
}

/** Decodes message `def` from `bytes`; `depth` counts the messages around it. */
export function decodeMessage(def: MessageDef, bytes: Uint8Array, depth = 0): Obj {
  if (depth > MAX_DEPTH) throw new ProtoDecodeError(`message nested more than ${MAX_DEPTH} deep`);
  const byNumber = fieldIndex(def);
  const out: Obj = {};
  const r = new ProtoReader(bytes);
  while (!r.done) {
    const { fieldNumber, wireType } = r.tag();
    const field = byNumber.get(fieldNumber);
    if (!field || !readField(r, field, wireType, out, depth)) r.skip(fieldNumber, wireType, MAX_DEPTH - depth);
  }
  for (const field of def.fields) {
    if (out[field.name] !== undefined || field.optional) continue;
    out[field.name] = defaultOf(field, depth);
  }
  return out;
}

function defaultOf(field: FieldDef, depth: number): Value {
  switch (field.kind) {
    case 'message':
      return field.repeated ? [] : decodeMessage(field.message(), new Uint8Array(0), depth + 1);
    case 'map':
      return {};
    case 'enum':
      return enumName(field.enum, 0);
    default:
      return field.repeated ? [] : scalarDefault(field.kind);
  }
}

/** Reads one occurrence of a known field; false when its wire type does not fit (then it is skipped). */
function readField(r: ProtoReader, field: FieldDef, wireType: number, out: Obj, depth: number): boolean {
  switch (field.kind) {
    case 'message': {
      if (wireType !== WireType.LengthDelimited) return false;
      const value = decodeMessage(field.message(), r.lengthDelimited(), depth + 1);
      if (field.repeated) ((out[field.name] ??= []) as Value[]).push(value);
      else out[field.name] = value; // (protobuf merges repeated occurrences; the last one is enough here)
      return true;
    }
    case 'map': {
      if (wireType !== WireType.LengthDelimited) return false;
      const [k, v] = decodeMapEntry(r.lengthDelimited());
      // Defined, not assigned: a key `__proto__` from the wire must stay a plain entry.
      Object.defineProperty((out[field.name] ??= {}) as Record<string, string>, k, { value: v, enumerable: true, writable: true, configurable: true });
      return true;
    }
    case 'enum': {
      if (field.wrapped) {
        if (wireType !== WireType.LengthDelimited) return false;
        const inner = new ProtoReader(r.lengthDelimited());
        let n = 0;
        while (!inner.done) {
          const t = inner.tag();
          if (t.fieldNumber === 1 && t.wireType === WireType.Varint) n = Number(BigInt.asIntN(32, inner.varint64()));
          else inner.skip(t.fieldNumber, t.wireType, MAX_DEPTH - depth);
        }
        out[field.name] = enumName(field.enum, n);
        return true;
      }
      if (wireType !== WireType.Varint) return false;
      out[field.name] = enumName(field.enum, Number(BigInt.asIntN(32, r.varint64())));
      return true;
    }
    default: {
      const kind = field.kind;
      if (isVarintKind(kind)) {
        if (wireType === WireType.Varint) {
          const value = readVarintAs(kind, r.varint64());
          if (field.repeated) ((out[field.name] ??= []) as Value[]).push(value);
          else out[field.name] = value;
          return true;
        }
        if (wireType === WireType.LengthDelimited && field.repeated) {
          // Packed: a run of varints.
          const packed = new ProtoReader(r.lengthDelimited());
          const list = (out[field.name] ??= []) as Value[];
          while (!packed.done) list.push(readVarintAs(kind, packed.varint64()));
          return true;
        }
        return false;
      }
      if (wireType !== WireType.LengthDelimited) return false;
      const raw = r.lengthDelimited();
      const value = kind === 'string' ? Buffer.from(raw).toString('utf8') : Uint8Array.from(raw);
      if (field.repeated) ((out[field.name] ??= []) as Value[]).push(value);
      else out[field.name] = value;
      return true;
    }
  }
}

const indexes = new WeakMap<MessageDef, Map<number, FieldDef>>();

function fieldIndex(def: MessageDef): Map<number, FieldDef> {
  let index = indexes.get(def);
  if (!index) {
    index = new Map(def.fields.map((f) => [f.no, f]));
    indexes.set(def, index);
  }
  return index;
}

/** A message's encoder and decoder, typed. */
export interface MessageCodec<T> {
  readonly def: MessageDef;
  encode(value: T): Uint8Array;
  decode(bytes: Uint8Array): T;
}

/** Types the generic codec for one message. */
export function codec<T>(def: MessageDef): MessageCodec<T> {
  return {
    def,
    encode: (value) => encodeMessage(def, value as Obj),
    decode: (bytes) => decodeMessage(def, bytes) as T,
  };
}
