/**
 * Server-side apply: Kubernetes' field manager `Apply` path (version check → last-applied
 * updater → last-applied manager → skip-non-applied → build manager info → managedFields
 * updater → strip meta → SMD `Updater.Apply`).
 *
 * - The configuration is merged into the live object by schema: map lists by key, sets by value,
 *   granular maps and structs field by field; scalars, atomic lists and atomic maps are replaced.
 * - The applier owns exactly the fields of its configuration afterwards.
 * - A field whose value would change and that another manager owns is a conflict (409) unless
 *   `force`, which takes it away from them. Values that do not change are shared, not conflicts.
 * - Fields the applier owned and no longer sends are removed, unless someone else owns them.
 * - The first apply to an object with no managedFields hands its existing fields to
 *   `before-first-apply` (an Update manager), so applying over them conflicts.
 */
import { ApiError, type StatusCause } from '../../machinery/errors.js';
import type { StructuralNode } from '../../schema/structural.js';
import { compareGoStrings, goQuote } from '../../util/go-format.js';
import { isJsonObject } from '../../util/go-value.js';
import { cloneJsonDocument } from '../../util/json-clone.js';
import { jsonEqual } from '../../util/json-equal.js';
import { getOwn, setOwn } from '../../util/own.js';
import { pathString, type FieldPath } from './field-path.js';
import { FieldSet } from './field-set.js';
import {
  BEFORE_FIRST_APPLY_MANAGER,
  decodeManagedFields,
  encodeManagedFields,
  ManagedFieldsDecodeError,
  managerIdentifier,
  parseManagerIdentifier,
  type ManagedFields,
  type ManagedFieldsEntry,
  type ManagedFieldsOperation,
} from './managed-fields.js';
import { toFieldSet } from './to-field-set.js';
import { compare, ensureNamedFieldsAreMembers, merge, MergeError, removeItems, typedErrorsMessage, validateTyped } from './typed.js';
import { goEncoded, withGoZeroValues } from './go-zero.js';
import { asManaged, filterComparison, managedTime, stripManager, updateManagers, withoutManagedFields } from './update.js';
import { goJsonValue, hasDefinedOwn } from './value.js';

/** The annotation `kubectl apply` (client-side) keeps its last configuration in. */
export const LAST_APPLIED_ANNOTATION = 'kubectl.kubernetes.io/last-applied-configuration';

/** One field an apply would take from another manager. */
export interface ApplyConflict {
  /** The other manager's name. */
  readonly manager: string;
  /** Whether it applied or updated the field. */
  readonly operation: ManagedFieldsOperation;
  /** The apiVersion of its entry (printed in the message for Update managers: `using v1`). */
  readonly apiVersion: string;
  /** Its subresource, when it wrote through one. */
  readonly subresource?: string;
  /** The field as Kubernetes prints it: `.spec.replicas`, `.spec.containers[name="c"].image`. */
  readonly field: string;
  /** The field's path. */
  readonly path: FieldPath;
}

function identifierOfConflict(c: ApplyConflict): string {
  return managerIdentifier({ manager: c.manager, operation: c.operation, apiVersion: c.apiVersion, subresource: c.subresource ?? '' });
}

/**
 * How Kubernetes names a manager in a conflict (`printManager`): `"kubectl"` for an applier,
 * `"kubectl-edit" using v1` for an updater, with ` with subresource "status"` when it used one.
 */
export function printConflictManager(c: Pick<ApplyConflict, 'manager' | 'operation' | 'apiVersion' | 'subresource'>): string {
  let s = goQuote(c.manager);
  if (c.subresource) s = `${s} with subresource ${goQuote(c.subresource)}`;
  if (c.operation === 'Update') return `${s} using ${c.apiVersion}`;
  return s;
}

/**
 * Kubernetes' 409 message for apply conflicts (`getConflictMessage`):
 * `Apply failed with 1 conflict: conflict with "m" using v1: .data.key`, or for several
 * `Apply failed with 2 conflicts: conflicts with "a":\n- .x\nconflicts with "b" using v1:\n- .y`
 * (managers sorted by identifier, fields in the order given).
 */
