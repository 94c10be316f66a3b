/**
 * ResourceSlice rules (`validateResourceSliceSpec`, `validateDevice` and their parts in
 * pkg/apis/resource/validation), the standard device attributes of the `resource.kubernetes.io`
 * domain (memkube's checks of the conventions drivers publish them by), and the binding
 * conditions devices and allocation results share.
 */
import { child, fieldError, index, key, type FieldError } from '../../machinery/field-errors.js';
import { isDNS1123Subdomain, isQualifiedName } from '../../schema/validation/names.js';
import { compareQuantities, parseQuantity } from '../../schema/quantity.js';
import { utf8ByteLength } from '../../util/go-format.js';
import { semanticEqual } from '../shared/semantic-equal.js';
import type { CounterSet, Device, DeviceAttribute, DeviceCapacity, DeviceCounterConsumption, ResourceSlice } from '../types/resource-v1.js';
import { DEVICE_TAINTS_MAX, validateSet, validateSlice, validateTaint } from './dra-claim-rules.js';
import {
  ATTRIBUTE_KEY_MAX_LENGTH,
  dnsLabel,
  truncateKey,
  validateDeviceName,
  validateDriverName,
  validatePoolName,
  validateQualifiedName,
} from './dra-names.js';

const MAX_DEVICES = 128;
/** `ResourceSliceMaxDevicesWithAdvancedFeatures`: with taints, counters or list attributes. */
const MAX_DEVICES_ADVANCED = 64;
const MAX_ATTRIBUTES_AND_CAPACITIES = 32;
const MAX_COUNTER_SETS = 8;
const MAX_COUNTERS_PER_SET = 32;
const MAX_COUNTER_CONSUMPTIONS = 2;
const MAX_COUNTERS_PER_CONSUMPTION = 32;
const ATTRIBUTE_VALUE_MAX = 64;
const BINDING_CONDITIONS_MAX = 4;
const VALID_VALUES_MAX = 10;
/** The gate of list-valued device attributes. */
export const DRA_LIST_TYPE_ATTRIBUTES = 'DRAListTypeAttributes';

const SEMVER = (() => {
  const num = '(0|[1-9]\\d*)';
  const pre = '(0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)';
  const build = '[0-9a-zA-Z-]+';
  return new RegExp(`^${num}\\.${num}\\.${num}(-${pre}(\\.${pre})*)?(\\+${build}(\\.${build})*)?$`);
})();

function labelName(value: string, path: string): FieldError[] {
  return isQualifiedName(value).map((m) => fieldError.invalid(path, value, m));
}

/** `validateDeviceBindingParameters`. */
export function validateBindingConditions(conditions: readonly string[] | undefined, failures: readonly string[] | undefined, path: string): FieldError[] {
  const c = conditions ?? [];
  const f = failures ?? [];
  const cPath = child(path, 'bindingConditions');
  const fPath = child(path, 'bindingFailureConditions');
  const errors = validateSlice(conditions, BINDING_CONDITIONS_MAX, (v, p) => labelName(v, p), cPath);
  errors.push(...validateSlice(failures, BINDING_CONDITIONS_MAX, (v, p) => labelName(v, p), fPath));
  const seen = new Set<string>();
  c.forEach((v, i) => {
    if (seen.has(v)) errors.push(fieldError.duplicate(index(cPath, i), v));
    seen.add(v);
  });
  const seenF = new Set<string>();
  f.forEach((v, i) => {
    if (seenF.has(v)) errors.push(fieldError.duplicate(index(fPath, i), v));
    seenF.add(v);
    if (c.includes(v)) errors.push(fieldError.invalid(index(fPath, i), v, 'bindingFailureConditions must not overlap with bindingConditions'));
  });
  if (c.length === 0 && f.length > 0) errors.push(fieldError.invalid(cPath, c, 'bindingConditions are required to use bindingFailureConditions'));
  if (f.length === 0 && c.length > 0) errors.push(fieldError.invalid(fPath, f, 'bindingFailureConditions are required to use bindingConditions'));
  return errors;
}

