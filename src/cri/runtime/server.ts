/**
 * memkube's CRI runtime served over a unix socket: the in-process runtime behind a gRPC server that
 * speaks runtime.v1's RuntimeService and ImageService, so a kubelet, crictl or memkube's node agent
 * can use it as they would containerd. Methods memkube does not implement (ExecSync, stats, ...)
 * answer UNIMPLEMENTED, as any gRPC server does for a method it does not have.
 */
import type * as Grpc from '@grpc/grpc-js';
import { mkdir, rm, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { CriError } from '../api.js';
import { GrpcStatus } from '../grpc-status.js';
import { CRI_METHODS, methodPath } from '../proto/services.js';
import { CRI_MAX_MESSAGE_BYTES } from '../client.js';
import { createInProcessCriRuntime, type InProcessCriRuntime, type InProcessCriRuntimeOptions } from './runtime.js';

/**
 * Options of {@link createCriRuntime}.
 * @category CRI runtime
 */
export interface CriRuntimeOptions extends InProcessCriRuntimeOptions {
  /** The unix socket to listen on (a path; `unix://` is accepted). A stale socket there is replaced. */
  readonly socket: string;
}

/**
 * A running `memkube cri`: the runtime to inspect and inject failures into, its socket, and `close()`.
 * @category CRI runtime
 */
export interface CriRuntimeServer {
  readonly runtime: InProcessCriRuntime;
  /** The socket's path. */
  readonly socket: string;
  /** The endpoint to give a client: `unix://<socket>`. */
  readonly endpoint: string;
  /** Stops serving (calls in flight are cut off), removes the socket. */
  close(): Promise<void>;
}

function statusOf(error: unknown): Partial<Grpc.StatusObject> {
  if (error instanceof CriError) return { code: error.code, details: error.details };
  return { code: GrpcStatus.Unknown, details: error instanceof Error ? error.message : String(error) };
}

function serviceDefinition(serviceName: string): Grpc.ServiceDefinition {
  const definition: Record<string, Grpc.MethodDefinition<unknown, unknown>> = {};
  for (const method of CRI_METHODS.filter((m) => m.service === serviceName)) {
    definition[method.method] = {
      path: methodPath(method),
      requestStream: false,
      responseStream: false,
      originalName: method.call,
      requestSerialize: (value: unknown) => Buffer.from(method.request.encode(value as never)),
      requestDeserialize: (bytes: Buffer) => method.request.decode(bytes),
      responseSerialize: (value: unknown) => Buffer.from(method.response.encode(value as never)),
      responseDeserialize: (bytes: Buffer) => method.response.decode(bytes),
    };
  }
  return definition;
}

function handlers(serviceName: string, runtime: InProcessCriRuntime): Grpc.UntypedServiceImplementation {
  const impl: Grpc.UntypedServiceImplementation = {};
  for (const method of CRI_METHODS.filter((m) => m.service === serviceName)) {
    const handler: Grpc.handleUnaryCall<unknown, unknown> = (call, callback) => {
      const target = runtime[method.call] as (request: unknown) => Promise<unknown>;
      target.call(runtime, call.request).then(
        (response) => callback(null, response),
        (error: unknown) => callback(statusOf(error)),
      );
    };
    impl[method.method] = handler;
  }
  return impl;
}

async function removeStaleSocket(path: string): Promise<void> {
  // As the kubelet's CreateListener does: whatever is at the path goes, then the directory is made.
  const existing = await stat(path).catch(() => undefined);
  if (existing?.isDirectory()) throw new Error(`failed to unlink socket file "${path}": is a directory`);
  if (existing) await rm(path, { force: true });
  await mkdir(dirname(path), { recursive: true, mode: 0o750 });
}

/**
 * Starts memkube's CRI runtime on a unix socket. Options besides `socket` are the in-process
 * runtime's: the clock, the known images, what containers do.
 * @category CRI runtime
 */
export async function createCriRuntime(options: CriRuntimeOptions): Promise<CriRuntimeServer> {
  const socket = options.socket.replace(/^unix:\/\//, '');
  if (!socket.startsWith('/')) throw new Error(`the CRI socket must be an absolute path, not ${JSON.stringify(options.socket)}`);
  await removeStaleSocket(socket);
  // gRPC is loaded by the first runtime served, not when memkube is imported.
  const grpc = await import('@grpc/grpc-js');
  const runtime = createInProcessCriRuntime(options);
  const server = new grpc.Server({
    'grpc.max_receive_message_length': CRI_MAX_MESSAGE_BYTES,
    'grpc.max_send_message_length': CRI_MAX_MESSAGE_BYTES,
  });
  for (const service of ['runtime.v1.RuntimeService', 'runtime.v1.ImageService']) {
    server.addService(serviceDefinition(service), handlers(service, runtime));
  }
  try {
    await new Promise<void>((resolve, reject) => {
      server.bindAsync(`unix://${socket}`, grpc.ServerCredentials.createInsecure(), (error) => (error ? reject(error) : resolve()));
    });
  } catch (error) {
    runtime.close();
    server.forceShutdown();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    runtime,
    socket,
    endpoint: `unix://${socket}`,
    close: () =>
      (closed ??= (async () => {
        server.forceShutdown();
        runtime.close();
        await rm(socket, { force: true });
      })()),
  };
}
