/**
 * Service validation of Kubernetes v1.36: `ValidateService` (without the ObjectMeta part, which
 * the engine checks), with Kubernetes' messages and field paths. Update rules: service-update-rules.ts.
 */
import { child, fieldError, index, key, type FieldError } from '../../../machinery/field-errors.js';
import { inclusiveRangeError, isDNS1123Label, isDNS1123Subdomain, isQualifiedName, maxLenError } from '../../../schema/validation/names.js';
import { validateLabels } from '../../../schema/validation/object-meta.js';
import type { Service, ServicePort, ServiceSpec } from '../../types/core-v1.js';
import { externallyAccessible, isHeadless, needsHealthCheck } from './defaults.js';
import { cidrErrors, ipErrors, ipFamilyOf } from './ip.js';

const SUPPORTED_PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const SUPPORTED_SESSION_AFFINITY = ['ClientIP', 'None'];
const SUPPORTED_TYPES = ['ClusterIP', 'ExternalName', 'LoadBalancer', 'NodePort'];
const SUPPORTED_TRAFFIC_POLICIES = ['Cluster', 'Local'];
const SUPPORTED_IP_FAMILIES = ['IPv4', 'IPv6'];
const SUPPORTED_IP_FAMILY_POLICIES = ['PreferDualStack', 'RequireDualStack', 'SingleStack'];
const TRAFFIC_DISTRIBUTIONS = ['PreferClose', 'PreferSameZone', 'PreferSameNode'];
/** `MaxClientIPServiceAffinitySeconds`: one day. */
const MAX_CLIENT_IP_AFFINITY_SECONDS = 86400;

/** `IsValidPortNum`. */
function portNumErrors(port: number): string[] {
  return port >= 1 && port <= 65535 ? [] : [inclusiveRangeError(1, 65535)];
}

/** `IsValidPortName`: an IANA service name. */
export function portNameErrors(name: string): string[] {
  const errors: string[] = [];
  if (name.length > 15) errors.push(maxLenError(15));
  if (!/^[-a-z0-9]+$/.test(name)) errors.push('must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)');
  if (!/[a-z]/.test(name)) errors.push('must contain at least one letter (a-z)');
  if (name.includes('--')) errors.push('must not contain consecutive hyphens');
  if (name.length > 0 && (name.startsWith('-') || name.endsWith('-'))) errors.push('must not begin or end with a hyphen');
  return errors;
}

function validatePort(sp: ServicePort, requireName: boolean, names: Set<string>, path: string): FieldError[] {
  const errors: FieldError[] = [];
  const name = sp.name ?? '';
  if (requireName && name === '') {
    errors.push(fieldError.required(child(path, 'name')));
  } else if (name !== '') {
    for (const msg of isDNS1123Label(name)) errors.push(fieldError.invalid(child(path, 'name'), name, msg));
    if (names.has(name)) errors.push(fieldError.duplicate(child(path, 'name'), name));
    else names.add(name);
  }
  // `port` is a plain int32 in Go: a missing one is 0, which is out of range.
  const port = sp.port ?? 0;
  for (const msg of portNumErrors(port)) errors.push(fieldError.invalid(child(path, 'port'), port, msg));
  const protocol = sp.protocol ?? '';
  if (protocol === '') errors.push(fieldError.required(child(path, 'protocol')));
  else if (!SUPPORTED_PROTOCOLS.includes(protocol)) errors.push(fieldError.notSupported(child(path, 'protocol'), protocol, SUPPORTED_PROTOCOLS));
  const target = sp.targetPort ?? 0;
  if (typeof target === 'number') {
    for (const msg of portNumErrors(target)) errors.push(fieldError.invalid(child(path, 'targetPort'), target, msg));
  } else {
    for (const msg of portNameErrors(target)) errors.push(fieldError.invalid(child(path, 'targetPort'), target, msg));
  }
  if (sp.appProtocol !== undefined) {
    for (const msg of isQualifiedName(sp.appProtocol)) errors.push(fieldError.invalid(child(path, 'appProtocol'), sp.appProtocol, msg));
  }
  return errors;
}