const LIST_FIELDS = ['bools', 'ints', 'strings', 'versions'] as const;
const SCALAR_FIELDS = ['bool', 'int', 'string', 'version'] as const;

/** `validateDeviceAttribute`: exactly one value; strings at most 64 bytes; versions semver. */
function validateAttribute(a: DeviceAttribute, path: string): FieldError[] {
  const errors: FieldError[] = [];
  let count = 0;
  for (const f of SCALAR_FIELDS) if (a[f] !== undefined && a[f] !== null) count++;
  if (a.string !== undefined && utf8ByteLength(a.string) > ATTRIBUTE_VALUE_MAX) errors.push(fieldError.tooLong(child(path, 'string'), ATTRIBUTE_VALUE_MAX));
  if (a.version !== undefined) errors.push(...validateVersion(a.version, child(path, 'version')));
  for (const f of LIST_FIELDS) {
    const list = a[f];
    if (list === undefined || list === null) continue;
    count++;
    if (list.length === 0) errors.push(fieldError.invalid(child(path, f), list, 'must not be empty if specified'));
  }
  (a.strings ?? []).forEach((s, i) => {
    if (utf8ByteLength(s) > ATTRIBUTE_VALUE_MAX) errors.push(fieldError.tooLong(index(child(path, 'strings'), i), ATTRIBUTE_VALUE_MAX));
  });
  (a.versions ?? []).forEach((v, i) => errors.push(...validateVersion(v, index(child(path, 'versions'), i))));
  if (count === 0) errors.push(fieldError.invalid(path, '', 'exactly one value must be specified'));
  else if (count > 1) errors.push(fieldError.invalid(path, a, 'exactly one value must be specified'));
  return errors;
}

function validateVersion(v: string, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (!SEMVER.test(v)) errors.push(fieldError.invalid(path, v, 'must be a string compatible with semver.org spec 2.0.0'));
  if (utf8ByteLength(v) > ATTRIBUTE_VALUE_MAX) errors.push(fieldError.tooLong(path, ATTRIBUTE_VALUE_MAX));
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Standard device attributes (resource.kubernetes.io)
// ---------------------------------------------------------------------------------------------

/** A PCI address in extended BDF notation, `domain:bus:device.function` (`0000:3b:00.0`). */
const PCI_BUS_ID = /^[0-9a-f]{4}:[0-9a-f]{2}:[01][0-9a-f]\.[0-7]$/;
/** A PCIe root complex, `pci<domain>:<bus>` (`pci0000:00`). */
const PCIE_ROOT = /^pci[0-9a-f]{4}:[0-9a-f]{2}$/;

/**
 * The standard attributes drivers publish in the `resource.<reserved domain>` domain, checked by
 * memkube (Kubernetes leaves them to drivers): `numaNode` an integer of at least 0 (a device
 * without NUMA affinity publishes none), or with `DRAListTypeAttributes` a list of them;
 * `pciBusID` a string in extended BDF notation; `pcieRoot` a string `pci<domain>:<bus>`.
 */
function validateStandardAttribute(name: string, a: DeviceAttribute, path: string, listsAllowed: boolean): FieldError[] {
  switch (name) {
    case 'numaNode': {
      if (a.int !== undefined && a.int !== null) return a.int < 0 ? [fieldError.invalid(child(path, 'int'), a.int, 'must be greater than or equal to 0')] : [];
      if (listsAllowed && Array.isArray(a.ints))
        return a.ints.flatMap((n, i) => (n < 0 ? [fieldError.invalid(index(child(path, 'ints'), i), n, 'must be greater than or equal to 0')] : []));
      return [fieldError.invalid(path, a, listsAllowed ? 'must be an int or ints value' : 'must be an int value')];
    }
    case 'pciBusID':
      if (typeof a.string !== 'string') return [fieldError.invalid(path, a, 'must be a string value')];
      return PCI_BUS_ID.test(a.string)
        ? []
        : [
            fieldError.invalid(
              child(path, 'string'),
              a.string,
              'must be a PCI address in extended BDF notation, <domain>:<bus>:<device>.<function> (e.g. 0000:3b:00.0)',
            ),
          ];
    case 'pcieRoot':
      if (typeof a.string !== 'string') return [fieldError.invalid(path, a, 'must be a string value')];
      return PCIE_ROOT.test(a.string)
        ? []
        : [fieldError.invalid(child(path, 'string'), a.string, 'must be a PCIe root complex, pci<domain>:<bus> (e.g. pci0000:00)')];
    default:
      return [];
  }
}

// ---------------------------------------------------------------------------------------------
// Capacity
// ---------------------------------------------------------------------------------------------

const q = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? parseQuantity(v) : undefined);
const cmp = (a: unknown, b: unknown): number | undefined => {
  const qa = q(a);
  const qb = q(b);
  return qa && qb ? compareQuantities(qa, qb) : undefined;
};
const text = (v: unknown) => String(v);

