/**
 * Field management on every write: who changed which fields (`metadata.managedFields`), recorded
 * the way Kubernetes records it for create, update and the non-apply patches.
 */
import { FieldSet } from '../patch/apply/field-set.js';
import { recordUpdate } from '../patch/apply/update.js';
import type { KubeObject } from '../schema/define-kind.js';
import { apiVersionOf, type ResolvedKind } from '../schema/registry.js';
import type { ApiRequest } from '../machinery/request.js';

/** Kubernetes' `prefixFromUserAgent`: `kubectl/v1.33.0 (linux/amd64) ...` manages as `kubectl`. */
export function managerFromUserAgent(userAgent: string | undefined): string {
  return (userAgent ?? '').split('/')[0] ?? '';
}

/** The field manager of a request: `fieldManager`, else derived from the User-Agent. */
export function managerOf(req: ApiRequest): string {
  return req.writeOptions?.fieldManager || managerFromUserAgent(req.userAgent);
}

const STATUS_ONLY = FieldSet.of([{ kind: 'field', name: 'status' }]);
const SPEC_ONLY = FieldSet.of([{ kind: 'field', name: 'spec' }]);

/**
 * The fields a write through this (sub)resource can never own, because the strategy resets them:
 * status on the main resource of a kind with a status subresource, spec on `/status`.
 */
export function resetFields(kind: ResolvedKind, subresource: string | undefined): FieldSet | undefined {
  if (subresource === 'status') return SPEC_ONLY;
  if (!subresource && kind.definition.statusSubresource) return STATUS_ONLY;
  return undefined;
}

/**
 * Records the write of `next` over `old` (undefined on create), both in the storage shape, in
 * `next.metadata.managedFields`. Field sets are those of the request's version, as Kubernetes keeps
 * them: where that version has another shape, the diff is taken between the two objects as served.
 */
export function recordManagedFields(
  kind: ResolvedKind,
  version: string,
  req: ApiRequest,
  next: KubeObject,
  old: Readonly<KubeObject> | undefined,
  now: number,
): void {
  const converts = kind.converts(version);
  const entries = recordUpdate({
    live: old && converts ? kind.present(version, old as KubeObject) : old,
    updated: converts ? kind.present(version, next) : next,
    manager: managerOf(req),
    apiVersion: apiVersionOf(kind.group, version),
    subresource: req.subresource,
    schema: kind.structural(version),
    now,
    ignoredFields: resetFields(kind, req.subresource),
  });
  const meta = (next.metadata ??= {});
  if (entries.length) meta.managedFields = entries;
  else delete meta.managedFields;
}
