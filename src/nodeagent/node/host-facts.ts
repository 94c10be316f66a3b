/**
 * The facts about the machine that go into the Node object: identifiers, kernel and OS, CPU,
 * memory and disk, addresses. Read once from the host (as cAdvisor's machine info is) and
 * injectable, so a test states them instead of depending on the machine it runs on.
 */
import { readFileSync, statfsSync } from 'node:fs';
import { arch, cpus, hostname, networkInterfaces, platform, release, totalmem } from 'node:os';

/**
 * The host as the node agent describes it.
 * @category Node agent
 */
export interface HostFacts {
  /** `os.hostname()`: the node's name (lower-cased) unless overridden. */
  readonly hostname: string;
  /** `/etc/machine-id`. */
  readonly machineID: string;
  /** `/sys/class/dmi/id/product_uuid` (often readable by root only; empty otherwise). */
  readonly systemUUID: string;
  /** `/proc/sys/kernel/random/boot_id`. */
  readonly bootID: string;
  /** `uname -r`. */
  readonly kernelVersion: string;
  /** `PRETTY_NAME` of `/etc/os-release`. */
  readonly osImage: string;
  /** Go's GOOS: `linux`, `darwin`, `windows`. */
  readonly operatingSystem: string;
  /** Go's GOARCH: `amd64`, `arm64`, ... */
  readonly architecture: string;
  /** Logical CPUs. */
  readonly cpuCores: number;
  /** Bytes of memory. */
  readonly memoryBytes: number;
  /** Bytes of the filesystem holding the agent's root directory. */
  readonly ephemeralStorageBytes: number;
  /** Non-loopback IPv4 addresses of the host's interfaces, in interface order. */
  readonly ipv4Addresses: readonly string[];
}

const GO_ARCH: Readonly<Record<string, string>> = {
  x64: 'amd64',
  ia32: '386',
  arm64: 'arm64',
  arm: 'arm',
  ppc64: 'ppc64le',
  s390x: 's390x',
  riscv64: 'riscv64',
};
const GO_OS: Readonly<Record<string, string>> = { win32: 'windows' };

function readTrimmed(path: string): string {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return '';
  }
}

/** `PRETTY_NAME` of an os-release file's text (quotes removed), or `Linux` when absent, as cAdvisor reports. */
export function prettyNameOf(osRelease: string): string {
  for (const line of osRelease.split('\n')) {
    const m = /^PRETTY_NAME=(.*)$/.exec(line.trim());
    if (m) return m[1]!.replace(/^(["'])(.*)\1$/, '$2');
  }
  return 'Linux';
}

/** Reads the facts of this machine; `rootDir` is where ephemeral storage is measured. */
export function readHostFacts(rootDir: string): HostFacts {
  let ephemeralStorageBytes = 0;
  for (const dir of [rootDir, '/']) {
    try {
      const s = statfsSync(dir);
      ephemeralStorageBytes = Number(s.blocks) * Number(s.bsize);
      break;
    } catch {
      // the root directory may not exist yet: measure the root filesystem
    }
  }
  const ipv4Addresses: string[] = [];
  for (const addrs of Object.values(networkInterfaces())) {
    for (const a of addrs ?? []) if (a.family === 'IPv4' && !a.internal) ipv4Addresses.push(a.address);
  }
  return {
    hostname: hostname(),
    machineID: readTrimmed('/etc/machine-id') || readTrimmed('/var/lib/dbus/machine-id'),
    systemUUID: readTrimmed('/sys/class/dmi/id/product_uuid'),
    bootID: readTrimmed('/proc/sys/kernel/random/boot_id'),
    kernelVersion: release(),
    osImage: prettyNameOf(readTrimmed('/etc/os-release')),
    operatingSystem: GO_OS[platform()] ?? platform(),
    architecture: GO_ARCH[arch()] ?? arch(),
    cpuCores: cpus().length,
    memoryBytes: totalmem(),
    ephemeralStorageBytes,
    ipv4Addresses,
  };
}