/** `ValidateServiceClusterIPsRelatedFields`. */
export function validateClusterIPFields(spec: ServiceSpec): FieldError[] {
  if (spec.type === 'ExternalName') return [];
  const errors: FieldError[] = [];
  const ipsPath = 'spec.clusterIPs';
  const ips = spec.clusterIPs ?? [];
  if (spec.clusterIP) {
    if (ips.length === 0) errors.push(fieldError.required(ipsPath));
    else if (ips[0] !== spec.clusterIP) errors.push(fieldError.invalid(ipsPath, ips, 'first value must match `clusterIP`'));
  } else if (ips.length) {
    errors.push(fieldError.invalid(ipsPath, ips, 'must be empty when `clusterIP` is not specified'));
  }
  const seen = new Set<string>();
  (spec.ipFamilies ?? []).forEach((family, i) => {
    if (!SUPPORTED_IP_FAMILIES.includes(family)) errors.push(fieldError.notSupported(index('spec.ipFamilies', i), family, SUPPORTED_IP_FAMILIES));
    if (seen.has(family)) errors.push(fieldError.duplicate(index('spec.ipFamilies', i), family));
    seen.add(family);
  });
  if (spec.ipFamilyPolicy !== undefined && !SUPPORTED_IP_FAMILY_POLICIES.includes(spec.ipFamilyPolicy)) {
    errors.push(fieldError.notSupported('spec.ipFamilyPolicy', spec.ipFamilyPolicy, SUPPORTED_IP_FAMILY_POLICIES));
  }
  let invalidIPs = false;
  ips.forEach((ip, i) => {
    if (i === 0 && ip === 'None') {
      if (ips.length > 1) {
        invalidIPs = true;
        errors.push(fieldError.invalid(ipsPath, ips, "'None' must be the first and only value"));
      }
      return;
    }
    const msgs = ip === '' ? ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)'] : ipErrors(ip);
    if (msgs.length) invalidIPs = true;
    for (const msg of msgs) errors.push(fieldError.invalid(index(ipsPath, i), ip, msg));
  });
  if (ips.length > 2) errors.push(fieldError.invalid(ipsPath, ips, 'may only hold up to 2 values'));
  if (invalidIPs) return errors;
  if (ips.length > 1 && (ips.length !== 2 || ipFamilyOf(ips[0]!) === ipFamilyOf(ips[1]!))) {
    errors.push(fieldError.invalid(ipsPath, ips, 'may specify no more than one IP for each IP family'));
  }
  if (!isHeadless(spec) && ips.length && spec.ipFamilies?.length) {
    ips.forEach((ip, i) => {
      const family = spec.ipFamilies![i];
      if (family === undefined) return;
      const actual = ipFamilyOf(ip);
      if (family === 'IPv4' && actual === 'IPv6')
        errors.push(fieldError.invalid(index(ipsPath, i), ip, `expected an IPv4 value as indicated by \`ipFamilies[${i}]\``));
      if (family === 'IPv6' && actual !== 'IPv6')
        errors.push(fieldError.invalid(index(ipsPath, i), ip, `expected an IPv6 value as indicated by \`ipFamilies[${i}]\``));
    });
  }
  return errors;
}

/** `validateClientIPAffinityConfig`. */
function validateClientIPAffinity(spec: ServiceSpec): FieldError[] {
  const path = 'spec.sessionAffinityConfig';
  const config = spec.sessionAffinityConfig;
  if (!config) return [fieldError.required(path, 'when session affinity type is ClientIP')];
  if (!config.clientIP) return [fieldError.required(child(path, 'clientIP'), 'when session affinity type is ClientIP')];
  const timeout = config.clientIP.timeoutSeconds;
  if (timeout === undefined) return [fieldError.required(child(path, 'clientIP.timeoutSeconds'), 'when session affinity type is ClientIP')];
  if (timeout <= 0 || timeout > MAX_CLIENT_IP_AFFINITY_SECONDS) {
    return [fieldError.invalid(child(path, 'clientIP.timeoutSeconds'), timeout, `must be greater than 0 and less than ${MAX_CLIENT_IP_AFFINITY_SECONDS}`)];
  }
  return [];
}

/** The key a port is unique by: Kubernetes prints an internal ServicePort with only protocol and port set. */
function portKey(sp: ServicePort): Record<string, unknown> {
  return { Name: '', Protocol: sp.protocol ?? '', AppProtocol: null, Port: sp.port ?? 0, TargetPort: 0, NodePort: 0 };
}

