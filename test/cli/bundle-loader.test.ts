import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { readFileInto, runBundle, sourceText, userCacheDir, userCacheFile, wrappedBundle } from '../../src/cli/bundle-loader.js';

declare global {
  var bundleLoaderRuns: number | undefined;
}

const BUNDLE = '#!/usr/bin/env node\nglobalThis.bundleLoaderRuns = (globalThis.bundleLoaderRuns ?? 0) + 1;\nmodule.exports = 1;\n';

describe('the bundle loader', () => {
  let tmp: string;
  let pkg: string;
  let cache: string;
  let bundle: string;
  const saved = process.env.MEMKUBE_CODE_CACHE_DIR;

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'memkube-loader-'));
    pkg = join(tmp, 'node_modules', 'memkube', 'dist', 'cli');
    cache = join(tmp, 'user-cache');
    bundle = join(pkg, 'memkube.cjs');
    writeFileSync(join(tmp, 'placeholder'), '');
    vi.useFakeTimers();
    process.env.MEMKUBE_CODE_CACHE_DIR = cache;
    globalThis.bundleLoaderRuns = 0;
  });

  afterEach(() => {
    vi.useRealTimers();
    if (saved === undefined) delete process.env.MEMKUBE_CODE_CACHE_DIR;
    else process.env.MEMKUBE_CODE_CACHE_DIR = saved;
    rmSync(tmp, { recursive: true, force: true });
  });

  function makePackage(shippedCache?: Buffer): void {
    rmSync(pkg, { recursive: true, force: true });
    mkdirSync(pkg, { recursive: true });
    writeFileSync(bundle, BUNDLE);
    if (shippedCache) writeFileSync(`${bundle}.cache`, shippedCache);
  }

  it('writes a missing cache into the user cache directory, never into the package, and uses it on the next run', () => {
    makePackage();
    runBundle(bundle);
    expect(globalThis.bundleLoaderRuns).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(readdirSync(pkg)).toEqual(['memkube.cjs']);
    const written = readdirSync(cache);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(new RegExp(`^memkube-${process.version.replace(/\./g, '\\.')}-[0-9a-f]{16}\\.cache$`));

    // The second run takes the user's cache: V8 accepts it, so nothing is scheduled to be written.
    runBundle(bundle);
    expect(globalThis.bundleLoaderRuns).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
    expect(readdirSync(pkg)).toEqual(['memkube.cjs']);
  });

  it('leaves a rejected shipped cache as it is and falls back to the user cache', () => {
    makePackage(Buffer.from('not a V8 code cache'));
    runBundle(bundle);
    vi.advanceTimersByTime(1000);
    expect(readdirSync(pkg).sort()).toEqual(['memkube.cjs', 'memkube.cjs.cache']);
    expect(existsSync(cache) && readdirSync(cache)).toHaveLength(1);
    expect(globalThis.bundleLoaderRuns).toBe(1);
  });

  it('runs without any cache when the cache directory cannot be written', () => {
    makePackage();
    process.env.MEMKUBE_CODE_CACHE_DIR = join(tmp, 'placeholder', 'below-a-file');
    runBundle(bundle);
    vi.advanceTimersByTime(1000);
    expect(globalThis.bundleLoaderRuns).toBe(1);
    expect(readdirSync(pkg)).toEqual(['memkube.cjs']);
  });

  it('keys the cache file by Node version and bundle text, under XDG_CACHE_HOME or ~/.cache', () => {
    expect(userCacheDir({ MEMKUBE_CODE_CACHE_DIR: '/c' })).toBe('/c');
    expect(userCacheDir({ XDG_CACHE_HOME: '/xdg' })).toBe(join('/xdg', 'memkube'));
    expect(userCacheDir({})).toMatch(/[/\\]\.cache[/\\]memkube$|memkube-cache$/);
    expect(userCacheFile('a', '/d')).not.toBe(userCacheFile('b', '/d'));
    expect(userCacheFile('a', '/d')).toBe(userCacheFile('a', '/d'));
  });

  it('reads an ASCII bundle as it is and any other as UTF-8', () => {
    expect(sourceText(Buffer.from('module.exports = "\\u00b5";', 'utf8'))).toBe('module.exports = "\\u00b5";');
    // Read as Latin-1, the two bytes of µ would be two characters.
    expect(sourceText(Buffer.from('module.exports = "µ";', 'utf8'))).toBe('module.exports = "µ";');
    expect(sourceText(Buffer.from('', 'utf8'))).toBe('');
  });

  it('runs a bundle written wrapped as a module as it is, with the code cache made for it', () => {
    makePackage();
    writeFileSync(bundle, wrappedBundle(BUNDLE));
    runBundle(bundle);
    expect(globalThis.bundleLoaderRuns).toBe(1);
    vi.advanceTimersByTime(1000);
    expect(readdirSync(cache)).toHaveLength(1);
    // Had the wrapped text been wrapped again, the function would only be defined, not run.
    runBundle(bundle);
    expect(globalThis.bundleLoaderRuns).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('wraps a bundle as Node wraps a module, without its shebang line', () => {
    expect(wrappedBundle('#!/usr/bin/env node\nmodule.exports = 1;')).toBe(
      '(function (exports, require, module, __filename, __dirname) { \nmodule.exports = 1;\n});',
    );
    expect(wrappedBundle('x // a comment at the end')).toMatch(/\/\/ a comment at the end\n\}\);$/);
  });

  it('reads a file into a buffer that holds it, else into a new one', () => {
    const file = join(tmp, 'data');
    writeFileSync(file, 'abc');
    const big = Buffer.alloc(8, 'z');
    const into = readFileInto(file, big)!;
    expect(into.toString()).toBe('abc');
    expect(into.buffer).toBe(big.buffer);
    expect(big.toString()).toBe('abczzzzz');
    const small = Buffer.alloc(2);
    const fresh = readFileInto(file, small)!;
    expect(fresh.toString()).toBe('abc');
    expect(fresh.buffer).not.toBe(small.buffer);
    expect(readFileInto(file)!.toString()).toBe('abc');
    expect(readFileInto(join(tmp, 'missing'), big)).toBeUndefined();
    writeFileSync(file, '');
    expect(readFileInto(file, big)!.length).toBe(0);
  });

  it('runs a bundle that is not ASCII with its text intact', () => {
    makePackage();
    writeFileSync(bundle, 'globalThis.bundleLoaderRuns = "µs".length;\n');
    runBundle(bundle);
    expect(globalThis.bundleLoaderRuns).toBe(2);
  });
});
