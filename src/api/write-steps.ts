/**
 * The steps of the write pipeline the store (src/api/store/) and the verbs share: namespace,
 * server-owned metadata, generation, validation, the server's key order. Each is a small function
 * so the store reads like the pipeline in docs/engine.md.
 */
import { isPromise } from '../util/maybe-promise.js';
import { timeText } from '../util/flat-string.js';
import { jsonEqual } from '../util/json-equal.js';
import { missingRequired } from '../schema/decode.js';
import type { KindContext, KubeObject, ObjectMetaLike } from '../schema/define-kind.js';
import type { ResolvedKind } from '../schema/registry.js';
import type { CompiledCustomSchema } from '../schema/custom/index.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../schema/validation/object-meta.js';
import { immutableFieldErrors } from '../schema/validation/immutable-fields.js';
import { dns1123SubdomainNameValidator } from '../schema/validation/names.js';
import { badRequest, invalid } from '../machinery/errors.js';
import { fieldError, type FieldError } from '../machinery/field-errors.js';
import type { EngineContext } from './context.js';

/** The metadata of a working object, created if absent. */
export function metaOf(obj: KubeObject): ObjectMetaLike {
  if (!obj.metadata || typeof obj.metadata !== 'object') obj.metadata = {};
  return obj.metadata;
}

/**
 * Makes the body's namespace agree with the request's, as Kubernetes'
 * `EnsureObjectNamespaceMatchesRequestNamespace` does: empty takes the request's, cluster-scoped
 * kinds drop it, a different one is a 400.
 */
export function reconcileNamespace(kind: ResolvedKind, obj: KubeObject, requestNamespace: string | undefined): void {
  const meta = metaOf(obj);
  const expected = kind.namespaced ? (requestNamespace ?? '') : '';
  const actual = meta.namespace ?? '';
  if (actual === expected) return;
  if (actual === '') meta.namespace = expected;
  else if (expected === '') delete meta.namespace;
  else throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
  if (meta.namespace === '') delete meta.namespace;
}

/**
 * Server-owned metadata of a new object; whatever the body said is replaced. The generation is
 * 1 for a kind with one; a kind without one keeps what the client sent, as Kubernetes does (its
 * `FillObjectMetaSystemFields` leaves the generation alone and only strategies that keep one set it).
 */
export function stampNewObjectMeta(ctx: EngineContext, kind: ResolvedKind, obj: KubeObject): void {
  const meta = metaOf(obj);
  meta.uid = ctx.newUid();
  meta.creationTimestamp = timeText(ctx.clock.now());
  if (kind.definition.generation !== false) meta.generation = 1;
  // Go's zero: never serialized.
  else if (meta.generation === 0) delete meta.generation;
  delete meta.resourceVersion;
  delete meta.deletionTimestamp;
  delete meta.deletionGracePeriodSeconds;
  delete meta.selfLink;
}

/** Copies the server-owned metadata of the stored object onto an update. */
export function keepServerMeta(obj: KubeObject, old: Readonly<KubeObject>): void {
  const meta = metaOf(obj);
  const prev = old.metadata ?? {};
  // The stored resourceVersion too: an unconditional update validates as if the client had sent it.
  for (const f of ['uid', 'creationTimestamp', 'generation', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'resourceVersion'] as const) {
    if (prev[f] === undefined) delete meta[f];
    else (meta as Record<string, unknown>)[f] = prev[f];
  }
  // managedFields stay as sent: the field manager decides (absent keeps the stored ones, [] clears).
  delete meta.selfLink;
}

/** The parts of a custom resource that count towards `metadata.generation`: everything but metadata. */
function nonMetadata(obj: Readonly<KubeObject>): Record<string, unknown> {
  const { metadata: _m, apiVersion: _a, kind: _k, ...rest } = obj;
  return rest;
}

/**
 * Increments `metadata.generation` (already the stored one, from {@link keepServerMeta}) when the
 * kind's policy says the update changed the object: any change outside metadata for `'object'`
 * (never through `/status`, as Kubernetes' custom resource status strategy), the kind's own test
 * for a `changed` policy, never for `false`.
 */
export function bumpGeneration(kind: ResolvedKind, obj: KubeObject, old: Readonly<KubeObject>, subresource: string | undefined): void {
  const policy = kind.definition.generation ?? 'object';
  if (policy === false) return;
  const changed = policy === 'object' ? subresource !== 'status' && !jsonEqual(nonMetadata(obj), nonMetadata(old)) : policy.changed(obj, old);
  if (changed) metaOf(obj).generation = (old.metadata?.generation ?? 0) + 1;
}

/**
 * The schema rules that hold for a working object of a request at `version`: the object is in the
 * storage shape, so a version of another shape is checked by the storage version's rules, and a
 * door onto another kind's storage by none of its own.
 */
function objectRules(kind: ResolvedKind, version: string): CompiledCustomSchema | undefined {
  const def = kind.definition;
  if (def.sharesStorageWith) return undefined;
  return kind.schemaRules(kind.converts(version) ? def.storageVersion.name : version);
}

/**
 * Fills the defaults the kind's schema publishes (zod's `.default()`), as apiextensions-apiserver
 * defaults a custom resource while decoding it (structural defaulting): before the strategy's own
 * defaults, the field manager and admission.
 */
