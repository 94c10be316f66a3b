/**
 * Which kernel namespace isolates a sysctl, as the kubelet knows it (pkg/kubelet/sysctl/namespace.go
 * and component-helpers' node/util/sysctl): `kernel.sem`, `kernel.shm*`, `kernel.msg*` and
 * `fs.mqueue.*` belong to the IPC namespace, `net.*` to the network namespace; anything else is not
 * known to be namespaced and can never be allowed for a pod.
 */

/** A Linux namespace isolating sysctls; `''` when none is known. */
export type SysctlNamespace = 'ipc' | 'net' | '';

const EXACT: ReadonlyMap<string, SysctlNamespace> = new Map([['kernel.sem', 'ipc']]);

const PREFIXES: readonly (readonly [string, SysctlNamespace])[] = [
  ['kernel.shm', 'ipc'],
  ['kernel.msg', 'ipc'],
  ['fs.mqueue.', 'ipc'],
  ['net.', 'net'],
];

/** The namespace isolating `sysctl` (dot-separated), or `''` if it is not known to be namespaced. */
export function namespacedBy(sysctl: string): SysctlNamespace {
  const exact = EXACT.get(sysctl);
  if (exact) return exact;
  for (const [prefix, ns] of PREFIXES) if (sysctl.startsWith(prefix)) return ns;
  return '';
}

/**
 * A sysctl name in dot-separated form. `sysctl(8)` also accepts `/` as the separator; when the first
 * separator is a slash, dots and slashes swap (`net/ipv4/conf/eno2.100/rp_filter` →
 * `net.ipv4.conf.eno2/100.rp_filter`), as `ConvertSysctlVariableToDotsSeparator`.
 */
export function normalizeSysctlName(name: string): string {
  const first = name.search(/[./]/);
  if (first === -1 || name[first] === '.') return name;
  return name.replace(/[./]/g, (c) => (c === '.' ? '/' : '.'));
}
