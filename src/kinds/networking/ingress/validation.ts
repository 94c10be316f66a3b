/**
 * Ingress rules of `pkg/apis/networking/validation/validation.go` (ValidateIngressCreate,
 * ValidateIngressUpdate, ValidateIngressStatusUpdate), with Kubernetes' messages and paths.
 */
import { fieldError, type FieldError } from '../../../machinery/field-errors.js';
import { isDNS1123Label, isDNS1123Subdomain, isPathSegmentName } from '../../../schema/validation/names.js';
import { isValidPortName, isValidPortNum, legacyIPErrors } from '../../shared/pod-spec/formats.js';
import type { Ingress, IngressBackend, IngressRule } from '../../types/networking-v1.js';
import { isIPSloppy, isWildcardDNS1123Subdomain } from '../formats.js';

type Spec = NonNullable<Ingress['spec']>;

interface Options {
  /** spec.tls[*].secretName values that are not Secret names are allowed (the stored object has one). */
  allowInvalidSecretName: boolean;
  /** Rules of wildcard hosts are not validated (the stored object has an invalid one). */
  allowInvalidWildcardHostRule: boolean;
}

const STRICT: Options = { allowInvalidSecretName: false, allowInvalidWildcardHostRule: false };
const PATH_TYPES = ['Exact', 'ImplementationSpecific', 'Prefix'];
const INVALID_SEQUENCES = ['//', '/./', '/../', '%2f', '%2F'];
const INVALID_SUFFIXES = ['/..', '/.'];

const invalidEach = (path: string, value: string, msgs: string[]): FieldError[] => msgs.map((m) => fieldError.invalid(path, value, m));

function validateBackend(backend: IngressBackend, path: string): FieldError[] {
  const { resource, service } = backend;
  if (resource && service) return [fieldError.invalid(path, '', 'cannot set both resource and service backends')];
  if (resource) {
    const p = `${path}.resource`;
    const errs: FieldError[] = [];
    if (resource.apiGroup !== undefined && resource.apiGroup !== null)
      errs.push(...invalidEach(`${p}.apiGroup`, resource.apiGroup, isDNS1123Subdomain(resource.apiGroup)));
    if (!resource.kind) errs.push(fieldError.required(`${p}.kind`));
    else errs.push(...invalidEach(`${p}.kind`, resource.kind, isPathSegmentName(resource.kind)));
    if (!resource.name) errs.push(fieldError.required(`${p}.name`));
    else errs.push(...invalidEach(`${p}.name`, resource.name, isPathSegmentName(resource.name)));
    return errs;
  }
  if (service) {
    const errs: FieldError[] = [];
    const name = service.name ?? '';
    // RelaxedServiceNameValidation is on by default in v1.36: a DNS-1123 label.
    if (!name) errs.push(fieldError.required(`${path}.service.name`));
    else errs.push(...invalidEach(`${path}.service.name`, name, isDNS1123Label(name)));
    const portName = service.port?.name ?? '';
    const portNumber = service.port?.number ?? 0;
    if (portName && portNumber) errs.push(fieldError.invalid(path, '', 'cannot set both port name & port number'));
    else if (portName) errs.push(...invalidEach(`${path}.service.port.name`, portName, isValidPortName(portName)));
    else if (portNumber) errs.push(...isValidPortNum(portNumber).map((m) => fieldError.invalid(`${path}.service.port.number`, portNumber, m)));
    else errs.push(fieldError.required(path, 'port name or number is required'));
    return errs;
  }
  return [fieldError.invalid(path, '', 'resource or service backend is required')];
}

function validateRuleValue(rule: IngressRule, path: string): FieldError[] {
  if (!rule.http) return [];
  const errs: FieldError[] = [];
  const paths = rule.http.paths ?? [];
  if (paths.length === 0) errs.push(fieldError.required(`${path}.http.paths`));
  paths.forEach((p, i) => {
    const pp = `${path}.http.paths[${i}]`;
    if (p.pathType === undefined || p.pathType === null) {
      errs.push(fieldError.required(`${pp}.pathType`, 'pathType must be specified'));
      return;
    }
    const value = p.path ?? '';
    switch (p.pathType) {
      case 'Exact':
      case 'Prefix':
        if (!value.startsWith('/')) errs.push(fieldError.invalid(`${pp}.path`, value, 'must be an absolute path'));
        if (value.length > 0) {
          for (const seq of INVALID_SEQUENCES) if (value.includes(seq)) errs.push(fieldError.invalid(`${pp}.path`, value, `must not contain '${seq}'`));
          for (const suf of INVALID_SUFFIXES) if (value.endsWith(suf)) errs.push(fieldError.invalid(`${pp}.path`, value, `cannot end with '${suf}'`));
        }
        break;
      case 'ImplementationSpecific':
        if (value.length > 0 && !value.startsWith('/')) errs.push(fieldError.invalid(`${pp}.path`, value, 'must be an absolute path'));
        break;
      default:
        errs.push(fieldError.notSupported(`${pp}.pathType`, p.pathType, PATH_TYPES));
    }
    errs.push(...validateBackend(p.backend ?? {}, `${pp}.backend`));
  });
  return errs;
}

