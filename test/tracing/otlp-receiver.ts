/**
 * A real OTLP gRPC trace receiver for tests: `opentelemetry.proto.collector.trace.v1.TraceService/Export`
 * on 127.0.0.1, decoding each request's spans with a small protobuf reader over the few fields of
 * opentelemetry-proto these tests look at (field numbers from trace/v1/trace.proto,
 * common/v1/common.proto and resource/v1/resource.proto).
 */
import { Server, ServerCredentials, type sendUnaryData, type ServerUnaryCall, type UntypedServiceImplementation } from '@grpc/grpc-js';

/** An attribute value as decoded. */
export type AttributeValue = string | number | boolean | bigint | undefined;

export interface ReceivedSpan {
  readonly traceId: string;
  readonly spanId: string;
  readonly parentSpanId: string;
  readonly name: string;
  /** 2 is SERVER. */
  readonly kind: number;
  readonly startTimeUnixNano: bigint;
  readonly endTimeUnixNano: bigint;
  readonly attributes: Record<string, AttributeValue>;
  readonly links: { traceId: string; spanId: string }[];
  /** 0 unset, 1 ok, 2 error. */
  readonly status: { code: number; message: string };
  readonly scope: string;
  readonly resource: Record<string, AttributeValue>;
}

/** One field of a protobuf message: its number and raw value. */
type Field = { no: number; wire: 0; value: bigint } | { no: number; wire: 1 | 5; value: Buffer } | { no: number; wire: 2; value: Buffer };

function varint(buf: Buffer, at: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    const b = buf[at++]!;
    result |= BigInt(b & 0x7f) << shift;
    if ((b & 0x80) === 0) return [result, at];
    shift += 7n;
  }
}

function fields(buf: Buffer): Field[] {
  const out: Field[] = [];
  let at = 0;
  while (at < buf.length) {
    const [key, next] = varint(buf, at);
    at = next;
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (wire === 0) {
      const [v, n] = varint(buf, at);
      at = n;
      out.push({ no, wire: 0, value: v });
    } else if (wire === 2) {
      const [len, n] = varint(buf, at);
      out.push({ no, wire: 2, value: buf.subarray(n, n + Number(len)) });
      at = n + Number(len);
    } else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      out.push({ no, wire, value: buf.subarray(at, at + size) });
      at += size;
    } else {
      throw new Error(`unexpected wire type ${wire}`);
    }
  }
  return out;
}

const bytesOf = (fs: Field[], no: number): Buffer[] => fs.filter((f) => f.no === no && f.wire === 2).map((f) => f.value as Buffer);
const first = (fs: Field[], no: number): Field | undefined => fs.find((f) => f.no === no);
const text = (fs: Field[], no: number): string => bytesOf(fs, no)[0]?.toString('utf8') ?? '';
const hex = (fs: Field[], no: number): string => bytesOf(fs, no)[0]?.toString('hex') ?? '';

function anyValue(buf: Buffer): AttributeValue {
  const f = fields(buf)[0];
  if (!f) return undefined;
  switch (f.no) {
    case 1:
      return (f.value as Buffer).toString('utf8');
    case 2:
      return (f.value as bigint) !== 0n;
    case 3:
      return Number(BigInt.asIntN(64, f.value as bigint));
    case 4:
      return (f.value as Buffer).readDoubleLE(0);
    default:
      return undefined;
  }
}

function attributes(fs: Field[], no: number): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const kv of bytesOf(fs, no)) {
    const f = fields(kv);
    const value = bytesOf(f, 2)[0];
    out[text(f, 1)] = value ? anyValue(value) : undefined;
  }
  return out;
}

function fixed64(fs: Field[], no: number): bigint {
  const f = first(fs, no);
  return f && f.wire === 1 ? f.value.readBigUInt64LE(0) : 0n;
}

/** The spans of one ExportTraceServiceRequest. */
export function decodeExportRequest(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of bytesOf(fields(body), 1)) {
    const rsf = fields(rs);
    const resource = attributes(fields(bytesOf(rsf, 1)[0] ?? Buffer.alloc(0)), 1);
    for (const ss of bytesOf(rsf, 2)) {
      const ssf = fields(ss);
      const scope = text(fields(bytesOf(ssf, 1)[0] ?? Buffer.alloc(0)), 1);
      for (const s of bytesOf(ssf, 2)) {
        const sf = fields(s);
        const kind = first(sf, 6);
        const statusFields = fields(bytesOf(sf, 15)[0] ?? Buffer.alloc(0));
        const code = first(statusFields, 3);
        spans.push({
          traceId: hex(sf, 1),
          spanId: hex(sf, 2),
          parentSpanId: hex(sf, 4),
          name: text(sf, 5),
          kind: kind && kind.wire === 0 ? Number(kind.value) : 0,
          startTimeUnixNano: fixed64(sf, 7),
          endTimeUnixNano: fixed64(sf, 8),
          attributes: attributes(sf, 9),
          links: bytesOf(sf, 13).map((l) => {
            const lf = fields(l);
            return { traceId: hex(lf, 1), spanId: hex(lf, 2) };
          }),
          status: { code: code && code.wire === 0 ? Number(code.value) : 0, message: text(statusFields, 2) },
          scope,
          resource,
        });
      }
    }
  }
  return spans;
}

export interface OtlpReceiver {
  readonly endpoint: string;
  /** Every span received so far. */
  readonly spans: ReceivedSpan[];
  /** How many Export calls arrived. */
  exports: number;
  close(): Promise<void>;
}

const passThrough = (b: Buffer) => b;

/** Starts a receiver on 127.0.0.1 (a free port). */
export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const server = new Server();
  const receiver: OtlpReceiver = {
    endpoint: '',
    spans: [],
    exports: 0,
    close: () => new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
  };
  const implementation: UntypedServiceImplementation = {
    Export: (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => {
      receiver.exports++;
      receiver.spans.push(...decodeExportRequest(call.request));
      callback(null, Buffer.alloc(0));
    },
  };
  server.addService(
    {
      Export: {
        path: '/opentelemetry.proto.collector.trace.v1.TraceService/Export',
        requestStream: false,
        responseStream: false,
        requestSerialize: passThrough,
        requestDeserialize: passThrough,
        responseSerialize: passThrough,
        responseDeserialize: passThrough,
      },
    },
    implementation,
  );
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p))),
  );
  return Object.assign(receiver, { endpoint: `127.0.0.1:${port}` });
}