export function applySchemaDefaults(kind: ResolvedKind, version: string, obj: KubeObject): void {
  const rules = objectRules(kind, version);
  if (!rules) return;
  const defaulted = rules.default(obj) as KubeObject;
  if (defaulted === obj) return;
  // The working copy is changed in place: the caller and the strategy hold it.
  for (const k of Object.keys(obj)) if (!Object.hasOwn(defaulted, k)) delete obj[k];
  Object.assign(obj, defaulted);
}

/**
 * The errors of the value validations the kind's schema publishes, as kube-openapi reports them
 * for a custom resource (`spec.size in body should be less than or equal to 5`); on update with
 * ratcheting (an unchanged value that a newer schema refuses stays), and through `/status` only for
 * the status, as apiextensions-apiserver's strategies validate.
 */
function schemaValueErrors(
  kind: ResolvedKind,
  version: string,
  obj: KubeObject,
  old: Readonly<KubeObject> | undefined,
  subresource: string | undefined,
): FieldError[] {
  const rules = objectRules(kind, version);
  if (!rules) return [];
  if (!old) return rules.validate(obj);
  return subresource === 'status' ? rules.validateStatusUpdate(obj, old) : rules.validateUpdate(obj, old);
}

/**
 * Every validation of an object: metadata, required fields, the kind's rules; one 422 for all. A
 * promise only when one of the kind's rules answers one.
 */
export function validateObject(
  kind: ResolvedKind,
  version: string,
  obj: KubeObject,
  old: Readonly<KubeObject> | undefined,
  kctx: KindContext,
): void | Promise<void> {
  const def = kind.definition;
  const options = {
    namespaced: kind.namespaced,
    nameValidator: def.nameValidator ?? dns1123SubdomainNameValidator,
    standardFinalizerNames: def.standardFinalizerNames ?? true,
  };
  const errors: FieldError[] = old ? validateObjectMetaUpdate(metaOf(obj), old.metadata ?? {}, options) : validateObjectMeta(metaOf(obj), options);
  // The object is in the storage shape: a version with another shape is checked by its rules.
  if (def.schemaRequired !== false && !kind.converts(version)) {
    for (const path of missingRequired(obj, kind.structural(version))) {
      if (!errors.some((e) => e.field === path)) errors.push(fieldError.required(path));
    }
  }
  // On update, Kubernetes reports the transition rules (immutability) before the object's own rules.
  if (old && kctx.subresource === undefined) errors.push(...immutableFieldErrors(def, obj, old));
  errors.push(...schemaValueErrors(kind, version, obj, old, kctx.subresource));
  const strategy = def.strategy;
  const updateErrors = old && strategy?.validateUpdate ? strategy.validateUpdate(obj, old, kctx) : undefined;
  if (isPromise(updateErrors)) return updateErrors.then((u) => kindErrors(kind, obj, errors, u, kctx));
  return kindErrors(kind, obj, errors, updateErrors, kctx);
}

/** The kind's own rules after its update rules; throws the 422 when anything was found. */
function kindErrors(
  kind: ResolvedKind,
  obj: KubeObject,
  errors: FieldError[],
  updateErrors: readonly FieldError[] | undefined,
  kctx: KindContext,
): void | Promise<void> {
  if (updateErrors) errors.push(...updateErrors);
  const own = kind.definition.strategy?.validate?.(obj, kctx);
  if (isPromise(own)) return own.then((o) => invalidWhenAny(kind, obj, errors, o));
  invalidWhenAny(kind, obj, errors, own);
}

function invalidWhenAny(kind: ResolvedKind, obj: KubeObject, errors: FieldError[], own: readonly FieldError[] | undefined): void {
  if (own) errors.push(...own);
  if (errors.length === 0) return;
  const def = kind.definition;
  // A door onto another kind's storage reports as that kind (as Kubernetes' events.k8s.io does).
  const stored = kind.stored.apiVersion;
  const group = def.sharesStorageWith ? stored.slice(0, Math.max(0, stored.lastIndexOf('/'))) : kind.group;
  throw invalid({ group, kind: kind.stored.kind }, obj.metadata?.name ?? '', errors);
}

/** ObjectMeta fields in the order Kubernetes serializes them (Go struct order). */
const META_ORDER = [
  'name',
  'generateName',
  'namespace',
  'selfLink',
  'uid',
  'resourceVersion',
  'generation',
  'creationTimestamp',
  'deletionTimestamp',
  'deletionGracePeriodSeconds',
  'labels',
  'annotations',
  'ownerReferences',
  'finalizers',
  'managedFields',
];

/**
 * The object with its keys in the order the real API server writes them: `kind`, `apiVersion`,
 * `metadata` (in ObjectMeta's order), then the rest as they came (spec before status).
 */
export function inServerOrder(obj: KubeObject): KubeObject {
  const { kind, apiVersion, metadata, status, ...rest } = obj;
  const out: KubeObject = { kind, apiVersion };
  if (metadata) {
    const meta: Record<string, unknown> = {};
    for (const k of META_ORDER) {
      // resourceVersion keeps its place even when storage is about to stamp it.
      if (metadata[k] !== undefined || k === 'resourceVersion') meta[k] = metadata[k] ?? '';
    }
    for (const k of Object.keys(metadata)) {
      const v = metadata[k];
      if (v !== undefined && !Object.hasOwn(meta, k)) meta[k] = v;
    }
    out.metadata = meta as ObjectMetaLike;
  }
  Object.assign(out, rest);
  if (status !== undefined) out.status = status;
  return out;
}
