/**
 * Validation of a defaulted NodeAgentConfiguration with kubelet's messages
 * (pkg/kubelet/apis/config/validation/validation.go `ValidateKubeletConfiguration`): each problem
 * is one `invalid configuration: <field> (--<flag>) ...` line, in upstream's order, and the list
 * is reported as an aggregate (`[a, b]` when several). A few checks kubelet makes later, at start
 * (the serving address, the authorization mode, the log rotation size), are made here too with
 * the texts of the places that make them, so a bad file fails before anything runs.
 */
import { fieldErrorMessage } from '../../machinery/field-errors.js';
import { quantityParseError } from '../../schema/quantity.js';
import { isQualifiedName, isValidLabelValue } from '../../schema/validation/names.js';
import { isGoIP } from '../../util/go-net.js';
import { validateLoggingConfiguration } from '../logging/validation.js';
import { validateTracingConfiguration } from '../tracing/validation.js';
import { FeatureGateError, resolveFeatureGates, type FeatureGates } from './feature-gates.js';
import { durationNanos } from './go-duration.js';
import type { ConfigTaint, DefaultedNodeAgentConfiguration } from './types.js';

const SECOND = 1_000_000_000n;
const MILLISECOND = 1_000_000n;

const isPort = (n: number) => Number.isInteger(n) && n >= 1 && n <= 65535;
const inRange = (n: number, lo: number, hi: number) => n >= lo && n <= hi;
const goList = (items: readonly string[]) => `[${items.map((s) => JSON.stringify(s)).join(' ')}]`;

/** Go's `%v` of a core/v1 Taint, as `invalid taint: %v` prints it. */
function taintText(t: ConfigTaint): string {
  return `{${t.key ?? ''} ${t.value ?? ''} ${t.effect ?? ''} ${t.timeAdded === undefined ? '<nil>' : t.timeAdded}}`;
}

/** `CheckTaintValidation`: a qualified key, a label value, and a known effect (or none). */
function taintProblem(t: ConfigTaint): boolean {
  if (isQualifiedName(t.key ?? '').length > 0) return true;
  if (isValidLabelValue(t.value ?? '').length > 0) return true;
  const effect = t.effect ?? '';
  return effect !== '' && effect !== 'NoSchedule' && effect !== 'PreferNoSchedule' && effect !== 'NoExecute';
}

/** `utilfs.IsPathClean`: the path equals its `filepath.Clean`. */
function isPathClean(p: string): boolean {
  if (p === '') return false;
  const abs = p.startsWith('/');
  const parts: string[] = [];
  for (const part of p.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else if (!(part === '..' && abs)) parts.push(part);
  }
  const clean = (abs ? '/' : '') + parts.join('/') || (abs ? '/' : '.');
  return clean === p;
}

function enforcementErrors(kc: DefaultedNodeAgentConfiguration): string[] {
  const errs: string[] = [];
  const list = kc.enforceNodeAllocatable ?? [];
  const has = new Set(list);
  if (has.has('system-reserved-compressible') && has.has('system-reserved')) {
    errs.push(
      'invalid configuration: both "system-reserved" and "system-reserved-compressible" cannot be specified together in enforceNodeAllocatable (--enforce-node-allocatable)',
    );
  }
  if (has.has('kube-reserved-compressible') && has.has('kube-reserved')) {
    errs.push(
      'invalid configuration: both "kube-reserved" and "kube-reserved-compressible" cannot be specified together in enforceNodeAllocatable (--enforce-node-allocatable)',
    );
  }
  const seen = new Set<string>();
  for (const val of list) {
    if (seen.has(val)) {
      errs.push(`invalid configuration: duplicated enforcements ${JSON.stringify(val)} in enforceNodeAllocatable (--enforce-node-allocatable)`);
      continue;
    }
    seen.add(val);
    switch (val) {
      case 'pods':
        break;
      case 'system-reserved':
      case 'system-reserved-compressible':
        if (!kc.systemReservedCgroup) {
          errs.push(
            'invalid configuration: systemReservedCgroup (--system-reserved-cgroup) must be specified when "system-reserved" or "system-reserved-compressible" included in enforceNodeAllocatable (--enforce-node-allocatable)',
          );
        }
        break;
      case 'kube-reserved':
      case 'kube-reserved-compressible':
        if (!kc.kubeReservedCgroup) {
          errs.push(
            'invalid configuration: kubeReservedCgroup (--kube-reserved-cgroup) must be specified when "kube-reserved" or "kube-reserved-compressible" included in enforceNodeAllocatable (--enforce-node-allocatable)',
          );
        }
        break;
      case 'none':
        if (list.length > 1)
          errs.push(
            'invalid configuration: enforceNodeAllocatable (--enforce-node-allocatable) may not contain additional enforcements when "none" is specified',
          );
        continue;
      default:
        errs.push(
          `invalid configuration: option ${JSON.stringify(val)} specified for enforceNodeAllocatable (--enforce-node-allocatable). Valid options are "pods", "system-reserved", "system-reserved-compressible", "kube-reserved", "kube-reserved-compressible" or "none"`,
        );
        continue;
    }
    if (!kc.cgroupsPerQOS) {
      errs.push(
        `invalid configuration: cgroupsPerQOS (--cgroups-per-qos) must be set to true when ${JSON.stringify(val)} contained in enforceNodeAllocatable (--enforce-node-allocatable)`,
      );
    }
  }
  return errs;
}

