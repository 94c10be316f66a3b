/**
 * The node agent's command-line flags, kubelet's (cmd/kubelet/app/options/options.go
 * `KubeletFlags.AddFlags` and `AddKubeletConfigFlags`, pkg/kubelet/config/flags.go): the flags of
 * the node only (`--kubeconfig`, `--root-dir`, `--node-ip`, ...) fill {@link NodeAgentFlags};
 * every other flag sets a field of the configuration and, as upstream, is deprecated in favour of
 * the `--config` file, which it overrides. Parsing is pflag's (see pflag.ts).
 */
import { applyLoggingFlag, LoggingFlagError, type LoggingFlag } from '../../config/logging/flags.js';
import type { NodeAgentConfiguration } from '../../config/nodeagent/types.js';
import { knownFeatureGateLines } from '../../config/nodeagent/feature-gates.js';
import {
  FlagValueError,
  parseColonMultimap,
  parseConfigurationMap,
  parseCsvLine,
  parseFlagDuration,
  parseFlagIP,
  parseGoBool,
  parseGoInt,
  parseMapStringBool,
  parseMapStringString,
  parseTaints,
} from './flag-values.js';
import { FlagParseError, invalidArgumentText, parseFlags, type FlagDefinition, type ParsedFlags } from './pflag.js';

/**
 * The settings only flags give (kubelet's `KubeletFlags`): they belong to one node, not to a shared file.
 * @category Node agent
 */
export interface NodeAgentFlags {
  /** `--config`: the configuration file, absolute or relative to the working directory. */
  config: string;
  /** `--config-dir`: a directory of `*.conf` drop-ins merged over the file. */
  configDir: string;
  /** `--kubeconfig`: how to reach the API server; empty means standalone mode. */
  kubeconfig: string;
  /** `--bootstrap-kubeconfig`: used to obtain a client certificate when `kubeconfig` does not exist. */
  bootstrapKubeconfig: string;
  /** `--hostname-override`: the node's name instead of the host name. */
  hostnameOverride: string;
  /** `--node-ip`: the node's IP address (or a comma-separated dual-stack pair). */
  nodeIp: string;
  /** `--cert-dir`: where the TLS certificates are (default `/var/lib/kubelet/pki`). */
  certDir: string;
  /** `--root-dir`: the agent's files (default `/var/lib/kubelet`). */
  rootDir: string;
  /** `--cloud-provider`: empty, or `external`. */
  cloudProvider: string;
  /** `--node-labels`: labels the node registers with. */
  nodeLabels: Record<string, string>;
  /** `--lock-file` and `--exit-on-lock-contention`. */
  lockFile: string;
  exitOnLockContention: boolean;
  /** `--runtime-cgroups`. */
  runtimeCgroups: string;
  /** `--image-credential-provider-config`: a CredentialProviderConfig file or a directory of them. */
  imageCredentialProviderConfig: string;
  /** `--image-credential-provider-bin-dir`: where the credential provider plugins are. */
  imageCredentialProviderBinDir: string;
  /** `--help` / `-h`. */
  help: boolean;
  /** `--version` (`true`, `raw`, or empty when not asked). */
  version: string;
}

/** kubelet's `defaultRootDir`. */
export const DEFAULT_ROOT_DIR = '/var/lib/kubelet';
/** kubelet's default `--cert-dir` (a constant: it does not follow `--root-dir`). */
export const DEFAULT_CERT_DIR = '/var/lib/kubelet/pki';

/** The flags' defaults (`NewKubeletFlags`). */
export function defaultNodeAgentFlags(): NodeAgentFlags {
  return {
    config: '',
    configDir: '',
    kubeconfig: '',
    bootstrapKubeconfig: '',
    hostnameOverride: '',
    nodeIp: '',
    certDir: DEFAULT_CERT_DIR,
    rootDir: DEFAULT_ROOT_DIR,
    cloudProvider: '',
    nodeLabels: {},
    lockFile: '',
    exitOnLockContention: false,
    runtimeCgroups: '',
    imageCredentialProviderConfig: '',
    imageCredentialProviderBinDir: '',
    help: false,
    version: '',
  };
}

