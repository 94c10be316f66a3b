/**
 * The safe sysctls: namespaced and isolated, so every pod may set them without an allow list
 * (pkg/kubelet/sysctl/safe_sysctls.go). Some became namespaced only in a later kernel; on an older
 * kernel — or when the kernel version cannot be read — they are left out, and a pod asking for one
 * is refused like any sysctl that is not allowed.
 */
import type { KernelVersion } from './kernel-version.js';

/** A safe sysctl and the kernel that namespaced it (pkg/util/kernel/constants.go). */
export interface SafeSysctl {
  readonly name: string;
  /** The first kernel where the sysctl is per network namespace; absent when always. */
  readonly minKernel?: string;
}

/** The safe sysctls in the kubelet's order. */
export const SAFE_SYSCTLS: readonly SafeSysctl[] = [
  { name: 'kernel.shm_rmid_forced' },
  { name: 'net.ipv4.ip_local_port_range' },
  { name: 'net.ipv4.tcp_syncookies' },
  { name: 'net.ipv4.ping_group_range' },
  { name: 'net.ipv4.ip_unprivileged_port_start' },
  { name: 'net.ipv4.ip_local_reserved_ports', minKernel: '3.16' },
  { name: 'net.ipv4.tcp_keepalive_time', minKernel: '4.5' },
  { name: 'net.ipv4.tcp_fin_timeout', minKernel: '4.6' },
  { name: 'net.ipv4.tcp_keepalive_intvl', minKernel: '4.5' },
  { name: 'net.ipv4.tcp_keepalive_probes', minKernel: '4.5' },
  { name: 'net.ipv4.tcp_rmem', minKernel: '4.15' },
  { name: 'net.ipv4.tcp_wmem', minKernel: '4.15' },
];

/**
 * The safe sysctls available on a kernel of `version` (`undefined`: unknown, so only those needing
 * no particular kernel), as `getSafeSysctlAllowlist`.
 */
export function safeSysctlAllowlist(version: KernelVersion | undefined): string[] {
  return SAFE_SYSCTLS.filter((s) => s.minKernel === undefined || (version !== undefined && version.atLeast(s.minKernel))).map((s) => s.name);
}
