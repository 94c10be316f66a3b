import { describe, expect, it } from 'vitest';
import {
  aggregateErrorText,
  legacyNodeAgentDefaults,
  resolveFeatureGates,
  validateNodeAgentConfiguration,
  withNodeAgentDefaults,
  type DefaultedNodeAgentConfiguration,
  type NodeAgentConfiguration,
} from '../../../src/config/nodeagent/index.js';
import { goParseDuration } from '../../../src/config/nodeagent/go-duration.js';

const defaulted = (c: Partial<NodeAgentConfiguration> = {}, gates: Record<string, boolean> = {}) => withNodeAgentDefaults(c, gates);
const problems = (c: Partial<NodeAgentConfiguration>) => validateNodeAgentConfiguration(defaulted(c));

describe('withNodeAgentDefaults', () => {
  it("applies SetDefaults_KubeletConfiguration's values", () => {
    const c = defaulted();
    expect(c).toMatchObject({
      enableServer: true,
      podLogsDir: '/var/log/pods',
      syncFrequency: '1m0s',
      fileCheckFrequency: '20s',
      httpCheckFrequency: '20s',
      address: '0.0.0.0',
      port: 10250,
      readOnlyPort: 0,
      rotateCertificates: false,
      staticPodPath: '',
      authentication: { anonymous: { enabled: false }, webhook: { enabled: true, cacheTTL: '2m0s' }, x509: { clientCAFile: '' } },
      authorization: { mode: 'Webhook', webhook: { cacheAuthorizedTTL: '5m0s', cacheUnauthorizedTTL: '30s' } },
      nodeStatusUpdateFrequency: '10s',
      nodeStatusReportFrequency: '5m0s',
      nodeLeaseDurationSeconds: 40,
      maxPods: 110,
      cgroupDriver: 'cgroupfs',
      cgroupsPerQOS: true,
      cpuCFSQuota: true,
      containerLogMaxSize: '10Mi',
      containerLogMaxFiles: 5,
      containerRuntimeEndpoint: 'unix:///run/containerd/containerd.sock',
      registerNode: true,
      serializeImagePulls: true,
      enableDebuggingHandlers: true,
      shutdownGracePeriod: '0s',
      imagePullCredentialsVerificationPolicy: 'NeverVerifyPreloadedImages',
      logging: { format: 'text', flushFrequency: '5s', verbosity: 0 },
    });
    expect(validateNodeAgentConfiguration(c)).toEqual([]);
  });

  it('keeps what is set and treats zero durations and numbers as unset, as Go does', () => {
    const c = defaulted({ port: 0, syncFrequency: '0s', address: '', maxPods: 7, enableServer: false, readOnlyPort: 10255 });
    expect(c).toMatchObject({ port: 10250, syncFrequency: '1m0s', address: '0.0.0.0', maxPods: 7, enableServer: false, readOnlyPort: 10255 });
  });

  it('reports node status as often as it is updated when only the update frequency is set', () => {
    expect(defaulted({ nodeStatusUpdateFrequency: '20s' })).toMatchObject({ nodeStatusUpdateFrequency: '20s', nodeStatusReportFrequency: '20s' });
    expect(defaulted({ nodeStatusReportFrequency: '1m0s' })).toMatchObject({ nodeStatusUpdateFrequency: '10s', nodeStatusReportFrequency: '1m0s' });
  });

  it('pulls in parallel by default when maxParallelImagePulls asks for it', () => {
    expect(defaulted({ maxParallelImagePulls: 3 }).serializeImagePulls).toBe(false);
    expect(defaulted({ maxParallelImagePulls: 1 }).serializeImagePulls).toBe(true);
  });

  it('defaults by the feature gates, the file over the flags', () => {
    expect(defaulted({}, { KubeletEnsureSecretPulledImages: false }).imagePullCredentialsVerificationPolicy).toBe('');
    expect(
      defaulted({ featureGates: { KubeletEnsureSecretPulledImages: true } }, { KubeletEnsureSecretPulledImages: false }).imagePullCredentialsVerificationPolicy,
    ).toBe('NeverVerifyPreloadedImages');
    expect(defaulted({ featureGates: { KubeletCrashLoopBackOffMax: true } }).crashLoopBackOff).toEqual({ maxContainerRestartPeriod: '5m0s' });
  });

  it("has the command line's legacy defaults when no file is given", () => {
    expect(legacyNodeAgentDefaults()).toMatchObject({
      readOnlyPort: 10255,
      authentication: { anonymous: { enabled: true }, webhook: { enabled: false } },
      authorization: { mode: 'AlwaysAllow' },
    });
  });
});