/** How a flag's text becomes a value. */
export type NodeAgentFlagType =
  | 'bool'
  | 'string'
  | 'int32'
  | 'int64'
  | 'duration'
  | 'strings'
  | 'ip'
  | 'featureGates'
  | 'mapStringString'
  | 'mapStringStringNoSplit'
  | 'langleMap'
  | 'colonMultimap'
  | 'taints'
  | 'labels'
  | 'logging';

/** One of the node agent's flags. */
export interface NodeAgentFlagDefinition extends FlagDefinition {
  readonly type: NodeAgentFlagType;
  /** A dotted configuration field (`authentication.anonymous.enabled`), a {@link NodeAgentFlags} key, or nothing (accepted, no effect). */
  readonly target: { readonly config: string } | { readonly flag: keyof NodeAgentFlags } | { readonly ignored: true };
  readonly usage: string;
  /** pflag's deprecation notice; using the flag warns `Flag --x has been deprecated, <notice>`. */
  readonly deprecated?: string;
}

/** The notice of every flag that sets a configuration field. */
export const CONFIG_FLAG_DEPRECATION =
  "This parameter should be set via the config file specified by the Kubelet's --config flag. See https://kubernetes.io/docs/tasks/administer-cluster/kubelet-config-file/ for more information.";

type Row = readonly [name: string, type: NodeAgentFlagType, target: string, usage: string];

/** The flags of the node only. */
const NODE_FLAGS: readonly Row[] = [
  ['config', 'string', 'config', 'The file to load the initial configuration from, absolute or relative to the working directory. Flags override it.'],
  ['config-dir', 'string', 'configDir', 'A directory of drop-in files (*.conf, in lexical order, subdirectories included) merged over --config.'],
  ['kubeconfig', 'string', 'kubeconfig', 'A kubeconfig file saying how to reach the API server; without it the agent runs standalone.'],
  [
    'bootstrap-kubeconfig',
    'string',
    'bootstrapKubeconfig',
    'A kubeconfig used to request a client certificate when --kubeconfig does not exist; the result is written to --kubeconfig.',
  ],
  ['hostname-override', 'string', 'hostnameOverride', 'The node name to use instead of the host name.'],
  ['node-ip', 'string', 'nodeIp', 'IP address (or comma-separated dual-stack addresses) of the node.'],
  ['cert-dir', 'string', 'certDir', 'The directory of the TLS certificates; ignored when --tls-cert-file and --tls-private-key-file are given.'],
  ['cloud-provider', 'string', 'cloudProvider', "Empty for no cloud provider, 'external' for an external one."],
  ['root-dir', 'string', 'rootDir', 'The directory of the agent files (volume mounts, etc).'],
  ['node-labels', 'labels', 'nodeLabels', "Labels to add when registering the node, as key=value pairs separated by ','."],
  ['lock-file', 'string', 'lockFile', 'A file to use as a lock.'],
  ['exit-on-lock-contention', 'bool', 'exitOnLockContention', 'Exit when the lock file is contended.'],
  ['runtime-cgroups', 'string', 'runtimeCgroups', 'Absolute name of the cgroups to run the runtime in.'],
  [
    'image-credential-provider-config',
    'string',
    'imageCredentialProviderConfig',
    'A credential provider plugin config file (JSON/YAML/YML) or a directory of them.',
  ],
  ['image-credential-provider-bin-dir', 'string', 'imageCredentialProviderBinDir', 'The directory of the credential provider plugin binaries.'],
];

