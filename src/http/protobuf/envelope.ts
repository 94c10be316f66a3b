/**
 * Kubernetes' protobuf envelope: the 4 bytes `k8s\0`, then a `runtime.Unknown`
 * (k8s.io/apimachinery `pkg/runtime/generated.proto`):
 *
 *     message Unknown { optional TypeMeta typeMeta = 1; optional bytes raw = 2;
 *                       optional string contentEncoding = 3; optional string contentType = 4; }
 *     message TypeMeta { optional string apiVersion = 1; optional string kind = 2; }
 *
 * `raw` holds the object's own message (without its TypeMeta, which only the envelope carries).
 */
import { KIND_MESSAGES } from './descriptors.generated.js';
import { decodeMessage } from './messages.js';
import { ProtobufError, WIRE_BYTES, WireReader } from './wire.js';

/** `k8s\0`. */
export const PROTOBUF_MAGIC = Uint8Array.of(0x6b, 0x38, 0x73, 0x00);

export const PROTOBUF_MEDIA_TYPE = 'application/vnd.kubernetes.protobuf';

/** The decoded `runtime.Unknown`. */
export interface ProtobufEnvelope {
  apiVersion: string;
  kind: string;
  raw: Uint8Array;
  contentEncoding: string;
  contentType: string;
}

/** No descriptor for the kind the envelope names. */
export class UnknownProtobufKindError extends Error {
  override name = 'UnknownProtobufKindError';
  constructor(
    readonly apiVersion: string,
    readonly kind: string,
  ) {
    super(`no protobuf descriptor for kind "${kind}" in version "${apiVersion}"`);
  }
}

const utf8 = (b: Uint8Array) => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('utf8');

function bytesField(r: WireReader, wireType: number, what: string): Uint8Array {
  if (wireType !== WIRE_BYTES) throw new ProtobufError(`${what}: wire type ${wireType} for a length-delimited field`);
  return r.bytes();
}

/** Reads the magic and the `runtime.Unknown`. */
export function decodeEnvelope(bytes: Uint8Array): ProtobufEnvelope {
  if (bytes.length < 4 || PROTOBUF_MAGIC.some((b, i) => bytes[i] !== b)) {
    throw new ProtobufError('provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  }
  const out: ProtobufEnvelope = { apiVersion: '', kind: '', raw: new Uint8Array(0), contentEncoding: '', contentType: '' };
  const r = new WireReader(bytes, 4);
  while (!r.done()) {
    const { field, wireType } = r.tag();
    switch (field) {
      case 1: {
        const t = new WireReader(bytesField(r, wireType, 'Unknown.typeMeta'));
        while (!t.done()) {
          const tag = t.tag();
          if (tag.field === 1) out.apiVersion = utf8(bytesField(t, tag.wireType, 'TypeMeta.apiVersion'));
          else if (tag.field === 2) out.kind = utf8(bytesField(t, tag.wireType, 'TypeMeta.kind'));
          else t.skip(tag.wireType);
        }
        break;
      }
      case 2:
        out.raw = bytesField(r, wireType, 'Unknown.raw');
        break;
      case 3:
        out.contentEncoding = utf8(bytesField(r, wireType, 'Unknown.contentEncoding'));
        break;
      case 4:
        out.contentType = utf8(bytesField(r, wireType, 'Unknown.contentType'));
        break;
      default:
        r.skip(wireType);
    }
  }
  return out;
}

/** The short message name for `apiVersion` + `kind`, if there is a descriptor. */
export function messageForKind(apiVersion: string, kind: string): string | undefined {
  const key = `${apiVersion}/${kind}`;
  return Object.hasOwn(KIND_MESSAGES, key) ? KIND_MESSAGES[key] : undefined;
}

/**
 * Decodes a protobuf request body to the plain JSON object (with `apiVersion` and `kind` from the
 * envelope). Throws {@link ProtobufError} for malformed data and {@link UnknownProtobufKindError}
 * for a kind without a descriptor.
 */
export function decodeProtobufObject(bytes: Uint8Array): Record<string, unknown> {
  const env = decodeEnvelope(bytes);
  if (env.contentEncoding !== '') throw new ProtobufError(`unsupported content encoding ${JSON.stringify(env.contentEncoding)}`);
  if (env.contentType !== '' && env.contentType !== PROTOBUF_MEDIA_TYPE) throw new ProtobufError(`unsupported content type ${JSON.stringify(env.contentType)}`);
  const message = messageForKind(env.apiVersion, env.kind);
  if (message === undefined) throw new UnknownProtobufKindError(env.apiVersion, env.kind);
  const body = decodeMessage(message, env.raw);
  const out: Record<string, unknown> = {};
  if (env.apiVersion) out.apiVersion = env.apiVersion;
  if (env.kind) out.kind = env.kind;
  return Object.assign(out, body);
}