/** `ValidateService` without ObjectMeta (the engine checks it). */
export function validateService(svc: Service): FieldError[] {
  const spec = svc.spec ?? {};
  const errors: FieldError[] = [];
  const annotations = svc.metadata?.annotations ?? {};
  const hints = 'service.kubernetes.io/topology-aware-hints';
  const mode = 'service.kubernetes.io/topology-mode';
  if (hints in annotations && mode in annotations && annotations[hints] !== annotations[mode]) {
    errors.push(fieldError.invalid(key('metadata.annotations', mode), annotations[mode], `must match annotations[${hints}] when both are specified`));
  }
  const ports = spec.ports ?? [];
  const headless = isHeadless(spec);
  if (ports.length === 0 && !headless && spec.type !== 'ExternalName') errors.push(fieldError.required('spec.ports'));
  switch (spec.type) {
    case 'LoadBalancer':
    case 'NodePort':
      if (headless) errors.push(fieldError.invalid('spec.clusterIPs[0]', spec.clusterIPs![0], `may not be set to 'None' for ${spec.type} services`));
      break;
    case 'ExternalName': {
      if (spec.clusterIPs?.length) errors.push(fieldError.forbidden('spec.clusterIPs', 'may not be set for ExternalName services'));
      if (spec.ipFamilies?.length) errors.push(fieldError.forbidden('spec.ipFamilies', 'may not be set for ExternalName services'));
      if (spec.ipFamilyPolicy !== undefined) errors.push(fieldError.forbidden('spec.ipFamilyPolicy', 'may not be set for ExternalName services'));
      // A CNAME may end with a dot.
      const cname = (spec.externalName ?? '').replace(/\.$/, '');
      if (cname) for (const msg of isDNS1123Subdomain(cname)) errors.push(fieldError.invalid('spec.externalName', cname, msg));
      else errors.push(fieldError.required('spec.externalName'));
      break;
    }
  }
  const names = new Set<string>();
  ports.forEach((sp, i) => errors.push(...validatePort(sp, ports.length > 1, names, index('spec.ports', i))));
  if (spec.selector) errors.push(...validateLabels(spec.selector, 'spec.selector'));

  const affinity = spec.sessionAffinity ?? '';
  if (affinity === '') errors.push(fieldError.required('spec.sessionAffinity'));
  else if (!SUPPORTED_SESSION_AFFINITY.includes(affinity)) errors.push(fieldError.notSupported('spec.sessionAffinity', affinity, SUPPORTED_SESSION_AFFINITY));
  if (affinity === 'ClientIP') errors.push(...validateClientIPAffinity(spec));
  else if (affinity === 'None' && spec.sessionAffinityConfig) {
    errors.push(fieldError.forbidden('spec.sessionAffinityConfig', 'must not be set when session affinity is None'));
  }

  errors.push(...validateClusterIPFields(spec));
  (spec.externalIPs ?? []).forEach((ip, i) => {
    for (const msg of ipErrors(ip)) errors.push(fieldError.invalid(index('spec.externalIPs', i), ip, msg));
  });

  const type = spec.type ?? '';
  if (type === '') errors.push(fieldError.required('spec.type'));
  else if (!SUPPORTED_TYPES.includes(type)) errors.push(fieldError.notSupported('spec.type', type, SUPPORTED_TYPES));
  if (type === 'ClusterIP') {
    ports.forEach((sp, i) => {
      if (sp.nodePort) errors.push(fieldError.forbidden(`spec.ports[${i}].nodePort`, "may not be used when `type` is 'ClusterIP'"));
    });
  }
  const nodePorts = new Set<string>();
  ports.forEach((sp, i) => {
    if (!sp.nodePort) return;
    const k = `${sp.protocol ?? ''}/${sp.nodePort}`;
    if (nodePorts.has(k)) errors.push(fieldError.duplicate(`spec.ports[${i}].nodePort`, sp.nodePort));
    nodePorts.add(k);
  });
  const seenPorts = new Set<string>();
  ports.forEach((sp, i) => {
    const k = `${sp.protocol ?? ''}/${sp.port ?? 0}`;
    if (seenPorts.has(k)) errors.push(fieldError.duplicate(index('spec.ports', i), portKey(sp)));
    seenPorts.add(k);
  });

  const ranges = spec.loadBalancerSourceRanges ?? [];
  const rangesAnnotation = 'service.beta.kubernetes.io/load-balancer-source-ranges';
  if (ranges.length) {
    if (type !== 'LoadBalancer') errors.push(fieldError.forbidden('spec.LoadBalancerSourceRanges', "may only be used when `type` is 'LoadBalancer'"));
    ranges.forEach((value, i) => {
      const trimmed = value.trim();
      for (const msg of cidrErrors(trimmed)) errors.push(fieldError.invalid(index('spec.LoadBalancerSourceRanges', i), trimmed, msg));
    });
  } else if (rangesAnnotation in annotations) {
    const path = key('metadata.annotations', rangesAnnotation);
    if (type !== 'LoadBalancer') errors.push(fieldError.forbidden(path, "may only be used when `type` is 'LoadBalancer'"));
    const value = (annotations[rangesAnnotation] ?? '').trim();
    if (value) {
      for (const part of value.split(',')) {
        for (const msg of cidrErrors(part.trim())) errors.push(fieldError.invalid(path, part.trim(), msg));
      }
    }
  }
  if (spec.allocateLoadBalancerNodePorts !== undefined && type !== 'LoadBalancer') {
    errors.push(fieldError.forbidden('spec.allocateLoadBalancerNodePorts', "may only be used when `type` is 'LoadBalancer'"));
  }
  if (type === 'LoadBalancer' && spec.allocateLoadBalancerNodePorts === undefined) errors.push(fieldError.required('allocateLoadBalancerNodePorts'));
  errors.push(...validateLoadBalancerClass(spec));
  errors.push(...validateExternalTrafficPolicy(spec));
  if (spec.internalTrafficPolicy === undefined) {
    if (type === 'NodePort' || type === 'LoadBalancer' || type === 'ClusterIP') errors.push(fieldError.required('spec.internalTrafficPolicy'));
  } else if (!SUPPORTED_TRAFFIC_POLICIES.includes(spec.internalTrafficPolicy)) {
    errors.push(fieldError.notSupported('spec.internalTrafficPolicy', spec.internalTrafficPolicy, SUPPORTED_TRAFFIC_POLICIES));
  }
  if (spec.trafficDistribution !== undefined && !TRAFFIC_DISTRIBUTIONS.includes(spec.trafficDistribution)) {
    errors.push(fieldError.notSupported('spec.trafficDistribution', spec.trafficDistribution, TRAFFIC_DISTRIBUTIONS));
  }
  return errors;
}

