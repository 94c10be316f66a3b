/**
 * `metadata.managedFields`: the wire form (a list of `ManagedFieldsEntry`) and the form the field
 * manager works on (a map from manager identifier to its field set), as
 * k8s.io/apimachinery `pkg/util/managedfields/internal` converts between them.
 *
 * - A manager is identified by the JSON of its entry without time, fields and fieldsType, and
 *   without apiVersion for appliers: `{"manager":"kubectl","operation":"Update","apiVersion":"v1"}`,
 *   `{"manager":"kubectl","operation":"Apply"}`, `{"manager":"k","operation":"Update","apiVersion":"v1","subresource":"status"}`.
 * - Entries are written sorted by operation (`Apply` first), time (seconds), manager, apiVersion,
 *   subresource; `time` as RFC 3339 seconds in UTC; `fieldsType: FieldsV1`.
 * - `managedFields: []` (or a single empty entry) sent on a write clears them; entries that do not
 *   decode are ignored in favour of the stored ones (see {@link managedFromRequest}).
 * - At most {@link DEFAULT_MAX_UPDATE_MANAGERS} Update managers are kept: the oldest are merged
 *   into `ancient-changes`, one bucket per apiVersion ({@link capUpdateManagers}).
 */
import { formatTime } from '../../clock.js';
import { fieldError, type FieldError } from '../../machinery/field-errors.js';
import { goJsonString, goQuote, utf8ByteLength } from '../../util/go-format.js';
import { isJsonObject } from '../../util/go-value.js';
import { getOwn } from '../../util/own.js';
import { FieldSet, FieldsV1Error, storedFieldsV1Of } from './field-set.js';
import { goJsonInOrder } from './value.js';

/** `metav1.ManagedFieldsOperationType`. */
export type ManagedFieldsOperation = 'Apply' | 'Update';

/** One entry of `metadata.managedFields`, as Kubernetes writes it. */
export interface ManagedFieldsEntry {
  manager?: string;
  operation: ManagedFieldsOperation;
  apiVersion: string;
  /** RFC 3339, seconds, UTC; absent when the manager's last operation changed nothing. */
  time?: string;
  fieldsType: 'FieldsV1';
  fieldsV1: Record<string, unknown>;
  subresource?: string;
}

/** What the field manager keeps per manager. */
export interface ManagerState {
  readonly manager: string;
  readonly operation: ManagedFieldsOperation;
  /** The apiVersion the fields are expressed in (for appliers, the version of their last apply). */
  readonly apiVersion: string;
  readonly subresource: string;
  /** `metav1.Time` as written (RFC 3339 seconds, UTC), or absent. */
  readonly time?: string;
  readonly fields: FieldSet;
}

/** The managers of an object, by identifier (see {@link managerIdentifier}). */
export type ManagedFields = Map<string, ManagerState>;

/** Kubernetes' default cap on Update managers (`DefaultMaxUpdateManagers`). */
export const DEFAULT_MAX_UPDATE_MANAGERS = 10;

/** The manager Kubernetes merges the oldest Update managers into. */
export const ANCIENT_CHANGES_MANAGER = 'ancient-changes';

/** The manager that takes ownership of existing fields on the first apply to an untracked object. */
export const BEFORE_FIRST_APPLY_MANAGER = 'before-first-apply';

/**
 * `BuildManagerIdentifier`: the JSON of the entry without time, fieldsType and fieldsV1, and
 * without apiVersion for appliers.
 */
export function managerIdentifier(m: { manager: string; operation: string; apiVersion?: string; subresource?: string }): string {
  // The same few managers write again and again: their identifiers are kept (bounded).
  // Each part after its length: unambiguous whatever the parts hold, and cheaper than encoding an array as JSON.
  const apiVersion = m.apiVersion ?? '';
  const subresource = m.subresource ?? '';
  const key = `${m.manager.length}:${m.manager}${m.operation.length}:${m.operation}${apiVersion.length}:${apiVersion}${subresource}`;
  let id = identifiers.get(key);
  if (id === undefined) {
    id = buildManagerIdentifier(m);
    if (identifiers.size >= 1024) identifiers.clear();
    identifiers.set(key, id);
  }
  return id;
}

const identifiers = new Map<string, string>();

