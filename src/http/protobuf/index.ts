/** Decoding of Kubernetes' protobuf request bodies (`application/vnd.kubernetes.protobuf`). */
export { decodeEnvelope, decodeProtobufObject, messageForKind, PROTOBUF_MAGIC, PROTOBUF_MEDIA_TYPE, UnknownProtobufKindError } from './envelope.js';
export type { ProtobufEnvelope } from './envelope.js';
export { decodeMessage, goDuration, MAX_DEPTH } from './messages.js';
export { ProtobufError, WireReader } from './wire.js';
