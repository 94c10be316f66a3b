/**
 * Kernel requirements of node features. Most are documentation only: the kubelet does not compare
 * the kernel version for pressure stall information, recursive read-only mounts or user
 * namespaces — the runtime reports what it supports (CRI `RuntimeHandlerFeatures`) or the kernel
 * file is simply absent. The one feature the kubelet decides by kernel version is tmpfs `noswap`
 * for memory-backed volumes (pkg/kubelet/util/swap, `TmpfsNoswapSupportKernelVersion`), whose
 * threshold is 6.4 although the option is documented from 6.3.
 */
import { KernelVersion } from './kernel-version.js';

/** A node feature with a kernel requirement. */
export type KernelFeature = 'pressureStallInformation' | 'recursiveReadOnlyMounts' | 'userNamespaces' | 'tmpfsNoswap';

/** What a feature needs of the kernel. */
export interface KernelRequirement {
  /** The documented first kernel with the feature. */
  readonly documentedMinKernel: string;
  /** The version the node agent compares against, when it decides by version at all. */
  readonly checkedMinKernel?: string;
  /** What else the feature needs; distributions may also backport it to older kernels. */
  readonly note: string;
}

/** The kernel requirements of the node features. */
export const KERNEL_REQUIREMENTS: Readonly<Record<KernelFeature, KernelRequirement>> = {
  pressureStallInformation: { documentedMinKernel: '4.20', note: 'built with CONFIG_PSI=y; boot parameter psi=1 where disabled by default' },
  recursiveReadOnlyMounts: { documentedMinKernel: '5.12', note: 'reported by the runtime handler' },
  userNamespaces: { documentedMinKernel: '6.5', note: "idmap mounts on the volumes' filesystems; reported by the runtime handler" },
  tmpfsNoswap: { documentedMinKernel: '6.3', checkedMinKernel: '6.4', note: 'older kernels are probed by mounting a test tmpfs' },
};

/**
 * Whether a kernel of `version` has `feature` by the node agent's version check: for a feature it
 * checks by version, `checkedMinKernel`; for the others, the documented minimum (advisory only).
 */
export function kernelSupports(feature: KernelFeature, version: KernelVersion | string): boolean {
  const requirement = KERNEL_REQUIREMENTS[feature];
  const kernel = typeof version === 'string' ? KernelVersion.parse(version) : version;
  return kernel.atLeast(requirement.checkedMinKernel ?? requirement.documentedMinKernel);
}
