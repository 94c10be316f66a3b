/**
 * `metadata` of a custom resource, and of the resources embedded in it
 * (`x-kubernetes-embedded-resource`), read the way apiextensions-apiserver reads it
 * (apiserver/schema/objectmeta/coerce.go `GetObjectMetaWithOptions`, `SetObjectMeta`): decoded
 * into Go's `metav1.ObjectMeta` (unknown members dropped and reported, wrongly typed ones refused
 * or, for stored objects, dropped one by one) and written back as that struct marshals: empty
 * members left out, times in UTC to the second, a zero `creationTimestamp` removed.
 *
 * The ObjectMeta shape comes from the caller, as the structural schema of the built-in
 * `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta` (`structuralOf(ObjectMeta)`).
 */
import { child } from '../../machinery/field-errors.js';
import { goTypeName } from '../../util/go-value.js';
import { getOwn, setOwn } from '../../util/own.js';
import { DecodeTypeError, decodeWithSchema } from '../decode.js';
import type { StructuralNode } from '../structural.js';
import { definedKeys, isJsonMap, type JsonMap } from './copy-on-write.js';

/** How to read a `metadata`. */
export interface ObjectMetaOptions {
  /** The structural schema of `metav1.ObjectMeta`. */
  readonly objectMeta: StructuralNode;
  /** Drop members that do not decode instead of failing (objects read from storage). */
  readonly dropMalformedFields?: boolean;
  /** The path of the object holding `metadata` (`spec.template`); `''` for the resource itself. */
  readonly parentPath?: string;
}

/** What reading a `metadata` found. */
export interface ObjectMetaReading {
  /** Whether the object has a `metadata` member. */
  readonly found: boolean;
  /** The metadata as `metav1.ObjectMeta` marshals (undefined when not found or on error). */
  readonly meta: JsonMap | undefined;
  /** Paths of unknown members (`metadata.foo`, `spec.template.metadata.ownerReferences[0].bar`). */
  readonly unknownFields: string[];
  /** Go's decoding error text, when `metadata` does not decode (and is not dropped). */
  readonly error: string | undefined;
}