function buildManagerIdentifier(m: { manager: string; operation: string; apiVersion?: string; subresource?: string }): string {
  const parts: string[] = [];
  if (m.manager) parts.push(`"manager":${goJsonString(m.manager)}`);
  if (m.operation) parts.push(`"operation":${goJsonString(m.operation)}`);
  if (m.operation !== 'Apply' && m.apiVersion) parts.push(`"apiVersion":${goJsonString(m.apiVersion)}`);
  if (m.subresource) parts.push(`"subresource":${goJsonString(m.subresource)}`);
  return `{${parts.join(',')}}`;
}

/** A manager's identifier parts back from the identifier. */
export function parseManagerIdentifier(id: string): { manager: string; operation: string; apiVersion: string; subresource: string } {
  try {
    const o = JSON.parse(id) as Record<string, unknown>;
    const s = (k: string) => (typeof o[k] === 'string' ? (o[k] as string) : '');
    return { manager: s('manager'), operation: s('operation'), apiVersion: s('apiVersion'), subresource: s('subresource') };
  } catch {
    return { manager: id, operation: '', apiVersion: '', subresource: '' };
  }
}

/** The identifier of a manager's state. */
export function identifierOf(s: Pick<ManagerState, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  return managerIdentifier(s);
}

/** Managed fields that cannot be decoded, with the message Kubernetes' decoder gives. */
export class ManagedFieldsDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ManagedFieldsDecodeError';
  }
}

const ENTRY_FIELDS = ['manager', 'operation', 'apiVersion', 'time', 'fieldsType', 'fieldsV1', 'subresource'] as const;

/** The fields of an entry, read as own properties only. */
function ownFields(raw: unknown): Partial<Record<(typeof ENTRY_FIELDS)[number], unknown>> {
  const out: Partial<Record<(typeof ENTRY_FIELDS)[number], unknown>> = {};
  if (!isJsonObject(raw)) return out;
  for (const k of ENTRY_FIELDS) {
    const v = getOwn(raw, k);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

/** Epoch milliseconds of an RFC 3339 time, or `undefined`. */
function parseTime(v: unknown): number | undefined {
  if (typeof v !== 'string' || v === '') return undefined;
  const ms = Date.parse(v);
  return Number.isNaN(ms) ? undefined : ms;
}

/** Go's `time.Time.String()` of a decoded time (the server runs in UTC). */
function goTimeString(v: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt](\d{2}:\d{2}:\d{2})(\.\d+)?/.exec(v);
  const ms = Date.parse(v);
  if (!m || Number.isNaN(ms)) return v;
  const iso = new Date(Math.floor(ms / 1000) * 1000).toISOString();
  const frac = (m[3] ?? '').replace(/0+$/, '');
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)}${frac === '.' ? '' : frac} +0000 UTC`;
}

/** Go's `%v` of a `ManagedFieldsEntry` (its pointer fields print through their `String()`). */
function goEntryString(e: ReturnType<typeof ownFields>): string {
  const time = typeof e.time === 'string' && e.time !== '' ? goTimeString(e.time) : '<nil>';
  const fields = e.fieldsV1 === undefined || e.fieldsV1 === null ? '<nil>' : typeof e.fieldsV1 === 'string' ? e.fieldsV1 : goJsonInOrder(e.fieldsV1);
  return `{${str(e.manager)} ${str(e.operation)} ${str(e.apiVersion)} ${time} ${str(e.fieldsType)} ${fields} ${str(e.subresource)}}`;
}

/**
 * `DecodeManagedFields`: the managers of a `metadata.managedFields` list. Throws
 * {@link ManagedFieldsDecodeError} with Kubernetes' message (`operation must be \`Apply\` or
 * \`Update\``, `apiVersion must not be empty`, `missing fieldsType in managed fields entry 0`,
 * `error decoding versioned set from {...}: error decoding set: ...`). A later entry with the same
 * identifier replaces an earlier one.
 */
