/**
 * A ResourceClaim's status (`validateResourceClaimStatusUpdate` of
 * pkg/apis/resource/validation): reservations, the allocation (checked when first set, immutable
 * afterwards) and the devices' status; and the strategy's removal of the status of devices that
 * are no longer allocated (`dropDeallocatedStatusDevices`).
 */
import { child, fieldError, index, type FieldError } from '../../machinery/field-errors.js';
import { immutableFieldError } from '../../schema/validation/immutable-fields.js';
import { validateMetaConditions, type MetaCondition } from '../shared/conditions.js';
import { GO_NIL, uuid } from '../shared/declarative.js';
import { semanticEqualAt } from '../shared/semantic-equal.js';
import { utf8ByteLength } from '../../util/go-format.js';
import { ResourceClaim as V1, type AllocatedDeviceStatus, type AllocationResult, type DeviceRequestAllocationResult } from '../types/resource-v1.js';
import {
  DEVICE_CONFIG_MAX,
  DEVICE_REQUESTS_MAX,
  gatherRequestNames,
  validateOpaqueHolder,
  validateRawObject,
  validateRequestNameRef,
  validateSet,
  validateSlice,
  validateToleration,
  type RequestNames,
} from './dra-claim-rules.js';
import { validateDeviceName, validateDriverName, validatePoolName } from './dra-names.js';
import { validateBindingConditions } from './dra-slice-rules.js';

type Claim = V1;

const RESERVED_FOR_MAX = 256;
const DEVICE_STATUS_MAX_CONDITIONS = 8;
const DEVICE_STATUS_DATA_MAX = 10 * 1024;
const INTERFACE_NAME_MAX = 256;
const HARDWARE_ADDRESS_MAX = 128;
const MAX_IPS = 16;
const CONFIG_SOURCES = ['FromClaim', 'FromClass'];

const deviceID = (d: { driver?: string; pool?: string; device?: string }) => `${d.driver ?? ''}/${d.pool ?? ''}/${d.device ?? ''}`;
const sharedDeviceID = (d: { driver?: string; pool?: string; device?: string; shareID?: string }) => (d.shareID ? `${deviceID(d)}/${d.shareID}` : deviceID(d));

/** The status of devices a status update deallocated is dropped with them. */
export function dropDeallocatedStatusDevices(claim: Claim, old: Readonly<Claim>): void {
  const status = claim.status;
  if (!status?.devices?.length) return;
  const gone = new Set((old.status?.allocation?.devices?.results ?? []).map(deviceID));
  for (const r of status.allocation?.devices?.results ?? []) gone.delete(deviceID(r));
  const kept = status.devices.filter((d) => !gone.has(deviceID(d)));
  if (kept.length) status.devices = kept;
  else delete status.devices;
}

function validateResult(r: DeviceRequestAllocationResult, path: string, names: RequestNames): FieldError[] {
  const errors = validateRequestNameRef(r.request ?? '', child(path, 'request'), names);
  errors.push(...validateDriverName(r.driver, child(path, 'driver')));
  errors.push(...validatePoolName(r.pool, child(path, 'pool')));
  errors.push(...validateDeviceName(r.device, child(path, 'device')));
  errors.push(...validateBindingConditions(r.bindingConditions, r.bindingFailureConditions, path));
  (r.tolerations ?? []).forEach((t, i) => errors.push(...validateToleration(t, index(child(path, 'tolerations'), i))));
  if (r.shareID !== undefined) errors.push(...uuid(child(path, 'shareID'), r.shareID));
  return errors;
}

function validateAllocation(a: AllocationResult, path: string, names: RequestNames): FieldError[] {
  const devicesPath = child(path, 'devices');
  const errors = validateSlice(a.devices?.results, DEVICE_REQUESTS_MAX, (r, p) => validateResult(r, p, names), child(devicesPath, 'results'));
  errors.push(
    ...validateSlice(
      a.devices?.config,
      2 * DEVICE_CONFIG_MAX,
      (c, p) => {
        const errs: FieldError[] = [];
        if (!c.source) errs.push(fieldError.required(child(p, 'source')));
        else if (!CONFIG_SOURCES.includes(c.source)) errs.push(fieldError.notSupported(child(p, 'source'), c.source, CONFIG_SOURCES));
        errs.push(
          ...validateSet(
            c.requests,
            DEVICE_REQUESTS_MAX,
            (r, rp) => validateRequestNameRef(r, rp, names),
            (r) => r,
            child(p, 'requests'),
          ),
        );
        errs.push(...validateOpaqueHolder(c.opaque, p, false));
        return errs;
      },
      child(devicesPath, 'config'),
    ),
  );
  return errors;
}