/** The flags that set configuration fields (all deprecated but the logging verbosity ones and --provider-id). */
const CONFIG_FLAGS: readonly Row[] = [
  ['enable-server', 'bool', 'enableServer', "Enable the agent's server"],
  ['fail-swap-on', 'bool', 'failSwapOn', 'Fail to start if swap is enabled on the node.'],
  ['pod-manifest-path', 'string', 'staticPodPath', 'A directory of static pod files to run, or a single static pod file.'],
  ['sync-frequency', 'duration', 'syncFrequency', 'Max period between synchronizing running containers and config'],
  ['file-check-frequency', 'duration', 'fileCheckFrequency', 'Duration between checking config files for new data'],
  ['http-check-frequency', 'duration', 'httpCheckFrequency', 'Duration between checking http for new data'],
  ['manifest-url', 'string', 'staticPodURL', 'URL for accessing additional Pod specifications to run'],
  ['manifest-url-header', 'colonMultimap', 'staticPodURLHeader', "Comma-separated 'key:value' HTTP headers for --manifest-url; repeatable."],
  ['address', 'ip', 'address', "The IP address to serve on ('0.0.0.0' or '::' for all interfaces and families)"],
  ['port', 'int32', 'port', 'The port to serve on.'],
  ['read-only-port', 'int32', 'readOnlyPort', 'The read-only port, without authentication or authorization (0 disables it)'],
  ['container-runtime-endpoint', 'string', 'containerRuntimeEndpoint', "The CRI runtime's endpoint, e.g. 'unix:///path/to/runtime.sock'"],
  ['image-service-endpoint', 'string', 'imageServiceEndpoint', "The CRI image service's endpoint; the runtime's when unset."],
  [
    'anonymous-auth',
    'bool',
    'authentication.anonymous.enabled',
    'Requests not rejected by another method are anonymous (system:anonymous, group system:unauthenticated).',
  ],
  ['authentication-token-webhook', 'bool', 'authentication.webhook.enabled', 'Check bearer tokens with the TokenReview API.'],
  ['authentication-token-webhook-cache-ttl', 'duration', 'authentication.webhook.cacheTTL', 'How long webhook token authenticator answers are cached.'],
  ['client-ca-file', 'string', 'authentication.x509.clientCAFile', 'Client certificates signed by these authorities authenticate as their CommonName.'],
  ['authorization-mode', 'string', 'authorization.mode', 'AlwaysAllow or Webhook (SubjectAccessReview API).'],
  ['authorization-webhook-cache-authorized-ttl', 'duration', 'authorization.webhook.cacheAuthorizedTTL', "How long 'authorized' webhook answers are cached."],
  [
    'authorization-webhook-cache-unauthorized-ttl',
    'duration',
    'authorization.webhook.cacheUnauthorizedTTL',
    "How long 'unauthorized' webhook answers are cached.",
  ],
  [
    'tls-cert-file',
    'string',
    'tlsCertFile',
    'The serving certificate (intermediates after it); without it and the key, a self-signed pair is made in --cert-dir.',
  ],
  ['tls-private-key-file', 'string', 'tlsPrivateKeyFile', 'The private key of --tls-cert-file.'],
  ['rotate-server-certificates', 'bool', 'serverTLSBootstrap', 'Request and rotate serving certificates through CertificateSigningRequests.'],
  ['tls-cipher-suites', 'strings', 'tlsCipherSuites', 'Comma-separated cipher suites of the server; Go defaults when omitted.'],
  ['tls-min-version', 'string', 'tlsMinVersion', 'Minimum TLS version: VersionTLS10, VersionTLS11, VersionTLS12, VersionTLS13'],
  ['rotate-certificates', 'bool', 'rotateCertificates', 'Rotate the client certificate by requesting new ones when it nears expiry.'],
  ['registry-qps', 'int32', 'registryPullQPS', 'If > 0, limit registry pull QPS to this value.  If 0, unlimited.'],
  ['registry-burst', 'int32', 'registryBurst', 'Maximum burst of pulls within --registry-qps.'],
  ['event-qps', 'int32', 'eventRecordQPS', 'QPS to limit event creations.'],
  ['event-burst', 'int32', 'eventBurst', 'Maximum burst of event records within --event-qps.'],
  ['enable-debugging-handlers', 'bool', 'enableDebuggingHandlers', 'Endpoints for logs and for running commands in containers'],
  ['contention-profiling', 'bool', 'enableContentionProfiling', 'Enable block profiling, if profiling is enabled'],
  ['healthz-port', 'int32', 'healthzPort', 'The port of the localhost healthz endpoint (0 disables it)'],
  ['healthz-bind-address', 'ip', 'healthzBindAddress', 'The IP address of the healthz server'],
  ['oom-score-adj', 'int32', 'oomScoreAdj', 'The oom-score-adj of the agent process, in [-1000, 1000]'],
  ['cluster-domain', 'string', 'clusterDomain', 'Domain for this cluster, searched by containers in addition to the host search domains'],
  ['volume-plugin-dir', 'string', 'volumePluginDir', 'The directory of third party volume plugins'],
  ['cluster-dns', 'strings', 'clusterDNS', 'Comma-separated DNS server IPs for pods with dnsPolicy=ClusterFirst; all must serve the same records.'],
  ['streaming-connection-idle-timeout', 'duration', 'streamingConnectionIdleTimeout', 'Maximum idle time of a streaming connection.'],
  ['node-status-update-frequency', 'duration', 'nodeStatusUpdateFrequency', 'How often node status is computed and posted when changed.'],
  ['minimum-image-ttl-duration', 'duration', 'imageMinimumGCAge', 'Minimum age of an unused image before garbage collection.'],
  ['image-gc-high-threshold', 'int32', 'imageGCHighThresholdPercent', 'Disk usage percent above which image garbage collection always runs.'],
  ['image-gc-low-threshold', 'int32', 'imageGCLowThresholdPercent', 'Disk usage percent below which image garbage collection never runs.'],
  ['volume-stats-agg-period', 'duration', 'volumeStatsAggPeriod', 'Interval of computing volume disk usage.'],
  ['feature-gates', 'featureGates', 'featureGates', 'A set of key=value pairs that describe feature gates for alpha/experimental features.'],
  ['kubelet-cgroups', 'string', 'kubeletCgroups', 'Absolute name of the cgroups to run the agent in.'],
  ['system-cgroups', 'string', 'systemCgroups', 'Absolute name of the cgroups for non-kernel processes not in a cgroup yet.'],
  ['provider-id', 'string', 'providerID', 'Unique identifier of the node in a machine database (cloud provider).'],
  ['cgroups-per-qos', 'bool', 'cgroupsPerQOS', 'Create the QoS cgroup hierarchy.'],
  ['cgroup-driver', 'string', 'cgroupDriver', "Driver of the host's cgroups: 'cgroupfs' or 'systemd'"],
  ['cgroup-root', 'string', 'cgroupRoot', "Root cgroup of pods; '' means the runtime's default."],
  ['cpu-manager-policy', 'string', 'cpuManagerPolicy', "CPU Manager policy: 'none' or 'static'."],
  ['cpu-manager-policy-options', 'mapStringStringNoSplit', 'cpuManagerPolicyOptions', 'key=value CPU Manager policy options.'],
  ['cpu-manager-reconcile-period', 'duration', 'cpuManagerReconcilePeriod', 'CPU Manager reconciliation period.'],
  ['qos-reserved', 'mapStringString', 'qosReserved', 'ResourceName=Percentage pairs reserved at the QoS level.'],
  ['topology-manager-policy', 'string', 'topologyManagerPolicy', "Topology Manager policy: 'none', 'best-effort', 'restricted', 'single-numa-node'."],
  ['runtime-request-timeout', 'duration', 'runtimeRequestTimeout', 'Timeout of runtime requests but pull, logs, exec and attach.'],
  ['hairpin-mode', 'string', 'hairpinMode', 'Hairpin NAT setup: "promiscuous-bridge", "hairpin-veth" or "none".'],
  ['max-pods', 'int32', 'maxPods', 'Number of Pods that can run on this node.'],
  ['pod-cidr', 'string', 'podCIDR', 'The CIDR of pod IPs, in standalone mode only.'],
  ['pod-max-pids', 'int64', 'podPidsLimit', 'Maximum processes per pod; -1 means the node allocatable pid capacity.'],
  ['resolv-conf', 'string', 'resolvConf', 'Resolver configuration file used as the basis of container DNS.'],
  ['runonce', 'bool', 'runOnce', 'Exit after spawning pods from static pod files or URLs.'],
  ['cpu-cfs-quota', 'bool', 'cpuCFSQuota', 'Enforce CPU CFS quota for containers that specify CPU limits'],
  ['cpu-cfs-quota-period', 'duration', 'cpuCFSQuotaPeriod', 'CPU CFS quota period (cpu.cfs_period_us).'],
  ['enable-controller-attach-detach', 'bool', 'enableControllerAttachDetach', 'Leave volume attach/detach to the Attach/Detach controller.'],
  ['make-iptables-util-chains', 'bool', 'makeIPTablesUtilChains', 'Ensure the iptables utility rules on the host.'],
  ['iptables-masquerade-bit', 'int32', 'iptablesMasqueradeBit', 'Has no effect.'],
  ['iptables-drop-bit', 'int32', 'iptablesDropBit', 'Has no effect.'],
  ['container-log-max-size', 'string', 'containerLogMaxSize', '<Warning: Beta feature> Maximum size (e.g. 10Mi) of a container log file before it is rotated.'],
  ['container-log-max-files', 'int32', 'containerLogMaxFiles', '<Warning: Beta feature> Maximum container log files of a container; at least 2.'],
  ['allowed-unsafe-sysctls', 'strings', 'allowedUnsafeSysctls', 'Comma-separated unsafe sysctls or patterns (ending in *) pods may set.'],
  ['node-status-max-images', 'int32', 'nodeStatusMaxImages', 'Images reported in Node.Status.Images at most; -1 for no cap.'],
  ['kernel-memcg-notification', 'bool', 'kernelMemcgNotification', 'Use kernel memcg notifications for memory eviction thresholds.'],
  ['local-storage-capacity-isolation', 'bool', 'localStorageCapacityIsolation', 'Local ephemeral storage isolation.'],
  ['max-open-files', 'int64', 'maxOpenFiles', 'Number of files the agent process can open.'],
  ['kube-api-content-type', 'string', 'contentType', 'Content type of requests sent to the API server.'],
  ['kube-api-qps', 'int32', 'kubeAPIQPS', 'QPS towards the API server.'],
  ['kube-api-burst', 'int32', 'kubeAPIBurst', 'Burst towards the API server.'],
  ['serialize-image-pulls', 'bool', 'serializeImagePulls', 'Pull images one at a time.'],
  ['eviction-hard', 'langleMap', 'evictionHard', 'Hard eviction thresholds (e.g. memory.available<1Gi).'],
  ['eviction-soft', 'langleMap', 'evictionSoft', 'Soft eviction thresholds (e.g. memory.available<1.5Gi).'],
  ['eviction-soft-grace-period', 'mapStringString', 'evictionSoftGracePeriod', 'Grace periods of soft thresholds (e.g. memory.available=1m30s).'],
  ['eviction-pressure-transition-period', 'duration', 'evictionPressureTransitionPeriod', 'Wait before leaving an eviction pressure condition.'],
  ['eviction-max-pod-grace-period', 'int32', 'evictionMaxPodGracePeriod', 'Maximum grace period (seconds) of soft evictions.'],
  ['eviction-minimum-reclaim', 'mapStringString', 'evictionMinimumReclaim', 'Minimum reclaims (e.g. imagefs.available=2Gi).'],
  ['pods-per-core', 'int32', 'podsPerCore', 'Pods per core at most; 0 disables the limit.'],
  ['protect-kernel-defaults', 'bool', 'protectKernelDefaults', 'Fail when kernel tunables differ from the defaults.'],
  ['reserved-cpus', 'string', 'reservedSystemCPUs', 'CPUs or CPU ranges reserved for system and kubernetes usage.'],
  ['topology-manager-scope', 'string', 'topologyManagerScope', "Scope of topology hints: 'container' or 'pod'."],
  ['topology-manager-policy-options', 'mapStringStringNoSplit', 'topologyManagerPolicyOptions', 'key=value Topology Manager policy options.'],
  ['system-reserved', 'mapStringString', 'systemReserved', 'ResourceName=ResourceQuantity pairs reserved for non-kubernetes components.'],
  ['kube-reserved', 'mapStringString', 'kubeReserved', 'ResourceName=ResourceQuantity pairs reserved for kubernetes components.'],
  ['enforce-node-allocatable', 'strings', 'enforceNodeAllocatable', "Node allocatable enforcement levels: 'none', 'pods', 'system-reserved', 'kube-reserved'."],
  ['system-reserved-cgroup', 'string', 'systemReservedCgroup', 'Top level cgroup of the components --system-reserved is for.'],
  ['kube-reserved-cgroup', 'string', 'kubeReservedCgroup', 'Top level cgroup of the components --kube-reserved is for.'],
  ['logging-format', 'logging', 'logging', 'Sets the log format. Permitted formats: "json", "text".'],
  ['v', 'logging', 'logging', 'number for the log level verbosity'],
  ['vmodule', 'logging', 'logging', 'comma-separated list of pattern=N settings for file-filtered logging (only works for text log format)'],
  ['log-flush-frequency', 'logging', 'logging', 'Maximum number of seconds between log flushes'],
  ['log-text-split-stream', 'logging', 'logging', '[Alpha] In text format, write error messages to stderr and info messages to stdout.'],
  ['log-json-split-stream', 'logging', 'logging', '[Alpha] In JSON format, write error messages to stderr and info messages to stdout.'],
  ['log-text-info-buffer-size', 'logging', 'logging', '[Alpha] In text format with split output streams, the info messages can be buffered for a while.'],
  ['log-json-info-buffer-size', 'logging', 'logging', '[Alpha] In JSON format with split output streams, the info messages can be buffered for a while.'],
  ['memory-manager-policy', 'string', 'memoryManagerPolicy', "Memory Manager policy: 'None', 'Static'."],
  ['register-node', 'bool', 'registerNode', 'Register the node with the API server (irrelevant without --kubeconfig).'],
  ['register-with-taints', 'taints', 'registerWithTaints', 'Taints to register the node with (comma separated "<key>=<value>:<effect>").'],
  ['seccomp-default', 'bool', 'seccompDefault', 'Use RuntimeDefault as the default seccomp profile of all workloads.'],
];