export function formatConflictMessage(conflicts: readonly ApplyConflict[]): string {
  if (conflicts.length === 1) {
    const c = conflicts[0]!;
    return `Apply failed with 1 conflict: conflict with ${printConflictManager(c)}: ${c.field}`;
  }
  const byManager = new Map<string, ApplyConflict[]>();
  for (const c of conflicts) {
    const id = identifierOfConflict(c);
    const list = byManager.get(id);
    if (list) list.push(c);
    else byManager.set(id, [c]);
  }
  const lines: string[] = [];
  for (const id of [...byManager.keys()].sort(compareGoStrings)) {
    const list = byManager.get(id)!;
    lines.push(`conflicts with ${printConflictManager(list[0]!)}:`);
    for (const c of list) lines.push(`- ${c.field}`);
  }
  return `Apply failed with ${conflicts.length} conflicts: ${lines.join('\n')}`;
}

/** The StatusCauses of a conflict error: `{ reason: 'FieldManagerConflict', message: 'conflict with "m" using v1', field: '.spec.replicas' }`. */
export function conflictCauses(conflicts: readonly ApplyConflict[]): StatusCause[] {
  return conflicts.map((c) => ({ reason: 'FieldManagerConflict', message: `conflict with ${printConflictManager(c)}`, field: c.field }));
}

/** A 409 Conflict for an apply that would take fields from other managers. */
export class ApplyConflictError extends ApiError {
  readonly conflicts: readonly ApplyConflict[];

  constructor(conflicts: readonly ApplyConflict[]) {
    super({ code: 409, reason: 'Conflict', message: formatConflictMessage(conflicts), details: { causes: conflictCauses(conflicts) } });
    this.name = 'ApplyConflictError';
    this.conflicts = conflicts;
  }
}

/** A failure Kubernetes does not turn into a Status: a 500 whose message is the error text. */
function serverError(message: string): ApiError {
  return new ApiError({ code: 500, reason: '', message });
}

function badRequest(message: string): ApiError {
  return new ApiError({ code: 400, reason: 'BadRequest', message });
}

function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

function gvkString(apiVersion: string, kind: string): string {
  const { group, version } = splitApiVersion(apiVersion);
  return `${group}/${version}, Kind=${kind}`;
}

function gvString(apiVersion: string): string {
  const { group, version } = splitApiVersion(apiVersion);
  return group ? `${group}/${version}` : version;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : '';
}

function metaOf(obj: unknown): Record<string, unknown> | undefined {
  const m = isJsonObject(obj) ? getOwn(obj, 'metadata') : undefined;
  return isJsonObject(m) ? m : undefined;
}

/** What {@link serverSideApply} needs. */
export interface ServerSideApplyOptions {
  /** The stored object; `undefined` when the apply creates it. */
  live: unknown;
  /** The apply configuration (the decoded request body). */
  applied: unknown;
  /** The field manager (required for apply by the API; empty means `unknown`). */
  manager: string;
  /** The request's group/version, e.g. `apps/v1`. */
  apiVersion: string;
  /** The kind; when given, the configuration's apiVersion and kind must match (`invalid object type: ...`). */
  kind?: string;
  /** `status`, `scale`, ... when applying to a subresource. */
  subresource?: string;
  schema: StructuralNode;
  /** `?force=true`: take conflicting fields over instead of failing. */
  force?: boolean;
  /** The cluster clock's time of the apply. */
  now: number | Date | string;
  /** The managers to start from instead of the live object's managedFields. */
  managed?: readonly ManagedFieldsEntry[] | ManagedFields;
  /** Fields the strategy resets (e.g. `status` on the main resource): never owned through this apply. */
  ignoredFields?: FieldSet;
}

