/**
 * The patch engines by patch type: the one place a request's patch type picks JSON patch, merge
 * patch, strategic merge patch or server-side apply, for a kind's object and for a `/scale` view
 * alike (Kubernetes' `patcher.applyPatch` in k8s.io/apiserver pkg/endpoints/handlers/patch.go).
 */
import { isPatchError, type PatchError } from '../patch/errors.js';
import { applyJsonPatch } from '../patch/json-patch.js';
import { applyMergePatch } from '../patch/merge-patch.js';
import { applyStrategicMergePatch } from '../patch/strategic-merge.js';
import { serverSideApply } from '../patch/apply/apply.js';
import type { FieldSet } from '../patch/apply/field-set.js';
import type { StructuralNode } from '../schema/structural.js';
import { ApiError, badRequest } from '../machinery/errors.js';
import type { ApiRequest, PatchType } from '../machinery/request.js';
import { managerOf } from './field-manager.js';
import { fieldValidationOf } from './options.js';

/** The patch types the server accepts. */
export const PATCH_TYPES: readonly PatchType[] = ['json', 'merge', 'strategic', 'apply'];

/** The 415 for a patch whose type the server does not know. */
export function unsupportedPatchType(): ApiError {
  return new ApiError({
    code: 415,
    reason: 'UnsupportedMediaType',
    message:
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml, application/strategic-merge-patch+json',
  });
}

/** The request's patch type, or the 415 for a missing or unknown one. */
export function patchTypeOf(req: ApiRequest): PatchType {
  const type = req.patchType;
  if (!type || !PATCH_TYPES.includes(type)) throw unsupportedPatchType();
  return type;
}

/**
 * The answer for a failed patch: Kubernetes' status, except that the errors Kubernetes answers with
 * a 500 (they come from the client's patch, not from the server) are a 400 with the same message.
 */
export function patchFailure(e: PatchError): ApiError {
  const status = e.toStatus();
  if (!status || status.code >= 500) return badRequest(status?.message ?? e.message);
  return new ApiError({ code: status.code, reason: status.reason, message: status.message, details: status.details });
}

/** What the engines need to know of the patched document beyond the request. */
export interface PatchTarget {
  /** The structural schema of the document (strategic merge and apply walk it). */
  readonly schema: StructuralNode;
  /** The document's apiVersion and kind, which an applied configuration must name. */
  readonly apiVersion: string;
  readonly kind: string;
  /** Fields apply leaves to others (status on the main resource, the rest on `/status`). */
  readonly ignoredFields?: FieldSet;
  /** Whether apply takes fields other managers own (a view no manager owns, like a Scale). */
  readonly forceApply?: boolean;
  /** The cluster clock's now, for the managedFields apply records. */
  readonly now: number;
}

/** Runs the request's patch on `live` (absent: apply creating the object); answers the patched JSON. */
export function runPatchEngine(type: PatchType, live: unknown, req: ApiRequest, target: PatchTarget): unknown {
  const fieldValidation = fieldValidationOf(req.writeOptions);
  try {
    switch (type) {
      case 'json':
        return applyJsonPatch(live, req.body, { fieldValidation });
      case 'merge':
        return applyMergePatch(live, req.body, { fieldValidation });
      case 'strategic':
        return applyStrategicMergePatch(live, req.body, target.schema);
      case 'apply':
        return serverSideApply({
          live,
          applied: req.body,
          manager: managerOf(req),
          apiVersion: target.apiVersion,
          kind: target.kind,
          subresource: req.subresource,
          schema: target.schema,
          force: target.forceApply === true || req.writeOptions?.force === true,
          now: target.now,
          ignoredFields: target.ignoredFields,
        }).object;
    }
  } catch (e) {
    if (isPatchError(e)) throw patchFailure(e);
    throw e;
  }
}