/** Flags kubelet still accepts with no effect (removed features); each warns when used. */
const IGNORED_FLAGS: readonly (readonly [string, NodeAgentFlagType, string])[] = [
  ['pod-infra-container-image', 'string', 'will be removed in 1.35. Image garbage collector will get sandbox image information from CRI.'],
  ['minimum-container-ttl-duration', 'duration', 'Use --eviction-hard or --eviction-soft instead. Will be removed in a future version.'],
  ['maximum-dead-containers-per-container', 'int32', 'Use --eviction-hard or --eviction-soft instead. Will be removed in a future version.'],
  ['maximum-dead-containers', 'int32', 'Use --eviction-hard or --eviction-soft instead. Will be removed in a future version.'],
  ['register-schedulable', 'bool', 'will be removed in a future version'],
  ['keep-terminated-pod-volumes', 'bool', 'will be removed in a future version'],
  ['experimental-mounter-path', 'string', 'will be removed in 1.25 or later. in favor of using CSI.'],
  ['cloud-config', 'string', 'will be removed in 1.25 or later, in favor of removing cloud provider code from Kubelet.'],
  ['experimental-allocatable-ignore-eviction', 'bool', 'will be removed in 1.25 or later.'],
];

const NOT_DEPRECATED = new Set(['v', 'vmodule', 'log-flush-frequency', 'provider-id']);
const BOOLEAN_LOGGING = new Set(['log-text-split-stream', 'log-json-split-stream']);
const NO_EFFECT = 'This flag has no effect and will be removed in a future version.';