/** The outcome of an apply. */
export interface ServerSideApplyResult {
  /**
   * The object to store, `metadata.managedFields` included (absent when empty), as Kubernetes
   * stores its Go type: a field set to `null` is unset, empty `omitempty` lists and maps are
   * dropped. Defaults still have to run.
   */
  object: Record<string, unknown>;
  /** The new managedFields, in Kubernetes' order. */
  managedFields: ManagedFieldsEntry[];
  /** False when the apply left the object as it was (only managedFields may differ). */
  changed: boolean;
}

/** The conflicts of `conflictSets` (per manager identifier), managers sorted by identifier. */
function conflictsOf(conflictSets: Map<string, { set: FieldSet; apiVersion: string }>): ApplyConflict[] {
  const out: ApplyConflict[] = [];
  for (const id of [...conflictSets.keys()].sort(compareGoStrings)) {
    const { set, apiVersion } = conflictSets.get(id)!;
    const who = parseManagerIdentifier(id);
    for (const path of set) {
      out.push({
        manager: who.manager,
        operation: who.operation === 'Apply' ? 'Apply' : 'Update',
        apiVersion: who.operation === 'Apply' ? apiVersion : who.apiVersion,
        ...(who.subresource ? { subresource: who.subresource } : {}),
        field: pathString(path),
        path,
      });
    }
  }
  return out;
}

class Conflicts extends Error {
  constructor(readonly conflicts: ApplyConflict[]) {
    super('conflicts');
  }
}

interface SmdApplyResult {
  object: Record<string, unknown> | undefined;
  managed: ManagedFields;
}

/**
 * SMD's `Updater.Apply` (with the strip-meta step for the applier). Throws {@link Conflicts}.
 *
 * Kubernetes merges the configuration into the typed live object, so the comparison runs on the
 * Go view of `live` ({@link withGoZeroValues}); the object returned is the same merge over the
 * stored JSON, pruned of the same fields.
 */
function smdApply(
  live: Record<string, unknown>,
  config: Record<string, unknown>,
  managedIn: ManagedFields,
  id: string,
  opts: ServerSideApplyOptions,
  force: boolean,
): SmdApplyResult {
  const { schema } = opts;
  const managed: ManagedFields = new Map(managedIn);
  const liveGo = withGoZeroValues(live, schema) as Record<string, unknown>;
  let mergedGo: Record<string, unknown>;
  let mergedRaw: Record<string, unknown>;
  try {
    mergedGo = (merge(liveGo, config, schema) ?? {}) as Record<string, unknown>;
    mergedRaw = (merge(live, config, schema) ?? {}) as Record<string, unknown>;
  } catch (e) {
    if (e instanceof MergeError) throw serverError(`failed to merge config: ${e.message}`);
    throw e;
  }
  const lastSet = managed.get(id)?.fields;
  let set = toFieldSet(config, schema);
  if (opts.ignoredFields && !opts.ignoredFields.empty) set = set.recursiveDifference(opts.ignoredFields);
  const previous = managed.get(id);
  managed.set(id, {
    manager: opts.manager || 'unknown',
    operation: 'Apply',
    apiVersion: opts.apiVersion,
    subresource: opts.subresource ?? '',
    fields: set,
    ...(previous?.time !== undefined ? { time: previous.time } : {}),
  });

  // prune: what the applier sent last time and not now goes, unless someone owns it.
  let newGo = mergedGo;
  let newRaw = mergedRaw;
  if (lastSet && !lastSet.empty) {
    const enf = (s: FieldSet) => ensureNamedFieldsAreMembers(s, schema);
    const last = enf(lastSet);
    let owned = FieldSet.EMPTY;
    for (const s of managed.values()) owned = owned.union(s.fields);
    const mergedSet = enf(toFieldSet(mergedGo, schema));
    const firstCut = removeItems(mergedGo, last, schema);
    const ownedBack = removeItems(mergedGo, mergedSet.difference(enf(toFieldSet(firstCut, schema)).union(enf(owned))), schema);
    const dangling = mergedSet.difference(enf(toFieldSet(ownedBack, schema))).intersection(last);
    newGo = removeItems(mergedGo, dangling, schema) as Record<string, unknown>;
    newRaw = removeItems(mergedRaw, dangling, schema) as Record<string, unknown>;
  }

  // update(): conflicts with, and removals from, the other managers.
  const cmp = filterComparison(compare(liveGo, newGo, schema), opts.ignoredFields);
  const changed = cmp.modified.union(cmp.added);
  const conflictSets = new Map<string, { set: FieldSet; apiVersion: string }>();
  for (const [other, s] of managed) {
    if (other === id) continue;
    const c = s.fields.intersection(changed);
    if (!c.empty) conflictSets.set(other, { set: c, apiVersion: s.apiVersion });
  }
  if (!force && conflictSets.size > 0) throw new Conflicts(conflictsOf(conflictSets));
  for (const [other, s] of [...managed]) {
    if (other === id) continue;
    let rest = s.fields;
    const c = conflictSets.get(other);
    if (c) rest = rest.difference(c.set);
    rest = rest.difference(cmp.removed);
    if (!rest.equals(s.fields)) managed.set(other, { ...s, fields: rest });
  }
  for (const [other, s] of [...managed]) if (s.fields.empty) managed.delete(other);
  stripManager(managed, id);
  const same = jsonEqual(liveGo, newGo);
  return { object: same ? undefined : newRaw, managed };
}

