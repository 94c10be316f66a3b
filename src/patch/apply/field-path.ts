/**
 * Field paths, as structured-merge-diff's `fieldpath` package defines them: a path is a list of
 * elements, each selecting a struct field or map key (`.name`), a map-list item by its keys
 * (`[name="c"]`), a set item by value (`[="x"]`) or an atomic-list item by index (`[0]`).
 *
 * Elements have SMD's total order (field names < keys < values < indexes), print the way
 * Kubernetes prints them in conflict messages, and serialize to the FieldsV1 key forms
 * `f:name`, `k:{"name":"c"}`, `v:"x"`, `i:0`.
 */
import { compareGoStrings } from '../../util/go-format.js';
import { jsonEqual } from '../../util/json-equal.js';
import { GoJsonIter } from './go-json-iter.js';
import { compareValues, goJsonValue, type JsonValue, valueToString } from './value.js';

/** One field of a map-list key: the key field's name and the item's value for it. */
export interface KeyField {
  readonly name: string;
  readonly value: JsonValue;
}

/** One step of a field path. */
export type PathElement =
  | { readonly kind: 'field'; readonly name: string }
  | { readonly kind: 'key'; readonly fields: readonly KeyField[] }
  | { readonly kind: 'value'; readonly value: JsonValue }
  | { readonly kind: 'index'; readonly index: number };

/** A field path, from the object's root. */
export type FieldPath = readonly PathElement[];

function sortKeyFields(fields: KeyField[]): KeyField[] {
  // value.FieldList.Sort: stable, by name (byte order).
  return fields
    .map((f, i) => ({ f, i }))
    .sort((a, b) => compareGoStrings(a.f.name, b.f.name) || a.i - b.i)
    .map((x) => x.f);
}

/** Constructors for path elements. */
export const pathElement = {
  /** A field of a struct or map. */
  field: (name: string): PathElement => ({ kind: 'field', name }),
  /** A map-list key; fields are sorted by name, as SMD keeps them. */
  key: (fields: readonly KeyField[] | Readonly<Record<string, JsonValue>>): PathElement => ({
    kind: 'key',
    fields: sortKeyFields(
      Array.isArray(fields) ? [...(fields as KeyField[])] : Object.entries(fields as Record<string, JsonValue>).map(([name, value]) => ({ name, value })),
    ),
  }),
  /** An element of a set, by its value. */
  value: (value: JsonValue): PathElement => ({ kind: 'value', value }),
  /** An element of an atomic list, by its index. */
  index: (index: number): PathElement => ({ kind: 'index', index }),
};

const kindRank: Record<PathElement['kind'], number> = { field: 0, key: 1, value: 2, index: 3 };

function compareKeyFields(a: readonly KeyField[], b: readonly KeyField[]): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = compareGoStrings(a[i]!.name, b[i]!.name) || compareValues(a[i]!.value, b[i]!.value);
    if (c !== 0) return c;
  }
}

/** SMD's `PathElement.Compare`. */
export function comparePathElements(a: PathElement, b: PathElement): number {
  if (a.kind !== b.kind) return kindRank[a.kind] < kindRank[b.kind] ? -1 : 1;
  switch (a.kind) {
    case 'field':
      return compareGoStrings(a.name, (b as typeof a).name);
    case 'key':
      return compareKeyFields(a.fields, (b as typeof a).fields);
    case 'value':
      return compareValues(a.value, (b as typeof a).value);
    case 'index': {
      const j = (b as typeof a).index;
      return a.index < j ? -1 : a.index > j ? 1 : 0;
    }
  }
}

/** SMD's `PathElement.Equals`. */
export function pathElementsEqual(a: PathElement, b: PathElement): boolean {
  if (a.kind !== b.kind) return false;
  switch (a.kind) {
    case 'field':
      return a.name === (b as typeof a).name;
    case 'key': {
      const bf = (b as typeof a).fields;
      return a.fields.length === bf.length && a.fields.every((f, i) => f.name === bf[i]!.name && jsonEqual(f.value, bf[i]!.value));
    }
    case 'value':
      return jsonEqual(a.value, (b as typeof a).value);
    case 'index':
      return a.index === (b as typeof a).index;
  }
}

/** SMD's `Path.Compare`. */
export function comparePaths(a: FieldPath, b: FieldPath): number {
  for (let i = 0; ; i++) {
    if (i >= a.length && i >= b.length) return 0;
    if (i >= a.length) return -1;
    if (i >= b.length) return 1;
    const c = comparePathElements(a[i]!, b[i]!);
    if (c !== 0) return c;
  }
}

