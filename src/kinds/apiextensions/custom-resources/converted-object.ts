/**
 * The checks apiextensions-apiserver runs on each object a conversion webhook answers
 * (pkg/apiserver/conversion/webhook_converter.go `Convert`, `validateConvertedObject`,
 * `restoreObjectMeta`): it must decode as an object with a kind, be of the desired group and
 * version and of the same kind, keep the name, namespace and uid; its metadata is then the
 * original's, except labels and annotations, which the webhook may change (and which must then
 * be valid).
 */
import { aggregateMessage } from '../../../machinery/field-errors.js';
import type { KubeObject } from '../../../schema/define-kind.js';
import { validateAnnotations, validateLabels } from '../../../schema/validation/object-meta.js';
import { cloneJson } from '../../../util/json-clone.js';
import { goMarshal, goDynamicType, groupVersionString, parseGroupVersion } from './conversion-review.js';

/** A converted object refused; `message` is the whole error text the apiserver answers. */
export class ConvertedObjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConvertedObjectError';
  }
}

type JsonObject = Record<string, unknown>;

const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** `unstructured.NestedString` as the getters read it: `''` when absent or not a string. */
function nestedString(obj: JsonObject, ...path: string[]): string {
  let cur: unknown = obj;
  for (const p of path) {
    if (!isObject(cur)) return '';
    cur = cur[p];
  }
  return typeof cur === 'string' ? cur : '';
}

/**
 * `getRawExtensionObject` for an element of `convertedObjects`: `Unstructured.UnmarshalJSON`, which
 * wants an object with a kind.
 */
function asUnstructured(raw: unknown): JsonObject {
  if (raw === null || raw === undefined) throw new ConvertedObjectError('unexpected end of JSON input');
  if (!isObject(raw)) {
    const kind = Array.isArray(raw) ? 'array' : typeof raw === 'boolean' ? 'bool' : typeof raw;
    throw new ConvertedObjectError(`json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`);
  }
  if (nestedString(raw, 'kind') === '') throw new ConvertedObjectError(`Object 'Kind' is missing in '${goMarshal(raw)}'`);
  return raw;
}

/** `validateConvertedObject`: the same kind, name, namespace and uid. */
function identityProblem(original: JsonObject, converted: JsonObject): string | undefined {
  const checks: [string, string, string][] = [
    ['kind', nestedString(original, 'kind'), nestedString(converted, 'kind')],
    ['name', nestedString(original, 'metadata', 'name'), nestedString(converted, 'metadata', 'name')],
    ['namespace', nestedString(original, 'metadata', 'namespace'), nestedString(converted, 'metadata', 'namespace')],
    ['UID', nestedString(original, 'metadata', 'uid'), nestedString(converted, 'metadata', 'uid')],
  ];
  for (const [what, e, a] of checks) if (e !== a) return `must have the same ${what}: ${e} != ${a}`;
  return undefined;
}

/**
 * `restoreObjectMeta`: the original's metadata with the labels and annotations the webhook
 * answered (validated when they changed); the reason it refuses them otherwise.
 */
function restoredMetadata(original: JsonObject, converted: JsonObject): JsonObject | string {
  if (!Object.hasOwn(converted, 'metadata')) return 'missing metadata in converted object';
  const answered = converted['metadata'];
  if (!isObject(answered)) return `invalid metadata of type ${goDynamicType(answered)} in converted object`;
  const meta: JsonObject = isObject(original['metadata']) ? cloneJson(original['metadata']) : {};
  for (const field of ['labels', 'annotations'] as const) {
    const given = answered[field];
    if (given === undefined || given === null) {
      delete meta[field];
      continue;
    }
    if (!isObject(given)) return `invalid metadata.${field} of type ${goDynamicType(given)} in converted object`;
    const before = meta[field];
    if (before !== undefined && before !== null && !isObject(before)) return `invalid metadata.${field} of type ${goDynamicType(before)} in original object`;
    const old = (before ?? {}) as JsonObject;
    let changed = Object.keys(old).length !== Object.keys(given).length;
    for (const [k, v] of Object.entries(given)) {
      if (typeof v !== 'string') return `metadata.${field}[${k}] must be a string, but is ${goDynamicType(v)} in converted object`;
      if (old[k] !== v) changed = true;
    }
    if (changed) {
      const errors = field === 'labels' ? validateLabels(given, 'metadata.labels') : validateAnnotations(given, 'metadata.annotation');
      if (errors.length) return aggregateMessage(errors);
    }
    meta[field] = given;
  }
  return meta;
}

/**
 * The object the apiserver keeps of `raw`, the webhook's conversion of `original` to `desired`
 * (`group/version`), or a {@link ConvertedObjectError} with the text it answers, `inGvk` naming
 * the object converted (`example.com/v1, Kind=Widget`).
 */
export function acceptConverted(original: KubeObject, raw: unknown, desired: string, inGvk: string): KubeObject {
  const converted = asUnstructured(raw);
  const [group, version] = parseGroupVersion(nestedString(converted, 'apiVersion')) ?? ['', ''];
  const received = groupVersionString(group, version);
  if (received !== desired) {
    throw new ConvertedObjectError(
      `conversion webhook for ${inGvk} returned invalid object at index 0: invalid groupVersion (expected ${desired}, received ${received})`,
    );
  }
  const expectedKind = nestedString(original as JsonObject, 'kind');
  const kind = nestedString(converted, 'kind');
  if (kind !== expectedKind) {
    throw new ConvertedObjectError(
      `conversion webhook for ${inGvk} returned invalid object at index 0: invalid kind (expected ${expectedKind}, received ${kind})`,
    );
  }
  const identity = identityProblem(original as JsonObject, converted);
  if (identity) throw new ConvertedObjectError(`conversion webhook for ${inGvk} returned invalid object: ${identity}`);
  const meta = restoredMetadata(original as JsonObject, converted);
  if (typeof meta === 'string') throw new ConvertedObjectError(`conversion webhook for ${inGvk} returned invalid metadata: ${meta}`);
  return { ...converted, metadata: meta } as KubeObject;
}