function definitions(): NodeAgentFlagDefinition[] {
  const defs: NodeAgentFlagDefinition[] = [];
  const noValueOf = (name: string, type: NodeAgentFlagType) => (type === 'bool' || BOOLEAN_LOGGING.has(name) ? { noValue: 'true' } : {});
  for (const [name, type, target, usage] of NODE_FLAGS) {
    defs.push({ name, type, target: { flag: target as keyof NodeAgentFlags }, usage, ...noValueOf(name, type) });
  }
  for (const [name, type, target, usage] of CONFIG_FLAGS) {
    const deprecated = name.startsWith('iptables-') ? NO_EFFECT : NOT_DEPRECATED.has(name) ? undefined : CONFIG_FLAG_DEPRECATION;
    defs.push({
      name,
      type,
      target: { config: target },
      usage,
      ...(name === 'v' ? { shorthand: 'v' } : {}),
      ...noValueOf(name, type),
      ...(deprecated ? { deprecated } : {}),
    });
  }
  for (const [name, type, deprecated] of IGNORED_FLAGS) {
    defs.push({ name, type, target: { ignored: true }, usage: 'No effect.', deprecated, ...noValueOf(name, type) });
  }
  defs.push({ name: 'help', shorthand: 'h', type: 'bool', target: { flag: 'help' }, usage: 'help for node-agent', noValue: 'true' });
  defs.push({
    name: 'version',
    type: 'string',
    target: { flag: 'version' },
    usage: 'Print version information and quit; --version=raw prints more.',
    noValue: 'true',
  });
  return defs;
}

