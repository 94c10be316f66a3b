/**
 * Runs the one-file build of the command (a CommonJS bundle) with V8's code cache, so a start
 * skips parsing and compiling the bundle: `<bundle>.cache` holds the code V8 compiled during an
 * earlier run (the build warms it). A missing or rejected cache (another Node version) is written
 * anew a moment after start; a read-only install simply runs without one.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

/** How long after start the code cache is written: by then serving has compiled what it needs. */
const CACHE_DELAY_MS = 1000;

/** Loads and runs the CommonJS bundle at `file` (an absolute path) as Node would, with its code cache. */
export function runBundle(file: string): void {
  const cacheFile = `${file}.cache`;
  // A shebang line is not JavaScript inside the module wrapper.
  const source = readFileSync(file, 'utf8').replace(/^#!.*/, '');
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const script = new Script(Module.wrap(source), { filename: file, cachedData });
  if (!cachedData || script.cachedDataRejected) {
    setTimeout(() => writeCache(cacheFile, script), CACHE_DELAY_MS).unref();
  }
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  const module = { exports: {}, filename: file, id: '.', loaded: false };
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
}

function writeCache(cacheFile: string, script: Script): void {
  try {
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, cacheFile); // atomic: a concurrent start never reads half a cache
  } catch {
    // No cache (read-only install): the command still runs, only its start is slower.
  }
}