function shutdownErrors(kc: DefaultedNodeAgentConfiguration, gates: FeatureGates): string[] {
  const errs: string[] = [];
  const grace = durationNanos(kc.shutdownGracePeriod);
  const critical = durationNanos(kc.shutdownGracePeriodCriticalPods);
  const criticalText = kc.shutdownGracePeriodCriticalPods ?? '0s';
  if (gates.enabled('GracefulNodeShutdown')) {
    if (critical > grace)
      errs.push(`invalid configuration: shutdownGracePeriodCriticalPods ${criticalText} must be <= shutdownGracePeriod ${kc.shutdownGracePeriod}`);
    if (grace < 0n || (grace > 0n && grace < SECOND))
      errs.push(`invalid configuration: shutdownGracePeriod ${kc.shutdownGracePeriod} must be either zero or otherwise >= 1 sec`);
    if (critical < 0n || (critical > 0n && critical < SECOND)) {
      errs.push(`invalid configuration: shutdownGracePeriodCriticalPods ${criticalText} must be either zero or otherwise >= 1 sec`);
    }
  }
  if ((grace > 0n || critical > 0n) && !gates.enabled('GracefulNodeShutdown')) {
    errs.push('invalid configuration: specifying shutdownGracePeriod or shutdownGracePeriodCriticalPods requires feature gate GracefulNodeShutdown');
  }
  const byPriority = kc.shutdownGracePeriodByPodPriority ?? [];
  if (gates.enabled('GracefulNodeShutdownBasedOnPodPriority')) {
    if (byPriority.length !== 0 && (grace > 0n || critical > 0n)) {
      errs.push('invalid configuration: Cannot specify both shutdownGracePeriodByPodPriority and shutdownGracePeriod at the same time');
    }
  } else if (byPriority.length !== 0) {
    errs.push('invalid configuration: Specifying shutdownGracePeriodByPodPriority requires feature gate GracefulNodeShutdownBasedOnPodPriority');
  }
  return errs;
}

function imagePullErrors(kc: DefaultedNodeAgentConfiguration, gates: FeatureGates): string[] {
  const errs: string[] = [];
  const policy = kc.imagePullCredentialsVerificationPolicy;
  const allowlist = kc.preloadedImagesVerificationAllowlist;
  if (gates.enabled('KubeletEnsureSecretPulledImages')) {
    if (!['NeverVerify', 'NeverVerifyPreloadedImages', 'NeverVerifyAllowlistedImages', 'AlwaysVerify'].includes(policy)) {
      errs.push(
        `invalid configuration: option ${JSON.stringify(policy)} specified for imagePullCredentialsVerificationPolicy. Valid options are "NeverVerify", "NeverVerifyPreloadedImages", "NeverVerifyAllowlistedImages" or "AlwaysVerify"`,
      );
    }
    if (allowlist.length > 0 && policy !== 'NeverVerifyAllowlistedImages') {
      errs.push(
        'invalid configuration: can\'t set `preloadedImagesVerificationAllowlist` if `imagePullCredentialsVertificationPolicy` is not "NeverVerifyAllowlistedImages"',
      );
    }
  } else {
    if (policy.length > 0)
      errs.push(
        'invalid configuration: `imagePullCredentialsVerificationPolicy` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled',
      );
    if (allowlist.length > 0)
      errs.push('invalid configuration: `preloadedImagesVerificationAllowlist` must not be set if KubeletEnsureSecretPulledImages feature gate is not enabled');
  }
  return errs;
}

