/**
 * NodeAgentConfiguration (`nodeagent.config.k8s.io/v1beta1`): the configuration file of memkube's
 * node agent, field for field kubelet's KubeletConfiguration (k8s.io/kubelet/config/v1beta1
 * types.go), which is read as the same kind (`kubelet.config.k8s.io/v1beta1`). Every field of
 * KubeletConfiguration is known, so a kubelet's file decodes without unknown-field warnings; the
 * agent acts on the fields it implements. Durations are Go duration strings (`20s`, `1m0s`).
 */
import { z } from 'zod';
import { LoggingConfigurationSchema } from '../logging/types.js';
import { lazyConfigVersion, type ConfigKind } from '../decode.js';
import { lazySchema } from '../../util/lazy-schema.js';

const GO_PACKAGE = 'io.k8s.kubelet.config.v1beta1';

/** memkube's group and version of the kind. */
export const NODE_AGENT_CONFIG_API_VERSION = 'nodeagent.config.k8s.io/v1beta1';
/** memkube's kind name. */
export const NODE_AGENT_CONFIG_KIND = 'NodeAgentConfiguration';
/** kubelet's group and version, read as the same kind. */
export const KUBELET_CONFIG_API_VERSION = 'kubelet.config.k8s.io/v1beta1';
/** kubelet's kind name. */
export const KUBELET_CONFIG_KIND = 'KubeletConfiguration';

/** A Go duration string (`metav1.Duration`): `1m0s`, `20s`, `100ms`. */
const duration = lazySchema(() => z.string());
const int32 = lazySchema(() => z.int32());
const int64 = lazySchema(() => z.int());
const stringMap = lazySchema(() => z.record(z.string(), z.string()));

/** `authentication.x509`: client certificate authentication. */
export const KubeletX509AuthenticationSchema = lazySchema(() =>
  z
    .object({
      /** PEM bundle; a client certificate it signs authenticates as its CommonName and Organizations. */
      clientCAFile: z.string().optional(),
    })
    .meta({ id: `${GO_PACKAGE}.KubeletX509Authentication` }),
);

/** `authentication.webhook`: bearer tokens checked with TokenReviews. */
export const KubeletWebhookAuthenticationSchema = lazySchema(() =>
  z
    .object({
      /** Bearer tokens are checked with TokenReviews. */
      enabled: z.boolean().optional(),
      /** How long TokenReview answers are cached. */
      cacheTTL: duration().optional(),
    })
    .meta({ id: `${GO_PACKAGE}.KubeletWebhookAuthentication` }),
);

/** `authentication.anonymous`. */
export const KubeletAnonymousAuthenticationSchema = lazySchema(() =>
  z
    .object({
      /** Requests no authenticator rejects are `system:anonymous` in `system:unauthenticated`. */
      enabled: z.boolean().optional(),
    })
    .meta({ id: `${GO_PACKAGE}.KubeletAnonymousAuthentication` }),
);

/** `authentication`: how requests to the agent's server are authenticated. */
export const KubeletAuthenticationSchema = lazySchema(() =>
  z
    .object({
      x509: KubeletX509AuthenticationSchema().optional(),
      webhook: KubeletWebhookAuthenticationSchema().optional(),
      anonymous: KubeletAnonymousAuthenticationSchema().optional(),
    })
    .meta({ id: `${GO_PACKAGE}.KubeletAuthentication` }),
);

/** `authorization.webhook`: how long SubjectAccessReview answers are cached. */
export const KubeletWebhookAuthorizationSchema = lazySchema(() =>
  z
    .object({
      cacheAuthorizedTTL: duration().optional(),
      cacheUnauthorizedTTL: duration().optional(),
    })
    .meta({ id: `${GO_PACKAGE}.KubeletWebhookAuthorization` }),
);

/** `authorization`: how requests to the agent's server are authorized. */
export const KubeletAuthorizationSchema = lazySchema(() =>
  z
    .object({
      /** `AlwaysAllow` or `Webhook` (SubjectAccessReviews). */
      mode: z.string().optional(),
      webhook: KubeletWebhookAuthorizationSchema().optional(),
    })
    .meta({ id: `${GO_PACKAGE}.KubeletAuthorization` }),
);

