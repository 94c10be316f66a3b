/**
 * ResourcePoolStatusRequest rules. Kubernetes v1.36 checks the kind declaratively (the texts are
 * those of k8s.io/apimachinery/pkg/api/validate); its hand-written part keeps a status, once set,
 * unchanged and checks conditions with metav1 `ValidateConditions`. Marked "completed request"
 * below: what a completed request looks like, which Kubernetes leaves to its controller; memkube
 * has no such controller, so it holds whoever writes the status to them.
 */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { jsonEqual } from '../../util/json-equal.js';
import type { KindContext } from '../../schema/define-kind.js';
import { parseQuantity } from '../../schema/quantity.js';
import { utf8ByteLength } from '../../schema/validation/names.js';
import { validateMetaConditions, type MetaCondition } from '../shared/conditions.js';
import { immutableFieldError, type ImmutableField } from '../../schema/validation/immutable-fields.js';
import {
  GO_NIL,
  isUnset,
  longName,
  longNameCaseless,
  maximum,
  minError,
  minimum,
  resourceFullyQualifiedName,
  resourcePoolName,
} from '../shared/declarative.js';
import { fieldNode, semanticEqual, semanticEqualAt } from '../shared/semantic-equal.js';
import {
  ResourcePoolStatusRequest as ResourcePoolStatusRequestSchema,
  type PartitionTypeStatus,
  type PoolStatus,
  type ResourcePoolStatusRequest,
  type ResourcePoolStatusRequestSpec,
  type ResourcePoolStatusRequestStatus,
  type ShareableSummaryStatus,
} from './resource-pool-status-request-schema.js';

/** The kind's feature gate. */
export const DRA_RESOURCE_POOL_STATUS = 'DRAResourcePoolStatus';
/** The gate of `spec.defaultPartitionTypeAttribute`. */
export const DRA_PARTITIONABLE_DEVICES_TYPE = 'DRAPartitionableDevicesType';
/** `spec.limit` default and bounds. */
export const RESOURCE_POOL_STATUS_REQUEST_LIMIT = { default: 100, min: 1, max: 1000 } as const;
/** The condition types of a processed request. */
export const COMPLETE = 'Complete';
/** The condition type of a ResourcePoolStatusRequest that failed; a processed request has it or `Complete`. */
export const FAILED = 'Failed';

const SPEC = 'spec';
const STATUS = 'status';
const MAX_POOLS = 1000;
const MAX_CONDITIONS = 10;
const MAX_SUMMARY_ITEMS = 32;
const MAX_VALIDATION_ERROR_BYTES = 256;

/** The rules of a new request's spec. */
export function validateResourcePoolStatusRequestSpec(rpsr: ResourcePoolStatusRequest, ctx: KindContext): FieldError[] {
  const spec: Partial<ResourcePoolStatusRequestSpec> = rpsr.spec ?? {};
  const errs: FieldError[] = [];
  const driver = child(SPEC, 'driver');
  if (!spec.driver) errs.push(fieldError.required(driver));
  else errs.push(...longNameCaseless(driver, spec.driver));
  if (!isUnset(spec.poolName)) errs.push(...resourcePoolName(child(SPEC, 'poolName'), spec.poolName));
  const limit = child(SPEC, 'limit');
  if (isUnset(spec.limit)) errs.push(fieldError.required(limit));
  else errs.push(...maximum(limit, spec.limit, RESOURCE_POOL_STATUS_REQUEST_LIMIT.max), ...minimum(limit, spec.limit, RESOURCE_POOL_STATUS_REQUEST_LIMIT.min));
  const attr = child(SPEC, 'defaultPartitionTypeAttribute');
  if (!isUnset(spec.defaultPartitionTypeAttribute)) {
    if (!ctx.featureEnabled(DRA_PARTITIONABLE_DEVICES_TYPE)) errs.push(fieldError.forbidden(attr, ''));
    else errs.push(...resourceFullyQualifiedName(attr, spec.defaultPartitionTypeAttribute));
  }
  return errs;
}

/**
 * The spec may not change (`+k8s:immutable` on `spec`, a struct: absent is `{}`; compared as
 * apiequality.Semantic.DeepEqual compares, an empty list equals an absent one).
 */
export const RESOURCE_POOL_STATUS_REQUEST_IMMUTABLE_FIELDS: readonly ImmutableField[] = [
  { path: SPEC, zero: {}, equal: semanticEqualAt(ResourcePoolStatusRequestSchema, SPEC), shown: 'nil' },
];