/** Every flag, by name. */
export const NODE_AGENT_FLAGS: ReadonlyMap<string, NodeAgentFlagDefinition> = new Map(definitions().map((d) => [d.name, d]));

/** Where flags are applied: the configuration and the node's own settings. */
export interface FlagTargets {
  config: NodeAgentConfiguration;
  flags: NodeAgentFlags;
}

function readPath(root: Record<string, unknown>, path: string): unknown {
  let cur: unknown = root;
  for (const part of path.split('.')) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[part] : undefined;
  return cur;
}

function writePath(root: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let cur = root;
  for (const part of parts.slice(0, -1)) {
    const next = cur[part];
    const copy = next && typeof next === 'object' && !Array.isArray(next) ? { ...(next as Record<string, unknown>) } : {};
    cur[part] = copy;
    cur = copy;
  }
  cur[parts[parts.length - 1]!] = value;
}

/**
 * One flag's `Set` on `targets`. `initialized` holds the accumulating flags already set in this
 * pass: the first use of a list or map flag replaces the value, later uses add to it (pflag and
 * component-base's map flags). Throws {@link FlagValueError}, or {@link LoggingFlagError}.
 */
function setFlag(def: NodeAgentFlagDefinition, value: string, targets: FlagTargets, initialized: Set<string>): void {
  if ('ignored' in def.target) {
    convert(def.type, value, undefined, true);
    return;
  }
  if (def.type === 'logging') {
    targets.config = { ...targets.config, logging: applyLoggingFlag(targets.config.logging ?? {}, def.name as LoggingFlag, value) };
    return;
  }
  const first = !initialized.has(def.name);
  initialized.add(def.name);
  if ('flag' in def.target) {
    const flags = targets.flags as unknown as Record<string, unknown>;
    flags[def.target.flag] = convert(def.type, value, flags[def.target.flag], false);
    return;
  }
  const config = targets.config as unknown as Record<string, unknown>;
  const previous = first ? undefined : readPath(config, def.target.config);
  writePath(config, def.target.config, convert(def.type, value, previous, first));
}