describe('validateNodeAgentConfiguration', () => {
  const cases: [string, Partial<NodeAgentConfiguration>, string][] = [
    ['port', { port: 70000 }, 'invalid configuration: port (--port) 70000 must be between 1 and 65535, inclusive'],
    ['negative port', { port: -1 }, 'invalid configuration: port (--port) -1 must be between 1 and 65535, inclusive'],
    ['readOnlyPort', { readOnlyPort: 65536 }, 'invalid configuration: readOnlyPort (--read-only-port) 65536 must be between 0 and 65535, inclusive'],
    ['healthzPort', { healthzPort: 70000 }, 'invalid configuration: healthzPort (--healthz-port) 70000 must be between 1 and 65535, inclusive'],
    ['containerLogMaxFiles', { containerLogMaxFiles: 1 }, 'invalid configuration: containerLogMaxFiles must be greater than 1'],
    ['containerLogMaxWorkers', { containerLogMaxWorkers: 0 }, 'invalid configuration: containerLogMaxWorkers must be greater than or equal to 1'],
    [
      'containerLogMonitorInterval',
      { containerLogMonitorInterval: '2s' },
      'invalid configuration: containerLogMonitorInterval must be a positive time duration greater than or equal to 3s',
    ],
    ['containerLogMaxSize', { containerLogMaxSize: 'lots' }, 'invalid configuration: containerLogMaxSize (--container-log-max-size) "lots"'],
    ['maxPods', { maxPods: -1 }, 'invalid configuration: maxPods (--max-pods) -1 must not be a negative number'],
    ['nodeLeaseDurationSeconds', { nodeLeaseDurationSeconds: -5 }, 'invalid configuration: nodeLeaseDurationSeconds must be greater than 0'],
    ['eventBurst', { eventBurst: -1 }, 'invalid configuration: eventBurst (--event-burst) -1 must not be a negative number'],
    ['eventRecordQPS', { eventRecordQPS: -1 }, 'invalid configuration: eventRecordQPS (--event-qps) -1 must not be a negative number'],
    ['registryPullQPS', { registryPullQPS: -1 }, 'invalid configuration: registryPullQPS (--registry-qps) -1 must not be a negative number'],
    ['registryBurst', { registryBurst: -1 }, 'invalid configuration: registryBurst (--registry-burst) -1 must not be a negative number'],
    ['kubeAPIQPS', { kubeAPIQPS: -1 }, 'invalid configuration: kubeAPIQPS (--kube-api-qps) -1 must not be a negative number'],
    ['kubeAPIBurst', { kubeAPIBurst: -1 }, 'invalid configuration: kubeAPIBurst (--kube-api-burst) -1 must not be a negative number'],
    ['oomScoreAdj', { oomScoreAdj: 1001 }, 'invalid configuration: oomScoreAdj (--oom-score-adj) 1001 must be between -1000 and 1000, inclusive'],
    ['podsPerCore', { podsPerCore: -1 }, 'invalid configuration: podsPerCore (--pods-per-core) -1 must not be a negative number'],
    ['maxOpenFiles', { maxOpenFiles: -1 }, 'invalid configuration: maxOpenFiles (--max-open-files) -1 must not be a negative number'],
    ['nodeStatusMaxImages', { nodeStatusMaxImages: -2 }, 'invalid configuration: nodeStatusMaxImages (--node-status-max-images) -2 must be -1 or greater'],
    ['iptablesDropBit', { iptablesDropBit: 32 }, 'invalid configuration: iptablesDropBit (--iptables-drop-bit) 32 must be between 0 and 31, inclusive'],
    [
      'iptablesMasqueradeBit',
      { iptablesMasqueradeBit: -1 },
      'invalid configuration: iptablesMasqueradeBit (--iptables-masquerade-bit) -1 must be between 0 and 31, inclusive',
    ],
    [
      'image GC thresholds',
      { imageGCHighThresholdPercent: 50, imageGCLowThresholdPercent: 60 },
      'invalid configuration: imageGCLowThresholdPercent (--image-gc-low-threshold) 60 must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) 50',
    ],
    [
      'image GC high range',
      { imageGCHighThresholdPercent: 101 },
      'invalid configuration: imageGCHighThresholdPercent (--image-gc-high-threshold) 101 must be between 0 and 100, inclusive',
    ],
    ['imageMinimumGCAge', { imageMinimumGCAge: '-1s' }, 'invalid configuration: imageMinimumGCAge -1s must not be negative'],
    ['imageMaximumGCAge', { imageMaximumGCAge: '1m0s' }, 'invalid configuration: imageMaximumGCAge 1m0s must be greater than imageMinimumGCAge 2m0s'],
    [
      'cpuCFSQuotaPeriod',
      { cpuCFSQuotaPeriod: '50ms' },
      'invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) 50ms requires feature gate CustomCPUCFSQuotaPeriod',
    ],
    [
      'cpuCFSQuotaPeriod range',
      { cpuCFSQuotaPeriod: '2s', featureGates: { CustomCPUCFSQuotaPeriod: true } },
      'invalid configuration: cpuCFSQuotaPeriod (--cpu-cfs-quota-period) 2s must be between 1ms and 1sec, inclusive',
    ],
    [
      'systemCgroups',
      { systemCgroups: '/system' },
      'invalid configuration: systemCgroups (--system-cgroups) was specified and cgroupRoot (--cgroup-root) was not specified',
    ],
    ['maxParallelImagePulls', { maxParallelImagePulls: 0 }, 'invalid configuration: maxParallelImagePulls 0 must be a positive number'],
    [
      'parallel and serial pulls',
      { maxParallelImagePulls: 3, serializeImagePulls: true },
      'invalid configuration: maxParallelImagePulls cannot be larger than 1 unless SerializeImagePulls (--serialize-image-pulls) is set to false',
    ],
    ['runOnce', { runOnce: true }, 'invalid configuration: runOnce (--runOnce) true, Runonce mode has been deprecated and should not be set'],
    ['taint', { registerWithTaints: [{ key: 'bad key', effect: 'NoSchedule' }] }, 'invalid taint: {bad key  NoSchedule <nil>}'],
    ['taint effect', { registerWithTaints: [{ key: 'a', effect: 'Sometimes' }] }, 'invalid taint: {a  Sometimes <nil>}'],
    [
      'taint timeAdded',
      { registerWithTaints: [{ key: 'a', effect: 'NoSchedule', timeAdded: '2024-01-01T00:00:00Z' }] },
      'invalid configuration: taint.TimeAdded is not nil',
    ],
    [
      'topologyManagerPolicy',
      { topologyManagerPolicy: 'tight' },
      'invalid configuration: topologyManagerPolicy (--topology-manager-policy) "tight" must be one of: ["none" "best-effort" "restricted" "single-numa-node"]',
    ],
    [
      'topologyManagerScope',
      { topologyManagerScope: 'node' },
      'invalid configuration: topologyManagerScope (--topology-manager-scope) "node" must be one of: "container", or "pod"',
    ],
    ['shutdownGracePeriod', { shutdownGracePeriod: '500ms' }, 'invalid configuration: shutdownGracePeriod 500ms must be either zero or otherwise >= 1 sec'],
    [
      'critical pods period',
      { shutdownGracePeriod: '10s', shutdownGracePeriodCriticalPods: '20s' },
      'invalid configuration: shutdownGracePeriodCriticalPods 20s must be <= shutdownGracePeriod 10s',
    ],
    [
      'shutdown gate',
      { shutdownGracePeriod: '10s', featureGates: { GracefulNodeShutdown: false } },
      'invalid configuration: specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown',
    ],
    [
      'shutdown by priority and period',
      { shutdownGracePeriod: '10s', shutdownGracePeriodByPodPriority: [{ priority: 1, shutdownGracePeriodSeconds: 5 }] },
      'invalid configuration: Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time',
    ],
    [
      'swap behavior',
      { memorySwap: { swapBehavior: 'Unlimited' } },
      'invalid configuration: memorySwap.swapBehavior "Unlimited" must be one of: "", "LimitedSwap" or "NoSwap"',
    ],
    [
      'crash loop period',
      { crashLoopBackOff: { maxContainerRestartPeriod: '10m0s' }, featureGates: { KubeletCrashLoopBackOffMax: true } },
      'invalid configuration: CrashLoopBackOff.MaxContainerRestartPeriod (got: 600 seconds) must be set between 1s and 300s',
    ],
    [
      'crash loop gate',
      { crashLoopBackOff: { maxContainerRestartPeriod: '10s' } },
      'invalid configuration: FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set',
    ],
    [
      'enforceNodeAllocatable',
      { enforceNodeAllocatable: ['everything'] },
      'invalid configuration: option "everything" specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "system-reserved-compressible", "kube-reserved", "kube-reserved-compressible" or "none"',
    ],
    [
      'enforce none',
      { enforceNodeAllocatable: ['none', 'pods'] },
      'invalid configuration: enforceNodeAllocatable (--enforce-node-allocatable) may not contain additional enforcements when "none" is specified',
    ],
    [
      'enforce cgroup',
      { enforceNodeAllocatable: ['system-reserved'] },
      'invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" or "system-reserved-compressible" included in enforceNodeAllocatable (--enforce-node-allocatable)',
    ],
    [
      'enforce duplicates',
      { enforceNodeAllocatable: ['pods', 'pods'] },
      'invalid configuration: duplicated enforcements "pods" in enforceNodeAllocatable (--enforce-node-allocatable)',
    ],
    [
      'enforce without QoS',
      { enforceNodeAllocatable: ['pods'], cgroupsPerQOS: false },
      'invalid configuration: cgroupsPerQOS (--cgroups-per-qos) must be set to true when "pods" contained in enforceNodeAllocatable (--enforce-node-allocatable)',
    ],
    [
      'hairpinMode',
      { hairpinMode: 'loop' },
      'invalid configuration: option "loop" specified for hairpinMode (--hairpin-mode). Valid options are "none", "hairpin-veth" or "promiscuous-bridge"',
    ],
    [
      'imagePullCredentialsVerificationPolicy',
      { imagePullCredentialsVerificationPolicy: 'Sometimes' },
      'invalid configuration: option "Sometimes" specified for imagePullCredentialsVerificationPolicy. Valid options are "NeverVerify", "NeverVerifyPreloadedImages", "NeverVerifyAllowlistedImages" or "AlwaysVerify"',
    ],
    [
      'allowlist without its policy',
      { preloadedImagesVerificationAllowlist: ['registry.k8s.io/pause'] },
      'invalid configuration: can\'t set `preloadedImagesVerificationAllowlist` if `imagePullCredentialsVertificationPolicy` is not "NeverVerifyAllowlistedImages"',
    ],
    [
      'policy without its gate',
      { imagePullCredentialsVerificationPolicy: 'AlwaysVerify', featureGates: { KubeletEnsureSecretPulledImages: false } },
      'invalid configuration: `imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled',
    ],
    [
      'reserved CPUs and cgroups',
      { reservedSystemCPUs: '0', systemReservedCgroup: '/sys' },
      "invalid configuration: can't use reservedSystemCPUs (--reserved-cpus) with systemReservedCgroup (--system-reserved-cgroup) or kubeReservedCgroup (--kube-reserved-cgroup)",
    ],
    ['logging format', { logging: { format: 'xml' } }, 'logging.format: Invalid value: "xml": Unsupported log format'],
    ['tracing', { tracing: { samplingRatePerMillion: -1 } }, 'tracing.samplingRatePerMillion: Invalid value: -1: sampling rate must be positive'],
    [
      'memoryThrottlingFactor',
      { memoryThrottlingFactor: 1.5 },
      'invalid configuration: memoryThrottlingFactor 1.5 must be greater than 0 and less than or equal to 1.0',
    ],
    [
      'memoryReservationPolicy',
      { memoryReservationPolicy: 'TieredReservation' },
      'invalid configuration: memoryReservationPolicy "TieredReservation" requires MemoryQoS feature gate to be enabled',
    ],
    ['enableSystemLogQuery', { enableSystemLogQuery: true }, 'invalid configuration: NodeLogQuery feature gate is required for enableSystemLogQuery'],
    [
      'system log handler',
      { enableSystemLogQuery: true, enableSystemLogHandler: false, featureGates: { NodeLogQuery: true } },
      'invalid configuration: enableSystemLogHandler is required for enableSystemLogQuery',
    ],
    ['podLogsDir relative', { podLogsDir: 'logs' }, 'invalid configuration: pod logs path "logs" must be absolute path'],
    ['podLogsDir unclean', { podLogsDir: '/var/log/pods/' }, 'invalid configuration: pod logs path "/var/log/pods/" must be normalized'],
    ['podLogsDir ASCII', { podLogsDir: '/var/log/pödz' }, 'invalid configuration: pod logs path "/var/log/pödz" mut contains ASCII characters only'],
    [
      'serverTLSBootstrap',
      { serverTLSBootstrap: true, featureGates: { RotateKubeletServerCertificate: false } },
      'invalid configuration: serverTLSBootstrap true requires feature gate RotateKubeletServerCertificate',
    ],
    ['address', { address: 'localhost' }, 'invalid configuration: address (--address) "localhost" is not a valid IP address'],
    ['authorization mode', { authorization: { mode: 'RBAC' } }, 'invalid configuration: unknown authorization mode RBAC'],
    ['draManagerReconcilePeriod', { draManagerReconcilePeriod: '-1s' }, 'invalid configuration: draManagerReconcilePeriod -1s must be greater than zero'],
  ];
  it.each(cases)('%s', (_name, c, message) => {
    const errs = problems(c);
    expect(
      errs.some((e) => e.startsWith(message)),
      `${JSON.stringify(errs)} has no ${message}`,
    ).toBe(true);
  });

  it('reports an unknown or locked feature gate alone, as upstream returns early', () => {
    const withGates = (featureGates: Record<string, boolean>) => validateNodeAgentConfiguration({ ...defaulted({ port: -1 }), featureGates });
    expect(withGates({ Teleport: true })).toEqual(['unrecognized feature gate: Teleport']);
    expect(withGates({ NodeSwap: false })).toEqual(['cannot set feature gate NodeSwap to false, feature is locked to true']);
    expect(() => defaulted({ featureGates: { Teleport: true } })).toThrow('unrecognized feature gate: Teleport');
  });

  it('aggregates several problems as utilerrors does', () => {
    const errs = problems({ port: 0 as number, maxPods: -1 } as Partial<DefaultedNodeAgentConfiguration>);
    expect(aggregateErrorText(['a'])).toBe('a');
    expect(aggregateErrorText(['a', 'b', 'a'])).toBe('[a, b]');
    expect(errs).toContain('invalid configuration: maxPods (--max-pods) -1 must not be a negative number');
  });
});

