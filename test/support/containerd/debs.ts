/**
 * Fetches Debian's containerd, runc and static busybox for the e2e suites, without installing them:
 * `apt-get download` puts the .deb files in a cache inside the project (`.cache/debs/`, ignored by
 * git) and `dpkg -x` unpacks them there. `apt-get install` is never used, since the package's
 * maintainer scripts would start a system containerd.
 *
 * The cache is reused when complete (a `ready.json` written last says so), and a lock directory keeps
 * two test files, in two processes, from fetching at the same time.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The packages fetched: containerd (with ctr and the runc v2 shim), runc, a static busybox for the images, and runc's libseccomp. */
export const DEBIAN_PACKAGES = ['containerd', 'runc', 'busybox-static', 'libseccomp2'] as const;

/** The unpacked programs and where they live. */
export interface ContainerdBinaries {
  containerd: string;
  /** `containerd-shim-runc-v2`: containerd finds it on PATH, so {@link binDir} goes on the daemon's PATH. */
  shim: string;
  ctr: string;
  runc: string;
  busybox: string;
  /** The directory holding containerd, ctr and the shim. */
  binDir: string;
  /** The directory holding the unpacked libseccomp.so.2, for runc's LD_LIBRARY_PATH on machines without it. */
  libDir: string;
  /** The cache directory they were unpacked in (other cached artifacts, such as the test images, go there too). */
  cacheDir: string;
  /** Debian package versions, by package name. */
  versions: Record<string, string>;
}

/** The project's cache directory for the packages: `<repo>/.cache/debs`. */
export const DEFAULT_DEBS_CACHE = fileURLToPath(new URL('../../../.cache/debs', import.meta.url));

/** Where each program sits inside the unpacked packages. */
const PROGRAMS = {
  containerd: 'usr/bin/containerd',
  shim: 'usr/bin/containerd-shim-runc-v2',
  ctr: 'usr/bin/ctr',
  runc: 'usr/sbin/runc',
  busybox: 'bin/busybox',
} as const;

/** How long a test file waits for another one's fetch before giving up. */
const LOCK_WAIT_MS = 10 * 60_000;
export const LOCK_POLL_MS = 100;

/**
 * The containerd programs, fetched and unpacked into `cacheDir` on first use, reused afterwards.
 * Needs root (dpkg -x keeps owners; containerd runs as root) and a reachable Debian mirror on first use.
 */
export async function containerdBinaries(cacheDir: string = DEFAULT_DEBS_CACHE): Promise<ContainerdBinaries> {
  const ready = readReady(cacheDir);
  if (ready) return ready;
  mkdirSync(cacheDir, { recursive: true });
  const release = await acquireLock(`${cacheDir}.lock`);
  try {
    return readReady(cacheDir) ?? (await fetchAndUnpack(cacheDir));
  } finally {
    release();
  }
}

/** The cache's binaries when a previous fetch completed and every program is still there. */
function readReady(cacheDir: string): ContainerdBinaries | undefined {
  const file = join(cacheDir, 'ready.json');
  if (!existsSync(file)) return undefined;
  try {
    const ready = { ...(JSON.parse(readFileSync(file, 'utf8')) as ContainerdBinaries), cacheDir };
    for (const program of Object.keys(PROGRAMS) as (keyof typeof PROGRAMS)[]) accessSync(ready[program], constants.X_OK);
    return ready;
  } catch {
    return undefined; // incomplete or damaged: fetch again
  }
}

async function fetchAndUnpack(cacheDir: string): Promise<ContainerdBinaries> {
  const debsDir = join(cacheDir, 'packages');
  const rootDir = join(cacheDir, 'root');
  rmSync(debsDir, { recursive: true, force: true });
  rmSync(rootDir, { recursive: true, force: true });
  mkdirSync(debsDir, { recursive: true });
  await aptGetDownload(debsDir);
  const versions: Record<string, string> = {};
  for (const deb of readdirSync(debsDir).filter((f) => f.endsWith('.deb'))) {
    const path = join(debsDir, deb);
    const [name, version] = (await run('dpkg-deb', ['--show', '--showformat=${Package}\\t${Version}', path])).split('\t');
    if (name && version) versions[name] = version;
    await run('dpkg', ['-x', path, rootDir]);
  }
  const missingPackages = DEBIAN_PACKAGES.filter((p) => !versions[p]);
  if (missingPackages.length > 0) throw new Error(`apt-get download left no .deb for ${missingPackages.join(', ')} in ${debsDir}`);
  const binaries = { binDir: join(rootDir, 'usr/bin'), libDir: findLibDir(rootDir, 'libseccomp.so.2'), cacheDir, versions } as ContainerdBinaries;
  for (const [program, path] of Object.entries(PROGRAMS) as [keyof typeof PROGRAMS, string][]) {
    const full = join(rootDir, path);
    if (!existsSync(full)) throw new Error(`the unpacked packages hold no ${path} (looked in ${rootDir}); did Debian move it?`);
    binaries[program] = full;
  }
  // ready.json last, by rename: its presence means everything above is complete.
  writeFileSync(join(cacheDir, 'ready.json.tmp'), JSON.stringify(binaries, null, 2));
  renameSync(join(cacheDir, 'ready.json.tmp'), join(cacheDir, 'ready.json'));
  return binaries;
}

/**
 * `apt-get download` of every package into `dir`. A fresh machine has no package lists yet ("Unable to
 * locate package"): then `apt-get update` once and again. `aptOptions` (`-o` settings) go to both.
 */
export async function aptGetDownload(dir: string, aptOptions: readonly string[] = []): Promise<void> {
  // Downloading as root: apt's _apt sandbox user could not write into a root-owned project directory.
  const download = () => run('apt-get', ['download', '-q', '-o', 'APT::Sandbox::User=root', ...aptOptions, ...DEBIAN_PACKAGES], { cwd: dir });
  try {
    await download();
  } catch (err) {
    if (!/Unable to locate package|has no installation candidate|Can't select (candidate )?version/i.test(String(err))) throw err;
    await run('apt-get', ['update', '-q', ...aptOptions]);
    await download();
  }
}

function findLibDir(rootDir: string, library: string): string {
  for (const dir of ['usr/lib', 'lib']) {
    const base = join(rootDir, dir);
    if (!existsSync(base)) continue;
    if (existsSync(join(base, library))) return base;
    for (const sub of readdirSync(base)) {
      if (existsSync(join(base, sub, library))) return join(base, sub);
    }
  }
  throw new Error(`the unpacked packages hold no ${library} under ${rootDir}/{usr/lib,lib}`);
}

/**
 * Takes the lock directory `path` (mkdir is atomic), waiting while another live process holds it.
 * A lock whose owner died (its PID file names no live process) is taken over.
 */
export async function acquireLock(path: string): Promise<() => void> {
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
    if (Date.now() > deadline) throw new Error(`waited ${LOCK_WAIT_MS / 1000} s for ${path}, held by another fetch of the containerd packages`);
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