function validateRules(rules: readonly IngressRule[], opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  rules.forEach((rule, i) => {
    const path = `spec.rules[${i}]`;
    const host = rule.host ?? '';
    let wildcard = false;
    if (host.length > 0) {
      if (isIPSloppy(host)) errs.push(fieldError.invalid(`${path}.host`, host, 'must be a DNS name, not an IP address'));
      if (host.includes('*')) {
        errs.push(...invalidEach(`${path}.host`, host, isWildcardDNS1123Subdomain(host)));
        wildcard = true;
      } else {
        errs.push(...invalidEach(`${path}.host`, host, isDNS1123Subdomain(host)));
      }
    }
    if (!wildcard || !opts.allowInvalidWildcardHostRule) errs.push(...validateRuleValue(rule, path));
  });
  return errs;
}

/** `validateTLSSecretName`: empty is allowed, otherwise a Secret name. */
const tlsSecretNameErrors = (name: string | undefined): string[] => (name ? isDNS1123Subdomain(name) : []);

function validateTLS(spec: Spec, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  (spec.tls ?? []).forEach((tls, i) => {
    (tls.hosts ?? []).forEach((host, j) => {
      const path = `spec.tls[${i}].hosts[${j}]`;
      errs.push(...invalidEach(path, host, host.includes('*') ? isWildcardDNS1123Subdomain(host) : isDNS1123Subdomain(host)));
    });
    if (!opts.allowInvalidSecretName) errs.push(...invalidEach(`spec.tls[${i}].secretName`, tls.secretName ?? '', tlsSecretNameErrors(tls.secretName)));
  });
  return errs;
}

/** `ValidateIngressSpec`. */
function validateSpec(spec: Spec, opts: Options): FieldError[] {
  const errs: FieldError[] = [];
  const rules = spec.rules ?? [];
  if (rules.length === 0 && !spec.defaultBackend) {
    errs.push(fieldError.invalid('spec', spec.rules ?? null, 'either `defaultBackend` or `rules` must be specified'));
  }
  if (spec.defaultBackend) errs.push(...validateBackend(spec.defaultBackend, 'spec.defaultBackend'));
  if (rules.length > 0) errs.push(...validateRules(rules, opts));
  if ((spec.tls ?? []).length > 0) errs.push(...validateTLS(spec, opts));
  if (spec.ingressClassName !== undefined && spec.ingressClassName !== null) {
    errs.push(...invalidEach('spec.ingressClassName', spec.ingressClassName, isDNS1123Subdomain(spec.ingressClassName)));
  }
  return errs;
}

/** `ValidateIngressCreate`: the spec, and the class annotation agreeing with `ingressClassName`. */
export function validateIngressCreate(ing: Ingress, reservedDomain: string): FieldError[] {
  const errs = validateSpec(ing.spec ?? {}, STRICT);
  const key = `${reservedDomain}/ingress.class`;
  const annotation = ing.metadata?.annotations?.[key];
  const className = ing.spec?.ingressClassName;
  if (annotation !== undefined && className !== undefined && className !== null && annotation !== className) {
    errs.push(fieldError.invalid(`annotations.${key}`, annotation, 'must match `ingressClassName` when both are specified'));
  }
  return errs;
}

/** `ValidateIngressUpdate`: the spec, tolerating what the stored object already got away with. */
export function validateIngressUpdate(ing: Ingress, old: Readonly<Ingress>): FieldError[] {
  const oldSpec = old.spec ?? {};
  const opts: Options = {
    allowInvalidSecretName: (oldSpec.tls ?? []).some((t) => tlsSecretNameErrors(t.secretName).length > 0),
    allowInvalidWildcardHostRule: (oldSpec.rules ?? []).some((r) => (r.host ?? '').includes('*') && validateRuleValue(r, '').length > 0),
  };
  return validateSpec(ing.spec ?? {}, opts);
}

/** `ValidateIngressStatusUpdate` (`ValidateIngressLoadBalancerStatus`). */
export function validateIngressStatus(ing: Ingress, old: Readonly<Ingress>): FieldError[] {
  const existing = (old.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? '').filter((ip) => ip.length > 0);
  const errs: FieldError[] = [];
  (ing.status?.loadBalancer?.ingress ?? []).forEach((lb, i) => {
    const path = `status.loadBalancer.ingress[${i}]`;
    if (lb.ip) errs.push(...legacyIPErrors(lb.ip, `${path}.ip`, existing));
    if (lb.hostname) {
      errs.push(...invalidEach(`${path}.hostname`, lb.hostname, isDNS1123Subdomain(lb.hostname)));
      if (isIPSloppy(lb.hostname)) errs.push(fieldError.invalid(`${path}.hostname`, lb.hostname, 'must be a DNS name, not an IP address'));
    }
  });
  return errs;
}