function podLogsDirErrors(dir: string): string[] {
  const errs: string[] = [];
  if (dir === '') errs.push('invalid configuration: podLogsDir was not specified');
  if (!dir.startsWith('/')) errs.push(`invalid configuration: pod logs path ${JSON.stringify(dir)} must be absolute path`);
  if (!isPathClean(dir)) errs.push(`invalid configuration: pod logs path ${JSON.stringify(dir)} must be normalized`);
  // Upstream's text, its typo included.
  if ([...dir].some((c) => c.charCodeAt(0) > 127)) errs.push(`invalid configuration: pod logs path ${JSON.stringify(dir)} mut contains ASCII characters only`);
  return errs;
}

/** The checks kubelet makes only when it starts serving; the texts are those of the code that fails there. */
function startupErrors(kc: DefaultedNodeAgentConfiguration): string[] {
  const errs: string[] = [];
  if (!isGoIP(kc.address)) errs.push(`invalid configuration: address (--address) ${JSON.stringify(kc.address)} is not a valid IP address`);
  if (kc.authorization.mode !== 'AlwaysAllow' && kc.authorization.mode !== 'Webhook') {
    errs.push(`invalid configuration: unknown authorization mode ${kc.authorization.mode}`);
  }
  const sizeProblem = quantityParseError(kc.containerLogMaxSize);
  if (sizeProblem) errs.push(`invalid configuration: containerLogMaxSize (--container-log-max-size) ${JSON.stringify(kc.containerLogMaxSize)}: ${sizeProblem}`);
  return errs;
}

/**
 * The problems of a defaulted configuration, each a full `invalid configuration: ...` text, in
 * kubelet's order; empty when it is valid. `globalGates` are the gates set on the command line;
 * a gate map that cannot be applied is the only problem reported (as upstream returns early).
 */
