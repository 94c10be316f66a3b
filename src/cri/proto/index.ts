/** runtime.v1 on the wire: protobuf encoding of the CRI messages and the services' method tables. */
export { CriMessages } from './messages.js';
export { CRI_METHODS, methodPath, type CriMethod } from './services.js';
export { codec, decodeMessage, encodeMessage, MAX_DEPTH, type EnumDef, type FieldDef, type MessageCodec, type MessageDef } from './schema.js';
export { ProtoDecodeError, ProtoReader, ProtoWriter, WireType } from '../../util/proto-wire.js';
