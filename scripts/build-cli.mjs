#!/usr/bin/env node
/**
 * Builds the fast-starting `memkube` command into dist/cli/: `memkube.cjs` (the whole command,
 * src/cli/run.ts and everything it imports, in one CommonJS file, written wrapped as a module the
 * way the loader compiles it), `main.js` and `bundle-loader.js` (the entry that loads it with
 * V8's code cache), then warms that code cache by starting `memkube serve` once. `--if-stale`
 * does nothing when the build is newer than every file under src/ (what `npm start` runs first,
 * so an edit to src is never served stale).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { get } from 'node:http';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'cli');
const bundle = join(out, 'memkube.cjs');
const PACKAGES_FILE = 'memkube-packages.cjs';
const outputs = [bundle, join(out, PACKAGES_FILE), join(out, 'main.js'), join(out, 'bundle-loader.js')];

function newestUnder(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestUnder(p) : statSync(p).mtimeMs);
  }
  return newest;
}

function isStale() {
  if (!outputs.every((f) => existsSync(f))) return true;
  const built = Math.min(...outputs.map((f) => statSync(f).mtimeMs));
  const inputs = Math.max(newestUnder(join(root, 'src')), statSync(fileURLToPath(import.meta.url)).mtimeMs, statSync(join(root, 'package-lock.json')).mtimeMs);
  return inputs > built;
}

/**
 * Starts the built command once, so the loader writes the code cache into a throwaway user cache
 * directory, then ships that file beside the bundle (which a run only reads); stops it by PID.
 */