function validateDeviceStatus(d: AllocatedDeviceStatus, path: string, allocated: Set<string>): FieldError[] {
  const errors = validateDriverName(d.driver, child(path, 'driver'));
  errors.push(...validatePoolName(d.pool, child(path, 'pool')));
  errors.push(...validateDeviceName(d.device, child(path, 'device')));
  if (d.shareID !== undefined) errors.push(...uuid(child(path, 'shareID'), d.shareID));
  if (!allocated.has(sharedDeviceID(d))) errors.push(fieldError.invalid(path, sharedDeviceID(d), 'must be an allocated device in the claim'));
  const conditions = (d.conditions ?? []) as MetaCondition[];
  if (conditions.length > DEVICE_STATUS_MAX_CONDITIONS)
    errors.push(fieldError.tooMany(child(path, 'conditions'), conditions.length, DEVICE_STATUS_MAX_CONDITIONS));
  errors.push(...validateMetaConditions(conditions, child(path, 'conditions')));
  if (d.data !== undefined && d.data !== null) errors.push(...validateRawObject(d.data, child(path, 'data'), false, DEVICE_STATUS_DATA_MAX));
  const net = d.networkData;
  if (net) {
    const np = child(path, 'networkData');
    if (utf8ByteLength(net.interfaceName ?? '') > INTERFACE_NAME_MAX) errors.push(fieldError.tooLong(child(np, 'interfaceName'), INTERFACE_NAME_MAX));
    if (utf8ByteLength(net.hardwareAddress ?? '') > HARDWARE_ADDRESS_MAX) errors.push(fieldError.tooLong(child(np, 'hardwareAddress'), HARDWARE_ADDRESS_MAX));
    errors.push(
      ...validateSet(
        net.ips,
        MAX_IPS,
        () => [],
        (ip) => ip,
        child(np, 'ips'),
      ),
    );
  }
  return errors;
}

const sameAllocation = semanticEqualAt(V1, 'status', 'allocation');

/** `validateResourceClaimStatusUpdate`. */
export function validateClaimStatusUpdate(claim: Claim, old: Readonly<Claim>): FieldError[] {
  const status = claim.status ?? {};
  const oldStatus = old.status ?? {};
  const names = gatherRequestNames(claim.spec?.devices);
  const errors = validateSet(
    status.reservedFor,
    RESERVED_FOR_MAX,
    (ref, p) => [
      ...(ref.resource ? [] : [fieldError.required(child(p, 'resource'))]),
      ...(ref.name ? [] : [fieldError.required(child(p, 'name'))]),
      ...(ref.uid ? [] : [fieldError.required(child(p, 'uid'))]),
    ],
    (ref) => ref.uid ?? '',
    'status.reservedFor',
  );
  const allocated = new Set((status.allocation?.devices?.results ?? []).map(sharedDeviceID));
  errors.push(...validateSet(status.devices, -1, (d, p) => validateDeviceStatus(d, p, allocated), sharedDeviceID, 'status.devices'));
  if ((status.reservedFor ?? []).length > 0) {
    if (!status.allocation) errors.push(fieldError.forbidden('status.reservedFor', 'may not be specified when `allocated` is not set'));
    else if (claim.metadata?.deletionTimestamp) {
      const before = new Set((oldStatus.reservedFor ?? []).map((r) => JSON.stringify([r.apiGroup ?? '', r.resource ?? '', r.name ?? '', r.uid ?? ''])));
      if (status.reservedFor!.some((r) => !before.has(JSON.stringify([r.apiGroup ?? '', r.resource ?? '', r.name ?? '', r.uid ?? '']))))
        errors.push(fieldError.forbidden('status.reservedFor', 'new entries may not be added while `deallocationRequested` or `deletionTimestamp` are set'));
    }
  }
  if (oldStatus.allocation && status.allocation) {
    if (!sameAllocation(status.allocation, oldStatus.allocation)) errors.push(immutableFieldError('status.allocation', GO_NIL));
  } else if (status.allocation) errors.push(...validateAllocation(status.allocation, 'status.allocation', names));
  return errors;
}
