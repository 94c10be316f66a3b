/**
 * LimitRange defaults and validation of Kubernetes v1.36 (`pkg/apis/core/v1/defaults.go`
 * `SetDefaults_LimitRangeItem`; `pkg/apis/core/validation/validation.go` `ValidateLimitRange`).
 * Kubernetes walks the resource names of an item in map order; memkube walks them sorted.
 */
import { fieldError, GoPrinted, index, key, type FieldError } from '../../../machinery/field-errors.js';
import { isQualifiedName } from '../../../schema/validation/names.js';
import type { Quantity } from '../../../schema/quantity.js';
import type { LimitRange, LimitRangeItem } from '../../types/core-v1.js';
import { normalizeResourceList, quantityIntegerValue, quantityText, quantityValue } from '../../shared/resource-lists.js';
import { containerResourceNameErrors, isOvercommitAllowed, resourceNameErrors } from '../resource-names.js';

type ResourceList = Record<string, string | number>;
const LISTS = ['max', 'min', 'default', 'defaultRequest', 'maxLimitRequestRatio'] as const;

/** `SetDefaults_LimitRangeItem` (for `Container` items) and canonical quantities. Throws `QuantityDecodeError`. */
export function defaultLimitRange(lr: LimitRange): void {
  for (const item of lr.spec?.limits ?? []) {
    for (const list of LISTS) normalizeResourceList(item[list] as ResourceList | undefined, false);
    if (item.type !== 'Container') continue;
    const defaults: ResourceList = { ...(item.default ?? {}) };
    const requests: ResourceList = { ...(item.defaultRequest ?? {}) };
    // A missing default limit is the max; a missing default request is the default limit, else the min.
    for (const [k, v] of Object.entries(item.max ?? {})) if (!Object.hasOwn(defaults, k)) defaults[k] = v;
    for (const [k, v] of Object.entries(defaults)) if (!Object.hasOwn(requests, k)) requests[k] = v;
    for (const [k, v] of Object.entries(item.min ?? {})) if (!Object.hasOwn(requests, k)) requests[k] = v;
    // Empty maps are omitted when Kubernetes serializes the item.
    if (Object.keys(defaults).length) item.default = defaults;
    else delete item.default;
    if (Object.keys(requests).length) item.defaultRequest = requests;
    else delete item.defaultRequest;
  }
}

/** `validateLimitRangeTypeName`. */
function typeNameErrors(value: string, path: string): FieldError[] {
  const errs = isQualifiedName(value).map((msg) => fieldError.invalid(path, value, msg));
  if (errs.length) return errs;
  if (!value.includes('/') && !['Pod', 'Container', 'PersistentVolumeClaim'].includes(value)) {
    return [fieldError.invalid(path, value, 'must be a standard limit type or fully qualified')];
  }
  return [];
}

/** `validateLimitRangeResourceName`. */
function resourceErrors(type: string, name: string, path: string): FieldError[] {
  return type === 'Pod' || type === 'Container' ? containerResourceNameErrors(name, path) : resourceNameErrors(name, path);
}

const shown = (q: Quantity) => new GoPrinted(quantityText(q));
const cmp = (a: Quantity, b: Quantity) => (a.nanos < b.nanos ? -1 : a.nanos > b.nanos ? 1 : 0);
/** Go's `MilliValue()`: rounded away from zero to a milli-unit. */
const milliValue = (q: Quantity): bigint => {
  const abs = q.nanos < 0n ? -q.nanos : q.nanos;
  const m = abs / 1_000_000n + (abs % 1_000_000n === 0n ? 0n : 1n);
  return q.nanos < 0n ? -m : m;
};
const MAX_MILLI_VALUE = 9223372036854775n;

/** Go's `%f`. */
const goFloat = (x: number): string => (Number.isFinite(x) ? x.toFixed(6) : x > 0 ? '+Inf' : x < 0 ? '-Inf' : 'NaN');

