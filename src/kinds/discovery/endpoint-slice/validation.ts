/**
 * EndpointSlice rules of `pkg/apis/discovery/validation/validation.go` (ValidateEndpointSlice) and
 * the v1 defaults of its ports (`SetDefaults_EndpointPort`), with Kubernetes' messages and paths.
 */
import { fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain, isQualifiedName, isValidLabelValue } from '../../../schema/validation/names.js';
import { validateLabels } from '../../../schema/validation/object-meta.js';
import { is4in6, parseIP } from '../../shared/pod-spec/formats.js';
import type { Endpoint, EndpointHints, EndpointSlice } from '../../types/discovery-v1.js';

const ADDRESS_TYPES = ['FQDN', 'IPv4', 'IPv6'];
const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const MAX_TOPOLOGY_LABELS = 16;
const MAX_ADDRESSES = 100;
const MAX_PORTS = 20000;
const MAX_ENDPOINTS = 1000;
const MAX_ZONE_HINTS = 8;
const MAX_NODE_HINTS = 8;

/** `SetDefaults_EndpointPort`: name `""` and protocol TCP. */
export function defaultEndpointSlice(slice: EndpointSlice): void {
  for (const port of slice.ports ?? []) {
    port.name ??= '';
    port.protocol ??= 'TCP';
  }
}

const invalidEach = (path: string, value: string, msgs: string[]): FieldError[] => msgs.map((m) => fieldError.invalid(path, value, m));

