/**
 * The `scale` subresource, for every kind that declares `scale` (as CRDs declare it): GET answers
 * an `autoscaling/v1` Scale built from the object; PUT and PATCH (of the Scale) change only the
 * replicas of the object and write it through the store's update like any other change, as
 * Kubernetes' `ScaleREST` does (the Scale's `resourceVersion` and `uid` are preconditions).
 */
import { decodeWithSchema, DecodeTypeError } from '../../schema/decode.js';
import type { KubeObject, ScaleSubresource } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import { structuralOf, type StructuralNode } from '../../schema/structural.js';
import { labelSelectorFromObject, SelectorParseError, type LabelSelectorObject } from '../../selectors/label-selector.js';
import { cloneJson } from '../../util/json-clone.js';
import type { StoredObject } from '../../storage/storage.js';
import { Scale as ScaleSchema, type Scale } from '../../kinds/types/autoscaling-v1.js';
import { badRequest, conflict, invalid, notFound, OBJECT_MODIFIED } from '../../machinery/errors.js';
import { fieldError } from '../../machinery/field-errors.js';
import type { ApiRequest, ApiResponse } from '../../machinery/request.js';
import { objectKey, type EngineContext } from '../context.js';
import { fieldValidationOf, validatePatchOptions, validateWriteOptions } from '../options.js';
import { patchTypeOf, runPatchEngine } from '../patch-engines.js';
import { parseUpdateResourceVersion } from '../preconditions.js';
import { updateObject, type ObjectChange } from '../store/update.js';

const SCALE_API_VERSION = 'autoscaling/v1';
let scaleNode: StructuralNode | undefined;
const scaleSchema = (): StructuralNode => (scaleNode ??= structuralOf(ScaleSchema()));

/** The segments of a `.spec.replicas` path. */
function segments(path: string): string[] {
  return path.replace(/^\./, '').split('.').filter(Boolean);
}

function readPath(obj: unknown, path: string): unknown {
  let cur = obj;
  for (const s of segments(path)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[s];
  }
  return cur;
}

function writePath(obj: Record<string, unknown>, path: string, value: unknown): void {
  const segs = segments(path);
  let cur = obj;
  for (const s of segs.slice(0, -1)) {
    const next = cur[s];
    if (next === null || typeof next !== 'object') cur[s] = {};
    cur = cur[s] as Record<string, unknown>;
  }
  cur[segs[segs.length - 1]!] = value;
}

/** The Scale of an object, as `scaleFromStatefulSet` (and the CRD scale handler) builds it. */
export function scaleOf(decl: ScaleSubresource, obj: Readonly<KubeObject>): Scale {
  const meta = obj.metadata ?? {};
  const metadata: Record<string, unknown> = {};
  for (const f of ['name', 'namespace', 'uid', 'resourceVersion', 'creationTimestamp'] as const) if (meta[f] !== undefined) metadata[f] = meta[f];
  const specReplicas = readPath(obj, decl.specReplicasPath);
  const statusReplicas = readPath(obj, decl.statusReplicasPath);
  const status: NonNullable<Scale['status']> = { replicas: typeof statusReplicas === 'number' ? statusReplicas : 0 };
  if (decl.labelSelectorPath) {
    const sel = readPath(obj, decl.labelSelectorPath);
    if (typeof sel === 'string') {
      if (sel) status.selector = sel;
    } else if (sel && typeof sel === 'object') {
      try {
        const object = decl.labelSelectorIsMap ? { matchLabels: sel as Record<string, string> } : (sel as LabelSelectorObject);
        const text = labelSelectorFromObject(object).toString();
        if (text) status.selector = text;
      } catch (e) {
        if (!(e instanceof SelectorParseError)) throw e;
      }
    }
  }
  // ScaleSpec.replicas is `omitempty`: zero replicas serialize as `spec: {}`.
  const spec: NonNullable<Scale['spec']> = typeof specReplicas === 'number' && specReplicas !== 0 ? { replicas: specReplicas } : {};
  return { kind: 'Scale', apiVersion: SCALE_API_VERSION, metadata: metadata as Scale['metadata'], spec, status };
}

