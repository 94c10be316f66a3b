/**
 * Field management on every write: who changed which fields (`metadata.managedFields`), recorded
 * the way Kubernetes records it for create, update and the non-apply patches.
 */
import { FieldSet } from '../patch/apply/field-set.js';
import { recordUpdate } from '../patch/apply/update.js';
import type { KubeObject } from '../schema/define-kind.js';
import { apiVersionOf, type ResolvedKind } from '../schema/registry.js';
import type { ApiRequest } from '../machinery/request.js';
import { isPromise } from '../util/maybe-promise.js';

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
 * them: where that version has another shape, the diff is taken between the two objects as served
 * (both converted in one call). A promise only when that conversion answers one.
 */
export function recordManagedFields(
  kind: ResolvedKind,
  version: string,
  req: ApiRequest,
  next: KubeObject,
  old: Readonly<KubeObject> | undefined,
  now: number,
): void | Promise<void> {
  if (!kind.converts(version)) return record(kind, version, req, next, old, next, now);
  const served = kind.presentAll(version, old ? [old as KubeObject, next] : [next]);
  const done = (s: KubeObject[]) => record(kind, version, req, next, old ? s[0] : undefined, s[s.length - 1]!, now);
  return isPromise(served) ? served.then(done) : done(served);
}

/** Diffs `live` and `updated` (at the request's version) into `next.metadata.managedFields`. */
function record(
  kind: ResolvedKind,
  version: string,
  req: ApiRequest,
  next: KubeObject,
  live: Readonly<KubeObject> | undefined,
  updated: KubeObject,
  now: number,
): void {
  const entries = recordUpdate({
    live,
    updated,
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
