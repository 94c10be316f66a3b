/**
 * Recording who changed what on create, update and non-apply patch: Kubernetes' field manager
 * `Update` path (`FieldManager.Update` → skip-non-applied → cap managers → build manager info →
 * managedFields updater → strip meta → SMD `Updater.Update`).
 *
 * The fields that differ between the stored and the new object become owned by the writing
 * manager (operation `Update`, the request's apiVersion, the time of the write) and are taken
 * away from every other manager; fields that disappeared are taken away from everyone. A write
 * that changes nothing leaves managedFields exactly as they were, times included.
 */
import { timeText } from '../../util/flat-string.js';
import type { StructuralNode } from '../../schema/structural.js';
import { pathElement } from './field-path.js';
import { FieldSet } from './field-set.js';
import { withGoZeroValues } from './go-zero.js';
import {
  capUpdateManagers,
  DEFAULT_MAX_UPDATE_MANAGERS,
  decodeManagedFields,
  encodeManagedFields,
  managedFromRequest,
  managerIdentifier,
  type ManagedFields,
  type ManagedFieldsEntry,
  type ManagerState,
} from './managed-fields.js';
import { compare, type Comparison } from './typed.js';
import { createdFieldsV1, GENERAL_PATH, topLevelNames } from './created-fields.js';
import { deepFreeze } from '../../storage/freeze.js';
import { isJsonObject } from '../../util/go-value.js';
import { cloneJsonDocument } from '../../util/json-clone.js';
import { getOwn } from '../../util/own.js';
import { hasDefinedOwn, ownKeys } from './value.js';
import { extended } from '../../util/extended.js';

const f = pathElement.field;

/** The fields no manager ever owns (`stripMetaManager`). */
export const STRIPPED_FIELDS: FieldSet = FieldSet.of(
  [f('apiVersion')],
  [f('kind')],
  [f('metadata')],
  [f('metadata'), f('name')],
  [f('metadata'), f('namespace')],
  [f('metadata'), f('creationTimestamp')],
  [f('metadata'), f('selfLink')],
  [f('metadata'), f('uid')],
  [f('metadata'), f('clusterName')],
  [f('metadata'), f('generation')],
  [f('metadata'), f('managedFields')],
  [f('metadata'), f('resourceVersion')],
);

/** A time for managedFields: RFC 3339 seconds in UTC. */
export function managedTime(now: number | Date | string): string {
  const ms = typeof now === 'number' ? now : typeof now === 'string' ? Date.parse(now) : now.getTime();
  return timeText(ms);
}

/** `obj` without `metadata.managedFields` (a copy). */
export function withoutManagedFields(obj: unknown): Record<string, unknown> {
  const copy = cloneJsonDocument(isJsonObject(obj) ? obj : {}) as Record<string, unknown>;
  const meta = getOwn(copy, 'metadata');
  if (isJsonObject(meta)) delete meta.managedFields;
  return copy;
}

/** Applies the reset-fields filter to a comparison (`Comparison.FilterFields` with an exclude filter). */
export function filterComparison(c: Comparison, ignored: FieldSet | undefined): Comparison {
  if (!ignored || ignored.empty) return c;
  return { removed: c.removed.recursiveDifference(ignored), modified: c.modified.recursiveDifference(ignored), added: c.added.recursiveDifference(ignored) };
}

/**
 * The empty object as the typed Go object shows it (the live side of every create), made once per
 * schema: it is the same for every create, and compare only reads it.
 */
const emptyWithGoZeroValues = new WeakMap<StructuralNode, unknown>();

function goZeroValuesOf(obj: unknown, schema: StructuralNode): unknown {
  if (isJsonObject(obj) && ownKeys(obj).length > 0) return withGoZeroValues(viewWithoutManagedFields(obj), schema);
  return emptyGoObject(schema);
}