/** An update of the main resource, besides the immutable spec: a completed request keeps its labels and annotations. */
export function validateResourcePoolStatusRequestUpdate(rpsr: ResourcePoolStatusRequest, old: Readonly<ResourcePoolStatusRequest>): FieldError[] {
  const errs: FieldError[] = [];
  // Completed request: once status is set the whole object is immutable. Finalizers stay free so that a
  // completed request can still be deleted.
  if (!isUnset(old.status)) {
    for (const f of ['labels', 'annotations'] as const) {
      const now = rpsr.metadata?.[f] ?? {};
      if (!jsonEqual(now, old.metadata?.[f] ?? {})) errs.push(immutableFieldError(`metadata.${f}`, GO_NIL));
    }
  }
  return errs;
}

const nonNegative = (path: string, v: number | undefined | null) => (isUnset(v) ? [] : minimum(path, v, 0));

function validatePartitionSummary(path: string, summary: readonly PartitionTypeStatus[]): FieldError[] {
  if (summary.length > MAX_SUMMARY_ITEMS) return [fieldError.tooMany(path, summary.length, MAX_SUMMARY_ITEMS)];
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  summary.forEach((p, i) => {
    const key = JSON.stringify([p.attribute, p.type]);
    if (seen.has(key)) errs.push(fieldError.duplicate(index(path, i), { attribute: p.attribute, type: p.type }));
    seen.add(key);
  });
  summary.forEach((p, i) => {
    const item = index(path, i);
    if (!p.attribute) errs.push(fieldError.required(child(item, 'attribute')));
    if (!p.type) errs.push(fieldError.required(child(item, 'type')));
    for (const f of ['total', 'allocatable'] as const) {
      if (isUnset(p[f])) errs.push(fieldError.required(child(item, f)));
      else errs.push(...minimum(child(item, f), p[f], 0));
    }
  });
  return errs;
}

function validateShareableSummary(path: string, summary: Partial<ShareableSummaryStatus>): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of ['fullyAvailableDevices', 'partiallyAvailableDevices'] as const) {
    const v = summary[f];
    if (isUnset(v)) errs.push(fieldError.required(child(path, f)));
    else errs.push(...minimum(child(path, f), v, 0));
  }
  const capPath = child(path, 'capacity');
  const capacity = summary.capacity ?? [];
  if (capacity.length > MAX_SUMMARY_ITEMS) return [...errs, fieldError.tooMany(capPath, capacity.length, MAX_SUMMARY_ITEMS)];
  capacity.forEach((c, i) => {
    const item = index(capPath, i);
    if (!c.name) errs.push(fieldError.required(child(item, 'name')));
    for (const f of ['total', 'consumed', 'available'] as const) if (isUnset(c[f])) errs.push(fieldError.required(child(item, f)));
    // Completed request: available = total − consumed, never negative.
    const [total, consumed, available] = [c.total, c.consumed, c.available].map((q) => (isUnset(q) ? undefined : parseQuantity(q)));
    if (total && consumed && available) {
      const diff = total.nanos - consumed.nanos;
      const expected = diff < 0n ? 0n : diff;
      if (available.nanos !== expected)
        errs.push(fieldError.invalid(child(item, 'available'), c.available, 'must equal total - consumed, and never be negative'));
    }
  });
  return errs;
}