function validateExternalTrafficPolicy(spec: ServiceSpec): FieldError[] {
  const errors: FieldError[] = [];
  const policy = spec.externalTrafficPolicy ?? '';
  if (!externallyAccessible(spec)) {
    if (policy !== '') errors.push(fieldError.invalid('spec.externalTrafficPolicy', policy, 'may only be set for externally-accessible services'));
  } else if (policy === '') {
    errors.push(fieldError.required('spec.externalTrafficPolicy'));
  } else if (!SUPPORTED_TRAFFIC_POLICIES.includes(policy)) {
    errors.push(fieldError.notSupported('spec.externalTrafficPolicy', policy, SUPPORTED_TRAFFIC_POLICIES));
  }
  const hc = spec.healthCheckNodePort ?? 0;
  if (!needsHealthCheck(spec)) {
    if (hc !== 0)
      errors.push(fieldError.invalid('spec.healthCheckNodePort', hc, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"));
  } else if (hc === 0) {
    errors.push(fieldError.required('spec.healthCheckNodePort'));
  } else {
    for (const msg of portNumErrors(hc)) errors.push(fieldError.invalid('spec.healthCheckNodePort', hc, msg));
  }
  return errors;
}

function validateLoadBalancerClass(spec: ServiceSpec): FieldError[] {
  const errors: FieldError[] = [];
  if (spec.type === 'LoadBalancer') {
    if (spec.loadBalancerClass !== undefined) {
      for (const msg of isQualifiedName(spec.loadBalancerClass)) errors.push(fieldError.invalid('spec.loadBalancerClass', spec.loadBalancerClass, msg));
    }
  } else if (spec.loadBalancerClass !== undefined) {
    errors.push(fieldError.forbidden('spec.loadBalancerClass', "may only be used when `type` is 'LoadBalancer'"));
  }
  return errors;
}