/** A flag's text as its value; `previous` is what accumulating types add to (undefined to start over). */
function convert(type: NodeAgentFlagType, value: string, previous: unknown, first: boolean): unknown {
  switch (type) {
    case 'bool':
      return parseGoBool(value);
    case 'string':
      return value;
    case 'int32':
      return parseGoInt(value, 32);
    case 'int64':
      return parseGoInt(value, 64);
    case 'duration':
      return parseFlagDuration(value);
    case 'ip':
      return parseFlagIP(value);
    case 'strings': {
      const items = parseCsvLine(value);
      return first || !Array.isArray(previous) ? items : [...(previous as string[]), ...items];
    }
    case 'taints':
      return parseTaints(value);
    case 'featureGates': {
      const map = { ...((previous as Record<string, boolean> | undefined) ?? {}) };
      parseMapStringBool(value, map);
      return map;
    }
    case 'mapStringString':
    case 'mapStringStringNoSplit':
    case 'langleMap': {
      const map = { ...((previous as Record<string, string> | undefined) ?? {}) };
      parseMapStringString(value, map, type === 'langleMap' ? '<' : '=', type === 'mapStringStringNoSplit');
      return map;
    }
    case 'colonMultimap': {
      const map = Object.fromEntries(Object.entries((previous as Record<string, string[]> | undefined) ?? {}).map(([k, v]) => [k, [...v]]));
      parseColonMultimap(value, map);
      return map;
    }
    case 'labels': {
      // ConfigurationMap never starts over: every use adds labels.
      const map = { ...((previous as Record<string, string> | undefined) ?? {}) };
      parseConfigurationMap(value, map);
      return map;
    }
    case 'logging':
      return value;
  }
}

/** The flags of a command line, checked: what each flag said, in order, and the deprecation warnings. */
export interface ParsedNodeAgentFlags {
  readonly parsed: ParsedFlags<NodeAgentFlagDefinition>;
  /** `Flag --x has been deprecated, ...`, once per flag used. */
  readonly warnings: readonly string[];
}

/**
 * Parses `argv` (without the program name) as kubelet's flag set does, applying every flag to
 * `targets` as it goes. Throws {@link FlagParseError} with pflag's message: `unknown flag: --x`,
 * `flag needs an argument: --port`, `invalid argument "x" for "--port" flag: strconv.ParseInt:
 * parsing "x": invalid syntax`, ...
 */