export function decodeManagedFields(entries: unknown): ManagedFields {
  const out: ManagedFields = new Map();
  if (entries === undefined || entries === null) return out;
  if (!Array.isArray(entries)) throw new ManagedFieldsDecodeError('managedFields must be a list');
  entries.forEach((raw, i) => {
    const e = ownFields(raw);
    const operation = str(e.operation);
    if (operation !== 'Apply' && operation !== 'Update') throw new ManagedFieldsDecodeError('operation must be `Apply` or `Update`');
    const apiVersion = str(e.apiVersion);
    if (apiVersion.length < 1) throw new ManagedFieldsDecodeError('apiVersion must not be empty');
    const fieldsType = str(e.fieldsType);
    if (fieldsType === '') throw new ManagedFieldsDecodeError(`missing fieldsType in managed fields entry ${i}`);
    if (fieldsType !== 'FieldsV1') throw new ManagedFieldsDecodeError(`invalid fieldsType ${goQuote(fieldsType)} in managed fields entry ${i}`);
    const manager = str(e.manager);
    const subresource = str(e.subresource);
    let fields: FieldSet;
    try {
      fields = e.fieldsV1 === undefined || e.fieldsV1 === null ? FieldSet.EMPTY : FieldSet.fromFieldsV1(e.fieldsV1);
    } catch (err) {
      if (!(err instanceof FieldsV1Error)) throw err;
      throw new ManagedFieldsDecodeError(`error decoding versioned set from ${goEntryString(e)}: error decoding set: ${err.message}`);
    }
    const ms = parseTime(e.time);
    const state: ManagerState = {
      manager,
      operation,
      apiVersion,
      subresource,
      fields,
      ...(ms !== undefined ? { time: formatTime(ms) } : {}),
    };
    out.set(managerIdentifier(state), state);
  });
  return out;
}