/** `IsValidIPv4Address` / `IsValidIPv6Address`, then `ValidateEndpointIP`. */
function validateAddressIP(address: string, family: 4 | 6, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const ip = parseIP(address);
  const isV4 = ip !== undefined && (ip.bytes.length === 4 || is4in6(ip));
  if (family === 4 && (!ip || !isV4)) errs.push(fieldError.invalid(path, address, 'must be a valid IPv4 address'));
  if (family === 6 && (!ip || isV4)) errs.push(fieldError.invalid(path, address, 'must be a valid IPv6 address'));
  if (!ip) {
    errs.push(fieldError.invalid(path, address, 'must be a valid IP address'));
    return errs;
  }
  const b = isV4 ? ip.bytes.slice(-4) : ip.bytes;
  if (b.every((x) => x === 0)) errs.push(fieldError.invalid(path, address, `may not be unspecified (${address})`));
  const loopback = isV4 ? b[0] === 127 : b.slice(0, 15).every((x) => x === 0) && b[15] === 1;
  if (loopback) errs.push(fieldError.invalid(path, address, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  const linkLocalUnicast = isV4 ? b[0] === 169 && b[1] === 254 : b[0] === 0xfe && (b[1]! & 0xc0) === 0x80;
  if (linkLocalUnicast) errs.push(fieldError.invalid(path, address, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  const linkLocalMulticast = isV4 ? b[0] === 224 && b[1] === 0 && b[2] === 0 : b[0] === 0xff && (b[1]! & 0x0f) === 0x02;
  if (linkLocalMulticast) errs.push(fieldError.invalid(path, address, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

/** `IsFullyQualifiedDomainName`: the first problem only, messages joined with `,`. */
function validateFQDN(name: string, path: string): FieldError[] {
  if (name.length === 0) return [fieldError.required(path)];
  const trimmed = name.endsWith('.') ? name.slice(0, -1) : name;
  const sub = isDNS1123Subdomain(trimmed);
  if (sub.length) return [fieldError.invalid(path, trimmed, sub.join(','))];
  const labels = trimmed.split('.');
  if (labels.length < 2) return [fieldError.invalid(path, trimmed, 'should be a domain with at least two segments separated by dots')];
  for (const label of labels) {
    const msgs = isDNS1123Label(label);
    if (msgs.length) return [fieldError.invalid(path, label, msgs.join(','))];
  }
  return [];
}

function validateHints(hints: EndpointHints, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const zones = hints.forZones ?? [];
  if (zones.length > MAX_ZONE_HINTS) return [fieldError.tooMany(`${path}.forZones`, zones.length, MAX_ZONE_HINTS)];
  const zoneNames = new Set<string>();
  zones.forEach((z, i) => {
    const p = `${path}.forZones[${i}].name`;
    if (zoneNames.has(z.name)) errs.push(fieldError.duplicate(p, z.name));
    else zoneNames.add(z.name);
    errs.push(...invalidEach(p, z.name, isValidLabelValue(z.name)));
  });
  const nodes = hints.forNodes ?? [];
  if (nodes.length > MAX_NODE_HINTS) return [...errs, fieldError.tooMany(`${path}.forNodes`, nodes.length, MAX_NODE_HINTS)];
  const nodeNames = new Set<string>();
  nodes.forEach((n, i) => {
    const p = `${path}.forNodes[${i}].name`;
    if (nodeNames.has(n.name)) errs.push(fieldError.duplicate(p, n.name));
    else nodeNames.add(n.name);
    errs.push(...invalidEach(p, n.name, isDNS1123Subdomain(n.name)));
  });
  return errs;
}

function validateEndpoints(endpoints: readonly Endpoint[], addressType: string): FieldError[] {
  if (endpoints.length > MAX_ENDPOINTS) return [fieldError.tooMany('endpoints', endpoints.length, MAX_ENDPOINTS)];
  const errs: FieldError[] = [];
  endpoints.forEach((ep, i) => {
    const p = `endpoints[${i}]`;
    const addresses = ep.addresses ?? [];
    if (addresses.length === 0) errs.push(fieldError.required(`${p}.addresses`, 'must contain at least 1 address'));
    else if (addresses.length > MAX_ADDRESSES) errs.push(fieldError.tooMany(`${p}.addresses`, addresses.length, MAX_ADDRESSES));
    addresses.forEach((address, j) => {
      const ap = `${p}.addresses[${j}]`;
      // Unknown address types fall through unvalidated.
      if (addressType === 'IPv4') errs.push(...validateAddressIP(address, 4, ap));
      else if (addressType === 'IPv6') errs.push(...validateAddressIP(address, 6, ap));
      else if (addressType === 'FQDN') errs.push(...validateFQDN(address, ap));
    });
    if (ep.nodeName !== undefined && ep.nodeName !== null) errs.push(...invalidEach(`${p}.nodeName`, ep.nodeName, isDNS1123Subdomain(ep.nodeName)));
    const topology = ep.deprecatedTopology ?? {};
    const size = Object.keys(topology).length;
    if (size > MAX_TOPOLOGY_LABELS) errs.push(fieldError.tooMany(`${p}.deprecatedTopology`, size, MAX_TOPOLOGY_LABELS));
    errs.push(...validateLabels(topology, `${p}.deprecatedTopology`));
    if (ep.hostname !== undefined && ep.hostname !== null) errs.push(...invalidEach(`${p}.hostname`, ep.hostname, isDNS1123Label(ep.hostname)));
    if (ep.hints) errs.push(...validateHints(ep.hints, `${p}.hints`));
  });
  return errs;
}

function validatePorts(slice: EndpointSlice): FieldError[] {
  const ports = slice.ports ?? [];
  if (ports.length > MAX_PORTS) return [fieldError.tooMany('ports', ports.length, MAX_PORTS)];
  const errs: FieldError[] = [];
  const names = new Set<string>();
  ports.forEach((port, i) => {
    const p = `ports[${i}]`;
    const name = port.name ?? '';
    if (name.length > 0) errs.push(...invalidEach(`${p}.name`, name, isDNS1123Label(name)));
    if (names.has(name)) errs.push(fieldError.duplicate(`${p}.name`, name));
    else names.add(name);
    if (port.protocol === undefined || port.protocol === null) errs.push(fieldError.required(`${p}.protocol`));
    else if (!PROTOCOLS.includes(port.protocol)) errs.push(fieldError.notSupported(`${p}.protocol`, port.protocol, PROTOCOLS));
    if (port.appProtocol !== undefined && port.appProtocol !== null)
      errs.push(...invalidEach(`${p}.appProtocol`, port.appProtocol, isQualifiedName(port.appProtocol)));
  });
  return errs;
}

/** `ValidateEndpointSlice` (the same on create and update; addressType's immutability is declared). */
export function validateEndpointSlice(slice: EndpointSlice): FieldError[] {
  const errs: FieldError[] = [];
  const addressType = slice.addressType ?? '';
  if (!addressType) errs.push(fieldError.required('addressType'));
  else if (!ADDRESS_TYPES.includes(addressType)) errs.push(fieldError.notSupported('addressType', addressType, ADDRESS_TYPES));
  errs.push(...validateEndpoints(slice.endpoints ?? [], addressType));
  errs.push(...validatePorts(slice));
  return errs;
}