/** A taint written in `registerWithTaints` (core/v1 Taint). */
export const TaintSchema = lazySchema(() =>
  z
    .object({
      key: z.string().optional(),
      value: z.string().optional(),
      effect: z.string().optional(),
      timeAdded: z.string().optional(),
    })
    .meta({ id: 'io.k8s.api.core.v1.Taint' }),
);

/** One entry of `shutdownGracePeriodByPodPriority`. */
export const ShutdownGracePeriodByPodPrioritySchema = lazySchema(() =>
  z.object({ priority: int32().optional(), shutdownGracePeriodSeconds: int64().optional() }).meta({ id: `${GO_PACKAGE}.ShutdownGracePeriodByPodPriority` }),
);

/** One entry of `reservedMemory`: a NUMA node's reserved memory. */
export const MemoryReservationSchema = lazySchema(() =>
  z
    .object({ numaNode: int32().optional(), limits: z.record(z.string(), z.union([z.string(), z.number()])).optional() })
    .meta({ id: `${GO_PACKAGE}.MemoryReservation` }),
);

function configurationSchema(apiVersion: string, kind: string) {
  return z
    .object({
      apiVersion: z.literal(apiVersion),
      kind: z.literal(kind),
      /** The secured server (the read-only port is separate). Default true. */
      enableServer: z.boolean().optional(),
      /** A directory of static pod files, or one file. Default empty. */
      staticPodPath: z.string().optional(),
      /** Where pod logs are written; absolute and clean. Default `/var/log/pods`. */
      podLogsDir: z.string().optional(),
      /** Longest period between syncing running containers and config. Default `1m0s`. */
      syncFrequency: duration().optional(),
      /** Period of re-reading `staticPodPath`. Default `20s`. */
      fileCheckFrequency: duration().optional(),
      /** Period of re-fetching `staticPodURL`. Default `20s`. */
      httpCheckFrequency: duration().optional(),
      /** A URL listing static pods. Default empty. */
      staticPodURL: z.string().optional(),
      /** Headers sent to `staticPodURL`. */
      staticPodURLHeader: z.record(z.string(), z.array(z.string())).optional(),
      /** The IP the server binds. Default `0.0.0.0`. */
      address: z.string().optional(),
      /** The secured server's port, 1-65535. Default 10250. */
      port: int32().optional(),
      /** The unauthenticated read-only port; 0 disables it. Default 0. */
      readOnlyPort: int32().optional(),
      /** Serving certificate (intermediates after it); with the key unset, a self-signed pair is generated under the cert directory. */
      tlsCertFile: z.string().optional(),
      tlsPrivateKeyFile: z.string().optional(),
      /** Go cipher suite names (TLS 1.3 suites are not configurable). */
      tlsCipherSuites: z.array(z.string()).optional(),
      /** Go `tls.CurveID` numbers; order ignored. */
      tlsCurvePreferences: z.array(int32()).optional(),
      /** `VersionTLS12`, `VersionTLS13`, ... */
      tlsMinVersion: z.string().optional(),
      /** Rotate the client certificate through CertificateSigningRequests. Default false. */
      rotateCertificates: z.boolean().optional(),
      serverTLSBootstrap: z.boolean().optional(),
      authentication: KubeletAuthenticationSchema().optional(),
      authorization: KubeletAuthorizationSchema().optional(),
      registryPullQPS: int32().optional(),
      registryBurst: int32().optional(),
      /** `NeverVerify`, `NeverVerifyPreloadedImages`, `NeverVerifyAllowlistedImages` or `AlwaysVerify`. */
      imagePullCredentialsVerificationPolicy: z.string().optional(),
      preloadedImagesVerificationAllowlist: z.array(z.string()).optional(),
      eventRecordQPS: int32().optional(),
      eventBurst: int32().optional(),
      /** Logs, exec, attach, port-forward and run endpoints. Default true. */
      enableDebuggingHandlers: z.boolean().optional(),
      enableContentionProfiling: z.boolean().optional(),
      healthzPort: int32().optional(),
      healthzBindAddress: z.string().optional(),
      oomScoreAdj: int32().optional(),
      /** Search domain added to containers. */
      clusterDomain: z.string().optional(),
      /** DNS servers of pods with dnsPolicy ClusterFirst. */
      clusterDNS: z.array(z.string()).optional(),
      streamingConnectionIdleTimeout: duration().optional(),
      /** How often node status is computed. Default `10s`. */
      nodeStatusUpdateFrequency: duration().optional(),
      /** How often unchanged node status is posted. Default `5m0s` (or nodeStatusUpdateFrequency when that is set). */
      nodeStatusReportFrequency: duration().optional(),
      /** The node Lease's duration. Default 40. */
      nodeLeaseDurationSeconds: int32().optional(),
      imageMinimumGCAge: duration().optional(),
      imageMaximumGCAge: duration().optional(),
      imageGCHighThresholdPercent: int32().optional(),
      imageGCLowThresholdPercent: int32().optional(),
      volumeStatsAggPeriod: duration().optional(),
      kubeletCgroups: z.string().optional(),
      systemCgroups: z.string().optional(),
      cgroupRoot: z.string().optional(),
      cgroupsPerQOS: z.boolean().optional(),
      /** `cgroupfs` or `systemd`. Default `cgroupfs`. */
      cgroupDriver: z.string().optional(),
      cpuManagerPolicy: z.string().optional(),
      singleProcessOOMKill: z.boolean().optional(),
      cpuManagerPolicyOptions: stringMap().optional(),
      cpuManagerReconcilePeriod: duration().optional(),
      draManagerReconcilePeriod: duration().optional(),
      memoryManagerPolicy: z.string().optional(),
      topologyManagerPolicy: z.string().optional(),
      topologyManagerScope: z.string().optional(),
      topologyManagerPolicyOptions: stringMap().optional(),
      qosReserved: stringMap().optional(),
      runtimeRequestTimeout: duration().optional(),
      hairpinMode: z.string().optional(),
      /** Pods this node runs at most. Default 110. */
      maxPods: int32().optional(),
      podCIDR: z.string().optional(),
      podPidsLimit: int64().optional(),
      resolvConf: z.string().optional(),
      runOnce: z.boolean().optional(),
      /** CFS quota for containers with CPU limits. Default true. */
      cpuCFSQuota: z.boolean().optional(),
      cpuCFSQuotaPeriod: duration().optional(),
      nodeStatusMaxImages: int32().optional(),
      maxOpenFiles: int64().optional(),
      contentType: z.string().optional(),
      kubeAPIQPS: int32().optional(),
      kubeAPIBurst: int32().optional(),
      /** Pull one image at a time. Default true (false when maxParallelImagePulls > 1). */
      serializeImagePulls: z.boolean().optional(),
      maxParallelImagePulls: int32().optional(),
      evictionHard: stringMap().optional(),
      evictionSoft: stringMap().optional(),
      evictionSoftGracePeriod: stringMap().optional(),
      evictionPressureTransitionPeriod: duration().optional(),
      evictionMaxPodGracePeriod: int32().optional(),
      evictionMinimumReclaim: stringMap().optional(),
      mergeDefaultEvictionSettings: z.boolean().optional(),
      podsPerCore: int32().optional(),
      enableControllerAttachDetach: z.boolean().optional(),
      protectKernelDefaults: z.boolean().optional(),
      makeIPTablesUtilChains: z.boolean().optional(),
      iptablesMasqueradeBit: int32().optional(),
      iptablesDropBit: int32().optional(),
      /** Feature gates on or off, over their defaults. */
      featureGates: z.record(z.string(), z.boolean()).optional(),
      failSwapOn: z.boolean().optional(),
      memorySwap: z
        .object({ swapBehavior: z.string().optional() })
        .meta({ id: `${GO_PACKAGE}.MemorySwapConfiguration` })
        .optional(),
      /** A quantity; a container log is rotated beyond it. Default `10Mi`. */
      containerLogMaxSize: z.string().optional(),
      /** Log files kept per container, at least 2. Default 5. */
      containerLogMaxFiles: int32().optional(),
      containerLogMaxWorkers: int32().optional(),
      containerLogMonitorInterval: duration().optional(),
      configMapAndSecretChangeDetectionStrategy: z.string().optional(),
      systemReserved: stringMap().optional(),
      kubeReserved: stringMap().optional(),
      reservedSystemCPUs: z.string().optional(),
      showHiddenMetricsForVersion: z.string().optional(),
      systemReservedCgroup: z.string().optional(),
      kubeReservedCgroup: z.string().optional(),
      enforceNodeAllocatable: z.array(z.string()).optional(),
      /** Unsafe sysctls (or patterns ending in `*`) pods may set. */
      allowedUnsafeSysctls: z.array(z.string()).optional(),
      volumePluginDir: z.string().optional(),
      providerID: z.string().optional(),
      kernelMemcgNotification: z.boolean().optional(),
      /** The agent's logging (format, verbosity, ...). */
      logging: LoggingConfigurationSchema().optional(),
      enableSystemLogHandler: z.boolean().optional(),
      enableSystemLogQuery: z.boolean().optional(),
      /** How long node shutdown is delayed for pods to terminate. Default `0s`. */
      shutdownGracePeriod: duration().optional(),
      shutdownGracePeriodCriticalPods: duration().optional(),
      shutdownGracePeriodByPodPriority: z.array(ShutdownGracePeriodByPodPrioritySchema()).optional(),
      crashLoopBackOff: z
        .object({ maxContainerRestartPeriod: duration().optional() })
        .meta({ id: `${GO_PACKAGE}.CrashLoopBackOffConfig` })
        .optional(),
      reservedMemory: z.array(MemoryReservationSchema()).optional(),
      enableProfilingHandler: z.boolean().optional(),
      enableDebugFlagsHandler: z.boolean().optional(),
      seccompDefault: z.boolean().optional(),
      memoryThrottlingFactor: z.number().optional(),
      memoryReservationPolicy: z.string().optional(),
      /** Taints of the Node when it registers. */
      registerWithTaints: z.array(TaintSchema()).optional(),
      /** Create the Node object. Default true. */
      registerNode: z.boolean().optional(),
      tracing: z
        .object({ endpoint: z.string().optional(), samplingRatePerMillion: int32().optional() })
        .meta({ id: 'io.k8s.component-base.tracing.api.v1.TracingConfiguration' })
        .optional(),
      localStorageCapacityIsolation: z.boolean().optional(),
      /** The CRI runtime's endpoint (`unix:///run/containerd/containerd.sock`). */
      containerRuntimeEndpoint: z.string().optional(),
      /** The CRI image service's endpoint; the runtime's when empty. */
      imageServiceEndpoint: z.string().optional(),
      failCgroupV1: z.boolean().optional(),
      userNamespaces: z
        .object({ idsPerPod: int64().optional() })
        .meta({ id: `${GO_PACKAGE}.UserNamespaces` })
        .optional(),
      podHousekeepingPeriod: duration().optional(),
    })
    .meta({ id: `${GO_PACKAGE}.KubeletConfiguration` });
}

