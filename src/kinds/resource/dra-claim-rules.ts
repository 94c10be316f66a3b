/**
 * The rules the DRA kinds share (pkg/apis/resource/validation/validation.go): device requests and
 * their selectors, constraints and configuration (ResourceClaim, ResourceClaimTemplate,
 * DeviceClass), device tolerations and taints, opaque parameters, and the v1 defaults of requests,
 * tolerations and taints (pkg/apis/resource/v1/defaults.go). CEL expressions are not compiled:
 * only their length is checked.
 */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import type { KindContext } from '../../schema/define-kind.js';
import { isQualifiedName, isValidLabelValue } from '../../schema/validation/names.js';
import { timeText } from '../../util/flat-string.js';
import { utf8ByteLength } from '../../util/go-format.js';
import type {
  DeviceClaim,
  DeviceClaimConfiguration,
  DeviceConstraint,
  DeviceRequest,
  DeviceSelector,
  DeviceSubRequest,
  DeviceTaint,
  DeviceToleration,
  ExactDeviceRequest,
  OpaqueDeviceConfiguration,
} from '../types/resource-v1.js';
import { validateDeviceClassRef, validateDeviceName, validateDriverName, validateFullyQualifiedName } from './dra-names.js';

/** `resource.DeviceRequestsMaxSize`, also the limit of constraints, configs and allocation results. */
export const DEVICE_REQUESTS_MAX = 32;
const DEVICE_CONSTRAINTS_MAX = 32;
export const DEVICE_CONFIG_MAX = 32;
const DEVICE_SELECTORS_MAX = 32;
const FIRST_AVAILABLE_MAX = 8;
const CEL_MAX_LENGTH = 10 * 1024;
const OPAQUE_PARAMETERS_MAX_LENGTH = 10 * 1024;
/** `resource.DeviceTaintsMaxLength`. */
export const DEVICE_TAINTS_MAX = 4;
/** The effects a device taint may have, sorted. */
const TAINT_EFFECTS = ['NoExecute', 'NoSchedule', 'None'];
const TOLERATION_OPERATORS = ['Equal', 'Exists'];
const ALLOCATION_MODES = ['All', 'ExactCount'];
/** The namespace label that allows `adminAccess` requests in it. */
export const ADMIN_ACCESS_LABEL = (reservedDomain: string) => `resource.${reservedDomain}/admin-access`;

// ---------------------------------------------------------------------------------------------
// Defaults
// ---------------------------------------------------------------------------------------------

/** `SetDefaults_ExactDeviceRequest` / `SetDefaults_DeviceSubRequest`, and tolerations' `Equal`. */
function defaultRequestPart(req: ExactDeviceRequest | DeviceSubRequest): void {
  if (!req.allocationMode) req.allocationMode = 'ExactCount';
  if (req.allocationMode === 'ExactCount' && !req.count) req.count = 1;
  for (const t of req.tolerations ?? []) defaultToleration(t);
}

/** A toleration's `operator` defaults to `Equal`. */
export function defaultToleration(t: DeviceToleration): void {
  if (!t.operator) t.operator = 'Equal';
}

/** `SetDefaults_DeviceTaint`: `timeAdded` is now, to the second, unless given. */
export function defaultTaint(t: DeviceTaint, ctx: KindContext): void {
  t.timeAdded ??= timeText(Math.floor(ctx.now() / 1000) * 1000);
}

/** The defaults of a claim's (or template's) device requests. */
export function defaultDeviceClaim(devices: DeviceClaim | undefined): void {
  for (const r of devices?.requests ?? []) {
    if (r.exactly) defaultRequestPart(r.exactly);
    for (const s of r.firstAvailable ?? []) defaultRequestPart(s);
  }
}

// ---------------------------------------------------------------------------------------------
// Lists
// ---------------------------------------------------------------------------------------------