/** How Kubernetes prints one element: `.image`, `[name="c"]`, `[containerPort=80,protocol="TCP"]`, `[="x"]`, `[0]`. */
export function pathElementString(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `.${pe.name}`;
    case 'key':
      return `[${pe.fields.map((f) => `${f.name}=${valueToString(f.value)}`).join(',')}]`;
    case 'value':
      return `[=${valueToString(pe.value)}]`;
    case 'index':
      return `[${pe.index}]`;
  }
}

/** How Kubernetes prints a path: `.spec.containers[name="c"].image`. */
export function pathString(path: FieldPath): string {
  return path.map(pathElementString).join('');
}

/** jsoniter's `WriteString` (no HTML escaping), used for object field names inside `k:{...}`. */
function goWriteString(s: string): string {
  let out = '"';
  for (const ch of s) {
    const cp = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (cp < 0x20) out += `\\u00${cp.toString(16).padStart(2, '0')}`;
    else if (cp >= 0xd800 && cp <= 0xdfff) out += '\ufffd';
    else out += ch;
  }
  return `${out}"`;
}

/** The FieldsV1 key of an element (`SerializePathElement`). */
export function serializePathElement(pe: PathElement): string {
  switch (pe.kind) {
    case 'field':
      return `f:${pe.name}`;
    case 'key':
      return `k:{${pe.fields.map((f) => `${goWriteString(f.name)}:${goJsonValue(f.value)}`).join(',')}}`;
    case 'value':
      return `v:${goJsonValue(pe.value)}`;
    case 'index':
      return `i:${pe.index}`;
  }
}

/** A FieldsV1 key that could not be read, with the message SMD gives. */
export class PathElementError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PathElementError';
  }
}

/** Returned by {@link deserializePathElement} for a key of a type SMD does not know (it is dropped). */
export const UNKNOWN_PATH_ELEMENT = Symbol('unknown path element type');

const utf8 = new TextEncoder();
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** Go's `strconv.Atoi` with its error messages. */
function atoi(s: string): number {
  const quoted = JSON.stringify(s);
  if (!/^[+-]?\d+$/.test(s)) throw new PathElementError(`strconv.Atoi: parsing ${quoted}: invalid syntax`);
  const n = BigInt(s);
  if (n < INT64_MIN || n > INT64_MAX) throw new PathElementError(`strconv.Atoi: parsing ${quoted}: value out of range`);
  return Number(n);
}

function toJsonValue(v: unknown): JsonValue {
  return v as JsonValue;
}

/**
 * Reads a FieldsV1 key (`DeserializePathElement`). Throws {@link PathElementError} with SMD's
 * message for a malformed key; returns {@link UNKNOWN_PATH_ELEMENT} for `x:...` of an unknown type.
 */
export function deserializePathElement(s: string): PathElement | typeof UNKNOWN_PATH_ELEMENT {
  const bytes = utf8.encode(s);
  if (bytes.length < 2) throw new PathElementError('key must be 2 characters long:');
  if (bytes[1] !== 0x3a) throw new PathElementError(`missing colon: ${s}`);
  const payload = bytes.subarray(2);
  switch (bytes[0]) {
    case 0x66: // f
      return { kind: 'field', name: s.slice(2) };
    case 0x76: {
      // v
      const iter = GoJsonIter.bytes(payload);
      const r = iter.run(() => {
        const v = iter.read();
        iter.expectEnd();
        return v;
      });
      if (r.error !== undefined) throw new PathElementError(r.error);
      return { kind: 'value', value: toJsonValue(r.value) };
    }
    case 0x6b: {
      // k
      const iter = GoJsonIter.bytes(payload);
      const fields: KeyField[] = [];
      const r = iter.run(() => {
        iter.readMapCB((name) => {
          fields.push({ name, value: toJsonValue(iter.read()) });
          return true;
        }, 'ReadObjectCB');
        iter.expectEnd();
      });
      if (r.error !== undefined) throw new PathElementError(r.error);
      return { kind: 'key', fields: sortKeyFields(fields) };
    }
    case 0x69: // i
      return { kind: 'index', index: atoi(s.slice(2)) };
    default:
      return UNKNOWN_PATH_ELEMENT;
  }
}

/** A map keyed by path elements (SMD's `PathElementMap` / `PathElementValueMap`), by their canonical FieldsV1 form. */
export class PathElementMap<V> {
  private readonly map = new Map<string, V>();

  has(pe: PathElement): boolean {
    return this.map.has(serializePathElement(pe));
  }

  get(pe: PathElement): V | undefined {
    return this.map.get(serializePathElement(pe));
  }

  set(pe: PathElement, v: V): void {
    this.map.set(serializePathElement(pe), v);
  }
}