const ZERO_TIME = '0001-01-01T00:00:00Z';
const TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** A decoded `metav1.Time` as it marshals again: UTC, whole seconds (`undefined` for the zero time). */
function normalizeTime(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const m = TIME.exec(text);
  if (!m) return text;
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  d.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6]), 0);
  if (m[8]) {
    const offset = (Number(m[9]) * 60 + Number(m[10])) * 60000;
    d.setTime(d.getTime() - (m[8] === '+' ? offset : -offset));
  }
  const pad = (n: number, w = 2) => String(n).padStart(w, '0');
  const out = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}Z`;
  return out === ZERO_TIME ? undefined : out;
}

const STRING_FIELDS = ['name', 'generateName', 'namespace', 'selfLink', 'uid', 'resourceVersion'];

function nonEmpty(v: unknown): boolean {
  if (Array.isArray(v)) return v.length > 0;
  if (isJsonMap(v)) return definedKeys(v).length > 0;
  return v !== undefined && v !== null;
}

/** An OwnerReference as it marshals: apiVersion, kind, name and uid always (`""` when missing). */
function ownerReference(ref: unknown): JsonMap {
  const r = isJsonMap(ref) ? ref : {};
  const out: JsonMap = {};
  for (const k of ['apiVersion', 'kind', 'name', 'uid']) out[k] = typeof r[k] === 'string' ? r[k] : '';
  for (const k of ['controller', 'blockOwnerDeletion']) if (typeof r[k] === 'boolean') out[k] = r[k];
  return out;
}

/** A ManagedFieldsEntry as it marshals: empty strings left out, the time normalized. */
function managedFieldsEntry(entry: unknown): JsonMap {
  const e = isJsonMap(entry) ? entry : {};
  const out: JsonMap = {};
  for (const k of ['manager', 'operation', 'apiVersion']) if (typeof e[k] === 'string' && e[k] !== '') out[k] = e[k];
  const time = normalizeTime(e['time']);
  if (time !== undefined) out['time'] = time;
  if (typeof e['fieldsType'] === 'string' && e['fieldsType'] !== '') out['fieldsType'] = e['fieldsType'];
  if (e['fieldsV1'] !== undefined && e['fieldsV1'] !== null) out['fieldsV1'] = e['fieldsV1'];
  if (typeof e['subresource'] === 'string' && e['subresource'] !== '') out['subresource'] = e['subresource'];
  return out;
}

/** Decoded ObjectMeta members as `SetObjectMeta` writes them back (Go's `omitempty`, times normalized). */
export function marshalObjectMeta(decoded: JsonMap): JsonMap {
  const out: JsonMap = {};
  for (const k of STRING_FIELDS) if (typeof decoded[k] === 'string' && decoded[k] !== '') out[k] = decoded[k];
  if (typeof decoded['generation'] === 'number' && decoded['generation'] !== 0) out['generation'] = decoded['generation'];
  for (const k of ['creationTimestamp', 'deletionTimestamp']) {
    const t = normalizeTime(decoded[k]);
    if (t !== undefined) out[k] = t;
  }
  if (typeof decoded['deletionGracePeriodSeconds'] === 'number') out['deletionGracePeriodSeconds'] = decoded['deletionGracePeriodSeconds'];
  for (const k of ['labels', 'annotations']) if (nonEmpty(decoded[k])) out[k] = decoded[k];
  if (nonEmpty(decoded['ownerReferences'])) out['ownerReferences'] = (decoded['ownerReferences'] as unknown[]).map(ownerReference);
  if (nonEmpty(decoded['finalizers'])) out['finalizers'] = decoded['finalizers'];
  if (nonEmpty(decoded['managedFields'])) out['managedFields'] = (decoded['managedFields'] as unknown[]).map(managedFieldsEntry);
  return out;
}

/**
 * Go's `GetObjectMetaWithOptions(obj, ...)` followed by what `SetObjectMeta` would write: reads
 * `obj.metadata` as `metav1.ObjectMeta`.
 */
export function readObjectMeta(obj: JsonMap, options: ObjectMetaOptions): ObjectMetaReading {
  const metadata = getOwn(obj, 'metadata');
  if (metadata === undefined) return { found: false, meta: undefined, unknownFields: [], error: undefined };
  const prefix = child(options.parentPath ?? '', 'metadata');
  // Go unmarshals a JSON null into ObjectMeta as nothing at all: an empty metadata.
  if (metadata === null) return { found: true, meta: {}, unknownFields: [], error: undefined };
  try {
    const decoded = decodeWithSchema(metadata, options.objectMeta);
    const meta = isJsonMap(decoded.value) ? decoded.value : {};
    return { found: true, meta: marshalObjectMeta(meta), unknownFields: decoded.unknownFields.map((p) => `${prefix}.${p}`), error: undefined };
  } catch (e) {
    if (!(e instanceof DecodeTypeError)) throw e;
    if (!options.dropMalformedFields) return { found: true, meta: undefined, unknownFields: [], error: e.message };
  }
  // Stored objects: keep the members that decode on their own.
  if (!isJsonMap(metadata)) {
    return { found: false, meta: undefined, unknownFields: [], error: `invalid metadata: expected object, got ${goTypeName(metadata)}` };
  }
  const accumulated: JsonMap = {};
  const unknownFields: string[] = [];
  for (const k of definedKeys(metadata)) {
    try {
      const one: JsonMap = {};
      setOwn(one, k, metadata[k]);
      const decoded = decodeWithSchema(one, options.objectMeta);
      if (isJsonMap(decoded.value)) for (const [dk, dv] of Object.entries(decoded.value)) setOwn(accumulated, dk, dv);
      unknownFields.push(...decoded.unknownFields.map((p) => `${prefix}.${p}`));
    } catch (e) {
      if (!(e instanceof DecodeTypeError)) throw e;
    }
  }
  return { found: true, meta: marshalObjectMeta(accumulated), unknownFields, error: undefined };
}