/** `validateRequestPolicy` (the parts that compare values; steps are not checked). */
function validateCapacity(c: DeviceCapacity, multiple: boolean, path: string): FieldError[] {
  const policy = c.requestPolicy;
  if (!policy) return [];
  const pPath = child(path, 'requestPolicy');
  if (!multiple) return [fieldError.forbidden(pPath, 'allowMultipleAllocations must be true')];
  const values = policy.validValues ?? [];
  if (values.length > 0 && policy.validRange)
    return [fieldError.forbidden(pPath, 'exactly one policy can be specified, cannot specify "validValues" and "validRange" at the same time')];
  const errors: FieldError[] = [];
  if (values.length > 0) {
    if (policy.default === undefined) return [fieldError.required(child(pPath, 'default'), 'required when validValues is defined')];
    const vPath = child(pPath, 'validValues');
    for (let i = 0; i + 1 < values.length; i++)
      if ((cmp(values[i], values[i + 1]) ?? 0) > 0)
        errors.push(fieldError.invalid(index(vPath, i + 1), text(values[i + 1]), 'values must be sorted in ascending order'));
    if (values.length > VALID_VALUES_MAX) return [...errors, fieldError.tooMany(vPath, values.length, VALID_VALUES_MAX)];
    values.forEach((v, i) => {
      if ((cmp(v, c.value) ?? 0) > 0) errors.push(fieldError.invalid(index(vPath, i), text(v), `option is larger than capacity value: ${text(c.value)}`));
    });
    if (!values.some((v) => cmp(v, policy.default) === 0))
      errors.push(fieldError.invalid(vPath, text(policy.default), 'default value is not valid according to the requestPolicy'));
  } else if (policy.validRange) {
    const r = policy.validRange;
    const rPath = child(pPath, 'validRange');
    if (policy.default === undefined) return [fieldError.required(child(pPath, 'default'), 'required when validRange is defined')];
    if (r.min === undefined) return [fieldError.required(child(rPath, 'min'), 'required when validRange is defined')];
    if ((cmp(r.min, c.value) ?? 0) > 0)
      errors.push(fieldError.invalid(child(rPath, 'min'), text(r.min), `min is larger than capacity value: ${text(c.value)}`));
    if ((cmp(policy.default, r.min) ?? 0) < 0)
      errors.push(fieldError.invalid(child(rPath, 'default'), text(policy.default), `default is less than min: ${text(r.min)}`));
    if (r.max !== undefined) {
      if ((cmp(r.min, r.max) ?? 0) > 0) errors.push(fieldError.invalid(child(rPath, 'max'), text(r.min), `min is larger than max: ${text(r.max)}`));
      if ((cmp(r.max, c.value) ?? 0) > 0)
        errors.push(fieldError.invalid(child(rPath, 'max'), text(r.max), `max is larger than capacity value: ${text(c.value)}`));
      if ((cmp(policy.default, r.max) ?? 0) > 0)
        errors.push(fieldError.invalid(child(rPath, 'default'), text(policy.default), `default is more than max: ${text(r.max)}`));
    }
    if (r.step !== undefined && (cmp(r.step, 0) ?? 1) <= 0) errors.push(fieldError.invalid(child(rPath, 'step'), text(r.step), 'must be greater than zero'));
  }
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Devices, counters, slices
// ---------------------------------------------------------------------------------------------

function validateCounters(counters: Record<string, unknown> | undefined, max: number, path: string): FieldError[] {
  const entries = Object.keys(counters ?? {});
  if (entries.length === 0) return [fieldError.required(path)];
  if (entries.length > max) return [fieldError.tooMany(path, entries.length, max)];
  return entries.flatMap((name) => dnsLabel(name, path));
}

function validateCounterSet(cs: CounterSet, path: string): FieldError[] {
  const errors = cs.name ? dnsLabel(cs.name, child(path, 'name')) : [fieldError.required(child(path, 'name'))];
  errors.push(...validateCounters(cs.counters, MAX_COUNTERS_PER_SET, child(path, 'counters')));
  return errors;
}

function validateCounterConsumption(c: DeviceCounterConsumption, path: string): FieldError[] {
  const errors = c.counterSet ? dnsLabel(c.counterSet, child(path, 'counterSet')) : [fieldError.required(child(path, 'counterSet'))];
  errors.push(...validateCounters(c.counters, MAX_COUNTERS_PER_CONSUMPTION, child(path, 'counters')));
  return errors;
}

/** Options of {@link validateDevice}. */
interface DeviceContext {
  readonly perDeviceNodeSelection: boolean;
  readonly standardDomain: string;
  readonly driver: string;
  readonly listsAllowed: boolean;
}

function validateDevice(d: Device, old: Device | undefined, path: string, ctx: DeviceContext): FieldError[] {
  const errors = validateDeviceName(d.name, child(path, 'name'));
  const attributes = d.attributes ?? {};
  const capacity = d.capacity ?? {};
  const total = Object.keys(attributes).length + Object.keys(capacity).length;
  if (total > MAX_ATTRIBUTES_AND_CAPACITIES)
    errors.push(fieldError.invalid(path, total, `the total number of attributes and capacities must not exceed ${MAX_ATTRIBUTES_AND_CAPACITIES}`));
  const aPath = child(path, 'attributes');
  for (const [name, a] of Object.entries(attributes)) {
    const kPath = key(aPath, truncateKey(name, ATTRIBUTE_KEY_MAX_LENGTH));
    errors.push(...validateQualifiedName(name, aPath));
    errors.push(...validateAttribute(a, kPath));
    // A bare name is in the driver's domain.
    const full = name.includes('/') ? name : `${ctx.driver}/${name}`;
    if (full.startsWith(`${ctx.standardDomain}/`))
      errors.push(...validateStandardAttribute(full.slice(ctx.standardDomain.length + 1), a, kPath, ctx.listsAllowed));
  }
  if (!old || !semanticEqual(old.capacity, d.capacity)) {
    const cPath = child(path, 'capacity');
    for (const [name, c] of Object.entries(capacity)) {
      errors.push(...validateQualifiedName(name, cPath));
      errors.push(...validateCapacity(c, d.allowMultipleAllocations === true, key(cPath, truncateKey(name, ATTRIBUTE_KEY_MAX_LENGTH))));
    }
  }
  if (!old || !semanticEqual(old.taints, d.taints))
    errors.push(...validateSlice(d.taints, DEVICE_TAINTS_MAX, (t, p) => validateTaint(t, undefined, p), child(path, 'taints')));
  errors.push(
    ...validateSet(d.consumesCounters, MAX_COUNTER_CONSUMPTIONS, validateCounterConsumption, (c) => c.counterSet ?? '', child(path, 'consumesCounters')),
  );
  const hasNodeName = d.nodeName !== undefined && d.nodeName !== null;
  const hasAllNodes = d.allNodes !== undefined && d.allNodes !== null;
  if (ctx.perDeviceNodeSelection) {
    const set: string[] = [];
    if (hasNodeName) {
      if (d.nodeName) {
        set.push('`nodeName`');
        errors.push(...nodeName(d.nodeName, child(path, 'nodeName')));
      } else errors.push(fieldError.invalid(child(path, 'nodeName'), d.nodeName, 'must not be empty'));
    }
    if (d.nodeSelector) set.push('`nodeSelector`');
    if (hasAllNodes) {
      if (d.allNodes) set.push('`allNodes`');
      else errors.push(fieldError.invalid(child(path, 'allNodes'), false, 'must be either unset or set to true'));
    }
    const msg = 'exactly one of `nodeName`, `nodeSelector`, or `allNodes` is required when `perDeviceNodeSelection` is set to true in the ResourceSlice spec';
    if (set.length === 0) errors.push(fieldError.required(path, msg));
    else if (set.length > 1) errors.push(fieldError.invalid(path, `{${set.join(', ')}}`, msg));
  } else if (hasNodeName || d.nodeSelector || hasAllNodes) {
    errors.push(
      fieldError.invalid(
        path,
        null,
        '`nodeName`, `nodeSelector` and `allNodes` can only be set if `perDeviceNodeSelection` is set to true in the ResourceSlice spec',
      ),
    );
  }
  errors.push(...validateBindingConditions(d.bindingConditions, d.bindingFailureConditions, path));
  return errors;
}

/** `ValidateNodeName`: a DNS subdomain. */
function nodeName(name: string, path: string): FieldError[] {
  return isDNS1123Subdomain(name).map((m) => fieldError.invalid(path, name, m));
}

const hasAdvanced = (devices: readonly Device[]) =>
  devices.some(
    (d) =>
      (d.taints ?? []).length > 0 ||
      (d.consumesCounters ?? []).length > 0 ||
      Object.values(d.attributes ?? {}).some((a) => LIST_FIELDS.some((f) => a[f] !== undefined && a[f] !== null)),
  );

/** Options of {@link validateSliceSpec}. */
export interface SliceValidationContext {
  /** `resource.<reserved domain>`, the domain of the standard attributes. */
  readonly standardDomain: string;
  /** Whether list-valued attributes are allowed (`DRAListTypeAttributes`). */
  readonly listsAllowed: boolean;
}

/** `validateResourceSliceSpec`; `old` on update. */
export function validateSliceSpec(slice: ResourceSlice, old: Readonly<ResourceSlice> | undefined, ctx: SliceValidationContext): FieldError[] {
  const spec: Partial<ResourceSlice['spec']> = slice.spec ?? {};
  const errors = validateDriverName(spec.driver, 'spec.driver');
  const pool = spec.pool ?? { name: '', generation: 0, resourceSliceCount: 0 };
  errors.push(...validatePoolName(pool.name, 'spec.pool.name'));
  if ((pool.resourceSliceCount ?? 0) <= 0)
    errors.push(fieldError.invalid('spec.pool.resourceSliceCount', pool.resourceSliceCount ?? 0, 'must be greater than zero'));
  if ((pool.generation ?? 0) < 0) errors.push(fieldError.invalid('spec.pool.generation', pool.generation, 'must be greater than or equal to zero'));
  if (old) {
    const o: Partial<ResourceSlice['spec']> = old.spec ?? {};
    if ((pool.name ?? '') !== (o.pool?.name ?? '')) errors.push(fieldError.invalid('spec.pool.name', pool.name ?? '', 'field is immutable'));
    if ((spec.driver ?? '') !== (o.driver ?? '')) errors.push(fieldError.invalid('spec.driver', spec.driver ?? '', 'field is immutable'));
    if ((spec.nodeName ?? null) !== (o.nodeName ?? null)) errors.push(fieldError.invalid('spec.nodeName', spec.nodeName ?? null, 'field is immutable'));
  }
  const set: string[] = [];
  if (spec.nodeName !== undefined && spec.nodeName !== null) {
    if (spec.nodeName !== '') {
      set.push('`nodeName`');
      errors.push(...nodeName(spec.nodeName, 'spec.nodeName'));
    } else errors.push(fieldError.invalid('spec.nodeName', '', 'must be either unset or set to a non-empty string'));
  }
  if (spec.nodeSelector) {
    set.push('`nodeSelector`');
    const terms = spec.nodeSelector.nodeSelectorTerms ?? [];
    if (terms.length !== 1) errors.push(fieldError.invalid('spec.nodeSelector.nodeSelectorTerms', terms, 'must have exactly one node selector term'));
  }
  for (const f of ['allNodes', 'perDeviceNodeSelection'] as const) {
    const v = spec[f];
    if (v === undefined || v === null) continue;
    if (v) set.push(`\`${f}\``);
    else errors.push(fieldError.invalid(`spec.${f}`, false, 'must be either unset or set to true'));
  }
  const which = 'exactly one of `nodeName`, `nodeSelector`, `allNodes`, `perDeviceNodeSelection` is required';
  if (set.length === 0) errors.push(fieldError.required('spec', which));
  else if (set.length > 1) errors.push(fieldError.invalid('spec', `{${set.join(', ')}}`, `${which}, but multiple fields are set`));
  if (spec.sharedCounters && spec.devices) errors.push(fieldError.invalid('spec', '', 'only one of `sharedCounters` or `devices` is allowed'));
  const devices = spec.devices ?? [];
  const deviceCtx: DeviceContext = {
    perDeviceNodeSelection: spec.perDeviceNodeSelection === true,
    standardDomain: ctx.standardDomain,
    driver: spec.driver ?? '',
    listsAllowed: ctx.listsAllowed,
  };
  const oldDevices = new Map((old?.spec?.devices ?? []).map((d) => [d.name, d]));
  errors.push(
    ...validateSet(
      spec.devices,
      hasAdvanced(devices) ? MAX_DEVICES_ADVANCED : MAX_DEVICES,
      (d, p) => validateDevice(d, oldDevices.get(d.name), p, deviceCtx),
      (d) => d.name ?? '',
      'spec.devices',
    ),
  );
  errors.push(...validateSet(spec.sharedCounters, MAX_COUNTER_SETS, validateCounterSet, (c) => c.name ?? '', 'spec.sharedCounters'));
  return errors;
}

/** With `DRAListTypeAttributes` off, list-valued attributes are dropped unless the stored slice has some. */
export function dropListAttributes(slice: ResourceSlice, old: Readonly<ResourceSlice> | undefined): void {
  const inUse = (old?.spec?.devices ?? []).some((d) => Object.values(d.attributes ?? {}).some((a) => LIST_FIELDS.some((f) => a[f] !== undefined)));
  if (inUse) return;
  for (const d of slice.spec?.devices ?? []) for (const a of Object.values(d.attributes ?? {})) for (const f of LIST_FIELDS) delete a[f];
}

/** `validateDeviceTaintSelector` for a DeviceTaintRule. */
export function validateTaintSelector(sel: { driver?: string; pool?: string; device?: string } | undefined, path: string): FieldError[] {
  if (!sel) return [];
  const errors: FieldError[] = [];
  if (sel.driver !== undefined) errors.push(...validateDriverName(sel.driver, child(path, 'driver')));
  if (sel.pool !== undefined) errors.push(...validatePoolName(sel.pool, child(path, 'pool')));
  if (sel.device !== undefined) errors.push(...validateDeviceName(sel.device, child(path, 'device')));
  return errors;
}