/** The checks between the lists of one item, for one resource. */
function itemQuantityErrors(item: LimitRangeItem, k: string, path: string): FieldError[] {
  const get = (list: (typeof LISTS)[number]) => {
    const v = (item[list] as ResourceList | undefined)?.[k];
    return v === undefined ? undefined : quantityValue(v);
  };
  const min = get('min');
  const max = get('max');
  const def = item.type === 'Pod' ? undefined : get('default');
  const defReq = item.type === 'Pod' ? undefined : get('defaultRequest');
  const ratio = get('maxLimitRequestRatio');
  const errs: FieldError[] = [];
  const at = (list: string) => key(`${path}.${list}`, k);
  if (min && max && cmp(min, max) > 0)
    errs.push(fieldError.invalid(at('min'), shown(min), `min value ${quantityText(min)} is greater than max value ${quantityText(max)}`));
  if (defReq && min && cmp(min, defReq) > 0) {
    errs.push(
      fieldError.invalid(at('defaultRequest'), shown(defReq), `min value ${quantityText(min)} is greater than default request value ${quantityText(defReq)}`),
    );
  }
  if (defReq && max && cmp(defReq, max) > 0) {
    errs.push(
      fieldError.invalid(at('defaultRequest'), shown(defReq), `default request value ${quantityText(defReq)} is greater than max value ${quantityText(max)}`),
    );
  }
  if (defReq && def && cmp(defReq, def) > 0) {
    errs.push(
      fieldError.invalid(
        at('defaultRequest'),
        shown(defReq),
        `default request value ${quantityText(defReq)} is greater than default limit value ${quantityText(def)}`,
      ),
    );
  }
  if (def && min && cmp(min, def) > 0)
    errs.push(fieldError.invalid(at('default'), shown(min), `min value ${quantityText(min)} is greater than default value ${quantityText(def)}`));
  if (def && max && cmp(def, max) > 0)
    errs.push(fieldError.invalid(at('default'), shown(max), `default value ${quantityText(def)} is greater than max value ${quantityText(max)}`));
  if (ratio && ratio.nanos < 1_000_000_000n)
    errs.push(fieldError.invalid(at('maxLimitRequestRatio'), shown(ratio), `ratio ${quantityText(ratio)} is less than 1`));
  if (ratio && min && max) {
    let ratioValue = Number(quantityIntegerValue(ratio));
    let minValue = Number(quantityIntegerValue(min));
    let maxValue = Number(quantityIntegerValue(max));
    if (quantityIntegerValue(ratio) < MAX_MILLI_VALUE && quantityIntegerValue(min) < MAX_MILLI_VALUE && quantityIntegerValue(max) < MAX_MILLI_VALUE) {
      ratioValue = Number(milliValue(ratio)) / 1000;
      minValue = Number(milliValue(min));
      maxValue = Number(milliValue(max));
    }
    const limit = maxValue / minValue;
    if (ratioValue > limit) {
      errs.push(fieldError.invalid(at('maxLimitRequestRatio'), shown(ratio), `ratio ${quantityText(ratio)} is greater than max/min = ${goFloat(limit)}`));
    }
  }
  if (!isOvercommitAllowed(k) && def && defReq && cmp(def, defReq) !== 0) {
    errs.push(
      fieldError.invalid(
        at('defaultRequest'),
        shown(defReq),
        `default value ${quantityText(def)} must equal to defaultRequest value ${quantityText(defReq)} in ${k}`,
      ),
    );
  }
  return errs;
}

/** `ValidateLimitRange` without ObjectMeta (the engine checks it); the same on create and update. */
export function validateLimitRange(lr: LimitRange): FieldError[] {
  const errs: FieldError[] = [];
  const seen = new Set<string>();
  (lr.spec?.limits ?? []).forEach((item, i) => {
    const path = index('spec.limits', i);
    const type = item.type ?? '';
    errs.push(...typeNameErrors(type, `${path}.type`));
    if (seen.has(type)) errs.push(fieldError.duplicate(`${path}.type`, type));
    seen.add(type);
    const keys = new Set<string>();
    const names = (list: (typeof LISTS)[number]) => {
      for (const k of Object.keys((item[list] as ResourceList | undefined) ?? {})) {
        errs.push(...resourceErrors(type, k, key(`${path}.${list}`, k)));
        keys.add(k);
      }
    };
    names('max');
    names('min');
    if (type === 'Pod') {
      if (Object.keys(item.default ?? {}).length) errs.push(fieldError.forbidden(`${path}.default`, "may not be specified when `type` is 'Pod'"));
      if (Object.keys(item.defaultRequest ?? {}).length) errs.push(fieldError.forbidden(`${path}.defaultRequest`, "may not be specified when `type` is 'Pod'"));
    } else {
      names('default');
      names('defaultRequest');
    }
    if (type === 'PersistentVolumeClaim' && item.min?.['storage'] === undefined && item.max?.['storage'] === undefined) {
      errs.push(fieldError.required(`${path}.limits`, 'either minimum or maximum storage value is required, but neither was provided'));
    }
    names('maxLimitRequestRatio');
    for (const k of [...keys].sort()) errs.push(...itemQuantityErrors(item, k, path));
  });
  return errs;
}
