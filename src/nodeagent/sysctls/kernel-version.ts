/**
 * Kernel versions as the kubelet reads them: the running kernel's release string
 * (`/proc/sys/kernel/osrelease`, what `uname -r` prints) parsed the way k8s.io/apimachinery's
 * `version.ParseGeneric` parses it — a run of dot-separated numbers at the start, at least two of
 * them, and anything after (`-91-generic`, `.el8.x86_64`, `-microsoft-standard-WSL2`, `+`) ignored.
 * Mirrors pkg/util/kernel/version.go (`GetVersion`) and apimachinery's util/version.
 */
import { release } from 'node:os';

/** Thrown for a release string that is not a version; the message is apimachinery's. */
export class KernelVersionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KernelVersionError';
  }
}

/** Go's `uint` is 64 bits wide: a component above this fails as `strconv.ParseUint` does. */
const MAX_UINT64 = (1n << 64n) - 1n;

/**
 * Leading numbers and the rest. Go's `\s` is `[\t\n\f\r ]` and its `.` does not match a newline,
 * so a newline inside the text makes it unparseable there too.
 */
const VERSION_MATCH = /^[\t\n\f\r ]*v?([0-9]+(?:\.[0-9]+)*)(.*)$/;

/** A generic (non-semantic) version: two or more numeric components. */
export class KernelVersion {
  private constructor(
    /** The numeric components, most significant first (`5.15.0` → 5, 15, 0). */
    readonly components: readonly bigint[],
  ) {}

  /**
   * Parses `text` as `version.ParseGeneric` does. Throws {@link KernelVersionError} with
   * apimachinery's messages: `could not parse "x" as version`, `illegal version string "5"`,
   * `illegal zero-prefixed version component "05" in "05.1"`.
   */
  static parse(text: string): KernelVersion {
    const match = VERSION_MATCH.exec(text);
    if (!match) throw new KernelVersionError(`could not parse ${goQuote(text)} as version`);
    const parts = match[1]!.split('.');
    if (parts.length < 2) throw new KernelVersionError(`illegal version string ${goQuote(text)}`);
    const components = parts.map((part, i) => {
      // Only the first component of a generic version may not have a leading zero.
      if (i === 0 && part.startsWith('0') && part !== '0') {
        throw new KernelVersionError(`illegal zero-prefixed version component ${goQuote(part)} in ${goQuote(text)}`);
      }
      const value = BigInt(part);
      if (value > MAX_UINT64) {
        throw new KernelVersionError(
          `illegal non-numeric version component ${goQuote(part)} in ${goQuote(text)}: strconv.ParseUint: parsing ${goQuote(part)}: value out of range`,
        );
      }
      return value;
    });
    return new KernelVersion(components);
  }

  /**
   * Compares with `other` component by component; a missing component counts as 0, so `4.5`
   * equals `4.5.0` (as `Version.Compare` does for generic versions).
   */
  compare(other: KernelVersion): -1 | 0 | 1 {
    const n = Math.max(this.components.length, other.components.length);
    for (let i = 0; i < n; i++) {
      const a = this.components[i] ?? 0n;
      const b = other.components[i] ?? 0n;
      if (a !== b) return a < b ? -1 : 1;
    }
    return 0;
  }

  /** Whether this version is `minimum` or newer. */
  atLeast(minimum: KernelVersion | string): boolean {
    return this.compare(typeof minimum === 'string' ? KernelVersion.parse(minimum) : minimum) >= 0;
  }

  /** The numeric components joined by dots (the suffix of the release string is not kept). */
  toString(): string {
    return this.components.join('.');
  }
}

/**
 * The version of the running kernel (Node's `os.release()`, the text of
 * `/proc/sys/kernel/osrelease`), or of `releaseText` when given. Throws
 * {@link KernelVersionError} as `failed to parse kernel version: ...`, as `utilkernel.GetVersion`.
 */
export function getKernelVersion(releaseText: string = release()): KernelVersion {
  try {
    return KernelVersion.parse(releaseText.trim());
  } catch (e) {
    throw new KernelVersionError(`failed to parse kernel version: ${(e as Error).message}`);
  }
}

/** Go's `%q` of a string, close enough for error messages: JSON escaping. */
export function goQuote(text: string): string {
  return JSON.stringify(text);
}