describe('feature gates', () => {
  it('has the gates the agent uses with their defaults', () => {
    const g = resolveFeatureGates();
    expect(g.enabled('ContainerCheckpoint')).toBe(true);
    expect(g.enabled('DRAListTypeAttributes')).toBe(false);
    expect(g.enabled('KubeletFineGrainedAuthz')).toBe(true);
    expect(g.enabled('NoSuchGate')).toBe(false);
  });

  it('applies maps in order and AllAlpha/AllBeta to the gates not set', () => {
    expect(resolveFeatureGates({ ContainerCheckpoint: false }, { ContainerCheckpoint: true }).enabled('ContainerCheckpoint')).toBe(true);
    const g = resolveFeatureGates({ AllAlpha: true, AllBeta: false, DRAListTypeAttributes: false });
    expect(g.enabled('MemoryQoS')).toBe(true);
    expect(g.enabled('DRAListTypeAttributes')).toBe(false);
    expect(g.enabled('ContainerCheckpoint')).toBe(false);
  });

  it("refuses unknown and locked gates with component-base's messages", () => {
    expect(() => resolveFeatureGates({ Bogus: true })).toThrow('unrecognized feature gate: Bogus');
    expect(() => resolveFeatureGates({ __proto__: true } as Record<string, boolean>)).not.toThrow();
    expect(() => resolveFeatureGates(JSON.parse('{"__proto__": true}') as Record<string, boolean>)).toThrow('unrecognized feature gate: __proto__');
  });
});

describe('goParseDuration', () => {
  it.each([
    ['1m30s', 90_000_000_000n],
    ['-1.5h', -5_400_000_000_000n],
    ['0', 0n],
    ['100ms', 100_000_000n],
  ])('parses %s', (text, nanos) => expect(goParseDuration(text)).toEqual({ ok: true, nanos }));
  it.each([
    ['', 'time: invalid duration ""'],
    ['x', 'time: invalid duration "x"'],
    ['5', 'time: missing unit in duration "5"'],
    ['5d', 'time: unknown unit "d" in duration "5d"'],
    ['.s', 'time: invalid duration ".s"'],
    ['9999999999999999999h', 'time: invalid duration "9999999999999999999h"'],
  ])('refuses %j', (text, error) => expect(goParseDuration(text)).toEqual({ ok: false, error }));
});
