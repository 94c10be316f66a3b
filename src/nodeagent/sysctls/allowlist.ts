/**
 * The kubelet's sysctl allow list (pkg/kubelet/sysctl/allowlist.go): sysctl names and patterns
 * ending in `*`, each checked to be a well-formed sysctl pattern and known to be namespaced, then
 * used to decide each sysctl a pod asks for.
 */
import { goQuote } from './kernel-version.js';
import { namespacedBy, normalizeSysctlName, type SysctlNamespace } from './namespace.js';

/** The longest sysctl name or pattern (`SysctlMaxLength` of the core API validation). */
export const SYSCTL_MAX_LENGTH = 253;

/** One segment of a sysctl name (`SysctlSegmentFmt`). */
const SEGMENT = '[a-z0-9]([-_a-z0-9]*[a-z0-9])?';

/** A sysctl name or pattern, `.` or `/` separated, `*` only at the end (`SysctlContainSlashPatternFmt`). */
export const SYSCTL_PATTERN_FORMAT = `(${SEGMENT}[\\./])*([a-z0-9][-_a-z0-9]*)?[a-z0-9*]`;

const SYSCTL_PATTERN = new RegExp(`^${SYSCTL_PATTERN_FORMAT}$`);

/** Thrown for an allow-list entry that is malformed or not namespaced; the message is the kubelet's. */
export class SysctlAllowlistError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SysctlAllowlistError';
  }
}

/** Whether `pattern` is a well-formed sysctl or sysctl pattern (`IsValidSysctlPattern`). */
export function isValidSysctlPattern(pattern: string): boolean {
  return pattern.length <= SYSCTL_MAX_LENGTH && SYSCTL_PATTERN.test(pattern);
}

/** A validated allow list: exact sysctls and prefixes, each with its namespace. */
export interface SysctlAllowlist {
  /**
   * Why `sysctl` may not be set by a pod sharing the host's network (`hostNetwork`) or IPC
   * (`hostIPC`) namespace as given, or `undefined` when it may.
   */
  check(sysctl: string, hostNetwork: boolean, hostIPC: boolean): string | undefined;
}

/**
 * An allow list of `patterns` (sysctl names, or prefixes ending in `*`; `.` or `/` separated).
 * Throws {@link SysctlAllowlistError} for the first entry that is malformed
 * (`sysctl "x" must have at most 253 characters and match regex ...`) or not namespaced
 * (`the sysctl "x" are not known to be namespaced`, `the sysctls "x*" are not known to be namespaced`).
 */
export function createSysctlAllowlist(patterns: readonly string[]): SysctlAllowlist {
  const exact = new Map<string, SysctlNamespace>();
  const prefixes = new Map<string, SysctlNamespace>();
  for (const raw of patterns) {
    if (!isValidSysctlPattern(raw)) {
      throw new SysctlAllowlistError(`sysctl ${goQuote(raw)} must have at most ${SYSCTL_MAX_LENGTH} characters and match regex ${SYSCTL_PATTERN_FORMAT}`);
    }
    const pattern = normalizeSysctlName(raw);
    if (pattern.endsWith('*')) {
      const prefix = pattern.slice(0, -1);
      const ns = namespacedBy(prefix);
      if (ns === '') throw new SysctlAllowlistError(`the sysctls ${goQuote(pattern)} are not known to be namespaced`);
      prefixes.set(prefix, ns);
    } else {
      const ns = namespacedBy(pattern);
      if (ns === '') throw new SysctlAllowlistError(`the sysctl ${goQuote(pattern)} are not known to be namespaced`);
      exact.set(pattern, ns);
    }
  }

  const sharedHostNamespace = (name: string, ns: SysctlNamespace, hostNetwork: boolean, hostIPC: boolean): string | undefined => {
    if ((ns === 'ipc' && hostIPC) || (ns === 'net' && hostNetwork)) return `${goQuote(name)} not allowed with host ${ns} enabled`;
    return undefined;
  };

  return {
    check(sysctl, hostNetwork, hostIPC) {
      const name = normalizeSysctlName(sysctl);
      const ns = exact.get(name);
      if (ns !== undefined) return sharedHostNamespace(name, ns, hostNetwork, hostIPC);
      for (const [prefix, prefixNs] of prefixes) {
        if (name.startsWith(prefix)) return sharedHostNamespace(name, prefixNs, hostNetwork, hostIPC);
      }
      return `${goQuote(name)} not allowlisted`;
    },
  };
}