/** The field set the last-applied annotation allows `kubectl` to take over (`allowedConflictsFromLastApplied`). */
function allowedFromLastApplied(live: Record<string, unknown>, opts: ServerSideApplyOptions): FieldSet | undefined {
  const annotations = getOwn(metaOf(live) ?? {}, 'annotations');
  const text = isJsonObject(annotations) ? getOwn(annotations, LAST_APPLIED_ANNOTATION) : undefined;
  if (typeof text !== 'string' || text === '') return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isJsonObject(last) || str(getOwn(last, 'apiVersion')) !== gvString(opts.apiVersion)) return undefined;
  if (validateTyped(last, opts.schema).length > 0) return undefined;
  const lastSet = toFieldSet(last, opts.schema);
  const cmp = compare(last, withGoZeroValues(withoutManagedFields(live), opts.schema), opts.schema);
  return lastSet.difference(cmp.modified).difference(cmp.added).difference(cmp.removed);
}

/** `buildLastApplied`: the configuration without the annotation, as the unstructured JSON encoder writes it. */
function buildLastApplied(config: Record<string, unknown>): string {
  const copy = cloneJsonDocument(config);
  const meta = metaOf(copy);
  const annotations = meta ? getOwn(meta, 'annotations') : undefined;
  if (isJsonObject(annotations)) delete annotations[LAST_APPLIED_ANNOTATION];
  return `${goJsonValue(copy)}\n`;
}

/**
 * Server-side apply of `applied` to `live` by `manager`. Returns the merged object with its new
 * managedFields, or throws: {@link ApplyConflictError} (409) on conflicts; a 400 for a
 * configuration of the wrong kind or version or one carrying managedFields, or one that cannot be
 * typed (`failed to create typed patch object (ns/name; apps/v1, Kind=Deployment):
 * .spec.containers: duplicate entries for key [name="c"]`; Kubernetes answers that with a 500).
 */