/** `nodeagent.config.k8s.io/v1beta1` NodeAgentConfiguration. */
export const NodeAgentConfigurationSchema = lazySchema(() => configurationSchema(NODE_AGENT_CONFIG_API_VERSION, NODE_AGENT_CONFIG_KIND));
/** `kubelet.config.k8s.io/v1beta1` KubeletConfiguration: the same fields. */
export const KubeletConfigurationSchema = lazySchema(() => configurationSchema(KUBELET_CONFIG_API_VERSION, KUBELET_CONFIG_KIND));

/**
 * The file as written: every field optional (`apiVersion`/`kind` either memkube's or kubelet's).
 * @category Node agent
 */
export type NodeAgentConfiguration = Omit<z.infer<ReturnType<typeof NodeAgentConfigurationSchema>>, 'apiVersion' | 'kind'> & {
  apiVersion: typeof NODE_AGENT_CONFIG_API_VERSION | typeof KUBELET_CONFIG_API_VERSION;
  kind: typeof NODE_AGENT_CONFIG_KIND | typeof KUBELET_CONFIG_KIND;
};

/** `authentication` as written. */
export type KubeletAuthentication = z.infer<ReturnType<typeof KubeletAuthenticationSchema>>;
/** `authorization` as written. */
export type KubeletAuthorization = z.infer<ReturnType<typeof KubeletAuthorizationSchema>>;
/** A taint of `registerWithTaints`. */
export type ConfigTaint = z.infer<ReturnType<typeof TaintSchema>>;

