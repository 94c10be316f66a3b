/**
 * `memkube cri`: memkube's own container runtime on a unix socket, for a kubelet, crictl or
 * memkube's node agent to use as they would containerd. It runs no processes: sandboxes and
 * containers are state, images pull instantly. Loaded by `run.ts` only for this command, so
 * `memkube serve` never loads gRPC.
 */
import { mkdir } from 'node:fs/promises';
import { resolve } from 'node:path';
import { createCriRuntime } from '../cri/runtime/server.js';
import { CRI_USAGE } from './cri-usage.js';

/** The parsed command line of `memkube cri`. */
export interface CriCommandOptions {
  readonly socket: string;
  readonly rootDir?: string;
  /** Images a pull finds; empty: every reference. */
  readonly images: readonly string[];
  /** Answer CheckpointContainer with UNIMPLEMENTED, as containerd 1.6 does. */
  readonly checkpointUnimplemented?: boolean;
}

/** Parses `memkube cri`'s flags (`--flag value` or `--flag=value`). */
export function parseCriArgs(args: readonly string[]): CriCommandOptions {
  let socket: string | undefined;
  let rootDir: string | undefined;
  const images: string[] = [];
  let checkpointUnimplemented = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const name = eq === -1 ? arg : arg.slice(0, eq);
    const value = (): string => {
      if (eq !== -1) return arg.slice(eq + 1);
      const next = args[++i];
      if (next === undefined) throw new Error(`flag needs an argument: ${name}`);
      return next;
    };
    switch (name) {
      case '--socket':
        socket = value();
        break;
      case '--root-dir':
        rootDir = value();
        break;
      case '--image':
        images.push(value());
        break;
      case '--checkpoint-unimplemented':
        if (eq !== -1) throw new Error(`--checkpoint-unimplemented takes no value\n${CRI_USAGE}`);
        checkpointUnimplemented = true;
        break;
      default:
        throw new Error(`unknown flag: ${name}\n${CRI_USAGE}`);
    }
  }
  if (!socket) throw new Error(`--socket is required\n${CRI_USAGE}`);
  const path = socket.replace(/^unix:\/\//, '');
  return {
    socket: resolve(path),
    ...(rootDir !== undefined ? { rootDir: resolve(rootDir) } : {}),
    images,
    ...(checkpointUnimplemented ? { checkpointUnimplemented } : {}),
  };
}

/** Serves until SIGTERM or SIGINT; `out` gets the one line with the endpoint. */
export async function cri(options: CriCommandOptions, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<void> {
  if (options.rootDir) await mkdir(options.rootDir, { recursive: true });
  const server = await createCriRuntime({
    socket: options.socket,
    ...(options.rootDir ? { rootDir: options.rootDir } : {}),
    ...(options.images.length > 0 ? { images: options.images } : {}),
  });
  if (options.checkpointUnimplemented) server.runtime.faults.checkpointsUnimplemented();
  out(`memkube cri serving on ${server.endpoint}`);
  await new Promise<void>((done) => {
    const stop = (): void => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      void server.close().then(done);
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
}