export function serverSideApply(opts: ServerSideApplyOptions): ServerSideApplyResult {
  const liveIn = isJsonObject(opts.live) ? opts.live : undefined;
  let managed: ManagedFields;
  try {
    managed = opts.managed ? asManaged(opts.managed) : decodeManagedFields(metaOf(liveIn)?.managedFields);
  } catch (e) {
    if (e instanceof ManagedFieldsDecodeError) throw serverError(`failed to decode managed fields: ${e.message}`);
    throw e;
  }

  const config = isJsonObject(opts.applied) ? opts.applied : {};
  const appliedVersion = str(getOwn(config, 'apiVersion'));
  const appliedKind = str(getOwn(config, 'kind'));
  if (opts.kind !== undefined) {
    if (gvString(appliedVersion) !== gvString(opts.apiVersion) || appliedKind !== opts.kind) {
      throw badRequest(`invalid object type: ${gvkString(appliedVersion, appliedKind)}`);
    }
  } else if (gvString(appliedVersion) !== gvString(opts.apiVersion)) {
    throw badRequest(
      `Incorrect version specified in apply patch. Specified patch version: ${gvString(appliedVersion)}, expected: ${gvString(opts.apiVersion)}`,
    );
  }

  const configMeta = metaOf(config);
  if (configMeta && hasDefinedOwn(configMeta, 'managedFields') && configMeta.managedFields !== null) throw badRequest('metadata.managedFields must be nil');
  const errors = validateTyped(config, opts.schema);
  if (errors.length > 0) {
    const meta = configMeta ?? {};
    const where = `${str(getOwn(meta, 'namespace'))}/${str(getOwn(meta, 'name'))}; ${gvkString(appliedVersion, appliedKind)}`;
    // Kubernetes answers this with a 500; the fault is the client's, so memkube answers 400.
    throw badRequest(`failed to create typed patch object (${where}): ${typedErrorsMessage(errors)}`);
  }

  const time = managedTime(opts.now);
  const live = withoutManagedFields(liveIn ?? {});
  const id = managerIdentifier({ manager: opts.manager || 'unknown', operation: 'Apply', subresource: opts.subresource ?? '' });

  const run = (force: boolean): SmdApplyResult => {
    let m = managed;
    // skipNonApplied: the first apply to an untracked object gives its fields to before-first-apply.
    if (m.size === 0) {
      m = updateManagers({
        managed: m,
        live: {},
        updated: live,
        manager: BEFORE_FIRST_APPLY_MANAGER,
        apiVersion: opts.apiVersion,
        schema: opts.schema,
        time,
        ...(opts.ignoredFields ? { ignoredFields: opts.ignoredFields } : {}),
      });
    }
    return smdApply(live, config, m, id, opts, force);
  };

  let result: SmdApplyResult;
  try {
    result = run(opts.force ?? false);
  } catch (e) {
    if (!(e instanceof Conflicts)) throw e;
    // lastAppliedManager: kubectl may take over what its client-side last-applied configuration held.
    if (opts.manager !== 'kubectl') throw new ApplyConflictError(e.conflicts);
    const allowed = allowedFromLastApplied(liveIn ?? {}, opts);
    if (!allowed) throw new ApplyConflictError(e.conflicts);
    const remaining = e.conflicts.filter((c) => !allowed.has(c.path));
    if (remaining.length > 0) throw new ApplyConflictError(remaining);
    result = run(true);
  }

  const changed = result.object !== undefined;
  const managedOut: ManagedFields = new Map(result.managed);
  if (changed) {
    const s = managedOut.get(id);
    if (s) managedOut.set(id, { ...s, time });
  }
  const entries = encodeManagedFields(managedOut);
  const object = goEncoded(changed ? result.object : live, opts.schema) as Record<string, unknown>;

  // lastAppliedUpdater: kubectl keeps an existing last-applied annotation current.
  if (opts.manager === 'kubectl') {
    const meta = metaOf(object);
    const annotations = meta ? getOwn(meta, 'annotations') : undefined;
    const current = isJsonObject(annotations) ? getOwn(annotations, LAST_APPLIED_ANNOTATION) : undefined;
    if (typeof current === 'string' && current.length > 0) setOwn(annotations as Record<string, unknown>, LAST_APPLIED_ANNOTATION, buildLastApplied(config));
  }

  const meta = metaOf(object);
  if (entries.length > 0) {
    if (meta) meta.managedFields = entries;
    else object.metadata = { managedFields: entries };
  } else if (meta) delete meta.managedFields;
  return { object, managedFields: entries, changed };
}
