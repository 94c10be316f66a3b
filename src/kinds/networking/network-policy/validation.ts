/**
 * NetworkPolicy rules of `pkg/apis/networking/validation/validation.go` (ValidateNetworkPolicySpec,
 * ValidateNetworkPolicyPort, ValidateNetworkPolicyPeer, ValidateIPBlock) and its v1 defaults
 * (`SetDefaults_NetworkPolicy`, `SetDefaults_NetworkPolicyPort`).
 */
import { fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { validateLabelSelector } from '../../shared/label-selector-validation.js';
import { isValidPortName, isValidPortNum, legacyCIDRErrors } from '../../shared/pod-spec/formats.js';
import type { IPBlock, NetworkPolicy, NetworkPolicyPeer, NetworkPolicyPort } from '../../types/networking-v1.js';
import { parseCIDR } from '../cidr.js';

type Spec = NonNullable<NetworkPolicy['spec']>;

const PROTOCOLS = ['TCP', 'UDP', 'SCTP'];
const POLICY_TYPES = ['Ingress', 'Egress'];

/** The v1 defaults: each port's protocol TCP; policyTypes Ingress (and Egress when egress rules exist). */
export function defaultNetworkPolicy(np: NetworkPolicy): void {
  np.spec ??= {};
  const spec = np.spec;
  // PodSelector is a Go struct, not a pointer: always serialized.
  spec.podSelector ??= {};
  for (const rule of [...(spec.ingress ?? []), ...(spec.egress ?? [])]) {
    for (const port of rule.ports ?? []) port.protocol ??= 'TCP';
  }
  if ((spec.policyTypes ?? []).length === 0) {
    spec.policyTypes = ['Ingress'];
    if ((spec.egress ?? []).length !== 0) spec.policyTypes.push('Egress');
  }
}

/** `ValidateNetworkPolicyPort`. */
function validatePort(port: NetworkPolicyPort, path: string): FieldError[] {
  const errs: FieldError[] = [];
  if (port.protocol !== undefined && port.protocol !== null && !PROTOCOLS.includes(port.protocol)) {
    errs.push(fieldError.notSupported(`${path}.protocol`, port.protocol, PROTOCOLS));
  }
  const endPort = port.endPort;
  const hasEnd = endPort !== undefined && endPort !== null;
  if (port.port !== undefined && port.port !== null) {
    if (typeof port.port === 'number') {
      const p = port.port;
      for (const m of isValidPortNum(p)) errs.push(fieldError.invalid(`${path}.port`, p, m));
      if (hasEnd) {
        if (endPort < p) errs.push(fieldError.invalid(`${path}.endPort`, endPort, 'must be greater than or equal to `port`'));
        for (const m of isValidPortNum(endPort)) errs.push(fieldError.invalid(`${path}.endPort`, endPort, m));
      }
    } else {
      if (hasEnd) errs.push(fieldError.invalid(`${path}.endPort`, endPort, 'may not be specified when `port` is non-numeric'));
      for (const m of isValidPortName(port.port)) errs.push(fieldError.invalid(`${path}.port`, port.port, m));
    }
  } else if (hasEnd) {
    errs.push(fieldError.invalid(`${path}.endPort`, endPort, 'may not be specified when `port` is not specified'));
  }
  return errs;
}

/** Whether the network `outer` strictly contains `inner` (Go's `Contains` of the network address, and a longer prefix). */
function strictSubset(outer: string, inner: string): boolean {
  const o = parseCIDR(outer);
  const i = parseCIDR(inner);
  if (!o || !i) return true;
  if (o.family !== i.family) return false;
  const width = o.family === 'IPv4' ? 32 : 128;
  const oNet = (o.addr >> BigInt(width - o.bits)) << BigInt(width - o.bits);
  const iNet = (i.addr >> BigInt(width - i.bits)) << BigInt(width - i.bits);
  const contains = (iNet >> BigInt(width - o.bits)) << BigInt(width - o.bits) === oNet;
  return contains && o.bits < i.bits;
}

/** `ValidateIPBlock`: CIDRs the stored policy already had are accepted as they are. */
function validateIPBlock(block: IPBlock, path: string, allowed: readonly string[]): FieldError[] {
  if (!block.cidr) return [fieldError.required(`${path}.cidr`)];
  const errs = legacyCIDRErrors(block.cidr, `${path}.cidr`, allowed);
  if (!parseCIDR(block.cidr)) return errs;
  (block.except ?? []).forEach((except, i) => {
    const p = `${path}.except[${i}]`;
    errs.push(...legacyCIDRErrors(except, p, allowed));
    if (!parseCIDR(except)) return;
    if (!strictSubset(block.cidr, except)) errs.push(fieldError.invalid(p, except, 'must be a strict subset of `cidr`'));
  });
  return errs;
}

/** `ValidateNetworkPolicyPeer`. */
function validatePeer(peer: NetworkPolicyPeer, path: string, allowed: readonly string[]): FieldError[] {
  const errs: FieldError[] = [];
  let count = 0;
  if (peer.podSelector) {
    count++;
    errs.push(...validateLabelSelector(peer.podSelector, `${path}.podSelector`));
  }
  if (peer.namespaceSelector) {
    count++;
    errs.push(...validateLabelSelector(peer.namespaceSelector, `${path}.namespaceSelector`));
  }
  if (peer.ipBlock) {
    count++;
    errs.push(...validateIPBlock(peer.ipBlock, `${path}.ipBlock`, allowed));
  }
  if (count === 0) errs.push(fieldError.required(path, 'must specify a peer'));
  else if (count > 1 && peer.ipBlock) errs.push(fieldError.forbidden(path, 'may not specify both ipBlock and another peer'));
  return errs;
}

/** `ValidateNetworkPolicySpec`; `allowed` are the CIDRs of the stored policy (on update). */
export function validateNetworkPolicySpec(spec: Spec, allowed: readonly string[] = []): FieldError[] {
  const errs = validateLabelSelector(spec.podSelector ?? {}, 'spec.podSelector');
  (spec.ingress ?? []).forEach((rule, i) => {
    const p = `spec.ingress[${i}]`;
    (rule.ports ?? []).forEach((port, j) => errs.push(...validatePort(port, `${p}.ports[${j}]`)));
    (rule.from ?? []).forEach((peer, j) => errs.push(...validatePeer(peer, `${p}.from[${j}]`, allowed)));
  });
  (spec.egress ?? []).forEach((rule, i) => {
    const p = `spec.egress[${i}]`;
    (rule.ports ?? []).forEach((port, j) => errs.push(...validatePort(port, `${p}.ports[${j}]`)));
    (rule.to ?? []).forEach((peer, j) => errs.push(...validatePeer(peer, `${p}.to[${j}]`, allowed)));
  });
  const types = spec.policyTypes ?? [];
  if (types.length > POLICY_TYPES.length) {
    errs.push(fieldError.invalid('spec.policyTypes', types, 'may not specify more than two policyTypes'));
    return errs;
  }
  types.forEach((t, i) => {
    if (!POLICY_TYPES.includes(t)) errs.push(fieldError.notSupported(`spec.policyTypes[${i}]`, t, POLICY_TYPES));
  });
  return errs;
}

/** The CIDRs (and excepts) of a stored policy, which an update may keep even when invalid now. */
export function existingCIDRs(np: Readonly<NetworkPolicy>): string[] {
  const out: string[] = [];
  const peers = [...(np.spec?.ingress ?? []).flatMap((r) => r.from ?? []), ...(np.spec?.egress ?? []).flatMap((r) => r.to ?? [])];
  for (const peer of peers) {
    if (peer.ipBlock) out.push(peer.ipBlock.cidr, ...(peer.ipBlock.except ?? []));
  }
  return out;
}
