/**
 * Endpoints validation of Kubernetes v1.36 (`pkg/apis/core/validation/validation.go`:
 * `ValidateEndpoints`, `validateEndpointSubsets`, `validateEndpointAddress`, `ValidateEndpointIP`,
 * `validateEndpointPort`), in Kubernetes' order. ObjectMeta is checked by the engine.
 */
import { child, fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import { isDNS1123Subdomain } from '../../../schema/validation/names.js';
import type { EndpointAddress, EndpointPort, Endpoints } from '../../types/core-v1.js';
import { dns1123LabelErrors, ipBytes, isValidPortNum, legacyIPErrors, qualifiedNameErrors } from '../../shared/pod-spec/formats.js';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];

/** `ValidateEndpointIP`: no unspecified, loopback, link-local or link-local multicast address. */
export function endpointIPErrors(value: string, path: string): FieldError[] {
  let bytes = ipBytes(value);
  if (!bytes) return [fieldError.invalid(path, value, 'must be a valid IP address')];
  // Go's net.IP checks see an IPv4-mapped IPv6 address as the IPv4 address.
  if (bytes.length === 16 && bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) bytes = bytes.slice(12);
  const errs: FieldError[] = [];
  const v4 = bytes.length === 4;
  if (bytes.every((b) => b === 0)) errs.push(fieldError.invalid(path, value, `may not be unspecified (${value})`));
  const loopback = v4 ? bytes[0] === 127 : bytes.slice(0, 15).every((b) => b === 0) && bytes[15] === 1;
  if (loopback) errs.push(fieldError.invalid(path, value, 'may not be in the loopback range (127.0.0.0/8, ::1/128)'));
  const linkLocal = v4 ? bytes[0] === 169 && bytes[1] === 254 : bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80;
  if (linkLocal) errs.push(fieldError.invalid(path, value, 'may not be in the link-local range (169.254.0.0/16, fe80::/10)'));
  const linkLocalMulticast = v4 ? bytes[0] === 224 && bytes[1] === 0 && bytes[2] === 0 : bytes[0] === 0xff && (bytes[1]! & 0x0f) === 0x02;
  if (linkLocalMulticast) errs.push(fieldError.invalid(path, value, 'may not be in the link-local multicast range (224.0.0.0/24, ff02::/10)'));
  return errs;
}

/** `validateEndpointAddress`. */
function addressErrors(address: EndpointAddress, path: string): FieldError[] {
  const ipPath = child(path, 'ip');
  const ip = address.ip ?? '';
  const errs = legacyIPErrors(ip, ipPath);
  if (address.hostname) errs.push(...dns1123LabelErrors(address.hostname, child(path, 'hostname')));
  if (address.nodeName !== undefined) {
    for (const msg of isDNS1123Subdomain(address.nodeName)) errs.push(fieldError.invalid(child(path, 'nodeName'), address.nodeName, msg));
  }
  errs.push(...endpointIPErrors(ip, ipPath));
  return errs;
}

/** `validateEndpointPort`. */
function portErrors(port: EndpointPort, requireName: boolean, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const name = port.name ?? '';
  if (requireName && !name) errs.push(fieldError.required(child(path, 'name')));
  else if (name) errs.push(...dns1123LabelErrors(name, child(path, 'name')));
  for (const msg of isValidPortNum(port.port ?? 0)) errs.push(fieldError.invalid(child(path, 'port'), port.port ?? 0, msg));
  const protocol = port.protocol ?? '';
  if (!protocol) errs.push(fieldError.required(child(path, 'protocol')));
  else if (!PROTOCOLS.includes(protocol)) errs.push(fieldError.notSupported(child(path, 'protocol'), protocol, PROTOCOLS));
  if (port.appProtocol !== undefined) errs.push(...qualifiedNameErrors(port.appProtocol, child(path, 'appProtocol')));
  return errs;
}

/** `ValidateEndpoints` without ObjectMeta (the engine checks it); the same on create and update. */
export function validateEndpoints(ep: Endpoints): FieldError[] {
  const errs: FieldError[] = [];
  (ep.subsets ?? []).forEach((ss, i) => {
    const path = index('subsets', i);
    const addresses = ss.addresses ?? [];
    const notReady = ss.notReadyAddresses ?? [];
    if (addresses.length === 0 && notReady.length === 0) errs.push(fieldError.required(path, 'must specify `addresses` or `notReadyAddresses`'));
    addresses.forEach((a, j) => errs.push(...addressErrors(a, index(child(path, 'addresses'), j))));
    notReady.forEach((a, j) => errs.push(...addressErrors(a, index(child(path, 'notReadyAddresses'), j))));
    const ports = ss.ports ?? [];
    ports.forEach((p, j) => errs.push(...portErrors(p, ports.length > 1, index(child(path, 'ports'), j))));
  });
  return errs;
}

/**
 * `formatEndpoints` of `kubectl get endpoints`: `ip:port` for each address and port (only the
 * address of a subset without ports), at most three, then `+ N more...`; `<none>` without subsets.
 */
export function formatEndpoints(ep: Endpoints): string {
  const subsets = ep.subsets ?? [];
  if (subsets.length === 0) return '<none>';
  const max = 3;
  const list: string[] = [];
  let more = false;
  let count = 0;
  const add = (text: string): boolean => {
    if (list.length === max) {
      more = true;
      return false;
    }
    list.push(text);
    return true;
  };
  for (const ss of subsets) {
    const addresses = ss.addresses ?? [];
    const ports = ss.ports ?? [];
    if (ports.length === 0) {
      count += addresses.length;
      for (const a of addresses) if (!add(a.ip)) break;
      continue;
    }
    for (const p of ports) {
      count += addresses.length;
      for (const a of addresses) if (!add(joinHostPort(a.ip, p.port))) break;
    }
  }
  const text = list.join(',');
  return more ? `${text} + ${count - max} more...` : text;
}

/** `net.JoinHostPort`: brackets around a host with a colon. */
function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}
