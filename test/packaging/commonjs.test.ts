/**
 * The package as a user gets it: the build in dist/ when it is newer than its sources (else built
 * afresh: tsc, then scripts/build-cjs.mjs), copied into a throwaway directory, packed by `npm pack`,
 * unpacked into a new project's node_modules as npm would install it, beside the packages it needs
 * (its dependencies, its zod peer, the frameworks of the adapters), linked from this project's
 * node_modules so that nothing is fetched. Then used from a CommonJS script (`require('memkube')`),
 * an ES module script, Jest with its default configuration (CommonJS), and TypeScript as a CommonJS
 * and as an ES module consumer (`moduleResolution: node16`); `attw` checks the types of every entry
 * point under every resolution mode.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { copyFile, cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transform } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const modules = join(root, 'node_modules');
const ADAPTERS = ['express', 'fastify', 'koa', 'hono'] as const;

interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** The newest modification time of a file under `path` (or of `path`), in ms. */
function newestMtime(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/**
 * Whether dist/ holds both builds and is newer than everything they are made from: then the
 * package is packed from it, as `npm pack` would, instead of compiling the sources once more.
 */
function builtDistIsFresh(): boolean {
  const built = [join(root, 'dist/index.js'), join(root, 'dist/cjs/index.js')];
  if (!built.every((f) => existsSync(f))) return false;
  const builtAt = Math.min(...built.map((f) => statSync(f).mtimeMs));
  const inputs = ['src', 'tsconfig.json', 'tsconfig.build.json', 'scripts/build-cjs.mjs', 'package.json'].map((p) => newestMtime(join(root, p)));
  return builtAt >= Math.max(...inputs);
}

/** Runs a command to its end (killed by its PID after `timeout`), without the test runner's NODE_OPTIONS. */
function run(file: string, args: readonly string[], cwd: string, timeout = 180_000): Promise<Ran> {
  const env = { ...process.env };
  delete env.NODE_OPTIONS;
  return new Promise((resolve) => {
    execFile(file, args, { cwd, env, timeout, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

async function ok(file: string, args: readonly string[], cwd: string): Promise<string> {
  const r = await run(file, args, cwd);
  if (r.code !== 0) throw new Error(`${file} ${args.join(' ')} exited ${r.code}:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/** `node_modules/<name>` of the throwaway project, a link to this project's copy. */
async function link(app: string, name: string): Promise<void> {
  const at = join(app, 'node_modules', name);
  await mkdir(dirname(at), { recursive: true });
  await symlink(join(modules, name), at, 'dir');
}

const CJS_SCRIPT = `'use strict';
const https = require('node:https');
const { createCluster, kinds, ApiError } = require('memkube');
const adapters = ${JSON.stringify(ADAPTERS)}.map((a) => [a, Object.keys(require('memkube/adapters/' + a))]);

(async () => {
  const cluster = await createCluster();
  const cms = cluster.client.resource(kinds.ConfigMapKind);
  await cms.create({ metadata: { name: 'app' }, data: { mode: 'fast' } }, { namespace: 'default' });
  const got = await cms.get('app', { namespace: 'default' });
  const missing = await cms.get('missing', { namespace: 'default' }).catch((e) => e);
  // TLS needs pkijs, an ES-only package the CommonJS build carries bundled.
  const server = await cluster.listen({ port: 0, tls: true });
  const version = await new Promise((resolve, reject) => {
    https.get(server.url + '/version', { ca: server.certificateAuthority }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d)).on('end', () => resolve(JSON.parse(text).gitVersion));
    }).on('error', reject);
  });
  await server.close();
  await cluster.close();
  console.log(JSON.stringify({
    resolved: require.resolve('memkube'),
    data: got.data,
    missing: [missing instanceof ApiError, missing.code, missing.message],
    adapters,
    vitest: Object.keys(require('memkube/vitest')).sort(),
    https: [server.url.slice(0, 8), version],
  }));
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
`;

const ESM_SCRIPT = `import { createRequire } from 'node:module';
import { createCluster, kinds, ApiError } from 'memkube';
import { memkubeHono } from 'memkube/adapters/hono';

const cluster = await createCluster();
const cms = cluster.client.resource(kinds.ConfigMapKind);
await cms.create({ metadata: { name: 'app' }, data: { mode: 'fast' } }, { namespace: 'default' });
const res = await memkubeHono(cluster).fetch(new Request('http://x/api/v1/namespaces/default/configmaps/app'));
// The CommonJS copy is another module instance: its classes are not the ES module's.
const cjs = createRequire(import.meta.url)('memkube');
const other = await cjs.createCluster();
const missing = await other.client.resource(cjs.kinds.ConfigMapKind).get('missing', { namespace: 'default' }).catch((e) => e);
await other.close();
await cluster.close();
console.log(JSON.stringify({
  resolved: import.meta.resolve('memkube'),
  data: (await res.json()).data,
  sameApiError: cjs.ApiError === ApiError,
  crossInstanceof: [missing instanceof ApiError, missing instanceof cjs.ApiError, missing.code],
}));
`;

const JEST_TEST = `const { createCluster, kinds, ApiError } = require('memkube');

test('creates a ConfigMap and reads it back', async () => {
  const cluster = await createCluster();
  const cms = cluster.client.resource(kinds.ConfigMapKind);
  await cms.create({ metadata: { name: 'app' }, data: { mode: 'fast' } }, { namespace: 'default' });
  expect((await cms.get('app', { namespace: 'default' })).data).toEqual({ mode: 'fast' });
  await expect(cms.get('missing', { namespace: 'default' })).rejects.toBeInstanceOf(ApiError);
  await cluster.close();
});

test('serves the API over HTTP', async () => {
  const cluster = await createCluster();
  const server = await cluster.listen({ port: 0 });
  const created = await fetch(server.url + '/api/v1/namespaces/default/configmaps', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'web' }, data: { a: '1' } }),
  });
  expect(created.status).toBe(201);
  const got = await fetch(server.url + '/api/v1/namespaces/default/configmaps/web');
  expect((await got.json()).data).toEqual({ a: '1' });
  await server.close();
  await cluster.close();
});
`;

/** Compiled by TypeScript as a CommonJS module (.cts: imports become require calls). */
const CTS = `import { createCluster, kinds, ApiError, type Cluster } from 'memkube';
import { memkubeExpress } from 'memkube/adapters/express';
import { memkubeKoa } from 'memkube/adapters/koa';
import { memkubeFastify } from 'memkube/adapters/fastify';
import { memkubeHono } from 'memkube/adapters/hono';

export async function main(): Promise<string | undefined> {
  const cluster: Cluster = await createCluster();
  const cm = await cluster.client.resource(kinds.ConfigMapKind).create({ metadata: { name: 'a' } }, { namespace: 'default' });
  void [memkubeExpress(cluster), memkubeKoa(cluster), memkubeFastify, memkubeHono(cluster), ApiError];
  return cm.metadata?.name;
}
`;

describe('the packed package', () => {
  let tmp: string;
  let app: string;
  let tarball: string;

  beforeAll(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'memkube-pkg-'));
    const pkg = join(tmp, 'pkg');
    await mkdir(pkg);
    for (const f of ['package.json', 'README.md', 'LICENSE']) await copyFile(join(root, f), join(pkg, f));
    if (builtDistIsFresh()) {
      // What `npm ci` (its prepare script, `npm run build`) has just built from these sources.
      await cp(join(root, 'dist'), join(pkg, 'dist'), { recursive: true });
    } else {
      // Exit 2 is "type errors, output written": type errors are the typecheck's to report, not this test's.
      const tsc = await run(process.execPath, [join(modules, 'typescript/bin/tsc'), '-p', 'tsconfig.build.json', '--outDir', join(pkg, 'dist')], root);
      if (tsc.code !== 0 && tsc.code !== 2) throw new Error(`tsc -p tsconfig.build.json exited ${tsc.code}:\n${tsc.stdout}\n${tsc.stderr}`);
      await ok(process.execPath, ['scripts/build-cjs.mjs', '--dist', join(pkg, 'dist')], root);
    }
    const packed = JSON.parse(await ok('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', tmp], pkg)) as [{ filename: string }];
    tarball = join(tmp, packed[0].filename);

    app = join(tmp, 'app');
    await mkdir(join(app, 'node_modules', 'memkube'), { recursive: true });
    await ok('tar', ['-xzf', tarball, '-C', join(app, 'node_modules', 'memkube'), '--strip-components=1'], tmp);
    const manifest = JSON.parse(await readFile(join(app, 'node_modules', 'memkube', 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      peerDependencies: Record<string, string>;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    // What npm 7+ installs: the dependencies and the required peers; then the optional framework peers.
    const required = Object.keys(manifest.peerDependencies).filter((p) => !manifest.peerDependenciesMeta[p]?.optional);
    // @kubernetes/client-node: what the client-node example drives.
    for (const name of new Set([
      ...Object.keys(manifest.dependencies),
      ...required,
      ...ADAPTERS,
      '@kubernetes/client-node',
      '@types/node',
      '@types/express',
      '@types/koa',
    ])) {
      await link(app, name);
    }
    await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
    await writeFile(join(app, 'script.cjs'), CJS_SCRIPT);
    await writeFile(join(app, 'script.mjs'), ESM_SCRIPT);
    await writeFile(join(app, 'memkube.test.js'), JEST_TEST);
    await writeFile(join(app, 'check.cts'), CTS);
    await writeFile(join(app, 'check.mts'), CTS);
    await writeFile(
      join(app, 'tsconfig.json'),
      JSON.stringify({
        // skipLibCheck as most projects set it: a resolution error is reported at the import, in check.cts.
        compilerOptions: { module: 'node16', moduleResolution: 'node16', target: 'es2022', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] },
        files: ['check.cts', 'check.mts'],
      }),
    );
  }, 400_000);

  afterAll(async () => {
    if (tmp) await rm(tmp, { recursive: true, force: true });
  });

  it('require("memkube") and its adapters work in a CommonJS script, TLS included', async () => {
    const out = JSON.parse(await ok(process.execPath, ['script.cjs'], app)) as Record<string, unknown>;
    expect(out.resolved).toBe(join(app, 'node_modules/memkube/dist/cjs/index.js'));
    expect(out.data).toEqual({ mode: 'fast' });
    expect(out.missing).toEqual([true, 404, 'configmaps "missing" not found']);
    expect(out.adapters).toEqual([
      ['express', ['memkubeExpress']],
      ['fastify', ['memkubeFastify']],
      ['koa', ['memkubeKoa']],
      ['hono', ['memkubeHono']],
    ]);
    expect(out.vitest).toEqual(['clusterFixture', 'useCluster']);
    expect(out.https).toEqual(['https://', expect.stringMatching(/^v1\./)]);
  });

  it('import works as before; the CommonJS copy is a separate module instance', async () => {
    const out = JSON.parse(await ok(process.execPath, ['script.mjs'], app)) as Record<string, unknown>;
    expect(out.resolved).toBe(`file://${join(app, 'node_modules/memkube/dist/index.js')}`);
    expect(out.data).toEqual({ mode: 'fast' });
    expect(out.sameApiError).toBe(false);
    expect(out.crossInstanceof).toEqual([false, true, 404]);
  });

  it('Jest with its default configuration requires it', async () => {
    const r = await run(
      process.execPath,
      [join(modules, 'jest/bin/jest.js'), '--ci', '--json', '--watchman=false', `--cacheDirectory=${join(tmp, 'jest-cache')}`],
      app,
    );
    const report = JSON.parse(r.stdout) as { numPassedTests: number; numFailedTests: number; testResults: { message: string }[] };
    expect(report.testResults.map((t) => t.message).join('\n')).toBe('');
    expect(report).toMatchObject({ numPassedTests: 2, numFailedTests: 0 });
    expect(r.code).toBe(0);
  });

  it('type-checks for TypeScript consumers compiled to CommonJS and to ES modules (node16)', async () => {
    const r = await run(process.execPath, [join(modules, 'typescript/bin/tsc'), '-p', 'tsconfig.json'], app);
    expect(r.stdout + r.stderr).toBe('');
    expect(r.code).toBe(0);
  });

  it('ships every source a source map names: each .map carries the text of its sources', async () => {
    const listed = (await ok('tar', ['-tzf', tarball], tmp)).split('\n').filter((f) => f.endsWith('.map'));
    expect(listed.length).toBeGreaterThan(0);
    const unresolved: string[] = [];
    for (const entry of listed) {
      const map = JSON.parse(await readFile(join(app, 'node_modules', 'memkube', entry.replace(/^package\//, '')), 'utf8')) as {
        sources: string[];
        sourcesContent?: (string | null)[];
      };
      map.sources.forEach((source, i) => {
        if (typeof map.sourcesContent?.[i] !== 'string') unresolved.push(`${entry}: ${source}`);
      });
    }
    expect(unresolved.slice(0, 5)).toEqual([]);
  });

  it('runs every example program as a user would, importing memkube, as an ES module and as CommonJS', async () => {
    const dir = join(root, 'examples');
    const examples = (await readdir(dir)).filter((f) => f.endsWith('.ts'));
    expect(examples.length).toBeGreaterThan(0);
    await mkdir(join(app, 'examples'), { recursive: true });
    const outputs: Record<string, string[]> = {};
    for (const file of examples) {
      const source = await readFile(join(dir, file), 'utf8');
      // The examples import `memkube`, as a user does; here it resolves to the packed package. The
      // command-line entry (top-level await on import.meta) is left out: the runners call main().
      expect(source, file).toContain("from 'memkube'");
      const asUser = source.replace(/\nif \(import\.meta\.url === [^\n]*\n[\s\S]*?\n}\n?$/, '\n');
      expect(asUser, file).not.toContain('../src/');
      expect(asUser, file).not.toContain('import.meta');
      const name = file.replace(/\.ts$/, '');
      // The two module systems' runs are separate processes that share nothing (ports and temporary
      // directories are picked afresh): side by side.
      await Promise.all(
        (['esm', 'cjs'] as const).map(async (format) => {
          const { code } = await transform(asUser, { loader: 'ts', format, target: 'node20' });
          const out = join(app, 'examples', `${name}.${format === 'esm' ? 'mjs' : 'cjs'}`);
          await writeFile(out, code);
          const runner =
            format === 'esm'
              ? `import(${JSON.stringify(out)}).then((m) => m.main((l) => console.log(l))).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`
              : `require(${JSON.stringify(out)}).main((l) => console.log(l)).then(() => process.exit(0), (e) => { console.error(e); process.exit(1); });`;
          const r = await run(process.execPath, ['-e', runner], app, 60_000);
          expect({ example: file, format, code: r.code, stderr: r.code === 0 ? '' : r.stderr }).toEqual({ example: file, format, code: 0, stderr: '' });
          outputs[`${name}.${format}`] = r.stdout.trim().split('\n');
        }),
      );
      // Both module systems print as many lines; each example's own test checks what they say.
      expect(outputs[`${name}.cjs`]!.length, file).toBe(outputs[`${name}.esm`]!.length);
      expect(outputs[`${name}.esm`]!.length, file).toBeGreaterThan(0);
    }
  }, 300_000);

  it('attw finds no problem with the types of any entry point', async () => {
    const r = await run(process.execPath, [join(modules, '@arethetypeswrong/cli/dist/index.js'), tarball, '--no-definitely-typed', '--format', 'json'], app);
    const report = JSON.parse(r.stdout) as { analysis: { entrypoints: Record<string, unknown> }; problems?: Record<string, unknown[]> };
    expect(Object.keys(report.analysis.entrypoints)).toEqual([
      '.',
      './adapters/express',
      './adapters/fastify',
      './adapters/koa',
      './adapters/hono',
      './vitest',
      './package.json',
    ]);
    expect(report.problems ?? {}).toEqual({});
    expect(r.code).toBe(0);
  }, 120_000);
});
