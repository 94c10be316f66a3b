/**
 * A tiny protobuf writer for tests: builds messages field by field, as Kubernetes' generated
 * marshallers would (same field numbers), plus the `k8s\0` + `runtime.Unknown` envelope.
 */
export type Field =
  | { n: number; varint: bigint | number | boolean }
  | { n: number; bytes: Uint8Array | string }
  | { n: number; msg: Field[] }
  | { n: number; fixed32: number }
  | { n: number; fixed64: bigint };

export function varint(v: bigint | number | boolean): number[] {
  let x = typeof v === 'boolean' ? (v ? 1n : 0n) : BigInt(v);
  if (x < 0n) x = BigInt.asUintN(64, x);
  const out: number[] = [];
  do {
    let b = Number(x & 0x7fn);
    x >>= 7n;
    if (x !== 0n) b |= 0x80;
    out.push(b);
  } while (x !== 0n);
  return out;
}

const tag = (n: number, wt: number) => varint((BigInt(n) << 3n) | BigInt(wt));

export function encode(fields: Field[]): Uint8Array {
  const out: number[] = [];
  for (const f of fields) {
    if ('varint' in f) out.push(...tag(f.n, 0), ...varint(f.varint));
    else if ('fixed32' in f) {
      const b = Buffer.alloc(4);
      b.writeUInt32LE(f.fixed32);
      out.push(...tag(f.n, 5), ...b);
    } else if ('fixed64' in f) {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(f.fixed64);
      out.push(...tag(f.n, 1), ...b);
    } else {
      const body = 'msg' in f ? encode(f.msg) : typeof f.bytes === 'string' ? Buffer.from(f.bytes, 'utf8') : f.bytes;
      out.push(...tag(f.n, 2), ...varint(body.length), ...body);
    }
  }
  return Uint8Array.from(out);
}

/** Shorthands. */
export const str = (n: number, s: string): Field => ({ n, bytes: s });
export const int = (n: number, v: number | bigint | boolean): Field => ({ n, varint: v });
export const msg = (n: number, ...fields: Field[]): Field => ({ n, msg: fields });
/** A `map<string, string>` entry. */
export const entry = (n: number, key: string, value: string | Uint8Array): Field => ({ n, msg: [str(1, key), { n: 2, bytes: value }] });

/** `k8s\0` + `Unknown{typeMeta{apiVersion, kind}, raw, contentEncoding "", contentType ""}`, as client-go writes it. */
export function envelope(apiVersion: string, kind: string, raw: Field[] | Uint8Array): Uint8Array {
  const body = raw instanceof Uint8Array ? raw : encode(raw);
  const unknown = encode([msg(1, str(1, apiVersion), str(2, kind)), { n: 2, bytes: body }, str(3, ''), str(4, '')]);
  return Uint8Array.from([0x6b, 0x38, 0x73, 0x00, ...unknown]);
}