/** Decodes a Scale body (PUT) or a patched Scale: type checks (400), unknown fields per `fieldValidation`. */
function decodeScale(body: unknown, req: ApiRequest): { scale: Scale; warnings: string[] } {
  if (body === null || body === undefined) body = {};
  if (typeof body !== 'object' || Array.isArray(body)) throw badRequest('the object provided is unrecognized (must be of type Scale)');
  const raw = body as Record<string, unknown>;
  const apiVersion = typeof raw.apiVersion === 'string' && raw.apiVersion ? raw.apiVersion : SCALE_API_VERSION;
  const kind = typeof raw.kind === 'string' && raw.kind ? raw.kind : 'Scale';
  if (kind !== 'Scale') {
    const v = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
    throw badRequest(
      `${kind} in version ${JSON.stringify(v)} cannot be handled as a Scale: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"`,
    );
  }
  if (apiVersion !== SCALE_API_VERSION)
    throw badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${SCALE_API_VERSION})`);
  let decoded;
  try {
    decoded = decodeWithSchema(raw, scaleSchema());
  } catch (e) {
    if (e instanceof DecodeTypeError) throw badRequest(`Scale in version "v1" cannot be handled as a Scale: ${e.message}`);
    throw e;
  }
  const problems = [
    ...decoded.unknownFields.map((f) => `unknown field ${JSON.stringify(f)}`),
    ...(req.duplicateFields ?? []).map((f) => `duplicate field ${JSON.stringify(f)}`),
  ];
  const fv = fieldValidationOf(req.writeOptions);
  if (problems.length && fv === 'Strict') throw badRequest(`Scale in version "v1" cannot be handled as a Scale: strict decoding error: ${problems.join(', ')}`);
  const scale = decoded.value as Scale;
  scale.apiVersion = SCALE_API_VERSION;
  scale.kind = 'Scale';
  return { scale, warnings: fv === 'Warn' ? problems : [] };
}

/** `ValidateScale`: the replicas may not be negative. */
function validateScale(scale: Scale, name: string): void {
  const replicas = scale.spec?.replicas ?? 0;
  if (replicas < 0) {
    throw invalid({ group: 'autoscaling', kind: 'Scale' }, name, [fieldError.invalid('spec.replicas', replicas, 'must be greater than or equal to 0')]);
  }
}

/** The object with the replicas of `scale`, after the Scale's preconditions (uid, resourceVersion). */
function scaledObject(kind: ResolvedKind, current: StoredObject, scale: Scale, warnings: readonly string[]): ObjectChange {
  const decl = kind.definition.scale!;
  const gr = { group: kind.group, resource: kind.definition.plural };
  validateScale(scale, current.name);
  const stored = current.value as KubeObject;
  const uid = scale.metadata?.uid;
  if (uid && uid !== stored.metadata?.uid) {
    throw conflict(
      { group: kind.group, resource: `${kind.definition.plural}/scale` },
      current.name,
      `Precondition failed: UID in precondition: ${uid}, UID in object meta: ${stored.metadata?.uid ?? ''}`,
    );
  }
  const rv = scale.metadata?.resourceVersion;
  if (rv && parseUpdateResourceVersion(rv) !== current.revision) throw conflict(gr, current.name, OBJECT_MODIFIED);
  const next = cloneJson(stored) as KubeObject;
  writePath(next as Record<string, unknown>, decl.specReplicasPath, scale.spec?.replicas ?? 0);
  return { object: next, warnings, conditional: !!rv };
}

/** Checks the Scale's name (and namespace) against the request, as the update handler does. */
function checkIdentity(kind: ResolvedKind, scale: Scale, req: ApiRequest): void {
  const name = scale.metadata?.name ?? '';
  if (name !== req.name) throw badRequest(`the name of the object (${name}) does not match the name on the URL (${req.name ?? ''})`);
  const ns = scale.metadata?.namespace;
  if (kind.namespaced && ns && ns !== req.namespace) throw badRequest('the namespace of the provided object does not match the namespace sent on the request');
}

/** GET, PUT and PATCH on `<resource>/<name>/scale`. */
export async function scale(ctx: EngineContext, kind: ResolvedKind, req: ApiRequest, version: string): Promise<ApiResponse<Scale>> {
  const decl = kind.definition.scale!;
  const gr = { group: kind.group, resource: kind.definition.plural };
  const name = req.name ?? '';
  const key = objectKey(kind, req.namespace, name);
  if (req.verb === 'get') {
    const stored = await ctx.storage.get(key);
    if (!stored) throw notFound(gr, name);
    return { code: 200, body: scaleOf(decl, stored.value as KubeObject), warnings: [] };
  }
  let newScale: (current: StoredObject) => { scale: Scale; warnings: string[] };
  if (req.verb === 'update') {
    validateWriteOptions('UpdateOptions', req.writeOptions);
    const put = decodeScale(req.body, req);
    checkIdentity(kind, put.scale, req);
    newScale = () => put;
  } else {
    const type = patchTypeOf(req);
    validatePatchOptions(type, req.writeOptions);
    newScale = (current) => {
      const patched = runPatchEngine(type, scaleOf(decl, current.value as KubeObject), req, {
        schema: scaleSchema(),
        apiVersion: SCALE_API_VERSION,
        kind: 'Scale',
        // The Scale is a view that no manager owns: an apply to it takes the replicas (ownership
        // conflicts with the parent's managers are not modelled).
        forceApply: true,
        now: ctx.clock.now(),
      });
      // The applied Scale's managedFields are the view's, never the object's.
      if (type === 'apply') delete ((patched as KubeObject).metadata as Record<string, unknown> | undefined)?.managedFields;
      const decoded = decodeScale(patched, req);
      checkIdentity(kind, decoded.scale, req);
      return decoded;
    };
  }
  const result = await updateObject(ctx, kind, req, version, key, {
    tryUpdate(current) {
      if (!current) throw notFound(gr, name);
      const { scale: body, warnings } = newScale(current);
      return scaledObject(kind, current, body, warnings);
    },
  });
  return { code: 200, body: scaleOf(decl, result.body!), warnings: result.warnings };
}