/** `validateSlice`: at most `max` items (else only `Too many`), each checked. */
export function validateSlice<T>(items: readonly T[] | undefined, max: number, check: (item: T, path: string) => FieldError[], path: string): FieldError[] {
  const list = items ?? [];
  if (max >= 0 && list.length > max) return [fieldError.tooMany(path, list.length, max)];
  return list.flatMap((item, i) => check(item, index(path, i)));
}

/** `validateSet`: as {@link validateSlice}, and no two items with the same key (`Duplicate value` at the item). */
export function validateSet<T>(
  items: readonly T[] | undefined,
  max: number,
  check: (item: T, path: string) => FieldError[],
  key: (item: T) => unknown,
  path: string,
): FieldError[] {
  const list = items ?? [];
  if (max >= 0 && list.length > max) return [fieldError.tooMany(path, list.length, max)];
  const errors = list.flatMap((item, i) => check(item, index(path, i)));
  const seen = new Set<string>();
  list.forEach((item, i) => {
    const k = key(item);
    const id = JSON.stringify(k ?? null);
    if (seen.has(id)) errors.push(fieldError.duplicate(index(path, i), k));
    seen.add(id);
  });
  return errors;
}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

/** The names a claim's requests define: request → subrequest names (none for an exact request). */
export type RequestNames = Map<string, Set<string> | undefined>;

export function gatherRequestNames(devices: DeviceClaim | undefined): RequestNames {
  const names: RequestNames = new Map();
  for (const r of devices?.requests ?? []) {
    const subs = r.firstAvailable ?? [];
    names.set(r.name ?? '', subs.length ? new Set(subs.map((s) => s.name ?? '')) : undefined);
  }
  return names;
}

function hasRequestName(names: RequestNames, ref: string): boolean {
  const segments = ref.split('/');
  if (segments.length > 2 || !names.has(segments[0]!)) return false;
  return segments.length === 1 || (names.get(segments[0]!)?.has(segments[1]!) ?? false);
}

const REQUEST_REF_MSG = "must be the name of a request in the claim or the name of a request and a subrequest separated by '/'";

/** `validateRequestNameRef`: `request` or `request/subrequest` of this claim. */
export function validateRequestNameRef(ref: string, path: string, names: RequestNames): FieldError[] {
  const segments = ref.split('/');
  if (segments.length > 2) return [fieldError.invalid(path, ref, REQUEST_REF_MSG)];
  const errors = segments.flatMap((s) => validateDeviceName(s, path));
  if (!hasRequestName(names, ref)) errors.push(fieldError.invalid(path, ref, REQUEST_REF_MSG));
  return errors;
}

/** `validateSelector`: a CEL selector of at most 10 KiB (not compiled). */
function validateSelector(selector: DeviceSelector, path: string): FieldError[] {
  if (!selector.cel) return [fieldError.required(child(path, 'cel'))];
  const expr = selector.cel.expression ?? '';
  if (expr.length > CEL_MAX_LENGTH) return [fieldError.tooLong(child(child(path, 'cel'), 'expression'), CEL_MAX_LENGTH)];
  return [];
}

/** A list of device selectors, at most 32. */
export const validateSelectors = (selectors: readonly DeviceSelector[] | undefined, path: string): FieldError[] =>
  validateSlice(selectors, DEVICE_SELECTORS_MAX, validateSelector, path);

/** `validateDeviceAllocationMode`. */
function validateAllocationMode(mode: string | undefined, count: number | undefined, path: string): FieldError[] {
  const n = count ?? 0;
  switch (mode) {
    case 'All':
      return n !== 0 ? [fieldError.invalid(child(path, 'count'), n, "must not be specified when allocationMode is 'All'")] : [];
    case 'ExactCount':
      return n <= 0 ? [fieldError.invalid(child(path, 'count'), n, 'must be greater than zero')] : [];
    default:
      return [fieldError.notSupported(child(path, 'allocationMode'), mode ?? '', ALLOCATION_MODES)];
  }
}

