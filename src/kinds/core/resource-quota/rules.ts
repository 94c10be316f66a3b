/**
 * ResourceQuota validation of Kubernetes v1.36 (`pkg/apis/core/validation/validation.go`:
 * `ValidateResourceQuotaSpec`, `validateResourceQuotaScopes`, `validateScopeSelector`,
 * `ValidateResourceQuotaStatus`, `ValidateResourceQuotaUpdate`; scope rules of
 * `pkg/apis/core/helper/helpers.go`) and the REQUEST and LIMIT cells of `printResourceQuota`.
 * Kubernetes walks `hard` in map order; memkube walks it in the object's order.
 */
import { child, fieldError, key, type FieldError } from '../../../machinery/field-errors.js';
import { compareGoStrings } from '../../../selectors/label-selector.js';
import type { ResourceQuota, ResourceQuotaSpec, ResourceQuotaStatus } from '../../types/core-v1.js';
import { quantityText, quantityValue } from '../../shared/resource-lists.js';
import { isStandardQuotaResourceName, quantityValueErrors, quotaResourceNameErrors } from '../resource-names.js';

type ResourceList = Record<string, string | number>;

const SCOPES = ['Terminating', 'NotTerminating', 'BestEffort', 'NotBestEffort', 'PriorityClass', 'CrossNamespacePodAffinity', 'VolumeAttributesClass'];
const POD_COMPUTE = new Set(['cpu', 'limits.cpu', 'limits.memory', 'memory', 'requests.cpu', 'requests.memory']);

/** `IsResourceQuotaScopeValidForResource`. */
function scopeValidFor(scope: string, resource: string): boolean {
  switch (scope) {
    case 'Terminating':
    case 'NotTerminating':
    case 'NotBestEffort':
    case 'PriorityClass':
    case 'CrossNamespacePodAffinity':
      return resource === 'pods' || POD_COMPUTE.has(resource);
    case 'BestEffort':
      return resource === 'pods';
    case 'VolumeAttributesClass':
      return resource === 'persistentvolumeclaims' || resource === 'requests.storage';
    default:
      return true;
  }
}

const CONFLICTING = [
  ['BestEffort', 'NotBestEffort'],
  ['Terminating', 'NotTerminating'],
];

/** The names of `hard` sorted, as `sets.List` gives them. */
const hardNames = (spec: ResourceQuotaSpec) => Object.keys(spec.hard ?? {}).sort(compareGoStrings);

/** `validateResourceQuotaScopes`. */
function scopesErrors(spec: ResourceQuotaSpec, path: string): FieldError[] {
  const scopes = spec.scopes ?? [];
  if (scopes.length === 0) return [];
  const errs: FieldError[] = [];
  const p = child(path, 'scopes');
  for (const scope of scopes) {
    if (!SCOPES.includes(scope)) errs.push(fieldError.invalid(p, scopes, 'unsupported scope'));
    for (const k of hardNames(spec)) {
      if (isStandardQuotaResourceName(k) && !scopeValidFor(scope, k)) errs.push(fieldError.invalid(p, scopes, 'unsupported scope applied to resource'));
    }
  }
  for (const pair of CONFLICTING) if (pair.every((s) => scopes.includes(s))) errs.push(fieldError.invalid(p, scopes, 'conflicting scopes'));
  return errs;
}