function emptyGoObject(schema: StructuralNode): unknown {
  let empty = emptyWithGoZeroValues.get(schema);
  if (empty === undefined) {
    empty = deepFreeze(withGoZeroValues({}, schema));
    emptyWithGoZeroValues.set(schema, empty);
  }
  return empty;
}

/** Compares two objects as Kubernetes' typed Go objects would compare. */
export function compareObjects(live: unknown, updated: unknown, schema: StructuralNode, ignored?: FieldSet): Comparison {
  return filterComparison(compare(goZeroValuesOf(live, schema), withGoZeroValues(viewWithoutManagedFields(updated), schema), schema), ignored);
}

/**
 * `obj` without `metadata.managedFields`, for reading only: withGoZeroValues copies what it reads,
 * so nothing but the two levels that change is copied here (not the whole object).
 */
function viewWithoutManagedFields(obj: unknown): Record<string, unknown> {
  if (!isJsonObject(obj)) return {};
  const meta = getOwn(obj, 'metadata');
  if (!isJsonObject(meta) || !hasDefinedOwn(meta, 'managedFields')) return obj;
  const { managedFields: _managedFields, ...rest } = meta;
  return { ...obj, metadata: rest };
}

/** Removes the stripped fields from one manager's set; drops the manager when nothing is left. */
export function stripManager(managed: ManagedFields, id: string): void {
  const s = managed.get(id);
  if (!s) return;
  const fields = s.fields.difference(STRIPPED_FIELDS);
  if (fields.empty) managed.delete(id);
  else managed.set(id, { ...s, fields });
}

/**
 * One `Update` operation on decoded managers (the chain below `skipNonApplied`): returns the new
 * managers, capped.
 */
export function updateManagers(opts: {
  managed: ManagedFields;
  live: unknown;
  updated: unknown;
  manager: string;
  apiVersion: string;
  subresource?: string;
  schema: StructuralNode;
  time: string;
  ignoredFields?: FieldSet;
  maxUpdateManagers?: number;
}): ManagedFields {
  const managed: ManagedFields = new Map(opts.managed);
  const id = managerIdentifier({ manager: opts.manager || 'unknown', operation: 'Update', apiVersion: opts.apiVersion, subresource: opts.subresource ?? '' });
  const cmp = compareObjects(opts.live, opts.updated, opts.schema, opts.ignoredFields);
  const changed = cmp.modified.union(cmp.added);
  // SMD's update() with force: every other manager loses what changed and what was removed.
  for (const [other, s] of [...managed]) {
    const rest = s.fields.difference(s.fields.intersection(changed)).difference(cmp.removed);
    if (rest.empty) managed.delete(other);
    else if (!rest.equals(s.fields)) managed.set(other, { ...s, fields: rest });
  }
  // The operation's own fields ("current-operation"), stripped of server-owned metadata.
  let own = changed;
  if (opts.ignoredFields && !opts.ignoredFields.empty) own = own.recursiveDifference(opts.ignoredFields);
  own = own.difference(STRIPPED_FIELDS);
  if (!own.empty) {
    const previous = managed.get(id);
    const state: ManagerState = {
      manager: opts.manager || 'unknown',
      operation: 'Update',
      apiVersion: opts.apiVersion,
      subresource: opts.subresource ?? '',
      fields: previous ? own.union(previous.fields) : own,
      time: opts.time,
    };
    managed.set(id, state);
  }
  return capUpdateManagers(managed, opts.maxUpdateManagers ?? DEFAULT_MAX_UPDATE_MANAGERS);
}

