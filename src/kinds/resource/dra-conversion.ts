/**
 * resource.k8s.io/v1beta1 ↔ v1 (the storage shape; v1beta2 has v1's shape). Two parts differ
 * (pkg/apis/resource/v1beta1/conversion.go):
 * - a v1beta1 DeviceRequest holds the fields of an exact request at its top level, where v1 nests
 *   them under `exactly`; a v1beta1 request with any of them set becomes a v1 request with
 *   `exactly`, and back;
 * - a v1beta1 Device holds its description under `basic`, where v1 has it at the device's top
 *   level; every v1 device reads as a v1beta1 device with `basic`.
 */
import type { KubeObject, VersionConversion } from '../../schema/define-kind.js';

type Json = Record<string, unknown>;

/** The fields of an exact request, in v1beta1 at the request's top level. */
const EXACT_FIELDS = ['deviceClassName', 'selectors', 'allocationMode', 'count', 'adminAccess', 'tolerations', 'capacity'] as const;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const present = (v: unknown) => v !== undefined && v !== null;

function requestToV1(given: Json): Json {
  const req = { ...given };
  // The v1beta1 defaults come first (SetDefaults_DeviceRequest): a request without subrequests is
  // an exact one, allocating one device unless it says otherwise.
  if (!Array.isArray(req['firstAvailable']) || req['firstAvailable'].length === 0) {
    if (!req['allocationMode']) req['allocationMode'] = 'ExactCount';
    if (req['allocationMode'] === 'ExactCount' && !req['count']) req['count'] = 1;
  }
  const out: Json = { name: req['name'] };
  const exactly: Json = {};
  let exact = false;
  for (const f of EXACT_FIELDS) {
    const v = req[f];
    if (!present(v)) continue;
    exactly[f] = v;
    // As hasAnyMainRequestFieldsSet: zero values (an empty class name, count 0) do not count.
    if (!(v === '' || v === 0)) exact = true;
  }
  if (present(req['firstAvailable'])) out['firstAvailable'] = req['firstAvailable'];
  if (exact) out['exactly'] = exactly;
  return out;
}

function requestFromV1(req: Json): Json {
  const out: Json = { name: req['name'] };
  const exactly = req['exactly'];
  if (isObject(exactly)) for (const f of EXACT_FIELDS) if (present(exactly[f])) out[f] = exactly[f];
  if (present(req['firstAvailable'])) out['firstAvailable'] = req['firstAvailable'];
  return out;
}

function mapRequests(claimSpec: unknown, convert: (r: Json) => Json): unknown {
  if (!isObject(claimSpec) || !isObject(claimSpec['devices'])) return claimSpec;
  const devices = claimSpec['devices'];
  const requests = devices['requests'];
  if (!Array.isArray(requests)) return claimSpec;
  return { ...claimSpec, devices: { ...devices, requests: requests.map((r) => (isObject(r) ? convert(r) : r)) } };
}

/** ResourceClaim: the requests of `spec.devices`. */
export const claimConversion: VersionConversion = {
  toStorage: (obj) => ({ ...obj, spec: mapRequests(obj['spec'], requestToV1) }),
  fromStorage: (obj) => ({ ...obj, spec: mapRequests(obj['spec'], requestFromV1) }),
};

/** ResourceClaimTemplate: the requests of `spec.spec.devices`. */
export const claimTemplateConversion: VersionConversion = {
  toStorage: (obj) => withTemplateSpec(obj, requestToV1),
  fromStorage: (obj) => withTemplateSpec(obj, requestFromV1),
};

function withTemplateSpec(obj: KubeObject, convert: (r: Json) => Json): KubeObject {
  const spec = obj['spec'];
  if (!isObject(spec)) return obj;
  return { ...obj, spec: { ...spec, spec: mapRequests(spec['spec'], convert) } };
}

function deviceToV1(device: Json): Json {
  const basic = device['basic'];
  return isObject(basic) ? { name: device['name'], ...basic } : { name: device['name'] };
}

function deviceFromV1(device: Json): Json {
  const { name, ...basic } = device;
  return { name, basic };
}

function mapDevices(obj: KubeObject, convert: (d: Json) => Json): KubeObject {
  const spec = obj['spec'];
  if (!isObject(spec) || !Array.isArray(spec['devices'])) return obj;
  return { ...obj, spec: { ...spec, devices: spec['devices'].map((d) => (isObject(d) ? convert(d) : d)) } };
}

/** ResourceSlice: the devices of `spec.devices`. */
export const sliceConversion: VersionConversion = {
  toStorage: (obj) => mapDevices(obj, deviceToV1),
  fromStorage: (obj) => mapDevices(obj, deviceFromV1),
};
