/**
 * Defaulting a NodeAgentConfiguration as kubelet's `SetDefaults_KubeletConfiguration`
 * (pkg/kubelet/apis/config/v1beta1/defaults.go) does, plus the Go zero values of the fields the
 * agent reads, so a consumer never meets `undefined` there. Durations come out in Go's
 * `Duration.String()` form (`1m0s`). Two sets of defaults exist upstream and both are here: the
 * configuration file's (secure: anonymous off, webhook authentication and authorization, no
 * read-only port) and the command line's legacy ones when no file is given (`applyLegacyDefaults`
 * of cmd/kubelet/app/options/options.go: anonymous on, AlwaysAllow, read-only port 10255).
 */
import { withLoggingDefaults } from '../logging/defaults.js';
import { resolveFeatureGates } from './feature-gates.js';
import { durationNanos } from './go-duration.js';
import { NODE_AGENT_CONFIG_API_VERSION, NODE_AGENT_CONFIG_KIND, type DefaultedNodeAgentConfiguration, type NodeAgentConfiguration } from './types.js';

/** The secured server's port (`ports.KubeletPort`). */
export const DEFAULT_NODE_AGENT_PORT = 10250;
/** The read-only port of the command line's legacy defaults (`ports.KubeletReadOnlyPort`). */
export const LEGACY_READ_ONLY_PORT = 10255;
/** `DefaultPodLogsDir`. */
export const DEFAULT_POD_LOGS_DIR = '/var/log/pods';
/** `DefaultVolumePluginDir`. */
export const DEFAULT_VOLUME_PLUGIN_DIR = '/usr/libexec/kubernetes/kubelet-plugins/volume/exec/';
/** The default CRI endpoint (containerd's socket). */
export const DEFAULT_CONTAINER_RUNTIME_ENDPOINT = 'unix:///run/containerd/containerd.sock';
/** `eviction.DefaultEvictionHard` on Linux, set when a loaded file has no `evictionHard`. */
export const DEFAULT_EVICTION_HARD: Readonly<Record<string, string>> = Object.freeze({
  'memory.available': '100Mi',
  'nodefs.available': '10%',
  'nodefs.inodesFree': '5%',
  'imagefs.available': '15%',
  'imagefs.inodesFree': '5%',
});

const unsetDuration = (d: string | undefined) => durationNanos(d) === 0n;
const orDuration = (d: string | undefined, fallback: string) => (unsetDuration(d) ? fallback : d!);
const orNonZero = (n: number | undefined, fallback: number) => (n === undefined || n === 0 ? fallback : n);
const orNonEmpty = (s: string | undefined, fallback: string) => (s === undefined || s === '' ? fallback : s);

/**
 * A copy of `c` with every default applied. `globalGates` are the gates already set (from
 * `--feature-gates`), under the file's own `featureGates`, as kubelet defaults against both.
 */
