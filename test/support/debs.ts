/**
 * Debian packages for the e2e suites, fetched without installing them: `apt-get download` puts the
 * .deb files in a cache inside the project (`.cache/`, ignored by git) and `dpkg -x` unpacks them
 * there. `apt-get install` is never used: a package's maintainer scripts could start a system
 * service (containerd, prometheus) or need its dependencies.
 *
 * Each set of packages has its own cache directory. It is reused when complete (a `ready.json`
 * written last says so), and a lock directory beside it keeps two test files, in two processes, from
 * fetching the same set at the same time.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's cache directory: `<repo>/.cache`. */
export const PROJECT_CACHE = fileURLToPath(new URL('../../.cache', import.meta.url));

/** A set of Debian packages and the programs a test wants from them. */
export interface DebianPackageSet<P extends string> {
  /** What the set is for, in error messages (`the containerd packages`). */
  readonly what: string;
  /** The packages `apt-get download` fetches (no dependencies are fetched unless listed). */
  readonly packages: readonly string[];
  /** Each wanted program and where it sits inside the unpacked packages (`usr/bin/promtool`). */
  readonly programs: Readonly<Record<P, string>>;
  /** The set's cache directory: holds `packages/` (the .deb files), `root/` (unpacked) and `ready.json`. */
  readonly cacheDir: string;
}

/** A set of packages unpacked in its cache. */
export interface UnpackedPackages<P extends string> {
  /** The set's cache directory. */
  readonly cacheDir: string;
  /** Where the packages were unpacked (the root of their file trees). */
  readonly rootDir: string;
  /** Debian package versions, by package name. */
  readonly versions: Readonly<Record<string, string>>;
  /** The absolute path of each wanted program. */
  readonly programs: Readonly<Record<P, string>>;
}

/**
 * `apt-get` could not fetch the packages: no Debian mirror reachable, no apt on this machine, or the
 * packages unknown to its lists. A test may skip on this one; any other failure is a real one.
 */
export class AptDownloadError extends Error {
  override readonly name = 'AptDownloadError';
}

/** How long a test file waits for another one's fetch before giving up. */
const LOCK_WAIT_MS = 10 * 60_000;
/** How often a waiting test file looks at the lock again. */
export const LOCK_POLL_MS = 100;

/**
 * The packages of `set`, fetched and unpacked into its cache directory on first use, reused
 * afterwards. Needs a reachable Debian mirror on first use (else {@link AptDownloadError}) and root
 * (apt downloads as root here, see {@link aptGetDownload}).
 */
export async function unpackedPackages<P extends string>(set: DebianPackageSet<P>): Promise<UnpackedPackages<P>> {
  const ready = readReady(set);
  if (ready) return ready;
  mkdirSync(set.cacheDir, { recursive: true });
  const release = await acquireLock(`${set.cacheDir}.lock`, set.what);
  try {
    return readReady(set) ?? (await fetchAndUnpack(set));
  } finally {
    release();
  }
}

/** The cache's record when a previous fetch completed and every program is still there. */
function readReady<P extends string>(set: DebianPackageSet<P>): UnpackedPackages<P> | undefined {
  const file = join(set.cacheDir, 'ready.json');
  if (!existsSync(file)) return undefined;
  try {
    const ready = { ...(JSON.parse(readFileSync(file, 'utf8')) as UnpackedPackages<P>), cacheDir: set.cacheDir };
    for (const program of Object.keys(set.programs) as P[]) accessSync(ready.programs[program], constants.X_OK);
    if (set.packages.some((p) => !ready.versions[p])) return undefined;
    return ready;
  } catch {
    return undefined; // incomplete, damaged or of an older layout: fetch again
  }
}