/** The fields defaulting always fills: a consumer reads them without `?? default`. */
type DefaultedKeys =
  | 'enableServer'
  | 'staticPodPath'
  | 'podLogsDir'
  | 'syncFrequency'
  | 'fileCheckFrequency'
  | 'httpCheckFrequency'
  | 'staticPodURL'
  | 'staticPodURLHeader'
  | 'address'
  | 'port'
  | 'readOnlyPort'
  | 'tlsCertFile'
  | 'tlsPrivateKeyFile'
  | 'tlsCipherSuites'
  | 'tlsCurvePreferences'
  | 'tlsMinVersion'
  | 'rotateCertificates'
  | 'featureGates'
  | 'clusterDNS'
  | 'clusterDomain'
  | 'cgroupDriver'
  | 'cgroupRoot'
  | 'cgroupsPerQOS'
  | 'cpuCFSQuota'
  | 'containerLogMaxSize'
  | 'containerLogMaxFiles'
  | 'containerRuntimeEndpoint'
  | 'allowedUnsafeSysctls'
  | 'nodeStatusUpdateFrequency'
  | 'nodeStatusReportFrequency'
  | 'nodeLeaseDurationSeconds'
  | 'maxPods'
  | 'registerNode'
  | 'registerWithTaints'
  | 'serializeImagePulls'
  | 'imagePullCredentialsVerificationPolicy'
  | 'preloadedImagesVerificationAllowlist'
  | 'enableDebuggingHandlers'
  | 'shutdownGracePeriod'
  | 'logging';

