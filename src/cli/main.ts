#!/usr/bin/env node
/**
 * How the `memkube` command starts. A build (`npm run build`) puts the whole command in one file
 * beside this one (`memkube.cjs`, made by `scripts/build-cli.mjs`), which starts several times
 * faster than hundreds of modules: it is loaded with V8's code cache. Without it (running from
 * `src/` under tsx, as the tests do) the modules are imported as they are.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runBundle } from './bundle-loader.js';

/**
 * The commands that speak CRI load gRPC with `import()`, which a bundle run from V8's code cache
 * cannot do: they run from the modules. They are daemons, where a start a little slower matters
 * less than for `memkube serve` in a test.
 */
const MODULE_COMMANDS = new Set(['cri', 'node-agent']);

const bundle = fileURLToPath(new URL('./memkube.cjs', import.meta.url));
if (existsSync(bundle) && !MODULE_COMMANDS.has(process.argv[2] ?? '')) runBundle(bundle);
else await import('./run.js');
