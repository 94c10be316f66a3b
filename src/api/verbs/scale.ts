/**
 * The `scale` subresource, for every kind that declares `scale` (as CRDs declare it): GET answers
 * an `autoscaling/v1` Scale built from the object; PUT and PATCH (of the Scale) change only the
 * replicas of the object and write it through the normal update pipeline, as Kubernetes'
 * `ScaleREST` does (the Scale's `resourceVersion` and `uid` are preconditions).
 */
import { isPatchError } from '../../patch/errors.js';
import { applyJsonPatch } from '../../patch/json-patch.js';
import { applyMergePatch } from '../../patch/merge-patch.js';
import { applyStrategicMergePatch } from '../../patch/strategic-merge.js';
import { serverSideApply } from '../../patch/apply/apply.js';
import { decodeWithSchema, DecodeTypeError } from '../../schema/decode.js';
import type { KubeObject, ScaleSubresource } from '../../schema/define-kind.js';
import type { ResolvedKind } from '../../schema/registry.js';
import { structuralOf, type StructuralNode } from '../../schema/structural.js';
import { labelSelectorFromObject, SelectorParseError, type LabelSelectorObject } from '../../selectors/label-selector.js';
import { cloneJson } from '../../util/json-clone.js';
import { Scale as ScaleSchema, type Scale } from '../../kinds/types/autoscaling-v1.js';
import { objectKey, type EngineContext } from '../context.js';
import { badRequest, conflict, invalid, notFound, OBJECT_MODIFIED } from '../../machinery/errors.js';
import { fieldError } from '../../machinery/field-errors.js';
import { managerOf } from '../field-manager.js';
import { fieldValidationOf, validatePatchOptions, validateWriteOptions } from '../options.js';
import type { ApiRequest, ApiResponse, PatchType } from '../../machinery/request.js';
import { parseResourceVersion } from './update.js';
import { writeOver } from './update.js';
import { PATCH_TYPES, patchFailure, unsupportedPatchType } from './patch.js';

const SCALE_API_VERSION = 'autoscaling/v1';
let scaleNode: StructuralNode | undefined;
const scaleSchema = (): StructuralNode => (scaleNode ??= structuralOf(ScaleSchema));

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
        const text = labelSelectorFromObject(sel as LabelSelectorObject).toString();
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
    throw badRequest(`${kind} in version ${JSON.stringify(v)} cannot be handled as a Scale: no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "k8s.io/kubernetes/pkg/api/legacyscheme/scheme.go:30"`);
  }
  if (apiVersion !== SCALE_API_VERSION) throw badRequest(`the API version in the data (${apiVersion}) does not match the expected API version (${SCALE_API_VERSION})`);
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

/**
 * Writes the replicas of `scale` into the stored object through the update pipeline (one
 * attempt; 'retry' when a concurrent write won and the Scale named no resourceVersion).
 */
async function writeScale(
  ctx: EngineContext,
  kind: ResolvedKind,
  req: ApiRequest,
  version: string,
  current: NonNullable<Awaited<ReturnType<EngineContext['storage']['get']>>>,
  scale: Scale,
  warnings: string[],
): Promise<ApiResponse<Scale> | 'retry'> {
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
  if (rv && parseResourceVersion(rv) !== current.revision) throw conflict(gr, current.name, OBJECT_MODIFIED);
  const next = cloneJson(stored) as KubeObject;
  writePath(next as Record<string, unknown>, decl.specReplicasPath, scale.spec?.replicas ?? 0);
  const result = await writeOver(ctx, kind, req, version, current, next, warnings, !!rv);
  if (result === 'retry') return 'retry';
  return { code: 200, body: scaleOf(decl, result.body), warnings: result.warnings };
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
  if (req.verb === 'update') {
    validateWriteOptions('UpdateOptions', req.writeOptions);
    const { scale: body, warnings } = decodeScale(req.body, req);
    checkIdentity(kind, body, req);
    for (;;) {
      const current = await ctx.storage.get(key);
      if (!current) throw notFound(gr, name);
      const result = await writeScale(ctx, kind, req, version, current, body, warnings);
      if (result !== 'retry') return result;
    }
  }
  // patch
  const type = req.patchType;
  if (!type || !PATCH_TYPES.includes(type)) throw unsupportedPatchType();
  validatePatchOptions(type, req.writeOptions);
  for (;;) {
    const current = await ctx.storage.get(key);
    if (!current) throw notFound(gr, name);
    const old = scaleOf(decl, current.value as KubeObject);
    const patched = patchScale(type, old, req, ctx);
    const { scale: body, warnings } = decodeScale(patched, req);
    checkIdentity(kind, body, req);
    const result = await writeScale(ctx, kind, req, version, current, body, warnings);
    if (result !== 'retry') return result;
  }
}

/** Applies the request's patch to the Scale of the stored object. */
function patchScale(type: PatchType, old: Scale, req: ApiRequest, ctx: EngineContext): unknown {
  const fieldValidation = fieldValidationOf(req.writeOptions);
  try {
    switch (type) {
      case 'json':
        return applyJsonPatch(old, req.body, { fieldValidation });
      case 'merge':
        return applyMergePatch(old, req.body, { fieldValidation });
      case 'strategic':
        return applyStrategicMergePatch(old, req.body, scaleSchema());
      case 'apply': {
        const result = serverSideApply({
          live: old,
          applied: req.body,
          manager: managerOf(req),
          apiVersion: SCALE_API_VERSION,
          kind: 'Scale',
          subresource: 'scale',
          schema: scaleSchema(),
          // The Scale is a view that no manager owns: an apply to it takes the replicas (ownership
          // conflicts with the parent's managers are not modelled).
          force: true,
          now: ctx.clock.now(),
        });
        const obj = result.object;
        const meta = obj.metadata as Record<string, unknown> | undefined;
        if (meta) delete meta.managedFields;
        return obj;
      }
    }
  } catch (e) {
    if (isPatchError(e)) throw patchFailure(e);
    throw e;
  }
}
