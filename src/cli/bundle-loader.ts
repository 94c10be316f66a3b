/**
 * Runs the one-file build of the command (a CommonJS bundle) with V8's code cache, so a start
 * skips parsing and compiling the bundle.
 *
 * Two caches, and only one is ever written. `<bundle>.cache` beside the bundle is warmed by the
 * build and shipped in the package: it is only read, because the package directory belongs to npm
 * (it may be read-only, shared by users, or checked against its tarball's integrity). When it is
 * missing or V8 rejects it (another Node version than the build's), the cache is the user's:
 * `$MEMKUBE_CODE_CACHE_DIR`, else `$XDG_CACHE_HOME/memkube`, else `~/.cache/memkube`, else the
 * temporary directory, in a file named by the Node version and a hash of the bundle, so that two
 * Node versions or two installs never take each other's cache. Writing fails silently: the command
 * then only starts slower.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Script } from 'node:vm';

/** How long after start the code cache is written: by then serving has compiled what it needs. */
const CACHE_DELAY_MS = 1000;

/** The directory of the user's code caches, from the environment (see the file's comment). */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.MEMKUBE_CODE_CACHE_DIR) return env.MEMKUBE_CODE_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'memkube');
  let home = '';
  try {
    home = homedir();
  } catch {
    home = '';
  }
  return home ? join(home, '.cache', 'memkube') : join(tmpdir(), 'memkube-cache');
}

/** The user's cache file for this bundle text under this Node. */
export function userCacheFile(source: string, dir: string = userCacheDir()): string {
  const hash = createHash('sha256').update(source).digest('hex').slice(0, 16);
  return join(dir, `memkube-${process.version}-${hash}.cache`);
}

function read(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Loads and runs the CommonJS bundle at `file` (an absolute path) as Node would, with its code cache. */
export function runBundle(file: string): void {
  // A shebang line is not JavaScript inside the module wrapper.
  const source = Module.wrap(sourceText(readFileSync(file)).replace(/^#!.*/, ''));
  let script = compile(source, file, read(`${file}.cache`));
  if (!script) {
    const userFile = userCacheFile(source);
    script = compile(source, file, read(userFile));
    if (!script) {
      script = new Script(source, { filename: file });
      const made = script;
      setTimeout(() => writeCache(userFile, made), CACHE_DELAY_MS).unref();
    }
  }
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: unknown, filename: string, dirname: string) => void;
  const module = { exports: {}, filename: file, id: '.', loaded: false };
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
}

/**
 * The text of a bundle's bytes. The build writes it in ASCII, and ASCII read as Latin-1 is the same
 * text: that decoding copies bytes, about a third of the time UTF-8's takes for 3 MB (a millisecond
 * or two of every start). Any other byte is decoded as UTF-8.
 */
export function sourceText(bytes: Buffer): string {
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/** The script compiled with `cachedData`, or undefined when there is none or V8 refused it. */
function compile(source: string, file: string, cachedData: Buffer | undefined): Script | undefined {
  if (!cachedData) return undefined;
  const script = new Script(source, { filename: file, cachedData });
  return script.cachedDataRejected ? undefined : script;
}

function writeCache(cacheFile: string, script: Script): void {
  try {
    mkdirSync(dirname(cacheFile), { recursive: true, mode: 0o700 });
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, script.createCachedData());
    renameSync(tmp, cacheFile); // atomic: a concurrent start never reads half a cache
  } catch {
    // No cache (no writable cache directory): the command still runs, only its start is slower.
  }
}