function validatePool(path: string, pool: Partial<PoolStatus>): FieldError[] {
  const errs: FieldError[] = [];
  const driver = child(path, 'driver');
  if (!pool.driver) errs.push(fieldError.required(driver));
  else errs.push(...longNameCaseless(driver, pool.driver));
  const poolName = child(path, 'poolName');
  if (!pool.poolName) errs.push(fieldError.required(poolName));
  else errs.push(...resourcePoolName(poolName, pool.poolName));
  const generation = child(path, 'generation');
  if (!pool.generation) errs.push(fieldError.required(generation));
  else errs.push(...minimum(generation, pool.generation, 0));
  if (!isUnset(pool.resourceSliceCount)) errs.push(...minimum(child(path, 'resourceSliceCount'), pool.resourceSliceCount, 1));
  for (const f of ['totalDevices', 'allocatedDevices', 'availableDevices', 'unavailableDevices'] as const) errs.push(...nonNegative(child(path, f), pool[f]));
  if (!isUnset(pool.nodeName)) errs.push(...longName(child(path, 'nodeName'), pool.nodeName));
  if (!isUnset(pool.validationError) && utf8ByteLength(pool.validationError) > MAX_VALIDATION_ERROR_BYTES) {
    errs.push(fieldError.tooLong(child(path, 'validationError'), MAX_VALIDATION_ERROR_BYTES));
  }
  if (pool.partitionSummary && pool.partitionSummary.length) errs.push(...validatePartitionSummary(child(path, 'partitionSummary'), pool.partitionSummary));
  if (!isUnset(pool.shareableSummary)) errs.push(...validateShareableSummary(child(path, 'shareableSummary'), pool.shareableSummary));
  // Completed request: availableDevices = totalDevices − allocatedDevices − unavailableDevices.
  const { totalDevices: t, allocatedDevices: a, availableDevices: v, unavailableDevices: u } = pool;
  if (!isUnset(t) && !isUnset(a) && !isUnset(v) && !isUnset(u) && t >= 0 && a >= 0 && v >= 0 && u >= 0 && v !== t - a - u) {
    errs.push(fieldError.invalid(child(path, 'availableDevices'), v, 'must equal totalDevices - allocatedDevices - unavailableDevices'));
  }
  return errs;
}

const poolOrder = (a: Partial<PoolStatus>, b: Partial<PoolStatus>) => {
  const [da, db, pa, pb] = [a.driver ?? '', b.driver ?? '', a.poolName ?? '', b.poolName ?? ''];
  return da < db ? -1 : da > db ? 1 : pa < pb ? -1 : pa > pb ? 1 : 0;
};

function validatePools(status: Partial<ResourcePoolStatusRequestStatus>, limit: number | undefined): FieldError[] {
  const path = child(STATUS, 'pools');
  const pools = status.pools ?? [];
  if (pools.length > MAX_POOLS) return [fieldError.tooMany(path, pools.length, MAX_POOLS)];
  const errs = pools.flatMap((p, i) => validatePool(index(path, i), p ?? {}));
  // Completed request: the first `spec.limit` matches, sorted by driver then pool name.
  if (limit !== undefined && pools.length > limit) errs.push(fieldError.tooMany(path, pools.length, limit));
  for (let i = 1; i < pools.length; i++) {
    if (poolOrder(pools[i - 1] ?? {}, pools[i] ?? {}) > 0) {
      errs.push(fieldError.invalid(index(path, i), `${pools[i]?.driver ?? ''}/${pools[i]?.poolName ?? ''}`, 'must be sorted by driver, then by pool name'));
      break;
    }
  }
  return errs;
}

function validateConditions(status: Partial<ResourcePoolStatusRequestStatus>): FieldError[] {
  const path = child(STATUS, 'conditions');
  const conditions = status.conditions ?? [];
  if (conditions.length > MAX_CONDITIONS) return [fieldError.tooMany(path, conditions.length, MAX_CONDITIONS)];
  const errs = validateMetaConditions(conditions as MetaCondition[], path);
  // Completed request: one of Complete and Failed is always set when status is populated.
  if (!conditions.some((c) => c?.type === COMPLETE || c?.type === FAILED)) {
    errs.push(fieldError.required(path, `must contain a condition of type "${COMPLETE}" or "${FAILED}"`));
  }
  return errs;
}

/** A `/status` write: a set status never changes; a first one is checked in full. */
export function validateResourcePoolStatusRequestStatus(rpsr: ResourcePoolStatusRequest, old: Readonly<ResourcePoolStatusRequest>): FieldError[] {
  // Compared as apiequality.Semantic.DeepEqual compares: an empty list equals an absent one.
  if (!isUnset(old.status))
    return semanticEqual(rpsr.status ?? null, old.status, fieldNode(ResourcePoolStatusRequestSchema(), STATUS)) ? [] : [immutableFieldError(STATUS, GO_NIL)];
  const status = rpsr.status;
  if (isUnset(status)) return [];
  const errs: FieldError[] = [];
  const poolCount = child(STATUS, 'poolCount');
  if (isUnset(status.poolCount)) errs.push(fieldError.required(poolCount));
  else if (status.poolCount < 0) errs.push(fieldError.invalid(poolCount, status.poolCount, minError(0)));
  errs.push(...validatePools(status, old.spec?.limit ?? undefined));
  errs.push(...validateConditions(status));
  return errs;
}
