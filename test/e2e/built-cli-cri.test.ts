/**
 * `memkube cri` as the built command runs it (dist/cli/main.js and its bundle): it serves the CRI
 * on a unix socket, a client calls it, and SIGTERM stops it and removes the socket; and gRPC is
 * loaded only for `cri`, never by `memkube serve`.
 */
import { pathToFileURL } from 'node:url';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCriClient } from '../../src/cri/client.js';
import { BUILT_CLI } from '../support/serve.js';

const BUILT = existsSync('dist/cli/memkube.cjs') && existsSync(BUILT_CLI);

function startCri(args: readonly string[]): Promise<{ child: ChildProcess; endpoint: string }> {
  const child = spawn(process.execPath, [BUILT_CLI, 'cri', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`memkube cri did not start: ${out} ${err}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /memkube cri serving on (unix:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, endpoint: m[1]! });
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`memkube cri exited with ${code}: ${err}`));
    });
  });
}

describe.skipIf(!BUILT)('the built memkube cri command', () => {
  let dir: string;
  let child: ChildProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'memkube-built-cri-'));
  });
  afterAll(async () => {
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('serves Version on its socket and stops on SIGTERM, removing the socket', async () => {
    const socket = join(dir, 'cri', 'memkube.sock');
    const started = await startCri(['--socket', socket, '--root-dir', join(dir, 'root'), '--image', 'nginx']);
    child = started.child;
    expect(started.endpoint).toBe(`unix://${socket}`);
    const client = createCriClient(started.endpoint, { timeoutMs: 5000 });
    try {
      expect(await client.version({})).toEqual({ version: '0.1.0', runtimeName: 'memkube', runtimeVersion: '0.1.0', runtimeApiVersion: 'v1' });
      expect((await client.pullImage({ image: { image: 'nginx' } })).imageRef).toMatch(/^sha256:/);
      await expect(client.pullImage({ image: { image: 'busybox' } })).rejects.toThrow(/code = NotFound/);
    } finally {
      client.close();
    }
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    process.kill(child.pid!, 'SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(socket)).toBe(false);
  });

  it('fails without --socket, with the usage', async () => {
    const failed = spawn(process.execPath, [BUILT_CLI, 'cri'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    failed.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => failed.once('exit', resolve));
    expect(code).toBe(1);
    expect(err).toContain('memkube: --socket is required');
    expect(err).toContain('usage: memkube cri --socket PATH');
  });

  it('keeps gRPC out of memkube serve, loading it only for memkube cri', async () => {
    // A preload that notes every load of @grpc/grpc-js into a file: required from CommonJS (the
    // bundle) or imported as an ES module (resolve hook).
    const marker = join(dir, 'grpc-loaded');
    const preload = join(dir, 'preload.cjs');
    const hooks = join(dir, 'hooks.mjs');
    await writeFile(
      hooks,
      `import { writeFileSync } from 'node:fs';\n` +
        `export async function resolve(specifier, context, next) { if (specifier.startsWith('@grpc/grpc-js')) writeFileSync(${JSON.stringify(marker)}, specifier); return next(specifier, context); }\n`,
    );
    await writeFile(
      preload,
      `const Module = require('node:module'); const fs = require('node:fs'); const load = Module._load;\n` +
        `Module.register(${JSON.stringify(pathToFileURL(hooks).href)});\n` +
        `Module._load = function (request, ...rest) { if (request.startsWith('@grpc/grpc-js')) fs.writeFileSync(${JSON.stringify(marker)}, request); return load.call(this, request, ...rest); };\n`,
    );
    const serve = spawn(process.execPath, ['--require', preload, BUILT_CLI, 'serve', '--port', '0', '--host', '127.0.0.1'], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise<void>((resolve, reject) => {
      let out = '';
      serve.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('serving on')) resolve();
      });
      serve.once('exit', (code) => reject(new Error(`memkube serve exited with ${code}`)));
    });
    const stopped = new Promise((resolve) => serve.once('exit', resolve));
    process.kill(serve.pid!, 'SIGTERM');
    await stopped;
    expect(existsSync(marker)).toBe(false);

    const cri = spawn(process.execPath, ['--require', preload, BUILT_CLI, 'cri', '--socket', join(dir, 'second.sock')], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    await new Promise<void>((resolve) => cri.stdout!.on('data', (d: Buffer) => d.toString().includes('serving on') && resolve()));
    const criStopped = new Promise((resolve) => cri.once('exit', resolve));
    process.kill(cri.pid!, 'SIGTERM');
    await criStopped;
    expect(existsSync(marker)).toBe(true);
  }, 30_000);
});

describe.skipIf(!BUILT)('the built memkube node-agent command', () => {
  it("prints kubelet's flags with --help and the version with --version", () => {
    const help = spawnSync(process.execPath, [BUILT_CLI, 'node-agent', '--help'], { encoding: 'utf8', timeout: 30_000 });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage:\n {2}node-agent \[flags\]\n/);
    expect(help.stdout).toContain('--container-runtime-endpoint');
    const version = spawnSync(process.execPath, [BUILT_CLI, 'node-agent', '--version'], { encoding: 'utf8', timeout: 30_000 });
    expect(version.stdout).toBe('Kubernetes v1.36.0\n');
  }, 60_000);
});