/** `validateScopedResourceSelectorRequirement`. */
function scopeSelectorErrors(spec: ResourceQuotaSpec, path: string): FieldError[] {
  const selector = spec.scopeSelector;
  if (!selector) return [];
  const errs: FieldError[] = [];
  const p = child(child(path, 'scopeSelector'), 'matchExpressions');
  const seen = new Set<string>();
  for (const req of selector.matchExpressions ?? []) {
    const scope = req.scopeName ?? '';
    if (!SCOPES.includes(scope)) errs.push(fieldError.invalid(child(p, 'scopeName'), scope, 'unsupported scope'));
    for (const k of hardNames(spec)) {
      if (isStandardQuotaResourceName(k) && !scopeValidFor(scope, k)) errs.push(fieldError.invalid(p, selector, 'unsupported scope applied to resource'));
    }
    const op = req.operator ?? '';
    if (['BestEffort', 'NotBestEffort', 'Terminating', 'NotTerminating', 'CrossNamespacePodAffinity'].includes(scope) && op !== 'Exists') {
      errs.push(
        fieldError.invalid(
          child(p, 'operator'),
          op,
          "must be 'Exist' when scope is any of ResourceQuotaScopeTerminating, ResourceQuotaScopeNotTerminating, ResourceQuotaScopeBestEffort, ResourceQuotaScopeNotBestEffort or ResourceQuotaScopeCrossNamespacePodAffinity",
        ),
      );
    }
    const values = req.values ?? [];
    switch (op) {
      case 'In':
      case 'NotIn':
        if (values.length === 0)
          errs.push(fieldError.required(child(p, 'values'), "must be at least one value when `operator` is 'In' or 'NotIn' for scope selector"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length !== 0)
          errs.push(fieldError.invalid(child(p, 'values'), values, "must be no value when `operator` is 'Exist' or 'DoesNotExist' for scope selector"));
        break;
      default:
        errs.push(fieldError.invalid(child(p, 'operator'), op, 'not a valid selector operator'));
    }
    seen.add(scope);
  }
  for (const pair of CONFLICTING) {
    if (pair.every((s) => seen.has(s))) errs.push(fieldError.invalid(p, spec.scopes ?? null, 'conflicting scopes'));
  }
  return errs;
}

/** Names and quantities of a resource list (`hard`, `used`). */
function listErrors(list: ResourceList | undefined, path: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const [k, v] of Object.entries(list ?? {})) errs.push(...quotaResourceNameErrors(k, key(path, k)), ...quantityValueErrors(k, v, key(path, k)));
  return errs;
}

/** `ValidateResourceQuotaSpec`. */
export function validateResourceQuotaSpec(spec: ResourceQuotaSpec, path = 'spec'): FieldError[] {
  return [...listErrors(spec.hard as ResourceList | undefined, child(path, 'hard')), ...scopesErrors(spec, path), ...scopeSelectorErrors(spec, path)];
}

/** `ValidateResourceQuotaStatus`. */
export function validateResourceQuotaStatus(status: ResourceQuotaStatus, path = 'status'): FieldError[] {
  return [
    ...listErrors(status.hard as ResourceList | undefined, child(path, 'hard')),
    ...listErrors(status.used as ResourceList | undefined, child(path, 'used')),
  ];
}

/** The scope check of `ValidateResourceQuotaUpdate`: the set of scopes may not change. */
export function scopesUpdateErrors(rq: ResourceQuota, old: Readonly<ResourceQuota>): FieldError[] {
  const next = new Set(rq.spec?.scopes ?? []);
  const prev = new Set(old.spec?.scopes ?? []);
  const same = next.size === prev.size && [...next].every((s) => prev.has(s));
  return same ? [] : [fieldError.invalid('spec.scopes', rq.spec?.scopes ?? null, 'field is immutable')];
}

/** The REQUEST and LIMIT cells of `printResourceQuota`: `name: used/hard` for each hard resource, sorted. */
export function quotaCells(rq: ResourceQuota): { request: string; limit: string } {
  const hard = (rq.status?.hard ?? {}) as ResourceList;
  const used = (rq.status?.used ?? {}) as ResourceList;
  const request: string[] = [];
  const limit: string[] = [];
  for (const name of Object.keys(hard).sort(compareGoStrings)) {
    const text = (v: string | number | undefined) => {
      const q = v === undefined ? undefined : quantityValue(v);
      return q ? quantityText(q) : '0';
    };
    const pieces = name.split('.');
    (pieces.length > 1 && pieces[0] === 'limits' ? limit : request).push(`${name}: ${text(used[name])}/${text(hard[name])}`);
  }
  return { request: request.join(', '), limit: limit.join(', ') };
}
