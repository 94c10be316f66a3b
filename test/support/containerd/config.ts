/**
 * The config.toml (version 2) the harness gives containerd 1.6: everything (root, state, sockets, runc's
 * state, CNI directories, /opt) inside one temporary directory, and the CRI plugin set up for a test
 * machine without cgroup management, AppArmor, CNI plugins or a reachable registry.
 */

/** The paths and choices one containerd's config is made of. */
export interface ContainerdConfigInput {
  /** containerd's persistent root (content store, snapshots, metadata). */
  root: string;
  /** containerd's state directory (task bundles, runc's state under `runc/`). */
  state: string;
  /** The gRPC unix socket path. */
  socket: string;
  /** The runc binary, for the runc runtime's `BinaryName`. */
  runc: string;
  /** The CRI plugin's `sandbox_image`: must already be in namespace k8s.io, as it cannot be pulled. */
  sandboxImage: string;
  /** `overlayfs` where the kernel and file system allow it, else `native` (copies). */
  snapshotter: 'overlayfs' | 'native';
  /** Empty directories for CNI configuration and plugins: no CNI, so only host-network pods run. */
  cniConfDir: string;
  cniBinDir: string;
  /** The opt plugin's directory (default /opt/containerd). */
  optDir: string;
  /** The CRI plugin's registry `config_path`: a `<host>/hosts.toml` per registry host (the test registry's). */
  registryConfigDir: string;
  /** containerd's log level (`info` when unset). */
  logLevel?: 'debug' | 'info' | 'warn' | 'error';
}

/**
 * Plugins that probe kernel features or devices this harness never uses: snapshotters for other file
 * systems (each logs an error or fails to load without its file system) and the tracing exporters.
 */
export const DISABLED_PLUGINS = [
  'io.containerd.snapshotter.v1.aufs',
  'io.containerd.snapshotter.v1.btrfs',
  'io.containerd.snapshotter.v1.devmapper',
  'io.containerd.snapshotter.v1.zfs',
  'io.containerd.tracing.processor.v1.otlp',
  'io.containerd.internal.v1.tracing',
] as const;

/** The config.toml text for `input`. */
export function containerdConfig(input: ContainerdConfigInput): string {
  const cri = 'plugins."io.containerd.grpc.v1.cri"';
  return [
    'version = 2',
    `root = ${str(input.root)}`,
    `state = ${str(input.state)}`,
    `disabled_plugins = [${DISABLED_PLUGINS.map(str).join(', ')}]`,
    '',
    '[grpc]',
    `  address = ${str(input.socket)}`,
    '',
    '[debug]',
    `  level = ${str(input.logLevel ?? 'info')}`,
    '',
    '[plugins."io.containerd.internal.v1.opt"]',
    `  path = ${str(input.optDir)}`,
    '',
    `[${cri}]`,
    `  sandbox_image = ${str(input.sandboxImage)}`,
    // The pods' cgroups are not containerd's to manage here (the test machine's own may be v1, v2 or
    // read-only); without this, runc is asked to create and join them.
    '  disable_cgroup = true',
    // No AppArmor in the test kernel: asking for the default profile would fail.
    '  disable_apparmor = true',
    // Containers may not lower their OOM score below containerd's own (containerd is not at -999 here).
    '  restrict_oom_score_adj = true',
    '  enable_selinux = false',
    '',
    `[${cri}.cni]`,
    `  bin_dir = ${str(input.cniBinDir)}`,
    `  conf_dir = ${str(input.cniConfDir)}`,
    '',
    `[${cri}.registry]`,
    `  config_path = ${str(input.registryConfigDir)}`,
    '',
    `[${cri}.containerd]`,
    `  snapshotter = ${str(input.snapshotter)}`,
    '  default_runtime_name = "runc"',
    '',
    `[${cri}.containerd.runtimes.runc]`,
    '  runtime_type = "io.containerd.runc.v2"',
    '',
    `[${cri}.containerd.runtimes.runc.options]`,
    `  BinaryName = ${str(input.runc)}`,
    // runc's container state, otherwise /run/containerd/runc, stays inside the harness's directory.
    `  Root = ${str(`${input.state}/runc`)}`,
    '',
  ].join('\n');
}

/** A TOML basic string. */
function str(value: string): string {
  return JSON.stringify(value);
}

/**
 * A hosts.toml (containerd's registry host configuration) sending every pull and resolve for its
 * registry host to `url`, plain HTTP included.
 */
export function registryHostsToml(url: string): string {
  return [`server = ${str(url)}`, '', `[host.${str(url)}]`, '  capabilities = ["pull", "resolve"]', ''].join('\n');
}