/** `validateLabelValue`. */
function labelValue(value: string, path: string): FieldError[] {
  return isValidLabelValue(value).map((m) => fieldError.invalid(path, value, m));
}

/** `metav1validation.ValidateLabelName`. */
function labelName(value: string, path: string): FieldError[] {
  return isQualifiedName(value).map((m) => fieldError.invalid(path, value, m));
}

/** `validateDeviceToleration`. */
export function validateToleration(t: DeviceToleration, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (t.key) errors.push(...labelName(t.key, child(path, 'key')));
  switch (t.operator ?? '') {
    case 'Exists':
      if (t.value) errors.push(fieldError.invalid(child(path, 'value'), t.value, 'must be empty for operator `Exists`'));
      break;
    case 'Equal':
      errors.push(...labelValue(t.value ?? '', child(path, 'value')));
      break;
    case '':
      errors.push(fieldError.required(child(path, 'operator')));
      break;
    default:
      errors.push(fieldError.notSupported(child(path, 'operator'), t.operator, TOLERATION_OPERATORS));
  }
  if (t.effect && !TAINT_EFFECTS.includes(t.effect)) errors.push(fieldError.notSupported(child(path, 'effect'), t.effect, TAINT_EFFECTS));
  return errors;
}

/** `validateDeviceTaint`; an unchanged effect is not checked again. */
export function validateTaint(t: DeviceTaint, old: DeviceTaint | undefined, path: string): FieldError[] {
  const errors = labelName(t.key ?? '', child(path, 'key'));
  if (t.value) errors.push(...labelValue(t.value, child(path, 'value')));
  if (!old || old.effect !== t.effect) {
    if (!t.effect) errors.push(fieldError.required(child(path, 'effect')));
    else if (!TAINT_EFFECTS.includes(t.effect)) errors.push(fieldError.notSupported(child(path, 'effect'), t.effect, TAINT_EFFECTS));
  }
  return errors;
}

function validateRequestPart(req: ExactDeviceRequest | DeviceSubRequest, path: string): FieldError[] {
  const errors = validateDeviceClassRef(req.deviceClassName, child(path, 'deviceClassName'));
  errors.push(...validateSelectors(req.selectors, child(path, 'selectors')));
  errors.push(...validateAllocationMode(req.allocationMode, req.count, path));
  (req.tolerations ?? []).forEach((t, i) => errors.push(...validateToleration(t, index(child(path, 'tolerations'), i))));
  return errors;
}

/** `validateDeviceRequest`: a DNS-label name and exactly one of `exactly` and `firstAvailable`. */
function validateRequest(req: DeviceRequest, path: string): FieldError[] {
  const errors = validateDeviceName(req.name, child(path, 'name'));
  const hasFirst = (req.firstAvailable ?? []).length > 0;
  const hasExactly = req.exactly !== undefined && req.exactly !== null;
  if (!hasFirst && !hasExactly) errors.push(fieldError.required(path, 'exactly one of `exactly` or `firstAvailable` is required'));
  else if (hasFirst && hasExactly)
    errors.push(fieldError.invalid(path, null, 'exactly one of `exactly` or `firstAvailable` is required, but multiple fields are set'));
  else if (hasFirst)
    errors.push(
      ...validateSet(
        req.firstAvailable,
        FIRST_AVAILABLE_MAX,
        (sub, p) => [...validateDeviceName(sub.name, child(p, 'name')), ...validateRequestPart(sub, p)],
        (sub) => sub.name ?? '',
        child(path, 'firstAvailable'),
      ),
    );
  else errors.push(...validateRequestPart(req.exactly!, child(path, 'exactly')));
  return errors;
}