export function parseNodeAgentFlags(argv: readonly string[], targets: FlagTargets): ParsedNodeAgentFlags {
  const initialized = new Set<string>();
  const warned = new Set<string>();
  const warnings: string[] = [];
  const parsed = parseFlags(argv, NODE_AGENT_FLAGS, (def, value) => {
    try {
      setFlag(def, value, targets, initialized);
    } catch (e) {
      if (e instanceof FlagValueError) throw new FlagParseError(invalidArgumentText(def, value, e.message));
      if (e instanceof LoggingFlagError) throw new FlagParseError(e.message);
      throw e;
    }
    if (def.deprecated && !warned.has(def.name)) {
      warned.add(def.name);
      warnings.push(`Flag --${def.name} has been deprecated, ${def.deprecated}`);
    }
  });
  return { parsed, warnings };
}

/**
 * Applies again, onto a loaded configuration, the flags of a command line that set configuration
 * fields (`kubeletConfigFlagPrecedence`): flags win over the file. Feature gates the file set and
 * the flags did not stay.
 */
export function applyConfigFlags(parsed: ParsedFlags<NodeAgentFlagDefinition>, config: NodeAgentConfiguration): NodeAgentConfiguration {
  const targets: FlagTargets = { config: { ...config }, flags: defaultNodeAgentFlags() };
  const initialized = new Set<string>();
  for (const { flag, value } of parsed.occurrences) {
    if ('config' in flag.target) setFlag(flag, value, targets, initialized);
  }
  const fromFile = config.featureGates ?? {};
  const merged = { ...(targets.config.featureGates ?? {}) };
  for (const [k, v] of Object.entries(fromFile)) if (!Object.hasOwn(merged, k)) merged[k] = v;
  return { ...targets.config, featureGates: merged };
}

const TYPE_NAMES: Record<NodeAgentFlagType, string> = {
  bool: '',
  string: 'string',
  int32: 'int32',
  int64: 'int',
  duration: 'duration',
  strings: 'strings',
  ip: 'ip',
  featureGates: 'mapStringBool',
  mapStringString: 'mapStringString',
  mapStringStringNoSplit: 'mapStringString',
  langleMap: 'mapStringString',
  colonMultimap: 'colonSeparatedMultimapStringString',
  taints: '[]Taint',
  labels: 'mapStringString',
  logging: 'string',
};

/** The value a flag shows as its default in `--help`. */
function defaultText(def: NodeAgentFlagDefinition, config: NodeAgentConfiguration, flags: NodeAgentFlags): string {
  if ('ignored' in def.target) return '';
  if (def.type === 'logging') {
    if (def.name === 'v') return '0';
    if (def.name === 'log-flush-frequency') return '5s';
    if (def.name === 'logging-format') return 'text';
    return '';
  }
  const v =
    'flag' in def.target
      ? (flags as unknown as Record<string, unknown>)[def.target.flag]
      : readPath(config as unknown as Record<string, unknown>, def.target.config);
  if (v === undefined || v === '' || v === false) return '';
  if (Array.isArray(v)) return v.length ? `[${v.join(',')}]` : '';
  if (typeof v === 'object') return Object.keys(v as object).length ? JSON.stringify(v) : '';
  return String(v);
}

/** The `--help` text: every flag with its type, default and deprecation, as pflag's `FlagUsagesWrapped` lays it out (without wrapping). */
export function nodeAgentUsage(defaults: { config: NodeAgentConfiguration; flags: NodeAgentFlags }): string {
  const lines: string[] = [];
  const defs = [...NODE_AGENT_FLAGS.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const def of defs) {
    const head = `${def.shorthand ? `  -${def.shorthand}, ` : '      '}--${def.name}${TYPE_NAMES[def.type] ? ` ${def.name === 'v' ? 'Level' : TYPE_NAMES[def.type]}` : ''}`;
    let usage = def.usage;
    if (def.type === 'featureGates') usage += `\nOptions are:\n${knownFeatureGateLines().join('\n')}`;
    const dflt = defaultText(def, defaults.config, defaults.flags);
    if (dflt) usage += ` (default ${def.type === 'string' ? JSON.stringify(dflt) : dflt})`;
    if (def.deprecated) usage += ` (DEPRECATED: ${def.deprecated})`;
    lines.push(`${head}    ${usage}`);
  }
  return `Usage:\n  node-agent [flags]\n\nFlags:\n${lines.join('\n')}\n`;
}

export { FlagParseError };
