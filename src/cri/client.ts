/**
 * memkube's CRI client: runtime.v1's RuntimeService and ImageService over gRPC on a unix socket,
 * for containerd, CRI-O or `memkube cri`. Messages are encoded by memkube's own protobuf tables
 * (./proto), so fields a runtime sends beyond them are skipped. Calls have the kubelet's
 * deadline (`--runtime-request-timeout`, 2 minutes by default) and its 16 MiB message limit;
 * failures are {@link CriError}s with the gRPC code and the runtime's message.
 */
import type * as Grpc from '@grpc/grpc-js';
import { CriError, type CheckpointContainerRequest, type ImageService, type RuntimeService } from './api.js';
import { parseCriEndpoint } from './endpoint.js';
import { GrpcStatus } from './grpc-status.js';
import { CRI_METHODS, methodPath, type CriMethod } from './proto/services.js';

/**
 * Options of {@link createCriClient}.
 * @category CRI runtime
 */
export interface CriClientOptions {
  /** Deadline of each call in milliseconds (the kubelet's `--runtime-request-timeout`; default 2 minutes). */
  readonly timeoutMs?: number;
  /** Receives the kubelet's notice for a deprecated endpoint (a bare path); default: ignored. */
  readonly onDeprecatedEndpoint?: (message: string) => void;
}

/**
 * A CRI client: both services, and `close()` to release the connection.
 * @category CRI runtime
 */
export type CriClient = RuntimeService &
  ImageService & {
    /** Releases the connection. */
    close(): void;
  };

/** The kubelet's default `--runtime-request-timeout`. */
export const DEFAULT_CRI_TIMEOUT_MS = 2 * 60 * 1000;
/** The kubelet's limit on CRI messages (maxMsgSize in its remote runtime client). */
export const CRI_MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

function toCriError(error: Grpc.ServiceError | Error): CriError {
  if (error instanceof CriError) return error;
  const status = error as Partial<Grpc.ServiceError>;
  if (typeof status.code !== 'number') return new CriError(GrpcStatus.Unknown, error.message);
  // grpc-js words an expired deadline its own way; grpc-go (the kubelet) says what the context says.
  const details =
    status.code === GrpcStatus.DeadlineExceeded && /^Deadline exceeded/.test(status.details ?? '') ? 'context deadline exceeded' : (status.details ?? '');
  return new CriError(status.code, details);
}

/**
 * Connects to the runtime at `endpoint` (`unix:///run/containerd/containerd.sock`, or a bare
 * path, which the kubelet accepts as deprecated). Throws {@link CriEndpointError} for endpoints the
 * kubelet refuses. The connection is made on the first call.
 * @category CRI runtime
 */
export function createCriClient(endpoint: string, options: CriClientOptions = {}): CriClient {
  const { socketPath, deprecation } = parseCriEndpoint(endpoint);
  if (deprecation) options.onDeprecatedEndpoint?.(deprecation);
  const timeoutMs = options.timeoutMs ?? DEFAULT_CRI_TIMEOUT_MS;
  // gRPC is loaded when a client is made, not when memkube is imported: a cluster in a unit test
  // never pays for it.
  let closed = false;
  const connecting = import('@grpc/grpc-js').then((grpc) => ({
    grpc,
    client: new grpc.Client(`unix://${socketPath}`, grpc.credentials.createInsecure(), {
      'grpc.max_receive_message_length': CRI_MAX_MESSAGE_BYTES,
      'grpc.max_send_message_length': CRI_MAX_MESSAGE_BYTES,
    }),
  }));

  const call = async (method: CriMethod, request: unknown, deadlineMs: number): Promise<unknown> => {
    const { grpc, client } = await connecting;
    if (closed) throw new CriError(GrpcStatus.Canceled, 'grpc: the client connection is closing');
    return new Promise((resolve, reject) => {
      client.makeUnaryRequest(
        methodPath(method),
        (value: unknown) => Buffer.from(method.request.encode(value as never)),
        (bytes: Buffer) => method.response.decode(bytes),
        request,
        new grpc.Metadata(),
        { deadline: Date.now() + deadlineMs },
        (error, response) => (error ? reject(toCriError(error)) : resolve(response)),
      );
    });
  };

  const api: Record<string, unknown> = {
    close: () => {
      closed = true;
      void connecting.then(({ client }) => client.close());
    },
  };
  for (const method of CRI_METHODS) {
    api[method.call] = (request: unknown) => call(method, request ?? {}, timeoutMs);
  }
  // The kubelet gives a checkpoint the larger of its own timeout and the request's, and sends the
  // one it uses (remoteRuntimeService.CheckpointContainer).
  const checkpoint = CRI_METHODS.find((m) => m.call === 'checkpointContainer')!;
  api.checkpointContainer = async (request: CheckpointContainerRequest) => {
    const requested = request.timeout ?? 0n;
    if (requested < 0n) throw new Error('CheckpointContainer requires the timeout value to be > 0');
    const defaultSeconds = BigInt(Math.floor(timeoutMs / 1000));
    if (requested > defaultSeconds) return call(checkpoint, request, Number(requested) * 1000);
    return call(checkpoint, { ...request, timeout: defaultSeconds }, timeoutMs);
  };
  return api as unknown as CriClient;
}
