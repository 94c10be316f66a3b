/**
 * `memkube serve`: a fake cluster over HTTP. Prints one line with the URL once it accepts
 * requests, writes a kubeconfig, loads manifests, and stops cleanly on SIGTERM/SIGINT.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { createCluster } from '../cluster.js';

/** Options of `memkube serve`. */
export interface ServeOptions {
  port: number;
  host: string;
  kubeconfig?: string;
  load: string[];
}

/** The usage text. */
export const SERVE_USAGE = 'usage: memkube serve [--port 6443] [--host 127.0.0.1] [--kubeconfig FILE] [--load FILE ...]';

/** Parses the arguments after `serve`; throws with a message for bad ones. */
export function parseServeArgs(args: readonly string[]): ServeOptions {
  const o: ServeOptions = { port: 6443, host: '127.0.0.1', load: [] };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const flag = arg.startsWith('--') && eq > 0 ? arg.slice(0, eq) : arg;
    const value = (): string => {
      if (arg.startsWith('--') && eq > 0) return arg.slice(eq + 1);
      const v = args[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--port': {
        const v = value();
        const port = Number(v);
        if (!/^\d+$/.test(v) || port > 65535) throw new Error(`invalid --port ${JSON.stringify(v)}`);
        o.port = port;
        break;
      }
      case '--host':
        o.host = value();
        break;
      case '--kubeconfig':
        o.kubeconfig = value();
        break;
      case '--load':
        o.load.push(value());
        // `--load a.yaml b.yaml`: following non-flag arguments are files too.
        while (args[i + 1] !== undefined && !args[i + 1]!.startsWith('--')) o.load.push(args[++i]!);
        break;
      default:
        throw new Error(`unknown argument ${JSON.stringify(arg)}\n${SERVE_USAGE}`);
    }
  }
  return o;
}

/** Runs the server until SIGTERM or SIGINT. */
export async function serve(options: ServeOptions, out: (line: string) => void = (l) => process.stdout.write(`${l}\n`)): Promise<void> {
  const cluster = await createCluster();
  for (const file of options.load) {
    await cluster.load(await readFile(file, 'utf8'), { onWarning: (ws) => ws.forEach((w) => process.stderr.write(`Warning: ${w}\n`)) });
  }
  await cluster.settle();
  const server = await cluster.listen({ port: options.port, host: options.host });
  if (options.kubeconfig) await writeFile(options.kubeconfig, server.kubeconfig(), { mode: 0o600 });
  out(`memkube serving on ${server.url}`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
      resolve();
    };
    process.on('SIGTERM', stop);
    process.on('SIGINT', stop);
  });
  await cluster.close();
}
