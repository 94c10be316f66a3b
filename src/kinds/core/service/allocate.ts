/**
 * What Kubernetes' Service storage does before a Service is written: IP family fields
 * (`initIPFamilyFields`, for a single-stack IPv4 cluster), cluster IPs, node ports and the health
 * check node port. A failure is the 422 (or, for an exhausted range, 500) Kubernetes answers with,
 * before any other validation runs.
 */
import { internalError, invalid } from '../../../machinery/errors.js';
import { fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import type { KindContext } from '../../../schema/define-kind.js';
import type { Service, ServiceSpec } from '../../types/core-v1.js';
import { ServiceAllocator } from './allocator.js';
import { CLUSTER_IP_NONE, isHeadless, needsClusterIP, needsHealthCheck, needsNodePorts } from './defaults.js';
import { ipErrors, ipFamilyOf } from './ip.js';
import { validateClusterIPFields } from './rules.js';

function fail(svc: Service, errors: FieldError[]): never {
  throw invalid({ group: '', kind: 'Service' }, svc.metadata?.name ?? '', errors);
}

/** `initIPFamilyFields` on a cluster that serves IPv4 only. `old` is the stored Service of an update. */
function initIPFamilyFields(svc: Service, old: Readonly<Service> | undefined): void {
  const spec = svc.spec ?? {};
  if (!needsClusterIP(spec)) return;
  // Headless Services without a selector may be dual-stack even on a single-stack cluster.
  const headlessSelectorless = spec.clusterIP === CLUSTER_IP_NONE && Object.keys(spec.selector ?? {}).length === 0;
  if (spec.ipFamilyPolicy === undefined) {
    if (old?.spec?.ipFamilyPolicy !== undefined) spec.ipFamilyPolicy = old.spec.ipFamilyPolicy;
    else spec.ipFamilyPolicy = headlessSelectorless ? 'RequireDualStack' : 'SingleStack';
  }
  // A new Service is checked loosely before anything is allocated (an update was validated already).
  if (!old) {
    const errors = validateClusterIPFields(spec);
    if (errors.length) fail(svc, errors);
  }
  const errors: FieldError[] = [];
  const ips = spec.clusterIPs ?? [];
  const families = [...(spec.ipFamilies ?? [])];
  if (spec.ipFamilyPolicy === 'SingleStack') {
    if (ips.length === 2)
      errors.push(
        fieldError.invalid(
          'spec.ipFamilyPolicy',
          spec.ipFamilyPolicy,
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple cluster IPs are specified",
        ),
      );
    if (families.length === 2)
      errors.push(
        fieldError.invalid(
          'spec.ipFamilyPolicy',
          spec.ipFamilyPolicy,
          "must be 'RequireDualStack' or 'PreferDualStack' when multiple IP families are specified",
        ),
      );
  }
  // Families follow the requested IPs where none were given; only IPv4 is configured here.
  for (let i = 0; i < ips.length && ips[i] !== CLUSTER_IP_NONE; i++) {
    if (i < families.length) continue;
    const family = ipFamilyOf(ips[i]!) ?? 'IPv4';
    if (family === 'IPv4') families.push(family);
    else errors.push(fieldError.invalid(index('spec.clusterIPs', i), ips, `${family} is not configured on this cluster`));
  }
  if (errors.length) fail(svc, errors);
  if (headlessSelectorless) {
    if (families.length === 0) families.push('IPv4');
    if (families.length < 2 && spec.ipFamilyPolicy !== 'SingleStack') families.push(families[0] === 'IPv4' ? 'IPv6' : 'IPv4');
    spec.ipFamilies = families;
    return;
  }
  if (spec.ipFamilyPolicy === 'RequireDualStack') {
    errors.push(fieldError.invalid('spec.ipFamilyPolicy', 'RequireDualStack', 'this cluster is not configured for dual-stack services'));
  }
  families.forEach((family, i) => {
    if (family !== 'IPv4') errors.push(fieldError.invalid(index('spec.ipFamilies', i), family, 'not configured on this cluster'));
  });
  if (errors.length) fail(svc, errors);
  if (families.length === 0) families.push('IPv4');
  spec.ipFamilies = families;
}

/** Allocates the cluster IP of a Service that needs one and has none, or claims the one it asks for. */
async function allocateClusterIP(svc: Service, alloc: ServiceAllocator): Promise<void> {
  const spec = svc.spec ?? {};
  if (!needsClusterIP(spec) || isHeadless(spec)) return;
  const requested = spec.clusterIPs ?? [];
  if (requested.length === 0) {
    const got = await alloc.allocateIP();
    if ('error' in got) throw internalError(`failed to allocate a serviceIP: ${got.error}`);
    spec.clusterIP = got.value;
    spec.clusterIPs = [got.value];
    return;
  }
  // Malformed or inconsistent requests are left to validation, which words them.
  const ip = requested[0]!;
  if (requested.length > 1 || (spec.clusterIP && spec.clusterIP !== ip) || ipErrors(ip).length) return;
  const got = await alloc.allocateIP(ip);
  if ('error' in got) fail(svc, [fieldError.invalid('spec.clusterIPs', requested, `failed to allocate IP ${ip}: ${got.error}`)]);
}

function shouldAllocateNodePorts(spec: ServiceSpec): boolean {
  return spec.type === 'NodePort' || (spec.type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts !== false);
}

/**
 * Node ports: the ones asked for are claimed, missing ones allocated (ports with the same number,
 * e.g. TCP and UDP 53, share one node port). `kept` are node ports the Service already holds.
 */
async function allocateNodePorts(svc: Service, alloc: ServiceAllocator, kept: ReadonlySet<number>): Promise<void> {
  const spec = svc.spec ?? {};
  if (!needsNodePorts(spec)) return;
  const byServicePort = new Map<number, number>();
  const ports = spec.ports ?? [];
  for (let i = 0; i < ports.length; i++) {
    const port = ports[i]!;
    if (!port.nodePort) {
      if (!shouldAllocateNodePorts(spec)) continue;
      const shared = byServicePort.get(port.port) ?? ports.find((p) => p.port === port.port && p.nodePort)?.nodePort;
      if (shared) {
        port.nodePort = shared;
        if (!kept.has(shared) && ![...byServicePort.values()].includes(shared)) {
          const got = await alloc.allocateNodePort(shared);
          if ('error' in got) fail(svc, [fieldError.invalid(`spec.ports[${i}].nodePort`, shared, got.error)]);
        }
      } else {
        const got = await alloc.allocateNodePort();
        if ('error' in got) throw internalError(`failed to allocate a nodePort: ${got.error}`);
        port.nodePort = got.value;
      }
      byServicePort.set(port.port, port.nodePort);
    } else if (port.nodePort !== byServicePort.get(port.port)) {
      if (!kept.has(port.nodePort)) {
        const got = await alloc.allocateNodePort(port.nodePort);
        if ('error' in got) fail(svc, [fieldError.invalid(`spec.ports[${i}].nodePort`, port.nodePort, got.error)]);
      }
      byServicePort.set(port.port, port.nodePort);
    }
  }
}

async function allocateHealthCheckNodePort(svc: Service, alloc: ServiceAllocator): Promise<void> {
  const spec = svc.spec ?? {};
  if (!spec.healthCheckNodePort) {
    const got = await alloc.allocateNodePort();
    if ('error' in got) throw internalError(`failed to allocate a HealthCheck NodePort 0: ${got.error}`);
    spec.healthCheckNodePort = got.value;
  } else {
    const requested = spec.healthCheckNodePort;
    const got = await alloc.allocateNodePort(requested);
    if ('error' in got) throw internalError(`failed to allocate requested HealthCheck NodePort ${requested}: ${got.error}`);
  }
}

/** Allocation for a new Service. */
export async function allocateForCreate(svc: Service, ctx: KindContext): Promise<void> {
  initIPFamilyFields(svc, undefined);
  const alloc = await ServiceAllocator.for(ctx, svc);
  await allocateClusterIP(svc, alloc);
  await allocateNodePorts(svc, alloc, new Set());
  if (needsHealthCheck(svc.spec ?? {})) await allocateHealthCheckNodePort(svc, alloc);
}

/** Allocation for an update: only what the Service did not hold before. */
export async function allocateForUpdate(svc: Service, old: Readonly<Service>, ctx: KindContext): Promise<void> {
  const spec = svc.spec ?? {};
  const prev = old.spec ?? {};
  initIPFamilyFields(svc, old);
  const alloc = await ServiceAllocator.for(ctx, svc);
  if (!needsClusterIP(prev) && needsClusterIP(spec)) await allocateClusterIP(svc, alloc);
  const kept = new Set(needsNodePorts(prev) ? (prev.ports ?? []).map((p) => p.nodePort ?? 0).filter((p) => p) : []);
  await allocateNodePorts(svc, alloc, kept);
  // Only a Service that starts needing a health check port gets one; changing it is a validation error.
  if (!needsHealthCheck(prev) && needsHealthCheck(spec)) await allocateHealthCheckNodePort(svc, alloc);
}
