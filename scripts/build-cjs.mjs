#!/usr/bin/env node
/**
 * Builds the CommonJS copy of the library into dist/cjs/, for `require('memkube')` and Jest (whose
 * module system cannot load ES modules from node_modules). Run after `tsc -p tsconfig.build.json`:
 *
 * - every file under src/ (but the command, src/cli/) becomes one CommonJS file, with the same
 *   layout as the ES build, so the library stays one module graph (one `ApiError` class for the
 *   engine and the adapters alike) rather than a bundle per entry point;
 * - dependencies stay `require()`s of the user's installed packages, except those that ship only
 *   as ES modules: pkijs and asn1js are bundled together into dist/cjs/vendor/pki.js (one copy of
 *   asn1js for both, as pkijs checks ASN.1 objects by class), jose into vendor/jose.js and
 *   @noble/ciphers' salsa module into vendor/noble-salsa.js;
 * - `dist/cjs/package.json` says `"type": "commonjs"`, so the `.d.ts` files copied from the ES
 *   build describe CommonJS modules to TypeScript (`moduleResolution: node16`), not ES ones.
 *
 * `import.meta` and top-level await, which CommonJS has no equivalent for, fail the build.
 * `--dist DIR` builds from and into another directory than dist/ (the packaging test builds a
 * throwaway copy).
 */
import { copyFileSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const at = process.argv.indexOf('--dist');
const dist = at > 0 ? resolve(process.argv[at + 1]) : join(root, 'dist');
const out = join(dist, 'cjs');
const src = join(root, 'src');
/** Not part of the library: the command, which has its own bundle (scripts/build-cli.mjs). */
const skipped = new Set([join(src, 'cli')]);
/** Packages published only as ES modules, bundled into one CommonJS file. */
const vendored = ['pkijs', 'asn1js'];
const vendorFile = join(out, 'vendor', 'pki.js');
/** Other ES-only modules, each bundled into a CommonJS file of its own, by import specifier. */
const vendoredAlone = { jose: 'jose', '@noble/ciphers/salsa.js': 'noble-salsa' };

function filesUnder(dir, keep) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const p = join(dir, entry.name);
    if (skipped.has(p)) return [];
    if (entry.isDirectory()) return filesUnder(p, keep);
    return keep(entry.name) ? [p] : [];
  });
}

/** `./x` from the output file of `importer` to `target` (both absolute). */
function requirePath(importer, target) {
  const from = join(out, relative(src, dirname(importer)));
  const rel = relative(from, target).split('\\').join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
}

/** Every import stays an import (so each source file is compiled alone); ES-only packages go to the vendor file. */
const keepModuleGraph = {
  name: 'keep-module-graph',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const alone = vendoredAlone[args.path];
      if (alone) return { path: `${requirePath(args.importer, join(out, 'vendor', alone))}.js`, external: true };
      const bare = args.path.split('/')[0];
      if (vendored.includes(bare)) {
        if (args.path !== bare)
          throw new Error(`build-cjs: ${args.importer} imports ${args.path}: only the package roots of ${vendored.join(', ')} are vendored`);
        return { path: `${requirePath(args.importer, join(out, 'vendor', bare))}.js`, external: true };
      }
      return { path: args.path, external: true };
    });
  },
};

rmSync(out, { recursive: true, force: true });
// `import.meta` has no CommonJS equivalent (esbuild would leave it empty): a failed build, not a broken one.
// Top-level await fails the CommonJS build by itself.
const common = {
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  logLevel: 'warning',
  logOverride: { 'empty-import-meta': 'error' },
  absWorkingDir: root,
  sourcemap: true,
};
await build({
  ...common,
  entryPoints: filesUnder(src, (name) => name.endsWith('.ts') && !name.endsWith('.d.ts')),
  outdir: out,
  outbase: src,
  bundle: true,
  plugins: [keepModuleGraph],
  // `import()` becomes `require()`: Jest's CommonJS runtime cannot load ES modules dynamically either.
  supported: { 'dynamic-import': false },
});
await build({
  ...common,
  stdin: { contents: vendored.map((p) => `export * as ${p} from '${p}';`).join('\n'), resolveDir: root, sourcefile: 'vendor.js' },
  bundle: true,
  outfile: vendorFile,
  sourcemap: false,
  legalComments: 'eof',
});
for (const [specifier, file] of Object.entries(vendoredAlone)) {
  await build({
    ...common,
    stdin: { contents: `export * from '${specifier}';`, resolveDir: root, sourcefile: `${file}.js` },
    bundle: true,
    outfile: join(out, 'vendor', `${file}.js`),
    sourcemap: false,
    legalComments: 'eof',
  });
}
for (const p of vendored) writeFileSync(join(out, 'vendor', `${p}.js`), `'use strict';\nmodule.exports = require('./pki.js').${p};\n`);
writeFileSync(join(out, 'package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);

// The declarations of the ES build, read as CommonJS under dist/cjs/.
for (const file of filesUnder(dist, (name) => name.endsWith('.d.ts'))) {
  if (file.startsWith(out + '/') || file.startsWith(join(dist, 'cli') + '/')) continue;
  const target = join(out, relative(dist, file));
  mkdirSync(dirname(target), { recursive: true });
  copyFileSync(file, target);
}
