/**
 * The Swagger 2.0 document as the `openapi.v2.Document` protobuf of gnostic (`OpenAPIv2.proto`),
 * which kubectl asks for (`application/com.github.proto-openapi.spec.v2@v1.0+protobuf`) and reads
 * with `proto.Unmarshal` only: there is no JSON fallback. A small writer for the fields kubectl
 * reads (definitions, paths with their operations and parameters, vendor extensions as YAML).
 */
import type { JsonSchema } from './schemas.js';

type Bytes = Uint8Array;

const encoder = new TextEncoder();

function varint(n: number): number[] {
  const out: number[] = [];
  let v = n;
  while (v > 0x7f) {
    out.push((v & 0x7f) | 0x80);
    v = Math.floor(v / 128);
  }
  out.push(v);
  return out;
}

function concat(parts: Bytes[]): Bytes {
  let size = 0;
  for (const p of parts) size += p.length;
  const out = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** A length-delimited field (string, bytes, message). */
function ld(field: number, body: Bytes): Bytes {
  return concat([Uint8Array.from([...varint((field << 3) | 2), ...varint(body.length)]), body]);
}

const str = (field: number, s: string | undefined): Bytes[] => (s === undefined || s === '' ? [] : [ld(field, encoder.encode(s))]);
const strs = (field: number, list: unknown): Bytes[] => (Array.isArray(list) ? list.map((s) => ld(field, encoder.encode(String(s)))) : []);
const bool = (field: number, b: unknown): Bytes[] => (b === true ? [Uint8Array.from([...varint(field << 3), 1])] : []);
const msg = (field: number, parts: Bytes[]): Bytes => ld(field, concat(parts));

function double(field: number, n: unknown): Bytes[] {
  if (typeof n !== 'number') return [];
  const b = new Uint8Array(8);
  new DataView(b.buffer).setFloat64(0, n, true);
  return [concat([Uint8Array.from(varint((field << 3) | 1)), b])];
}

function int64(field: number, n: unknown): Bytes[] {
  return typeof n === 'number' && n > 0 ? [Uint8Array.from([...varint(field << 3), ...varint(n)])] : [];
}

/** `Any { string yaml = 2; }`: JSON is YAML. */
const any = (value: unknown): Bytes[] => str(2, JSON.stringify(value));

/** `repeated NamedAny vendor_extension` of the `x-` keys of an object. */
function extensions(field: number, o: JsonSchema): Bytes[] {
  return Object.entries(o)
    .filter(([k]) => k.startsWith('x-'))
    .map(([k, v]) => msg(field, [...str(1, k), msg(2, any(v))]));
}

/** `openapi.v2.Schema`. */
export function schema(s: JsonSchema): Bytes[] {
  const parts: Bytes[] = [];
  parts.push(...str(1, s.$ref as string | undefined));
  parts.push(...str(2, s.format as string | undefined));
  parts.push(...str(3, s.title as string | undefined));
  parts.push(...str(4, s.description as string | undefined));
  if (s.default !== undefined) parts.push(msg(5, any(s.default)));
  parts.push(...double(6, s.multipleOf), ...double(7, s.maximum), ...bool(8, s.exclusiveMaximum), ...double(9, s.minimum), ...bool(10, s.exclusiveMinimum));
  parts.push(...int64(11, s.maxLength), ...int64(12, s.minLength), ...str(13, s.pattern as string | undefined));
  parts.push(...int64(14, s.maxItems), ...int64(15, s.minItems), ...bool(16, s.uniqueItems), ...int64(17, s.maxProperties), ...int64(18, s.minProperties));
  parts.push(...strs(19, s.required));
  if (Array.isArray(s.enum)) for (const e of s.enum) parts.push(msg(20, any(e)));
  const ap = s.additionalProperties;
  if (ap !== undefined) parts.push(msg(21, typeof ap === 'boolean' ? [Uint8Array.from([16, ap ? 1 : 0])] : [msg(1, schema(ap as JsonSchema))]));
  if (s.type !== undefined) parts.push(msg(22, strs(1, Array.isArray(s.type) ? s.type : [s.type])));
  if (s.items !== undefined)
    parts.push(
      msg(
        23,
        (Array.isArray(s.items) ? s.items : [s.items]).map((i) => msg(1, schema(i as JsonSchema))),
      ),
    );
  if (Array.isArray(s.allOf)) for (const a of s.allOf) parts.push(msg(24, schema(a as JsonSchema)));
  if (s.properties && typeof s.properties === 'object') {
    parts.push(
      msg(
        25,
        Object.entries(s.properties as JsonSchema).map(([name, p]) => msg(1, [...str(1, name), msg(2, schema(p as JsonSchema))])),
      ),
    );
  }
  parts.push(...str(26, s.discriminator as string | undefined), ...bool(27, s.readOnly));
  parts.push(...extensions(31, s));
  return parts;
}

/** `ParametersItem` of a Swagger parameter object. */
function parameter(p: JsonSchema): Bytes[] {
  if (p.in === 'body') {
    const body = [
      ...str(1, p.description as string | undefined),
      ...str(2, p.name as string),
      ...str(3, 'body'),
      ...bool(4, p.required),
      msg(5, schema(p.schema as JsonSchema)),
      ...extensions(6, p),
    ];
    return [msg(1, [msg(1, body)])];
  }
  // Query (3) and path (4) sub-schemas share the first fields; `type` is 6 for query, 5 for path.
  const isPath = p.in === 'path';
  const sub = [...bool(1, p.required), ...str(2, p.in as string), ...str(3, p.description as string | undefined), ...str(4, p.name as string)];
  sub.push(...str(isPath ? 5 : 6, p.type as string), ...str(isPath ? 6 : 7, p.format as string | undefined), ...bool(isPath ? 19 : 20, p.uniqueItems));
  return [msg(1, [msg(2, [msg(isPath ? 4 : 3, sub)])])];
}

function operation(o: JsonSchema): Bytes[] {
  const parts: Bytes[] = [
    ...strs(1, o.tags),
    ...str(2, o.summary as string | undefined),
    ...str(3, o.description as string | undefined),
    ...str(5, o.operationId as string | undefined),
  ];
  parts.push(...strs(6, o.produces), ...strs(7, o.consumes));
  for (const p of (o.parameters as JsonSchema[] | undefined) ?? []) parts.push(msg(8, parameter(p)));
  const responses = Object.entries((o.responses as JsonSchema | undefined) ?? {}).map(([code, r]) => {
    const resp = r as JsonSchema;
    const body = [...str(1, (resp.description as string | undefined) ?? ''), ...(resp.schema ? [msg(2, [msg(1, schema(resp.schema as JsonSchema))])] : [])];
    return msg(1, [...str(1, code), msg(2, [msg(1, body)])]);
  });
  parts.push(msg(9, responses));
  parts.push(...strs(10, o.schemes), ...bool(11, o.deprecated), ...extensions(13, o));
  return parts;
}

const METHODS: Record<string, number> = { get: 2, put: 3, post: 4, delete: 5, options: 6, head: 7, patch: 8 };

function pathItem(item: JsonSchema): Bytes[] {
  const parts: Bytes[] = [];
  for (const [method, field] of Object.entries(METHODS)) if (item[method]) parts.push(msg(field, operation(item[method] as JsonSchema)));
  for (const p of (item.parameters as JsonSchema[] | undefined) ?? []) parts.push(msg(9, parameter(p)));
  parts.push(...extensions(10, item));
  return parts;
}

/** The `openapi.v2.Document` protobuf of a Swagger 2.0 document. */
export function encodeSwaggerProtobuf(doc: JsonSchema): Uint8Array {
  const info = (doc.info as JsonSchema | undefined) ?? {};
  const parts: Bytes[] = [...str(1, doc.swagger as string), msg(2, [...str(1, info.title as string), ...str(2, info.version as string)])];
  parts.push(...str(4, doc.basePath as string | undefined), ...strs(6, doc.consumes), ...strs(7, doc.produces));
  const paths = Object.entries((doc.paths as JsonSchema | undefined) ?? {}).map(([p, item]) => msg(2, [...str(1, p), msg(2, pathItem(item as JsonSchema))]));
  parts.push(msg(8, paths));
  const defs = Object.entries((doc.definitions as JsonSchema | undefined) ?? {}).map(([name, s]) => msg(1, [...str(1, name), msg(2, schema(s as JsonSchema))]));
  parts.push(msg(9, defs));
  parts.push(...extensions(16, doc));
  return concat(parts);
}