export function validateNodeAgentConfiguration(kc: DefaultedNodeAgentConfiguration, globalGates: Readonly<Record<string, boolean>> = {}): string[] {
  let gates: FeatureGates;
  try {
    gates = resolveFeatureGates(globalGates, kc.featureGates);
  } catch (e) {
    if (e instanceof FeatureGateError) return [e.message];
    throw e;
  }
  const errs: string[] = [];
  const add = (bad: boolean, message: string) => {
    if (bad) errs.push(`invalid configuration: ${message}`);
  };
  const n = (v: number | undefined) => v ?? 0;
  add(kc.nodeLeaseDurationSeconds <= 0, 'nodeLeaseDurationSeconds must be greater than 0');
  add(!!kc.systemCgroups && kc.cgroupRoot === '', 'systemCgroups (--system-cgroups) was specified and cgroupRoot (--cgroup-root) was not specified');
  add(n(kc.eventBurst) < 0, `eventBurst (--event-burst) ${n(kc.eventBurst)} must not be a negative number`);
  add(n(kc.eventRecordQPS) < 0, `eventRecordQPS (--event-qps) ${n(kc.eventRecordQPS)} must not be a negative number`);
  add(n(kc.healthzPort) !== 0 && !isPort(n(kc.healthzPort)), `healthzPort (--healthz-port) ${n(kc.healthzPort)} must be between 1 and 65535, inclusive`);
  const cfsPeriod = durationNanos(kc.cpuCFSQuotaPeriod);
  add(
    !gates.enabled('CustomCPUCFSQuotaPeriod') && cfsPeriod !== 100n * MILLISECOND,
    `cpuCFSQuotaPeriod (--cpu-cfs-quota-period) ${kc.cpuCFSQuotaPeriod ?? '0s'} requires feature gate CustomCPUCFSQuotaPeriod`,
  );
  add(
    gates.enabled('CustomCPUCFSQuotaPeriod') && (cfsPeriod < MILLISECOND || cfsPeriod > SECOND),
    `cpuCFSQuotaPeriod (--cpu-cfs-quota-period) ${kc.cpuCFSQuotaPeriod ?? '0s'} must be between 1ms and 1sec, inclusive`,
  );
  const high = n(kc.imageGCHighThresholdPercent);
  const low = n(kc.imageGCLowThresholdPercent);
  add(!inRange(high, 0, 100), `imageGCHighThresholdPercent (--image-gc-high-threshold) ${high} must be between 0 and 100, inclusive`);
  add(!inRange(low, 0, 100), `imageGCLowThresholdPercent (--image-gc-low-threshold) ${low} must be between 0 and 100, inclusive`);
  add(
    low >= high,
    `imageGCLowThresholdPercent (--image-gc-low-threshold) ${low} must be less than imageGCHighThresholdPercent (--image-gc-high-threshold) ${high}`,
  );
  const minAge = durationNanos(kc.imageMinimumGCAge);
  const maxAge = durationNanos(kc.imageMaximumGCAge);
  add(maxAge !== 0n && !gates.enabled('ImageMaximumGCAge'), 'ImageMaximumGCAge feature gate is required for Kubelet configuration option imageMaximumGCAge');
  add(minAge < 0n, `imageMinimumGCAge ${kc.imageMinimumGCAge} must not be negative`);
  add(maxAge < 0n, `imageMaximumGCAge ${kc.imageMaximumGCAge} must not be negative`);
  add(maxAge > 0n && maxAge <= minAge, `imageMaximumGCAge ${kc.imageMaximumGCAge} must be greater than imageMinimumGCAge ${kc.imageMinimumGCAge}`);
  add(durationNanos(kc.draManagerReconcilePeriod) <= 0n, `draManagerReconcilePeriod ${kc.draManagerReconcilePeriod ?? '0s'} must be greater than zero`);
  add(!inRange(n(kc.iptablesDropBit), 0, 31), `iptablesDropBit (--iptables-drop-bit) ${n(kc.iptablesDropBit)} must be between 0 and 31, inclusive`);
  add(
    !inRange(n(kc.iptablesMasqueradeBit), 0, 31),
    `iptablesMasqueradeBit (--iptables-masquerade-bit) ${n(kc.iptablesMasqueradeBit)} must be between 0 and 31, inclusive`,
  );
  add(n(kc.kubeAPIBurst) < 0, `kubeAPIBurst (--kube-api-burst) ${n(kc.kubeAPIBurst)} must not be a negative number`);
  add(n(kc.kubeAPIQPS) < 0, `kubeAPIQPS (--kube-api-qps) ${n(kc.kubeAPIQPS)} must not be a negative number`);
  add(n(kc.nodeStatusMaxImages) < -1, `nodeStatusMaxImages (--node-status-max-images) ${n(kc.nodeStatusMaxImages)} must be -1 or greater`);
  add(n(kc.maxOpenFiles) < 0, `maxOpenFiles (--max-open-files) ${n(kc.maxOpenFiles)} must not be a negative number`);
  add(kc.maxPods < 0, `maxPods (--max-pods) ${kc.maxPods} must not be a negative number`);
  add(!inRange(n(kc.oomScoreAdj), -1000, 1000), `oomScoreAdj (--oom-score-adj) ${n(kc.oomScoreAdj)} must be between -1000 and 1000, inclusive`);
  add(n(kc.podsPerCore) < 0, `podsPerCore (--pods-per-core) ${n(kc.podsPerCore)} must not be a negative number`);
  add(!isPort(kc.port), `port (--port) ${kc.port} must be between 1 and 65535, inclusive`);
  add(kc.readOnlyPort !== 0 && !isPort(kc.readOnlyPort), `readOnlyPort (--read-only-port) ${kc.readOnlyPort} must be between 0 and 65535, inclusive`);
  add(n(kc.registryBurst) < 0, `registryBurst (--registry-burst) ${n(kc.registryBurst)} must not be a negative number`);
  add(n(kc.registryPullQPS) < 0, `registryPullQPS (--registry-qps) ${n(kc.registryPullQPS)} must not be a negative number`);
  const parallel = kc.maxParallelImagePulls;
  add(parallel !== undefined && parallel < 1, `maxParallelImagePulls ${String(parallel)} must be a positive number`);
  add(
    kc.serializeImagePulls && parallel !== undefined && parallel > 1,
    'maxParallelImagePulls cannot be larger than 1 unless SerializeImagePulls (--serialize-image-pulls) is set to false',
  );
  add(
    !!kc.serverTLSBootstrap && !gates.enabled('RotateKubeletServerCertificate'),
    'serverTLSBootstrap true requires feature gate RotateKubeletServerCertificate',
  );
  add(!!kc.runOnce, 'runOnce (--runOnce) true, Runonce mode has been deprecated and should not be set');
  for (const taint of kc.registerWithTaints) {
    if (taintProblem(taint)) errs.push(`invalid taint: ${taintText(taint)}`);
    add(taint.timeAdded !== undefined, 'taint.TimeAdded is not nil');
  }
  const topologyPolicies = ['none', 'best-effort', 'restricted', 'single-numa-node'];
  const policy = kc.topologyManagerPolicy ?? '';
  add(
    !topologyPolicies.includes(policy),
    `topologyManagerPolicy (--topology-manager-policy) ${JSON.stringify(policy)} must be one of: ${goList(topologyPolicies)}`,
  );
  const scope = kc.topologyManagerScope ?? '';
  add(
    scope !== 'container' && scope !== 'pod',
    `topologyManagerScope (--topology-manager-scope) ${JSON.stringify(scope)} must be one of: "container", or "pod"`,
  );
  errs.push(...shutdownErrors(kc, gates));
  const swap = kc.memorySwap?.swapBehavior ?? '';
  if (gates.enabled('NodeSwap')) {
    add(!['', 'NoSwap', 'LimitedSwap'].includes(swap), `memorySwap.swapBehavior ${JSON.stringify(swap)} must be one of: "", "LimitedSwap" or "NoSwap"`);
  } else {
    add(swap !== '', 'memorySwap.swapBehavior cannot be set when NodeSwap feature flag is disabled');
  }
  const maxRestart = kc.crashLoopBackOff?.maxContainerRestartPeriod;
  if (gates.enabled('KubeletCrashLoopBackOffMax')) {
    add(maxRestart === undefined, 'FeatureGate KubeletCrashLoopBackOffMax is enabled, CrashLoopBackOff.MaxContainerRestartPeriod must be set');
    const ms = durationNanos(maxRestart) / MILLISECOND;
    add(
      maxRestart !== undefined && (ms < 1000n || ms > 300000n),
      `CrashLoopBackOff.MaxContainerRestartPeriod (got: ${Number(durationNanos(maxRestart)) / 1e9} seconds) must be set between 1s and 300s`,
    );
  } else {
    add(maxRestart !== undefined, 'FeatureGate KubeletCrashLoopBackOffMax not enabled, CrashLoopBackOff.MaxContainerRestartPeriod must not be set');
  }
  errs.push(...enforcementErrors(kc));
  const hairpin = kc.hairpinMode ?? '';
  add(
    !['none', 'hairpin-veth', 'promiscuous-bridge'].includes(hairpin),
    `option ${JSON.stringify(hairpin)} specified for hairpinMode (--hairpin-mode). Valid options are "none", "hairpin-veth" or "promiscuous-bridge"`,
  );
  errs.push(...imagePullErrors(kc, gates));
  add(
    !!kc.reservedSystemCPUs && (!!kc.systemReservedCgroup || !!kc.kubeReservedCgroup),
    "can't use reservedSystemCPUs (--reserved-cpus) with systemReservedCgroup (--system-reserved-cgroup) or kubeReservedCgroup (--kube-reserved-cgroup)",
  );
  errs.push(...validateLoggingConfiguration(kc.logging, gates.values, 'logging').map(fieldErrorMessage));
  if (kc.tracing) {
    errs.push(
      ...validateTracingConfiguration({ apiVersion: 'v1', kind: 'TracingConfiguration', ...kc.tracing }).map((e) =>
        fieldErrorMessage({ ...e, field: `tracing.${e.field}` }),
      ),
    );
  }
  const factor = kc.memoryThrottlingFactor;
  add(gates.enabled('MemoryQoS') && factor === undefined, 'memoryThrottlingFactor is required when MemoryQoS feature flag is enabled');
  add(factor !== undefined && (factor <= 0 || factor > 1.0), `memoryThrottlingFactor ${String(factor)} must be greater than 0 and less than or equal to 1.0`);
  const reservation = kc.memoryReservationPolicy ?? '';
  add(
    !gates.enabled('MemoryQoS') && reservation === 'TieredReservation',
    'memoryReservationPolicy "TieredReservation" requires MemoryQoS feature gate to be enabled',
  );
  add(
    reservation !== 'None' && reservation !== 'TieredReservation',
    `option ${JSON.stringify(reservation)} specified for memoryReservationPolicy. Valid options are "None" or "TieredReservation"`,
  );
  add(kc.containerRuntimeEndpoint === '', 'the containerRuntimeEndpoint was not specified or empty');
  add(!!kc.enableSystemLogQuery && !gates.enabled('NodeLogQuery'), 'NodeLogQuery feature gate is required for enableSystemLogQuery');
  add(!!kc.enableSystemLogQuery && !kc.enableSystemLogHandler, 'enableSystemLogHandler is required for enableSystemLogQuery');
  add(n(kc.containerLogMaxWorkers) < 1, 'containerLogMaxWorkers must be greater than or equal to 1');
  add(durationNanos(kc.containerLogMonitorInterval) < 3n * SECOND, 'containerLogMonitorInterval must be a positive time duration greater than or equal to 3s');
  add(kc.containerLogMaxFiles <= 1, 'containerLogMaxFiles must be greater than 1');
  errs.push(...podLogsDirErrors(kc.podLogsDir));
  errs.push(...startupErrors(kc));
  return errs;
}

/** `utilerrors.NewAggregate(errs).Error()`: one message alone, several in brackets, duplicates once. */
export function aggregateErrorText(errs: readonly string[]): string {
  const unique = [...new Set(errs)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}
