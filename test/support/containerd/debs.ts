/**
 * Debian's containerd, runc and static busybox for the e2e suites, fetched and unpacked (never
 * installed: the package's maintainer scripts would start a system containerd) by the shared
 * package cache of test/support/debs.ts, in `.cache/debs/`.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_CACHE, unpackedPackages } from '../debs.js';

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

/** The project's cache directory for the containerd packages: `<repo>/.cache/debs`. */
export const DEFAULT_DEBS_CACHE = join(PROJECT_CACHE, 'debs');

/** Where each program sits inside the unpacked packages. */
const PROGRAMS = {
  containerd: 'usr/bin/containerd',
  shim: 'usr/bin/containerd-shim-runc-v2',
  ctr: 'usr/bin/ctr',
  runc: 'usr/sbin/runc',
  busybox: 'bin/busybox',
} as const;

/**
 * The containerd programs, fetched and unpacked into `cacheDir` on first use, reused afterwards.
 * Needs root (dpkg -x keeps owners; containerd runs as root) and a reachable Debian mirror on first use.
 */
export async function containerdBinaries(cacheDir: string = DEFAULT_DEBS_CACHE): Promise<ContainerdBinaries> {
  const unpacked = await unpackedPackages({ what: 'the containerd packages', packages: DEBIAN_PACKAGES, programs: PROGRAMS, cacheDir });
  return {
    ...unpacked.programs,
    binDir: join(unpacked.rootDir, 'usr/bin'),
    libDir: findLibDir(unpacked.rootDir, 'libseccomp.so.2'),
    cacheDir: unpacked.cacheDir,
    versions: { ...unpacked.versions },
  };
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