async function warmCodeCache() {
  rmSync(`${bundle}.cache`, { force: true });
  const cacheDir = mkdtempSync(join(tmpdir(), 'memkube-warm-'));
  const env = { ...process.env, MEMKUBE_CODE_CACHE_DIR: cacheDir };
  const child = spawn(process.execPath, [join(out, 'main.js'), 'serve', '--port', '0', '--host', '127.0.0.1'], { stdio: ['ignore', 'pipe', 'inherit'], env });
  try {
    const url = await new Promise((resolve, reject) => {
      let text = '';
      const timer = setTimeout(() => reject(new Error('memkube serve did not start')), 30_000);
      child.stdout.on('data', (d) => {
        text += d;
        const m = /serving on (http:\/\/\S+)/.exec(text);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.once('exit', (code) => reject(new Error(`memkube serve exited with ${code}`)));
    });
    await new Promise((resolve, reject) => get(`${url}/version`, (res) => res.resume().once('end', resolve)).once('error', reject));
    const written = () => readdirSync(cacheDir).find((f) => f.endsWith('.cache'));
    for (let i = 0; i < 100 && !written(); i++) await new Promise((r) => setTimeout(r, 100));
    const file = written();
    if (file) copyFileSync(join(cacheDir, file), `${bundle}.cache`);
  } finally {
    if (child.exitCode === null && child.pid !== undefined) process.kill(child.pid, 'SIGTERM');
    rmSync(cacheDir, { recursive: true, force: true });
  }
}

if (process.argv.includes('--if-stale') && !isStale()) process.exit(0);
const common = { platform: 'node', target: 'node20', logLevel: 'warning', absWorkingDir: root };
// OpenTelemetry (and the gRPC client under its exporter) stays out of the bundle: it is loaded from
// node_modules only when --tracing-config-file asks for tracing, so it costs a server without it nothing.
const external = ['@opentelemetry/*', '@grpc/*'];
// prom-client's index also loads what memkube never uses: its default process metrics (which
// require @opentelemetry/api from node_modules, for exemplars), the Pushgateway client (https, tls)
// and the cluster aggregator. memkube imports five classes from it, so the bundle takes those five
// modules alone: loading OpenTelemetry's API at every start cost more than the rest of prom-client.
const promClientCore = {
  name: 'prom-client-core',
  setup(b) {
    b.onResolve({ filter: /^prom-client$/ }, () => ({ path: 'prom-client', namespace: 'prom-client-core' }));
    b.onLoad({ filter: /.*/, namespace: 'prom-client-core' }, () => ({
      resolveDir: root,
      loader: 'js',
      contents: ['Registry', 'Counter', 'Gauge', 'Histogram', 'Summary'].map((c) => `exports.${c} = require('prom-client/lib/${c.toLowerCase()}');`).join('\n'),
    }));
  },
};
// Node modules that a server which was not asked for TLS, gzip, outgoing HTTPS or files (a
// kubeconfig to write, manifests to load) never uses (or, for perf_hooks, not before its first
// request), yet which the bundle would load at its top (esbuild hoists every import): each is
// compiled by Node on its first load, milliseconds apiece. Their exports become getters that load
// the module on first use (any use, so nothing changes but when it is loaded).
const LAZY_BUILTINS = ['tls', 'https', 'zlib', 'perf_hooks', 'fs/promises'];
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    const filter = new RegExp(`^(node:)?(${LAZY_BUILTINS.join('|')})$`);
    b.onResolve({ filter }, (args) =>
      args.namespace === 'lazy-builtin' ? { path: args.path, external: true } : { path: args.path.replace(/^node:/, ''), namespace: 'lazy-builtin' },
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, (args) => {
      const names = Object.keys(createRequire(import.meta.url)(`node:${args.path}`));
      return {
        loader: 'js',
        contents: `let m;const o={};for(const k of ${JSON.stringify(names)})Object.defineProperty(o,k,{enumerable:true,get:()=>(m??=require("node:${args.path}"))[k],set:(v)=>{(m??=require("node:${args.path}"))[k]=v;}});module.exports=o;`,
      };
    });
  },
};
// Packages that only some requests need are evaluated at their first use instead of at every start,
// the same way (getters over their exports). YAML stays in the bundle, since writing a kubeconfig
// needs it at the start; the certificates' and JWT's packages (480 KB, a sixth of what the bundle
// was with them) go into a file of their own beside it, required at the first use of one of their
// exports, so that a start neither reads nor decodes nor keeps them.
const LAZY_PACKAGES = ['yaml'];
const SEPARATE_PACKAGES = ['pkijs', 'asn1js', 'jose'];
const lazyPackages = {
  name: 'lazy-packages',
  setup(b) {
    const filter = new RegExp(`^(${[...LAZY_PACKAGES, ...SEPARATE_PACKAGES].join('|')})$`);
    // From inside the getters' module, the name is the package itself (bundled as usual).
    b.onResolve({ filter }, (args) => (args.namespace === 'lazy-package' ? undefined : { path: args.path, namespace: 'lazy-package' }));
    b.onResolve({ filter: new RegExp(`^\\./${PACKAGES_FILE.replace('.', '\\.')}$`) }, (args) => ({ path: args.path, external: true }));
    b.onLoad({ filter: /.*/, namespace: 'lazy-package' }, async (args) => {
      const names = Object.keys(await import(args.path)).filter((k) => k !== 'default');
      const load = SEPARATE_PACKAGES.includes(args.path) ? `require("./${PACKAGES_FILE}")[${JSON.stringify(args.path)}]` : `require("${args.path}")`;
      return {
        resolveDir: root,
        loader: 'js',
        contents: `let m;const o={};for(const k of ${JSON.stringify(names)})Object.defineProperty(o,k,{enumerable:true,get:()=>(m??=${load})[k]});module.exports=o;`,
      };
    });
  },
};
// The commands that speak CRI (`cri`, `node-agent`) never run from the bundle: main.js starts them
// from the modules, because they load gRPC with import(), which a script run from V8's code cache
// cannot. run.ts imports them on demand, so the bundle leaves that import as it is (it would fail
// loudly, never silently) instead of carrying their code, 200 KB that every start read for nothing.
const moduleCommands = {
  name: 'module-commands',
  setup(b) {
    b.onResolve({ filter: /^\.\/(cri|node-agent)\.js$/ }, (args) =>
      args.importer.endsWith(join('src', 'cli', 'run.ts')) ? { path: args.path, external: true } : undefined,
    );
  },
};
// zod's classic API carries the error messages of some 60 languages (`z.locales`), and the bundle
// would keep every one: 265 KB that each start reads, decodes and keeps in memory. memkube never
// switches zod's language, and its own messages are Kubernetes', so the bundle keeps English only,
// the language zod configures when it loads.
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-locales' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};
// Identifiers are minified too: a start reads, and V8 deserializes the code cache of, every byte of
// the bundle, so a quarter less of both is a start tens of milliseconds sooner. Nothing in memkube
// reads a function's or class's name (errors name themselves), so the renaming is safe.
await build({
  ...common,
  entryPoints: ['src/cli/run.ts'],
  bundle: true,
  format: 'cjs',
  outfile: bundle,
  minifyWhitespace: true,
  minifySyntax: true,
  minifyIdentifiers: true,
  external,
  plugins: [promClientCore, lazyBuiltins, lazyPackages, moduleCommands, zodEnglishOnly],
});
// V8 keeps a source with one non-ASCII character as two bytes a character, and Node decodes it from
// UTF-8 on its slow path: tens of milliseconds of every start for 3 MB. esbuild escapes strings but
// leaves regular expression literals as they are, so a source file must write `\u00b5`, not `µ`.
const nonAscii = readFileSync(bundle).findIndex((byte) => byte > 0x7f);
if (nonAscii >= 0) throw new Error(`${bundle} is not ASCII at offset ${nonAscii}: write the character as a \\u escape in its source file`);
// The packages' own file: a plain CommonJS module, which Node loads with `require` (without a code
// cache: their code is compiled as it runs, as it was in the bundle, whose cache never held it).
await build({
  ...common,
  stdin: {
    contents: `module.exports = { ${SEPARATE_PACKAGES.map((p) => `${JSON.stringify(p)}: require(${JSON.stringify(p)})`).join(', ')} };`,
    resolveDir: root,
    loader: 'js',
  },
  bundle: true,
  format: 'cjs',
  outfile: join(out, PACKAGES_FILE),
  minify: true,
  charset: 'ascii',
  plugins: [lazyBuiltins],
});
await build({ ...common, entryPoints: ['src/cli/main.ts', 'src/cli/bundle-loader.ts'], format: 'esm', outdir: out });
// The bundle is written as the loader compiles it, wrapped as a module, so that a start does not copy it.
const { wrappedBundle } = await import(pathToFileURL(join(out, 'bundle-loader.js')).href);
writeFileSync(bundle, wrappedBundle(readFileSync(bundle, 'latin1')), 'latin1');
await warmCodeCache();