async function fetchAndUnpack<P extends string>(set: DebianPackageSet<P>): Promise<UnpackedPackages<P>> {
  const debsDir = join(set.cacheDir, 'packages');
  const rootDir = join(set.cacheDir, 'root');
  rmSync(debsDir, { recursive: true, force: true });
  rmSync(rootDir, { recursive: true, force: true });
  mkdirSync(debsDir, { recursive: true });
  await aptGetDownload(debsDir, set.packages);
  const versions: Record<string, string> = {};
  for (const deb of readdirSync(debsDir).filter((f) => f.endsWith('.deb'))) {
    const path = join(debsDir, deb);
    const [name, version] = (await run('dpkg-deb', ['--show', '--showformat=${Package}\\t${Version}', path])).split('\t');
    if (name && version) versions[name] = version;
    await run('dpkg', ['-x', path, rootDir]);
  }
  const missingPackages = set.packages.filter((p) => !versions[p]);
  if (missingPackages.length > 0) throw new Error(`apt-get download left no .deb for ${missingPackages.join(', ')} in ${debsDir}`);
  const programs = {} as Record<P, string>;
  for (const [program, path] of Object.entries(set.programs) as [P, string][]) {
    const full = join(rootDir, path);
    if (!existsSync(full)) throw new Error(`the unpacked packages hold no ${path} (looked in ${rootDir}); did Debian move it?`);
    programs[program] = full;
  }
  const unpacked: UnpackedPackages<P> = { cacheDir: set.cacheDir, rootDir, versions, programs };
  // ready.json last, by rename: its presence means everything above is complete.
  writeFileSync(join(set.cacheDir, 'ready.json.tmp'), JSON.stringify(unpacked, null, 2));
  renameSync(join(set.cacheDir, 'ready.json.tmp'), join(set.cacheDir, 'ready.json'));
  return unpacked;
}

/**
 * `apt-get download` of `packages` into `dir`. A fresh machine has no package lists yet ("Unable to
 * locate package"): then `apt-get update` once and again. `aptOptions` (`-o` settings) go to both.
 * Any failure of apt itself is an {@link AptDownloadError}.
 */
export async function aptGetDownload(dir: string, packages: readonly string[], aptOptions: readonly string[] = []): Promise<void> {
  // Downloading as root: apt's _apt sandbox user could not write into a root-owned project directory.
  const download = () => run('apt-get', ['download', '-q', '-o', 'APT::Sandbox::User=root', ...aptOptions, ...packages], { cwd: dir });
  try {
    try {
      await download();
    } catch (err) {
      if (!/Unable to locate package|has no installation candidate|Can't select (candidate )?version/i.test(String(err))) throw err;
      await run('apt-get', ['update', '-q', ...aptOptions]);
      await download();
    }
  } catch (err) {
    throw new AptDownloadError(err instanceof Error ? err.message : String(err));
  }
}

/**
 * Takes the lock directory `path` (mkdir is atomic), waiting while another live process holds it.
 * A lock whose owner died (its PID file names no live process) is taken over. `what` names what the
 * lock guards, for the timeout's message.
 */
export async function acquireLock(path: string, what = 'the packages'): Promise<() => void> {
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      mkdirSync(path);
      writeFileSync(join(path, 'pid'), String(process.pid));
      return () => rmSync(path, { recursive: true, force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    if (lockOwnerGone(path)) {
      rmSync(path, { recursive: true, force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`waited ${LOCK_WAIT_MS / 1000} s for ${path}, held by another fetch of ${what}`);
    await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
  }
}

function lockOwnerGone(path: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(path, 'pid'), 'utf8'));
  } catch {
    // No PID file yet: its owner is between mkdir and write, unless the lock is old.
    try {
      return Date.now() - statSync(path).mtimeMs > 10_000;
    } catch {
      return true;
    }
  }
  if (!Number.isInteger(pid) || pid <= 0) return true;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Where and how long {@link run} runs a command. */
export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Milliseconds before the command is killed; 5 minutes by default (a slow mirror). */
  timeoutMs?: number;
}

/** Runs `command`, answering stdout; a failure carries the command line and its stderr. */
export function run(command: string, args: readonly string[], { cwd, env, timeoutMs = 5 * 60_000 }: RunOptions = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, env, maxBuffer: 64 * 1024 * 1024, timeout: timeoutMs }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${command} ${args.join(' ')} failed (${err.code ?? err.signal ?? err.message}): ${stderr.trim() || stdout.trim()}`));
      else resolve(stdout);
    });
  });
}
