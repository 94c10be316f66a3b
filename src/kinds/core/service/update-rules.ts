/**
 * `ValidateServiceUpdate` of Kubernetes v1.36 (without ObjectMeta): the transition rules; the kind's
 * `validate` hook runs `ValidateService` on every write.
 */
import { fieldError, index, type FieldError } from '../../../machinery/field-errors.js';
import { FIELD_IMMUTABLE_ERROR_MSG } from '../../../schema/validation/immutable-fields.js';
import type { Service, ServiceSpec } from '../../types/core-v1.js';
import { isHeadless, needsHealthCheck } from './defaults.js';

/** `validateUpgradeDowngradeClusterIPs` on a single-stack cluster. */
function validateClusterIPsUpdate(spec: ServiceSpec, old: Readonly<ServiceSpec>): FieldError[] {
  if (spec.type === 'ExternalName' || old.type === 'ExternalName') return [];
  if (isHeadless(spec) && isHeadless(old)) return [];
  const errors: FieldError[] = [];
  const ips = spec.clusterIPs ?? [];
  const oldIPs = old.clusterIPs ?? [];
  const changed = () => fieldError.invalid('spec.clusterIPs[0]', ips, 'may not change once set');
  if (oldIPs.length === ips.length) {
    oldIPs.forEach((ip, i) => {
      if (ip !== ips[i]) errors.push(fieldError.invalid(index('spec.clusterIPs', i), ips, 'may not change once set'));
    });
  } else if (oldIPs.length > ips.length) {
    if (ips.length === 0) errors.push(fieldError.invalid('spec.clusterIPs[0]', ips, 'primary clusterIP can not be unset'));
    if (ips.length > 0 && oldIPs.length > 0 && ips[0] !== oldIPs[0]) errors.push(changed());
    if (ips.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      errors.push(
        fieldError.invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary clusterIP"),
      );
    }
  } else if (oldIPs.length > 0 && ips[0] !== oldIPs[0]) {
    errors.push(changed());
  }
  return errors;
}

/** `validateUpgradeDowngradeIPFamilies`. */
function validateIPFamiliesUpdate(spec: ServiceSpec, old: Readonly<ServiceSpec>): FieldError[] {
  if (spec.type === 'ExternalName' || old.type === 'ExternalName') return [];
  if (isHeadless(spec) !== isHeadless(old) || isHeadless(spec)) return [];
  const errors: FieldError[] = [];
  const families = spec.ipFamilies ?? [];
  const oldFamilies = old.ipFamilies ?? [];
  if (oldFamilies.length === families.length) {
    oldFamilies.forEach((f, i) => {
      if (f !== families[i]) errors.push(fieldError.invalid('spec.ipFamilies[0]', families, 'may not change once set'));
    });
  } else if (oldFamilies.length > families.length) {
    if (!spec.clusterIPs?.length) errors.push(fieldError.invalid('spec.ipFamilies[0]', families, 'primary ipFamily can not be unset'));
    if (families.length > 0 && families[0] !== oldFamilies[0])
      errors.push(fieldError.invalid('spec.ipFamilies[0]', spec.clusterIPs ?? [], 'may not change once set'));
    if (families.length === 1 && spec.ipFamilyPolicy !== 'SingleStack') {
      errors.push(fieldError.invalid('spec.ipFamilyPolicy', spec.ipFamilyPolicy ?? null, "must be set to 'SingleStack' when releasing the secondary ipFamily"));
    }
  } else if (oldFamilies.length > 0 && families.length > 0 && families[0] !== oldFamilies[0]) {
    errors.push(fieldError.invalid('spec.ipFamilies[0]', spec.clusterIPs ?? [], 'may not change once set'));
  }
  return errors;
}

/** `ValidateServiceUpdate` without ObjectMeta: the transition rules, then `ValidateService`. */
export function validateServiceUpdate(svc: Service, old: Readonly<Service>): FieldError[] {
  const spec = svc.spec ?? {};
  const prev = old.spec ?? {};
  const errors = [...validateClusterIPsUpdate(spec, prev), ...validateIPFamiliesUpdate(spec, prev)];
  if (prev.type === 'LoadBalancer' && spec.type === 'LoadBalancer' && (prev.loadBalancerClass ?? null) !== (spec.loadBalancerClass ?? null)) {
    errors.push(fieldError.invalid('spec.loadBalancerClass', spec.loadBalancerClass ?? null, 'may not change once set'));
  }
  if (needsHealthCheck(prev) && needsHealthCheck(spec) && spec.healthCheckNodePort !== prev.healthCheckNodePort) {
    errors.push(fieldError.forbidden('spec.healthCheckNodePort', FIELD_IMMUTABLE_ERROR_MSG));
  }
  return errors;
}
