/**
 * List and watch options: validation (`ValidateListOptions` of k8s.io/apimachinery
 * `pkg/apis/meta/internalversion/validation`), resourceVersion parsing, and the errors Kubernetes
 * answers for resource versions that are too old or too new.
 */
import type { Storage } from '../storage/storage.js';
import { ApiError, badRequest, invalid } from '../machinery/errors.js';
import { fieldError, type FieldError } from '../machinery/field-errors.js';
import type { ListOptions } from '../machinery/request.js';

/** `metav1.ResourceVersionMatch` values. */
export const EXACT = 'Exact';
export const NOT_OLDER_THAN = 'NotOlderThan';

/**
 * Checks list/watch options as `ValidateListOptions` does; failures are one 422 Invalid on
 * `ListOptions.meta.k8s.io` (`get.go` `ListResource`).
 */
export function validateListOptions(options: ListOptions, watch: boolean): void {
  const errors: FieldError[] = [];
  const match = options.resourceVersionMatch ?? '';
  const rv = options.resourceVersion ?? '';
  if (watch) {
    if (options.sendInitialEvents !== undefined && match !== NOT_OLDER_THAN) {
      errors.push(fieldError.forbidden('resourceVersionMatch', `sendInitialEvents requires setting resourceVersionMatch to ${NOT_OLDER_THAN}`));
    }
    if (match) {
      if (options.sendInitialEvents === undefined) {
        errors.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided'));
      }
      if (match !== NOT_OLDER_THAN) errors.push(fieldError.notSupported('resourceVersionMatch', match, [NOT_OLDER_THAN]));
      if (options.continue) errors.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
    }
  } else {
    if (match) {
      if (!rv) errors.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden unless resourceVersion is provided'));
      if (options.continue) errors.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch is forbidden when continue is provided'));
      if (match !== EXACT && match !== NOT_OLDER_THAN) errors.push(fieldError.notSupported('resourceVersionMatch', match, [EXACT, NOT_OLDER_THAN, '']));
      if (match === EXACT && rv === '0')
        errors.push(fieldError.forbidden('resourceVersionMatch', 'resourceVersionMatch "exact" is forbidden for resourceVersion "0"'));
    }
    if (options.sendInitialEvents !== undefined) errors.push(fieldError.forbidden('sendInitialEvents', 'sendInitialEvents is forbidden for list'));
  }
  if (errors.length) throw invalid({ group: 'meta.k8s.io', kind: 'ListOptions' }, '', errors);
  if (options.limit !== undefined && !Number.isInteger(options.limit)) {
    throw badRequest(`limit must be an integer, got ${options.limit}`);
  }
  if (options.timeoutSeconds !== undefined && !Number.isFinite(options.timeoutSeconds)) {
    throw badRequest(`timeoutSeconds must be a number, got ${options.timeoutSeconds}`);
  }
}

const UINT64_MAX = (1n << 64n) - 1n;

/**
 * A request's resourceVersion: undefined when unset, 0 for `"0"`, else the revision. A value
 * that is not an unsigned decimal integer is 400 with the message etcd3's storage answers
 * (`invalid resource version: ...`), where the cacher would answer 500.
 */
export function parseResourceVersion(text: string | undefined): number | undefined {
  if (text === undefined || text === '') return undefined;
  if (text === '0') return 0;
  const bad = (why: string): never => {
    throw badRequest(
      `invalid resource version: resourceVersion: Invalid value: ${JSON.stringify(text)}: strconv.ParseUint: parsing ${JSON.stringify(text)}: ${why}`,
    );
  };
  if (!/^[0-9]+$/.test(text)) return bad('invalid syntax');
  const value = BigInt(text);
  if (value > UINT64_MAX) return bad('value out of range');
  // Beyond 2^53 the exact value no longer matters: it is in any case newer than any revision.
  return Number(value);
}

/** 410 Expired `too old resource version: X (Y)`, as the watch cache answers (`watch_cache.go`). */
export function tooOldResourceVersion(requested: number, oldest: number): ApiError {
  return new ApiError({ code: 410, reason: 'Expired', message: `too old resource version: ${requested} (${oldest})` });
}

/** 410 Expired for a list at a compacted revision, as etcd3's storage answers (`etcd3/store.go`). */
export function listTooOld(): ApiError {
  return new ApiError({ code: 410, reason: 'Expired', message: 'The resourceVersion for the provided list is too old.' });
}

/**
 * 504 Timeout `Timeout: Too large resource version: X, current: Y` with the
 * `ResourceVersionTooLarge` cause and `retryAfterSeconds: 1` (`storage.NewTooLargeResourceVersionError`,
 * as the cacher answers after waiting for a revision it has not seen).
 */
export function tooLargeResourceVersion(requested: number, current: number): ApiError {
  return new ApiError({
    code: 504,
    reason: 'Timeout',
    message: `Timeout: Too large resource version: ${requested}, current: ${current}`,
    details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }], retryAfterSeconds: 1 },
  });
}

/** How many event-loop turns a read waits for a revision not yet written (Kubernetes waits 3 s). */
const FRESHNESS_TURNS = 10;

/**
 * Waits briefly (a few event-loop turns, never a real sleep) until storage has reached
 * `revision`; then answers the current revision, or throws 504 Too large resource version.
 */
export async function waitForRevision(storage: Storage, revision: number): Promise<number> {
  let current = await storage.currentRevision();
  for (let i = 0; current < revision && i < FRESHNESS_TURNS; i++) {
    await new Promise<void>((r) => setImmediate(r));
    current = await storage.currentRevision();
  }
  if (current < revision) throw tooLargeResourceVersion(revision, current);
  return current;
}