function timeSeconds(t: string | undefined): number {
  const ms = parseTime(t);
  return ms === undefined ? 0 : Math.floor(ms / 1000);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** `encodeManagedFields`: the wire form, sorted as Kubernetes sorts it. Empty when there are no managers. */
export function encodeManagedFields(managed: ManagedFields): ManagedFieldsEntry[] {
  const entries = [...managed.values()].map((s) => {
    // Built key by key (not with spreads, which are slow here) in Kubernetes' key order.
    const e = {} as ManagedFieldsEntry;
    if (s.manager) e.manager = s.manager;
    e.operation = s.operation;
    e.apiVersion = s.apiVersion;
    if (s.time !== undefined) e.time = s.time;
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = (storedFieldsV1Of(s.fields) as Record<string, unknown> | undefined) ?? s.fields.toFieldsV1();
    if (s.subresource) e.subresource = s.subresource;
    return e;
  });
  return entries.sort(
    (p, q) =>
      cmp(p.operation, q.operation) ||
      timeSeconds(p.time) - timeSeconds(q.time) ||
      cmp(p.manager ?? '', q.manager ?? '') ||
      cmp(p.apiVersion, q.apiVersion) ||
      cmp(p.subresource ?? '', q.subresource ?? ''),
  );
}

function isZeroEntry(raw: unknown): boolean {
  if (!isJsonObject(raw)) return false;
  const e = ownFields(raw);
  const emptyStr = (k: 'manager' | 'operation' | 'apiVersion' | 'fieldsType' | 'subresource') => e[k] === undefined || e[k] === null || e[k] === '';
  return (
    (['manager', 'operation', 'apiVersion', 'fieldsType', 'subresource'] as const).every(emptyStr) &&
    (e.time === undefined || e.time === null) &&
    (e.fieldsV1 === undefined || e.fieldsV1 === null)
  );
}

/** `isResetManagedFields`: `[]`, or a list holding one empty entry, asks to clear the managed fields. */
export function isResetManagedFields(entries: unknown): boolean {
  if (!Array.isArray(entries)) return false;
  if (entries.length === 0) return true;
  return entries.length === 1 && isZeroEntry(entries[0]);
}

function decodeOrEmpty(entries: unknown): ManagedFields {
  try {
    return decodeManagedFields(entries);
  } catch (e) {
    if (e instanceof ManagedFieldsDecodeError) return new Map();
    throw e;
  }
}

/**
 * The managers an update starts from (`decodeLiveOrNew`): for a subresource always the stored
 * ones; `[]` (or `[{}]`) sent in the body clears them; otherwise the sent ones when they decode
 * and are not empty, else the stored ones (so clients unaware of managedFields cannot drop them).
 */
export function managedFromRequest(opts: { live: unknown; sent: unknown; subresource?: string }): ManagedFields {
  if (opts.subresource) return decodeOrEmpty(opts.live);
  if (isResetManagedFields(opts.sent)) return new Map();
  try {
    const m = decodeManagedFields(opts.sent);
    if (m.size > 0) return m;
  } catch (e) {
    if (!(e instanceof ManagedFieldsDecodeError)) throw e;
  }
  return decodeOrEmpty(opts.live);
}

/**
 * `capUpdateManagers`: when there are more than `max` Update managers, the oldest (by time, then
 * identifier) are merged into `ancient-changes` buckets, one per apiVersion, until `max` remain
 * (the first manager of a version becomes the bucket when the second one is merged). Returns
 * `managed` itself when there are no more than `max`, a new map otherwise.
 */
export function capUpdateManagers(managed: ManagedFields, max = DEFAULT_MAX_UPDATE_MANAGERS): ManagedFields {
  let count = 0;
  for (const s of managed.values()) if (s.operation === 'Update') count++;
  // Almost every write: nothing to cap, and no copy to make of managers the caller made for this write.
  if (count <= max) return managed;
  const out: ManagedFields = new Map(managed);
  const updaters = [...out.entries()].filter(([, s]) => s.operation === 'Update').map(([id]) => id);
  updaters.sort((a, b) => timeSeconds(out.get(a)!.time) - timeSeconds(out.get(b)!.time) || cmp(a, b));
  const versionToFirst = new Map<string, string>();
  let length = updaters.length;
  for (let i = 0; i < updaters.length && length > max; i++) {
    const id = updaters[i]!;
    const vs = out.get(id);
    if (!vs) continue;
    const version = vs.apiVersion;
    const bucket = managerIdentifier({ manager: ANCIENT_CHANGES_MANAGER, operation: 'Update', apiVersion: version });
    const first = versionToFirst.get(version);
    if (first !== undefined) {
      if (!out.has(bucket)) {
        const s = out.get(first)!;
        out.delete(first);
        out.set(bucket, { ...s, manager: ANCIENT_CHANGES_MANAGER, subresource: '', operation: 'Update' });
      }
      const b = out.get(bucket)!;
      const merged: ManagerState = {
        manager: ANCIENT_CHANGES_MANAGER,
        operation: 'Update',
        apiVersion: vs.apiVersion,
        subresource: '',
        fields: vs.fields.union(b.fields),
        ...(vs.time !== undefined ? { time: vs.time } : {}),
      };
      out.delete(id);
      out.set(bucket, merged);
      length--;
    } else {
      versionToFirst.set(version, id);
    }
  }
  return out;
}

const PRINTABLE = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
const FIELD_MANAGER_MAX_LENGTH = 128;
const MAX_SUBRESOURCE_NAME_LENGTH = 256;

/**
 * ObjectMeta validation of managedFields (`ValidateManagedFields`): operation required and
 * `Apply`/`Update`, fieldsType `FieldsV1` when set, manager at most 128 bytes of printable
 * characters, subresource at most 256 bytes.
 */
export function validateManagedFields(entries: unknown, path = 'metadata.managedFields'): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(entries)) return errs;
  entries.forEach((raw, i) => {
    const e = ownFields(raw);
    const p = `${path}[${i}]`;
    const operation = str(e.operation);
    if (operation === '') errs.push(fieldError.required(`${p}.operation`, 'must not be empty'));
    else if (operation !== 'Apply' && operation !== 'Update') errs.push(fieldError.notSupported(`${p}.operation`, operation, ['Apply', 'Update']));
    const fieldsType = str(e.fieldsType);
    if (fieldsType.length > 0 && fieldsType !== 'FieldsV1') errs.push(fieldError.invalid(`${p}.fieldsType`, fieldsType, 'must be `FieldsV1`'));
    const manager = str(e.manager);
    if (utf8ByteLength(manager) > FIELD_MANAGER_MAX_LENGTH) errs.push(fieldError.tooLong(`${p}.manager`, FIELD_MANAGER_MAX_LENGTH));
    let pos = 0;
    for (const ch of manager) {
      if (!PRINTABLE.test(ch)) {
        const rune = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
        errs.push(fieldError.invalid(`${p}.manager`, manager, `invalid character ${rune} (at position ${pos})`));
      }
      pos += utf8ByteLength(ch);
    }
    if (utf8ByteLength(str(e.subresource)) > MAX_SUBRESOURCE_NAME_LENGTH) errs.push(fieldError.tooLong(`${p}.subresource`, MAX_SUBRESOURCE_NAME_LENGTH));
  });
  return errs;
}
