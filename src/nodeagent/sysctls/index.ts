/** Sysctls and kernel requirements of the node agent. */
export { createSysctlAdmitter, SYSCTL_FORBIDDEN_REASON } from './admit.js';
export type { SysctlAdmitResult, SysctlAdmitter, SysctlAdmitterOptions, SysctlPod } from './admit.js';
export { createSysctlAllowlist, isValidSysctlPattern, SysctlAllowlistError, SYSCTL_MAX_LENGTH, SYSCTL_PATTERN_FORMAT } from './allowlist.js';
export type { SysctlAllowlist } from './allowlist.js';
export { KERNEL_REQUIREMENTS, kernelSupports } from './kernel-features.js';
export type { KernelFeature, KernelRequirement } from './kernel-features.js';
export { getKernelVersion, KernelVersion, KernelVersionError } from './kernel-version.js';
export { namespacedBy, normalizeSysctlName } from './namespace.js';
export type { SysctlNamespace } from './namespace.js';
export { SAFE_SYSCTLS, safeSysctlAllowlist } from './safe-sysctls.js';
export type { SafeSysctl } from './safe-sysctls.js';
