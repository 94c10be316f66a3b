/**
 * Starts a `memkube` command other than serve (`cri`, `node-agent`) as a child process from src/
 * under tsx, waits for its "serving on" line and stops it by its PID.
 */
import { spawn, type ChildProcess } from 'node:child_process';

export interface MemkubeProcess {
  readonly child: ChildProcess;
  /** The line it printed once it served. */
  readonly line: string;
  /** What it wrote to stderr so far (its log). */
  stderr(): string;
  /** SIGTERM to its PID; resolves once it exited. */
  stop(): Promise<void>;
}

export async function startMemkube(args: readonly string[], timeoutMs = 30_000): Promise<MemkubeProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { cwd: process.cwd(), stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const line = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`memkube ${args[0]} did not start: ${out} ${err}`)), timeoutMs);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /^.*serving on .*$/m.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[0]);
      }
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`memkube ${args[0]} exited with ${code}: ${err}`));
    });
  });
  return {
    child,
    line,
    stderr: () => err,
    async stop() {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(child.pid, 'SIGTERM');
      await exited;
    },
  };
}

/** A port of 127.0.0.1 free right now (kubelet's `--port` must be 1-65535, so 0 will not do). */
export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Polls `check` until it answers something other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