/** What {@link recordUpdate} needs. */
export interface RecordUpdateOptions {
  /** The stored object; `undefined` on create. */
  live: unknown;
  /**
   * The object about to be stored (decoded and defaulted). Its `metadata.managedFields` are what
   * the request sent: `[]` clears them, valid entries replace the stored ones, anything else is
   * ignored.
   */
  updated: unknown;
  /** The field manager (`?fieldManager=`, else derived from the user agent); empty means `unknown`. */
  manager: string;
  /** The request's group/version, e.g. `v1`, `apps/v1`. */
  apiVersion: string;
  /** `status`, `scale`, ... when writing a subresource (the request's managedFields are then ignored). */
  subresource?: string;
  /** The kind version's structural schema. */
  schema: StructuralNode;
  /** The cluster clock's time of the write. */
  now: number | Date | string;
  /** The managers to start from instead of the ones derived from `live` and `updated`. */
  managed?: readonly ManagedFieldsEntry[] | ManagedFields;
  /** Fields the strategy resets (e.g. `status` on the main resource): never owned through this write. */
  ignoredFields?: FieldSet;
  /** Cap on Update managers (default 10). */
  maxUpdateManagers?: number;
}

function metaOf(obj: unknown): Record<string, unknown> | undefined {
  const m = isJsonObject(obj) ? getOwn(obj, 'metadata') : undefined;
  return isJsonObject(m) ? m : undefined;
}

/** Managers given as entries or already decoded. */
export function asManaged(m: readonly ManagedFieldsEntry[] | ManagedFields): ManagedFields {
  return m instanceof Map ? new Map(m) : decodeManagedFields(m);
}

/**
 * The managedFields to store after a create, update or (non-apply) patch: SMD's
 * `Updater.Update` with Kubernetes' wrappers. Returns the entries in Kubernetes' order; an empty
 * list means the object carries no managedFields. When anything fails, the stored managedFields
 * are kept (`UpdateNoErrors`).
 */
export function recordUpdate(opts: RecordUpdateOptions): ManagedFieldsEntry[] {
  const liveEntries = metaOf(opts.live)?.managedFields;
  try {
    // A create that sent no managers (most do): nothing to decode.
    if (opts.live === undefined && !opts.managed && !opts.subresource && metaOf(opts.updated)?.managedFields === undefined) {
      const created = createdEntries(opts);
      if (created) return created;
    }
    const managed = opts.managed
      ? asManaged(opts.managed)
      : managedFromRequest({ live: liveEntries, sent: metaOf(opts.updated)?.managedFields, subresource: opts.subresource ?? '' });
    // skipNonApplied: an existing object that is not tracked stays untracked until it is applied to.
    const uid = metaOf(opts.live)?.uid;
    if (managed.size === 0 && opts.live !== undefined && typeof uid === 'string' && uid !== '') return [];
    if (managed.size === 0 && opts.live === undefined) {
      const created = createdEntries(opts);
      if (created) return created;
    }
    const next = updateManagers(extended(opts, { managed, live: opts.live ?? {}, time: managedTime(opts.now) }));
    return encodeManagedFields(next);
  } catch {
    return Array.isArray(liveEntries) ? (cloneJsonDocument(liveEntries) as ManagedFieldsEntry[]) : [];
  }
}

/**
 * The managedFields of a create with no managers yet, by the one-walk path of created-fields.ts;
 * undefined when that path does not cover the object.
 */
function createdEntries(opts: RecordUpdateOptions): ManagedFieldsEntry[] | undefined {
  const ignoredRoots = topLevelNames(opts.ignoredFields);
  if (!ignoredRoots || !isJsonObject(opts.updated)) return undefined;
  const fieldsV1 = createdFieldsV1(opts.updated, opts.schema, emptyGoObject(opts.schema), ignoredRoots);
  if (fieldsV1 === GENERAL_PATH) return undefined;
  for (const _ in fieldsV1) {
    // Built key by key in Kubernetes' order, as encodeManagedFields writes an entry.
    const e = {} as ManagedFieldsEntry;
    e.manager = opts.manager || 'unknown';
    e.operation = 'Update';
    e.apiVersion = opts.apiVersion;
    e.time = managedTime(opts.now);
    e.fieldsType = 'FieldsV1';
    e.fieldsV1 = fieldsV1;
    if (opts.subresource) e.subresource = opts.subresource;
    return [e];
  }
  return [];
}