export function withNodeAgentDefaults(
  c: Partial<NodeAgentConfiguration> = {},
  globalGates: Readonly<Record<string, boolean>> = {},
): DefaultedNodeAgentConfiguration {
  const gates = resolveFeatureGates(globalGates, c.featureGates);
  const updateFrequencySet = !unsetDuration(c.nodeStatusUpdateFrequency);
  const out: DefaultedNodeAgentConfiguration = {
    ...c,
    apiVersion: c.apiVersion ?? NODE_AGENT_CONFIG_API_VERSION,
    kind: c.kind ?? NODE_AGENT_CONFIG_KIND,
    enableServer: c.enableServer ?? true,
    staticPodPath: c.staticPodPath ?? '',
    syncFrequency: orDuration(c.syncFrequency, '1m0s'),
    fileCheckFrequency: orDuration(c.fileCheckFrequency, '20s'),
    httpCheckFrequency: orDuration(c.httpCheckFrequency, '20s'),
    staticPodURL: c.staticPodURL ?? '',
    staticPodURLHeader: c.staticPodURLHeader ?? {},
    address: orNonEmpty(c.address, '0.0.0.0'),
    port: orNonZero(c.port, DEFAULT_NODE_AGENT_PORT),
    readOnlyPort: c.readOnlyPort ?? 0,
    tlsCertFile: c.tlsCertFile ?? '',
    tlsPrivateKeyFile: c.tlsPrivateKeyFile ?? '',
    tlsCipherSuites: c.tlsCipherSuites ?? [],
    tlsCurvePreferences: c.tlsCurvePreferences ?? [],
    tlsMinVersion: c.tlsMinVersion ?? '',
    rotateCertificates: c.rotateCertificates ?? false,
    authentication: {
      x509: { clientCAFile: c.authentication?.x509?.clientCAFile ?? '' },
      webhook: {
        enabled: c.authentication?.webhook?.enabled ?? true,
        cacheTTL: orDuration(c.authentication?.webhook?.cacheTTL, '2m0s'),
      },
      anonymous: { enabled: c.authentication?.anonymous?.enabled ?? false },
    },
    authorization: {
      mode: orNonEmpty(c.authorization?.mode, 'Webhook'),
      webhook: {
        cacheAuthorizedTTL: orDuration(c.authorization?.webhook?.cacheAuthorizedTTL, '5m0s'),
        cacheUnauthorizedTTL: orDuration(c.authorization?.webhook?.cacheUnauthorizedTTL, '30s'),
      },
    },
    registryPullQPS: c.registryPullQPS ?? 5,
    registryBurst: orNonZero(c.registryBurst, 10),
    eventRecordQPS: c.eventRecordQPS ?? 50,
    eventBurst: orNonZero(c.eventBurst, 100),
    enableDebuggingHandlers: c.enableDebuggingHandlers ?? true,
    healthzPort: c.healthzPort ?? 10248,
    healthzBindAddress: orNonEmpty(c.healthzBindAddress, '127.0.0.1'),
    oomScoreAdj: c.oomScoreAdj ?? -999,
    clusterDomain: c.clusterDomain ?? '',
    clusterDNS: c.clusterDNS ?? [],
    streamingConnectionIdleTimeout: orDuration(c.streamingConnectionIdleTimeout, '4h0m0s'),
    // An explicit update frequency is also the report frequency, for compatibility.
    nodeStatusReportFrequency: orDuration(c.nodeStatusReportFrequency, updateFrequencySet ? c.nodeStatusUpdateFrequency! : '5m0s'),
    nodeStatusUpdateFrequency: orDuration(c.nodeStatusUpdateFrequency, '10s'),
    nodeLeaseDurationSeconds: orNonZero(c.nodeLeaseDurationSeconds, 40),
    imageMinimumGCAge: orDuration(c.imageMinimumGCAge, '2m0s'),
    imageMaximumGCAge: c.imageMaximumGCAge ?? '0s',
    imageGCHighThresholdPercent: c.imageGCHighThresholdPercent ?? 85,
    imageGCLowThresholdPercent: c.imageGCLowThresholdPercent ?? 80,
    volumeStatsAggPeriod: orDuration(c.volumeStatsAggPeriod, '1m0s'),
    cgroupRoot: c.cgroupRoot ?? '',
    cgroupsPerQOS: c.cgroupsPerQOS ?? true,
    cgroupDriver: orNonEmpty(c.cgroupDriver, 'cgroupfs'),
    cpuManagerPolicy: orNonEmpty(c.cpuManagerPolicy, 'none'),
    cpuManagerReconcilePeriod: orDuration(c.cpuManagerReconcilePeriod, '10s'),
    draManagerReconcilePeriod: orDuration(c.draManagerReconcilePeriod, '1m0s'),
    memoryManagerPolicy: orNonEmpty(c.memoryManagerPolicy, 'None'),
    topologyManagerPolicy: orNonEmpty(c.topologyManagerPolicy, 'none'),
    topologyManagerScope: orNonEmpty(c.topologyManagerScope, 'container'),
    runtimeRequestTimeout: orDuration(c.runtimeRequestTimeout, '2m0s'),
    hairpinMode: orNonEmpty(c.hairpinMode, 'promiscuous-bridge'),
    maxPods: orNonZero(c.maxPods, 110),
    // Unset or negative: the node allocatable's pid limit.
    podPidsLimit: c.podPidsLimit === undefined || c.podPidsLimit < 0 ? -1 : c.podPidsLimit,
    resolvConf: c.resolvConf ?? '/etc/resolv.conf',
    cpuCFSQuota: c.cpuCFSQuota ?? true,
    cpuCFSQuotaPeriod: c.cpuCFSQuotaPeriod ?? '100ms',
    nodeStatusMaxImages: c.nodeStatusMaxImages ?? 50,
    maxOpenFiles: orNonZero(c.maxOpenFiles, 1000000),
    contentType: orNonEmpty(c.contentType, 'application/vnd.kubernetes.protobuf'),
    kubeAPIQPS: c.kubeAPIQPS ?? 50,
    kubeAPIBurst: orNonZero(c.kubeAPIBurst, 100),
    // Serial unless parallel pulls are asked for, so one setting is enough.
    serializeImagePulls: c.serializeImagePulls ?? (c.maxParallelImagePulls === undefined || c.maxParallelImagePulls < 2),
    evictionPressureTransitionPeriod: orDuration(c.evictionPressureTransitionPeriod, '5m0s'),
    mergeDefaultEvictionSettings: c.mergeDefaultEvictionSettings ?? false,
    enableControllerAttachDetach: c.enableControllerAttachDetach ?? true,
    makeIPTablesUtilChains: c.makeIPTablesUtilChains ?? true,
    iptablesMasqueradeBit: c.iptablesMasqueradeBit ?? 14,
    iptablesDropBit: c.iptablesDropBit ?? 15,
    featureGates: c.featureGates ?? {},
    failSwapOn: c.failSwapOn ?? true,
    containerLogMaxSize: orNonEmpty(c.containerLogMaxSize, '10Mi'),
    containerLogMaxFiles: c.containerLogMaxFiles ?? 5,
    containerLogMaxWorkers: c.containerLogMaxWorkers ?? 1,
    containerLogMonitorInterval: c.containerLogMonitorInterval ?? '10s',
    configMapAndSecretChangeDetectionStrategy: orNonEmpty(c.configMapAndSecretChangeDetectionStrategy, 'Watch'),
    enforceNodeAllocatable: c.enforceNodeAllocatable ?? ['pods'],
    allowedUnsafeSysctls: c.allowedUnsafeSysctls ?? [],
    volumePluginDir: orNonEmpty(c.volumePluginDir, DEFAULT_VOLUME_PLUGIN_DIR),
    logging: withLoggingDefaults(c.logging),
    enableSystemLogHandler: c.enableSystemLogHandler ?? true,
    enableProfilingHandler: c.enableProfilingHandler ?? true,
    enableDebugFlagsHandler: c.enableDebugFlagsHandler ?? true,
    seccompDefault: c.seccompDefault ?? false,
    failCgroupV1: c.failCgroupV1 ?? false,
    memoryThrottlingFactor: c.memoryThrottlingFactor ?? 0.9,
    memoryReservationPolicy: orNonEmpty(c.memoryReservationPolicy, 'None'),
    registerWithTaints: c.registerWithTaints ?? [],
    registerNode: c.registerNode ?? true,
    localStorageCapacityIsolation: c.localStorageCapacityIsolation ?? true,
    containerRuntimeEndpoint: orNonEmpty(c.containerRuntimeEndpoint, DEFAULT_CONTAINER_RUNTIME_ENDPOINT),
    podLogsDir: orNonEmpty(c.podLogsDir, DEFAULT_POD_LOGS_DIR),
    shutdownGracePeriod: c.shutdownGracePeriod ?? '0s',
    imagePullCredentialsVerificationPolicy:
      c.imagePullCredentialsVerificationPolicy || (gates.enabled('KubeletEnsureSecretPulledImages') ? 'NeverVerifyPreloadedImages' : ''),
    preloadedImagesVerificationAllowlist: c.preloadedImagesVerificationAllowlist ?? [],
    podHousekeepingPeriod: c.podHousekeepingPeriod ?? '2s',
  };
  if (gates.enabled('KubeletCrashLoopBackOffMax') && c.crashLoopBackOff?.maxContainerRestartPeriod === undefined) {
    out.crashLoopBackOff = { ...c.crashLoopBackOff, maxContainerRestartPeriod: '5m0s' };
  }
  return out;
}

/**
 * The command line's defaults, used when neither `--config` nor `--config-dir` is given: the
 * file's defaults with anonymous requests allowed, no webhook authentication, AlwaysAllow
 * authorization and the read-only port on 10255 (`applyLegacyDefaults`).
 */
export function legacyNodeAgentDefaults(globalGates: Readonly<Record<string, boolean>> = {}): DefaultedNodeAgentConfiguration {
  const c = withNodeAgentDefaults({}, globalGates);
  return {
    ...c,
    authentication: {
      ...c.authentication,
      anonymous: { enabled: true },
      webhook: { ...c.authentication.webhook, enabled: false },
    },
    authorization: { ...c.authorization, mode: 'AlwaysAllow' },
    readOnlyPort: LEGACY_READ_ONLY_PORT,
  };
}
