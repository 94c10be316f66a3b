import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'memkube-lazy-grpc-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `code` as an ES module under tsx with a resolve hook that notes every resolution of @grpc/grpc-js. */
function run(code: string): { loaded: boolean; stderr: string; status: number | null } {
  const marker = join(dir, `grpc-${Math.random().toString(36).slice(2)}`);
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { writeFileSync } from 'node:fs';\n` +
      `export async function resolve(specifier, context, next) { if (specifier.startsWith('@grpc/grpc-js')) writeFileSync(process.env.GRPC_MARKER, specifier); return next(specifier, context); }\n`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--import', register, '--input-type=module', '-e', code], {
    cwd: ROOT,
    env: { ...process.env, GRPC_MARKER: marker },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { loaded: existsSync(marker), stderr: result.stderr, status: result.status };
}

describe('gRPC is loaded only when a CRI client or runtime is made', () => {
  it('importing memkube and creating a cluster does not load @grpc/grpc-js; a CRI client does', () => {
    const index = JSON.stringify(pathToFileURL(join(ROOT, 'src/index.ts')).href);
    const plain = run(`const m = await import(${index}); const c = await m.createCluster(); await c.close();`);
    expect(plain.status, plain.stderr).toBe(0);
    expect(plain.loaded).toBe(false);
    const client = run(
      `const m = await import(${index}); const c = m.createCriClient('unix:///nonexistent.sock'); await c.version({}).catch(() => {}); c.close();`,
    );
    expect(client.status, client.stderr).toBe(0);
    expect(client.loaded).toBe(true);
  }, 120_000);
});
