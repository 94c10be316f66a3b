/**
 * Service defaults and the strategy's preparation of a write, as in Kubernetes v1.36:
 * `SetDefaults_Service` (v1 defaults), `NormalizeClusterIPs`, `patchAllocatedValues` and
 * `dropTypeDependentFields`.
 */
import { jsonEqual } from '../../../util/json-equal.js';
import type { Service, ServiceSpec } from '../../types/core-v1.js';

export const CLUSTER_IP_NONE = 'None';
/** `DefaultClientIPServiceAffinitySeconds`. */
export const DEFAULT_CLIENT_IP_AFFINITY_SECONDS = 10800;

/** `ExternallyAccessible`: NodePort, LoadBalancer, or ClusterIP with external IPs. */
export function externallyAccessible(spec: ServiceSpec): boolean {
  return spec.type === 'LoadBalancer' || spec.type === 'NodePort' || (spec.type === 'ClusterIP' && (spec.externalIPs?.length ?? 0) > 0);
}

/** Whether the type gets a cluster IP (or `None`): everything but ExternalName. */
export function needsClusterIP(spec: ServiceSpec): boolean {
  return spec.type !== 'ExternalName';
}

/** Whether the type gets node ports. */
export function needsNodePorts(spec: ServiceSpec): boolean {
  return spec.type === 'NodePort' || spec.type === 'LoadBalancer';
}

/** `NeedsHealthCheck`: a LoadBalancer with `externalTrafficPolicy: Local`. */
export function needsHealthCheck(spec: ServiceSpec): boolean {
  return spec.type === 'LoadBalancer' && spec.externalTrafficPolicy === 'Local';
}

/** `clusterIPs: ["None"]`. */
export function isHeadless(spec: ServiceSpec): boolean {
  return spec.clusterIPs?.length === 1 && spec.clusterIPs[0] === CLUSTER_IP_NONE;
}

/** `SetDefaults_Service` (v1). */
export function defaultService(svc: Service): void {
  const spec = (svc.spec ??= {});
  spec.sessionAffinity ||= 'None';
  if (spec.sessionAffinity === 'None') delete spec.sessionAffinityConfig;
  if (spec.sessionAffinity === 'ClientIP' && spec.sessionAffinityConfig?.clientIP?.timeoutSeconds === undefined) {
    spec.sessionAffinityConfig = { clientIP: { timeoutSeconds: DEFAULT_CLIENT_IP_AFFINITY_SECONDS } };
  }
  spec.type ||= 'ClusterIP';
  for (const port of spec.ports ?? []) {
    port.protocol ||= 'TCP';
    if (port.targetPort === undefined || port.targetPort === 0 || port.targetPort === '') port.targetPort = port.port;
  }
  if (externallyAccessible(spec)) spec.externalTrafficPolicy ||= 'Cluster';
  if (spec.internalTrafficPolicy === undefined && (spec.type === 'ClusterIP' || spec.type === 'NodePort' || spec.type === 'LoadBalancer')) {
    spec.internalTrafficPolicy = 'Cluster';
  }
  if (spec.type === 'LoadBalancer') spec.allocateLoadBalancerNodePorts ??= true;
  // ServiceStatus always has a loadBalancer member (a struct, so Kubernetes always serializes it).
  svc.status = { ...svc.status, loadBalancer: svc.status?.loadBalancer ?? {} };
}

/** `NormalizeClusterIPs`: keeps `clusterIP` and `clusterIPs` in step for clients that set only one. */
export function normalizeClusterIPs(spec: ServiceSpec, old: Readonly<ServiceSpec> | undefined): void {
  if (!old) {
    if (spec.clusterIP && !spec.clusterIPs?.length) spec.clusterIPs = [spec.clusterIP];
    return;
  }
  // An old client changed only the singular field: make the plural follow it.
  const pluralUnchanged = jsonEqual(spec.clusterIPs ?? [], old.clusterIPs ?? []);
  if ((spec.clusterIP ?? '') !== (old.clusterIP ?? '') && pluralUnchanged) {
    if (spec.clusterIP) spec.clusterIPs = [spec.clusterIP];
    else delete spec.clusterIPs;
  }
}

/** `patchAllocatedValues`: a PUT that leaves out allocated values keeps them. */
export function patchAllocatedValues(spec: ServiceSpec, old: Readonly<ServiceSpec>): void {
  if (needsClusterIP(old) && needsClusterIP(spec)) {
    if (!spec.clusterIP && old.clusterIP) spec.clusterIP = old.clusterIP;
    if (!spec.clusterIPs?.length && old.clusterIPs?.length) spec.clusterIPs = [...old.clusterIPs];
  }
  if (needsNodePorts(old) && needsNodePorts(spec)) {
    const oldPorts = new Set((old.ports ?? []).map((p) => p.nodePort ?? 0));
    const newPorts = new Set((spec.ports ?? []).map((p) => p.nodePort ?? 0));
    const used = new Set([...oldPorts].filter((p) => newPorts.has(p) && p !== 0));
    const byName = new Map((old.ports ?? []).map((p) => [p.name ?? '', p.nodePort ?? 0]));
    for (const port of spec.ports ?? []) {
      if (port.nodePort) continue;
      const previous = byName.get(port.name ?? '') ?? 0;
      if (previous && !used.has(previous)) port.nodePort = previous;
    }
  }
  if (needsHealthCheck(old) && needsHealthCheck(spec) && !spec.healthCheckNodePort && old.healthCheckNodePort) {
    spec.healthCheckNodePort = old.healthCheckNodePort;
  }
}

/** `dropTypeDependentFields`: a type change drops what only the old type needed (if the user left it as it was). */
export function dropTypeDependentFields(svc: Service, old: Readonly<Service>): void {
  const spec = svc.spec ?? {};
  const prev = old.spec ?? {};
  if (needsClusterIP(prev) && !needsClusterIP(spec)) {
    if (jsonEqual(spec.clusterIPs ?? [], prev.clusterIPs ?? [])) {
      delete spec.clusterIP;
      delete spec.clusterIPs;
    }
    if (jsonEqual(spec.ipFamilies ?? [], prev.ipFamilies ?? [])) delete spec.ipFamilies;
    if (spec.ipFamilyPolicy === prev.ipFamilyPolicy) delete spec.ipFamilyPolicy;
  }
  if (needsNodePorts(prev) && !needsNodePorts(spec)) {
    const same = jsonEqual(
      (spec.ports ?? []).map((p) => p.nodePort ?? 0),
      (prev.ports ?? []).map((p) => p.nodePort ?? 0),
    );
    if (same) for (const port of spec.ports ?? []) delete port.nodePort;
  }
  if (needsHealthCheck(prev) && !needsHealthCheck(spec) && spec.healthCheckNodePort === prev.healthCheckNodePort) {
    delete spec.healthCheckNodePort;
  }
  if (prev.type === 'LoadBalancer' && spec.type !== 'LoadBalancer') {
    if (spec.allocateLoadBalancerNodePorts !== undefined && spec.allocateLoadBalancerNodePorts === prev.allocateLoadBalancerNodePorts) {
      delete spec.allocateLoadBalancerNodePorts;
    }
    if (spec.loadBalancerClass === prev.loadBalancerClass) delete spec.loadBalancerClass;
  }
  if (externallyAccessible(prev) && !externallyAccessible(spec) && spec.externalTrafficPolicy === prev.externalTrafficPolicy) {
    delete spec.externalTrafficPolicy;
  }
  if (spec.type !== 'LoadBalancer') svc.status = { ...svc.status, loadBalancer: {} };
}
