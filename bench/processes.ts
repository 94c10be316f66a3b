/**
 * Server processes for the benchmarks: memkube serve (from the build in dist/) and the bare
 * baseline, each on a free port of 127.0.0.1, stopped by PID; and child processes that print one
 * JSON result (the engine suites that need a fresh heap or many objects).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** memkube's command entry point, as `npm run build` writes it. */
export const MEMKUBE_MAIN = join(ROOT, 'dist', 'cli', 'main.js');
/** The built library's entry point as a URL for import(), as `npm run build` writes it (what users import). */
export const LIBRARY = pathToFileURL(join(ROOT, 'dist', 'index.js')).href;
/** The bare node:http baseline server. */
export const BARE_SERVER = join(ROOT, 'bench', 'baselines', 'bare-server.mjs');

/** A server process that printed its URL. */
export interface ServerProcess {
  readonly url: string;
  readonly pid: number;
  /** performance.now() just before the spawn. */
  readonly spawnedAt: number;
  /** What it printed on stdout up to and with the URL line. */
  readonly printed: string;
  /** SIGTERM to the PID (SIGKILL after 5 s); resolves once it exited. */
  stop(): Promise<void>;
}

/** Arguments of `memkube serve` on a free port of 127.0.0.1. */
export const MEMKUBE_SERVE_ARGS = [MEMKUBE_MAIN, 'serve', '--port', '0', '--host', '127.0.0.1'];
/** Arguments of the bare baseline server on a free port of 127.0.0.1. */
export const BARE_SERVER_ARGS = [BARE_SERVER, '--port', '0', '--host', '127.0.0.1'];
/** What memkube serve and the bare server print once they accept connections. */
export const URL_LINE = /(?:serving on|listening on) (https?:\/\/127\.0\.0\.1:\d+)/;

function stopper(child: ChildProcess): () => Promise<void> {
  return async () => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    process.kill(child.pid, 'SIGTERM');
    const timer = setTimeout(() => {
      if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
    }, 5000);
    await exited;
    clearTimeout(timer);
  };
}

/** Spawns `node ...args` and resolves once it printed a URL matching {@link URL_LINE}. */
export async function startServer(args: readonly string[], timeoutMs = 30_000): Promise<ServerProcess> {
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  const stop = stopper(child);
  let out = '';
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`${args.join(' ')} printed no URL within ${timeoutMs} ms: ${out}${err}`)), timeoutMs);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        const m = URL_LINE.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
      child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`${args.join(' ')} exited with ${code}: ${err}`));
      });
    });
    // Keep draining its output so a chatty server never blocks on a full pipe.
    child.stdout!.resume();
    child.stderr!.resume();
    return { url, pid: child.pid!, spawnedAt, printed: out, stop };
  } catch (e) {
    await stop();
    throw e;
  }
}

/**
 * Runs `node [nodeArgs] --import tsx script args` and resolves with the JSON its last stdout line
 * holds; rejects when it exits non-zero. stderr is passed through (progress lines).
 */
export async function runJsonChild<T>(script: string, args: readonly string[], nodeArgs: readonly string[] = []): Promise<T> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', join(ROOT, script), ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
    process.stderr.write(d);
  });
  const code = await new Promise<number | null>((resolve) => child.once('exit', (c) => resolve(c)));
  if (code !== 0) throw new Error(`${script} exited with ${code}: ${err.trim().slice(-2000)}`);
  const last = out.trim().split('\n').pop() ?? '';
  return JSON.parse(last) as T;
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * Builds memkube (`npm run build`) when dist/cli/main.js is missing or older than any file of
 * src/, so the process figures measure the current code. Returns what it did.
 */
export function ensureBuild(): 'fresh' | 'built' {
  if (existsSync(MEMKUBE_MAIN) && statSync(MEMKUBE_MAIN).mtimeMs >= newestMtime(join(ROOT, 'src'))) return 'fresh';
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm run build failed (${r.status}): ${(r.stdout + r.stderr).trim().slice(-2000)}`);
  if (!existsSync(MEMKUBE_MAIN)) throw new Error(`npm run build did not write ${MEMKUBE_MAIN}`);
  return 'built';
}
