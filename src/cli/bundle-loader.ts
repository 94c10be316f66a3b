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
import { closeSync, fstatSync, mkdirSync, openSync, readFileSync, readSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

/**
 * The whole of `file`, or undefined when it cannot be read. It is read into `into` when it fits
 * (the answer is then a view of it, valid until `into` is written again), else into a new buffer.
 */
export function readFileInto(file: string, into?: Buffer): Buffer | undefined {
  let fd: number | undefined;
  try {
    fd = openSync(file, 'r');
    const size = fstatSync(fd).size;
    const bytes = into && into.length >= size ? into.subarray(0, size) : Buffer.allocUnsafeSlow(size);
    let read = 0;
    while (read < size) {
      const n = readSync(fd, bytes, read, size - read, read);
      if (n === 0) break; // the file became shorter while it was read
      read += n;
    }
    return bytes.subarray(0, read);
  } catch {
    return undefined;
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** How the bundle's text begins and ends once it is wrapped as a module (as Node's `Module.wrap` does). */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const WRAPPER_TAIL = '\n});';

const WRAPPER_HEAD_BYTES = Buffer.from(WRAPPER_HEAD, 'latin1');

/** Whether `bytes` begin as a wrapped bundle does. */
function startsWrapped(bytes: Buffer): boolean {
  return bytes.length >= WRAPPER_HEAD_BYTES.length && WRAPPER_HEAD_BYTES.equals(bytes.subarray(0, WRAPPER_HEAD_BYTES.length));
}

/**
 * A CommonJS module's text wrapped into the function the loader calls with `exports`, `require`,
 * `module`, `__filename` and `__dirname`. The build writes the bundle in this form: its text
 * compiles as read, where wrapping it at every start made a second copy of 3 MB (the wrapped
 * text is a concatenation, which V8 copies into one string to compile it).
 */
export function wrappedBundle(text: string): string {
  // A shebang line is not JavaScript inside the wrapper.
  return WRAPPER_HEAD + text.replace(/^#!.*/, '') + WRAPPER_TAIL;
}

/**
 * Loads and runs the CommonJS bundle at `file` (an absolute path) as Node would, with its code
 * cache. The build writes it already wrapped ({@link wrappedBundle}); a plain CommonJS file is
 * wrapped here.
 */
export function runBundle(file: string): void {
  const bytes = readFileSync(file);
  // The build writes the bundle wrapped and only in ASCII (it refuses any other byte), so the text
  // of a wrapped bundle is its bytes read as Latin-1, without first scanning 3 MB for a byte above 0x7f.
  const source = startsWrapped(bytes) ? bytes.toString('latin1') : wrappedBundle(sourceText(bytes));
  // The text is a copy, so the bundle's bytes are free: a cache is read into them. Those pages are
  // already in memory, and on a machine where a page fault costs microseconds the 2-3 MB of a new
  // buffer cost milliseconds of every start.
  let script = compile(source, file, readFileInto(`${file}.cache`, bytes));
  if (!script) {
    const userFile = userCacheFile(source);
    script = compile(source, file, readFileInto(userFile, bytes));
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
 * The text of a plain (not wrapped) bundle's bytes: read as Latin-1 when they are ASCII (the same
 * text, and that decoding copies bytes, about a third of the time UTF-8's takes for 3 MB), else
 * decoded as UTF-8.
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