/** `validateDeviceConstraint`. */
function validateConstraint(c: DeviceConstraint, path: string, names: RequestNames): FieldError[] {
  const errors = validateSet(
    c.requests,
    DEVICE_REQUESTS_MAX,
    (r, p) => validateRequestNameRef(r, p, names),
    (r) => r,
    child(path, 'requests'),
  );
  if (c.matchAttribute !== undefined) errors.push(...validateFullyQualifiedName(c.matchAttribute, child(path, 'matchAttribute')));
  else if (c.distinctAttribute !== undefined) errors.push(...validateFullyQualifiedName(c.distinctAttribute, child(path, 'distinctAttribute')));
  // With DRAConsumableCapacity, as Kubernetes words it.
  else errors.push(fieldError.required(path, 'exactly one of "matchAttribute" or "distinctAttribute" is required, but multiple fields are set'));
  return errors;
}

/** `validateRawExtension` of opaque parameters: a JSON object of at most 10 KiB (on create). */
export function validateRawObject(value: unknown, path: string, stored: boolean, maxLength = OPAQUE_PARAMETERS_MAX_LENGTH): FieldError[] {
  if (value === undefined || value === null) return [fieldError.required(path)];
  const size = utf8ByteLength(JSON.stringify(value));
  if (!stored && size > maxLength) return [fieldError.tooLong(path, maxLength)];
  if (typeof value !== 'object' || Array.isArray(value)) return [fieldError.invalid(path, '<value omitted>', 'must be a valid JSON object')];
  return [];
}

/** `validateOpaqueConfiguration` inside its holder (`opaque` required). */
export function validateOpaqueHolder(opaque: OpaqueDeviceConfiguration | undefined, path: string, stored: boolean): FieldError[] {
  const p = child(path, 'opaque');
  if (!opaque) return [fieldError.required(p)];
  return [...validateDriverName(opaque.driver, child(p, 'driver')), ...validateRawObject(opaque.parameters, child(p, 'parameters'), stored)];
}

function validateClaimConfig(config: DeviceClaimConfiguration, path: string, names: RequestNames, stored: boolean): FieldError[] {
  const errors = validateSet(
    config.requests,
    DEVICE_REQUESTS_MAX,
    (r, p) => validateRequestNameRef(r, p, names),
    (r) => r,
    child(path, 'requests'),
  );
  errors.push(...validateOpaqueHolder(config.opaque, path, stored));
  return errors;
}

/** `validateDeviceClaim`: requests (unique names), constraints and configuration, at most 32 each. */
export function validateDeviceClaim(devices: DeviceClaim | undefined, path: string, stored = false): FieldError[] {
  const names = gatherRequestNames(devices);
  const errors = validateSet(devices?.requests, DEVICE_REQUESTS_MAX, validateRequest, (r) => r.name ?? '', child(path, 'requests'));
  errors.push(...validateSlice(devices?.constraints, DEVICE_CONSTRAINTS_MAX, (c, p) => validateConstraint(c, p, names), child(path, 'constraints')));
  errors.push(...validateSlice(devices?.config, DEVICE_CONFIG_MAX, (c, p) => validateClaimConfig(c, p, names, stored), child(path, 'config')));
  return errors;
}

/**
 * `AuthorizedForAdmin`: a request with `adminAccess: true` needs its namespace labelled
 * `resource.kubernetes.io/admin-access: "true"`.
 */
export async function authorizedForAdmin(devices: DeviceClaim | undefined, namespace: string, ctx: KindContext, root = 'spec'): Promise<FieldError[]> {
  const i = (devices?.requests ?? []).findIndex((r) => r.exactly?.adminAccess === true);
  if (i < 0) return [];
  const path = `${root}.devices.requests[${i}].exactly.adminAccess`;
  const label = ADMIN_ACCESS_LABEL(ctx.reservedDomain);
  const ns = await ctx.read({ group: '', resource: 'namespaces' }, '', namespace);
  if (ns?.metadata?.labels?.[label] === 'true') return [];
  return [fieldError.forbidden(path, `admin access to devices requires the \`${label}: true\` label on the containing namespace`)];
}