/**
 * A configuration after defaulting (and validation): the fields the agent uses are all present;
 * `authentication` and `authorization` complete.
 * @category Node agent
 */
export type DefaultedNodeAgentConfiguration = Omit<NodeAgentConfiguration, DefaultedKeys | 'authentication' | 'authorization'> & {
  [K in DefaultedKeys]-?: Exclude<NodeAgentConfiguration[K], undefined>;
} & {
  authentication: {
    x509: { clientCAFile: string };
    webhook: { enabled: boolean; cacheTTL: string };
    anonymous: { enabled: boolean };
  };
  authorization: {
    mode: string;
    webhook: { cacheAuthorizedTTL: string; cacheUnauthorizedTTL: string };
  };
};

/** The two served names of the kind, for decoding. */
export const NodeAgentConfigurationKinds: readonly ConfigKind[] = [
  {
    kind: NODE_AGENT_CONFIG_KIND,
    versions: [lazyConfigVersion(NODE_AGENT_CONFIG_API_VERSION, NodeAgentConfigurationSchema)],
  },
  {
    kind: KUBELET_CONFIG_KIND,
    versions: [lazyConfigVersion(KUBELET_CONFIG_API_VERSION, KubeletConfigurationSchema)],
  },
];

/** Top-level fields holding a Go duration. */
export const DURATION_FIELDS = [
  'syncFrequency',
  'fileCheckFrequency',
  'httpCheckFrequency',
  'streamingConnectionIdleTimeout',
  'nodeStatusUpdateFrequency',
  'nodeStatusReportFrequency',
  'imageMinimumGCAge',
  'imageMaximumGCAge',
  'volumeStatsAggPeriod',
  'cpuManagerReconcilePeriod',
  'draManagerReconcilePeriod',
  'runtimeRequestTimeout',
  'cpuCFSQuotaPeriod',
  'evictionPressureTransitionPeriod',
  'containerLogMonitorInterval',
  'shutdownGracePeriod',
  'shutdownGracePeriodCriticalPods',
  'podHousekeepingPeriod',
] as const;
