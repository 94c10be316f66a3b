/**
 * Validation of container and pod-level resources (`validateResourceRequirements`,
 * `ValidateContainerResourceName`, `ValidateResourceQuantityValue`, resource claims).
 */
import { child, fieldError, index, key, type FieldError } from '../../../machinery/field-errors.js';
import { isQualifiedName } from '../../../schema/validation/names.js';
import type { ResourceRequirements } from '../../types/core-v1.js';
import { dns1123LabelErrors } from './formats.js';
import { quantityIntegerValue, quantityText, quantityValue } from '../resource-lists.js';
import { INTEGER_RESOURCES, STANDARD_RESOURCES } from '../standard-resources.js';

const isHugePages = (name: string) => name.startsWith('hugepages-');
const isNative = (name: string) => !name.includes('/') || name.includes('kubernetes.io/');
const isOvercommitAllowed = (name: string) => isNative(name) && !isHugePages(name);

/** `ValidateContainerResourceName` (also the HorizontalPodAutoscaler's container resource metrics). */
export function containerResourceNameErrors(name: string, path: string): FieldError[] {
  const qualified = isQualifiedName(name);
  if (qualified.length) return qualified.map((msg) => fieldError.invalid(path, name, msg));
  if (!name.includes('/')) {
    if (!STANDARD_RESOURCES.has(name) && !isHugePages(name) && !name.startsWith('requests.hugepages-'))
      return [fieldError.invalid(path, name, 'must be a standard resource type or fully qualified')];
    if (!['cpu', 'memory', 'ephemeral-storage'].includes(name) && !isHugePages(name))
      return [fieldError.invalid(path, name, 'must be a standard resource for containers')];
    return [];
  }
  if (!isNative(name) && (name.startsWith('requests.') || isQualifiedName(`requests.${name}`).length > 0)) {
    return [fieldError.invalid(path, name, "doesn't follow extended resource name standard")];
  }
  return [];
}

/** `ValidateResourceQuantityValue`. */
export function resourceQuantityErrors(name: string, value: string | number, path: string): FieldError[] {
  const q = quantityValue(value);
  if (!q) return [];
  const errs: FieldError[] = [];
  if (q.nanos < 0n) errs.push(fieldError.invalid(path, quantityText(q), 'must be greater than or equal to 0'));
  if (INTEGER_RESOURCES.has(name) && (q.nanos / 1_000_000n) % 1000n !== 0n) errs.push(fieldError.invalid(path, quantityText(q), 'must be an integer'));
  return errs;
}

function hugePageValueErrors(name: string, value: string | number, path: string): FieldError[] {
  const q = quantityValue(value);
  const page = quantityValue(name.slice('hugepages-'.length));
  const text = q ? quantityText(q) : String(value);
  const divisible = !!q && !!page && page.nanos > 0n && page.nanos % 1_000_000_000n === 0n && quantityIntegerValue(q) % (page.nanos / 1_000_000_000n) === 0n;
  return divisible ? [] : [fieldError.invalid(path, text, `${text} is not positive integer multiple of ${name}`)];
}

/** `validatePodResourceName`: a resource Kubernetes supports at pod level. */
function podResourceNameErrors(name: string, path: string): FieldError[] {
  const qualified = isQualifiedName(name);
  if (qualified.length) return qualified.map((msg) => fieldError.invalid(path, name, msg));
  if (!name.includes('/') && !STANDARD_RESOURCES.has(name) && !isHugePages(name) && !name.startsWith('requests.hugepages-')) {
    return [fieldError.invalid(path, name, 'must be a standard resource type or fully qualified')];
  }
  if (name !== 'cpu' && name !== 'memory' && !isHugePages(name)) return [fieldError.notSupported(path, name, ['cpu', 'memory'])];
  return [];
}

/** `validateResourceRequirements` for a container (or, with `podLevel`, for `spec.resources`). */
export function resourceRequirementsErrors(r: ResourceRequirements, path: string, podClaimNames: ReadonlySet<string>, podLevel = false): FieldError[] {
  const nameErrors = podLevel ? podResourceNameErrors : containerResourceNameErrors;
  const errs: FieldError[] = [];
  const limPath = child(path, 'limits');
  const reqPath = child(path, 'requests');
  const limits = r.limits ?? {};
  let cpuOrMemory = false;
  let hugePages = false;
  for (const [name, value] of Object.entries(limits)) {
    const p = key(limPath, name);
    errs.push(...nameErrors(name, p), ...resourceQuantityErrors(name, value, p));
    if (isHugePages(name)) {
      hugePages = true;
      errs.push(...hugePageValueErrors(name, value, p));
    }
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  for (const [name, value] of Object.entries(r.requests ?? {})) {
    const p = key(reqPath, name);
    errs.push(...nameErrors(name, p), ...resourceQuantityErrors(name, value, p));
    const req = quantityValue(value);
    const lim = name in limits ? quantityValue(limits[name]!) : undefined;
    if (name in limits) {
      if (req && lim && req.nanos !== lim.nanos && !isOvercommitAllowed(name)) {
        errs.push(fieldError.invalid(reqPath, quantityText(req), `must be equal to ${name} limit of ${quantityText(lim)}`));
      } else if (req && lim && req.nanos > lim.nanos) {
        errs.push(fieldError.invalid(reqPath, quantityText(req), `must be less than or equal to ${name} limit of ${quantityText(lim)}`));
      }
    } else if (!isOvercommitAllowed(name)) {
      errs.push(fieldError.required(limPath, 'Limit must be set for non overcommitable resources'));
    }
    if (isHugePages(name)) {
      hugePages = true;
      errs.push(...hugePageValueErrors(name, value, p));
    }
    if (name === 'cpu' || name === 'memory') cpuOrMemory = true;
  }
  if (!cpuOrMemory && hugePages) errs.push(fieldError.forbidden(path, 'HugePages require cpu or memory'));
  errs.push(...claimNameErrors(r.claims ?? [], child(path, 'claims'), podClaimNames));
  return errs;
}

function claimNameErrors(claims: NonNullable<ResourceRequirements['claims']>, path: string, podClaimNames: ReadonlySet<string>): FieldError[] {
  const errs: FieldError[] = [];
  const names = new Set<string>();
  claims.forEach((claim, i) => {
    const p = index(path, i);
    if (!claim.name) {
      errs.push(fieldError.required(p));
      return;
    }
    if (names.has(claim.name)) errs.push(fieldError.duplicate(p, claim.name));
    else {
      let id = claim.name;
      if (claim.request) {
        errs.push(...dns1123LabelErrors(claim.request, child(p, 'request')));
        id += `/${claim.request}`;
      }
      if (names.has(id)) errs.push(fieldError.duplicate(p, id));
      else if (!claim.request) for (const n of names) if (n.startsWith(`${claim.name}/`)) errs.push(fieldError.duplicate(p, claim.name));
      names.add(id);
    }
    if (!podClaimNames.has(claim.name)) {
      const list = [...podClaimNames].sort();
      const detail = `must be one of the names in pod.spec.resourceClaims${list.length === 0 ? ' which is empty' : `: ${list.join(', ')}`}`;
      errs.push({ ...fieldError.notFound(p, claim.name), detail });
    }
  });
  return errs;
}
