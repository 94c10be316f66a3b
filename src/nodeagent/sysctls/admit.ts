/**
 * The kubelet's sysctl pod admission: the safe sysctls the node's kernel supports plus the
 * `--allowed-unsafe-sysctls` entries form one allow list (as kubelet.go builds it with
 * `sysctl.NewAllowlist(append(sysctl.SafeSysctlAllowlist(), AllowedUnsafeSysctls...))`), and a pod
 * asking for any sysctl outside it — or for a network sysctl while sharing the host's network, an
 * IPC sysctl while sharing the host's IPC namespace — is rejected with reason `SysctlForbidden`.
 */
import { createSysctlAllowlist } from './allowlist.js';
import { getKernelVersion, KernelVersion } from './kernel-version.js';
import { safeSysctlAllowlist } from './safe-sysctls.js';

/** The reason of a pod rejected for its sysctls (`ForbiddenReason`). */
export const SYSCTL_FORBIDDEN_REASON = 'SysctlForbidden';

/** The parts of a pod the sysctl admission reads. */
export interface SysctlPod {
  readonly spec?: {
    readonly hostNetwork?: boolean;
    readonly hostIPC?: boolean;
    readonly securityContext?: { readonly sysctls?: readonly { readonly name: string; readonly value?: string }[] };
  };
}

/** The outcome of admitting a pod, as the kubelet's `PodAdmitResult`. */
export type SysctlAdmitResult = { readonly admit: true } | { readonly admit: false; readonly reason: string; readonly message: string };

/** Options of {@link createSysctlAdmitter}. */
export interface SysctlAdmitterOptions {
  /** `--allowed-unsafe-sysctls`: sysctl names or prefixes ending in `*`. */
  readonly allowedUnsafeSysctls?: readonly string[];
  /**
   * The node's kernel: a version, a release string (`5.15.0-91-generic`), or `null` for unknown
   * (only the safe sysctls needing no particular kernel are then allowed). Default: the running
   * kernel (`os.release()`); unreadable counts as unknown.
   */
  readonly kernelVersion?: KernelVersion | string | null;
}

/** Admits or rejects pods for the sysctls they ask for. */
export interface SysctlAdmitter {
  /** The sysctls (and `*` prefixes) this node allows, safe ones first. */
  readonly allowed: readonly string[];
  /** Admits the pod when this node allows every sysctl it sets; else the reason and message of the rejection. */
  admit(pod: SysctlPod): SysctlAdmitResult;
}

/**
 * The sysctl admission of a node. Throws `SysctlAllowlistError` for a malformed or not namespaced
 * `allowedUnsafeSysctls` entry (the kubelet refuses to start), `KernelVersionError` for a
 * `kernelVersion` string that is not a version.
 */
export function createSysctlAdmitter(options: SysctlAdmitterOptions = {}): SysctlAdmitter {
  const allowed = [...safeSysctlAllowlist(resolveKernel(options.kernelVersion)), ...(options.allowedUnsafeSysctls ?? [])];
  const allowlist = createSysctlAllowlist(allowed);
  return {
    allowed,
    admit(pod) {
      const spec = pod.spec;
      for (const sysctl of spec?.securityContext?.sysctls ?? []) {
        const problem = allowlist.check(sysctl.name, spec?.hostNetwork === true, spec?.hostIPC === true);
        if (problem !== undefined) return { admit: false, reason: SYSCTL_FORBIDDEN_REASON, message: `forbidden sysctl: ${problem}` };
      }
      return { admit: true };
    },
  };
}

function resolveKernel(given: KernelVersion | string | null | undefined): KernelVersion | undefined {
  if (given === null) return undefined;
  if (given instanceof KernelVersion) return given;
  if (typeof given === 'string') return getKernelVersion(given);
  try {
    return getKernelVersion();
  } catch {
    // The kubelet logs and carries on with the sysctls that need no particular kernel.
    return undefined;
  }
}
