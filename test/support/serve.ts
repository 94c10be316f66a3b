/**
 * Starts the real `memkube serve` as a child process on a free port of 127.0.0.1 (for the e2e
 * suites) and stops it by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface ServeProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** SIGTERM to the server's PID; resolves once it exited. */
  stop(): Promise<void>;
}

/** The command from `src/` under tsx (the default), or the built one `npm start` runs. */
export type ServeEntry = 'src' | 'built';

/** The built command: `dist/cli/main.js`, which loads the bundle `npm run build` makes. */
export const BUILT_CLI = 'dist/cli/main.js';

/** `timeoutMs`: how long serve may take to print its URL (a busy machine starts tsx slowly). */
export async function startServe(kubeconfig: string, extraArgs: readonly string[] = [], entry: ServeEntry = 'src', timeoutMs = 20_000): Promise<ServeProcess> {
  const command = entry === 'src' ? ['--import', 'tsx', 'src/cli/main.ts'] : [BUILT_CLI];
  const child = spawn(process.execPath, [...command, 'serve', '--port', '0', '--host', '127.0.0.1', '--kubeconfig', kubeconfig, ...extraArgs], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`memkube serve did not start: ${out} ${err}`)), timeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /serving on (https?:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`memkube serve exited with ${code}: ${err}`));
    });
  });
  return {
    child,
    url,
    async stop() {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid, 'SIGTERM');
      await exited;
    },
  };
}
