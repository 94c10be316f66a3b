/**
 * Patch failures and the `metav1.Status` the Kubernetes API server (v1.36) answers for each.
 *
 * The apiserver's PATCH handler (k8s.io/apiserver pkg/endpoints/handlers/patch.go) turns patch
 * errors into responses like this:
 *
 * | failure | HTTP | reason | message |
 * |---|---|---|---|
 * | Content-Type not served (strategic merge patch on a custom resource: the CRD handler of apiextensions-apiserver only serves json-patch, merge-patch and apply-patch+yaml) | 415 | UnsupportedMediaType | `the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml` (negotiation.NewUnsupportedMediaTypeError) |
 * | body is not valid JSON, or nested deeper than 10000 (Go's scanner limit; `validateAndTranscodePatch`) | 400 | BadRequest | `invalid JSON patch` |
 * | JSON patch that does not decode as `[]jsonPatchOp` under fieldValidation Warn (the default) or Strict | 400 | BadRequest | `error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp` |
 * | JSON patch that does not decode as `jsonpatch.Patch` (fieldValidation Ignore) | 400 | BadRequest | `json: cannot unmarshal object into Go value of type jsonpatch.Patch` |
 * | JSON patch with more than 10000 operations | 413 | RequestEntityTooLarge | `Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001` |
 * | JSON patch operation failure (failing `test`, missing path, bad index, unknown `op`, copy size limit) | 422 | Invalid | `the server rejected our request due to an error in our request` (errors.NewGenericServerResponse(422, ...) drops evanphx/json-patch's own text; `details` is `{}`) |
 * | merge patch that is not an object under fieldValidation Warn/Strict | 400 | BadRequest | `error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}` |
 * | merge patch `null`, or a scalar (fieldValidation Ignore) | 400 | BadRequest | `Invalid JSON Patch` (jsonpatch.ErrBadJSONPatch) |
 * | strategic merge patch that is not an object | 400 | BadRequest | `json: cannot unmarshal array into Go value of type map[string]interface {}` |
 * | SMP sentinel errors (mergepatch.ErrBadJSONDoc, ErrBadPatchFormatForPrimitiveList, ErrBadPatchFormatForRetainKeys, ErrBadPatchFormatForSetElementOrderList, ErrUnsupportedStrategicMergePatchFormat) | 400 | BadRequest | `invalid patch format of primitive list`, `invalid patch format of retainKeys`, `invalid patch format of setElementOrder list`, ... (interpretStrategicMergePatchError) |
 * | SMP mergepatch.ErrNoListOfLists | 422 | Invalid | `the server rejected our request due to an error in our request` |
 * | any other SMP error (unknown `$patch` directive, missing merge key, `$setElementOrder` order mismatch, unknown field, ...) | 500 | (empty: StatusReasonUnknown) | the error text, e.g. `unknown patch type: foo in map: map[$patch:foo]`, `map: map[image:x] does not contain declared merge key: name` (a plain error reaches responsewriters.ErrorToAPIStatus) |
 * | a Go runtime panic inside the patch code (e.g. `==` on two maps) | 500 | text/plain body | `This request caused apiserver to panic. Look in the logs for details.` (server/filters.WithPanicRecovery) |
 *
 * Conflicts and failed preconditions are client-side (`kubectl apply` computing a three-way
 * patch) and have no HTTP answer.
 */
import type { StatusDetails, StatusReason } from '../machinery/errors.js';

/** What went wrong, which decides the HTTP answer. */
export type PatchErrorKind =
  /** 400 BadRequest with the error text. */
  | 'invalid-patch'
  /** 422 Invalid with the generic message: a JSON patch operation failed. */
  | 'apply-failed'
  /** 422 Invalid with the generic message: a JSON patch `test` operation failed. */
  | 'test-failed'
  /** 422 Invalid with the generic message: strategic merge patch of lists of lists. */
  | 'unprocessable'
  /** 413 RequestEntityTooLarge. */
  | 'too-large'
  /** 415 UnsupportedMediaType. */
  | 'unsupported-media-type'
  /** 500 with an empty reason and the error text (a non-Status Go error). */
  | 'server-error'
  /** 500 with a plain-text body: the Go code panicked. */
  | 'panic'
  /** Client-side: the three-way patch conflicts with changes made in the live object. */
  | 'conflict'
  /** Client-side: a precondition on the computed patch failed. */
  | 'precondition-failed';

/** The HTTP answer for a patch failure, shaped for `new ApiError(...)`. */
export interface PatchStatus {
  code: number;
  reason?: StatusReason;
  message: string;
  details?: StatusDetails;
  /** True when Kubernetes answers with a plain-text body instead of a `metav1.Status`. */
  plainText?: boolean;
}

/** `NewGenericServerResponse(422, ...)` replaces the patch library's text with this. */
export const GENERIC_UNPROCESSABLE_MESSAGE = 'the server rejected our request due to an error in our request';

/** The plain-text body of a panicking request (WithPanicRecovery). */
export const PANIC_MESSAGE = 'This request caused apiserver to panic. Look in the logs for details.';

/** The patch media types a custom resource serves (CBORServingAndStorage is alpha, off by default). */
export const CUSTOM_RESOURCE_PATCH_TYPES = ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml'] as const;

/** The 415 message for a strategic merge patch on a kind without strategic metadata. */
export const UNSUPPORTED_SMP_MESSAGE = `the body of the request was in an unknown format - accepted media types include: ${CUSTOM_RESOURCE_PATCH_TYPES.join(', ')}`;

/** A failed patch. `message` is the Go error text; {@link PatchError.toStatus} the HTTP answer. */
export class PatchError extends Error {
  readonly kind: PatchErrorKind;

  constructor(kind: PatchErrorKind, message: string) {
    super(message);
    this.name = 'PatchError';
    this.kind = kind;
  }

  /** The response Kubernetes sends; `undefined` for client-side failures. */
  toStatus(): PatchStatus | undefined {
    switch (this.kind) {
      case 'invalid-patch':
        return { code: 400, reason: 'BadRequest', message: this.message };
      case 'apply-failed':
      case 'test-failed':
      case 'unprocessable':
        return { code: 422, reason: 'Invalid', message: GENERIC_UNPROCESSABLE_MESSAGE, details: {} };
      case 'too-large':
        return { code: 413, reason: 'RequestEntityTooLarge', message: `Request entity too large: ${this.message}` };
      case 'unsupported-media-type':
        return { code: 415, reason: 'UnsupportedMediaType', message: this.message };
      case 'server-error':
        return { code: 500, message: this.message };
      case 'panic':
        return { code: 500, message: PANIC_MESSAGE, plainText: true };
      default:
        return undefined;
    }
  }
}

/** True when `e` is a {@link PatchError} (optionally of the given kind). */
export function isPatchError(e: unknown, kind?: PatchErrorKind): e is PatchError {
  return e instanceof PatchError && (kind === undefined || e.kind === kind);
}

// mergepatch sentinel errors (k8s.io/apimachinery pkg/util/mergepatch/errors.go) and their texts.
export const ERR_BAD_JSON_DOC = 'invalid JSON document';
export const ERR_NO_LIST_OF_LISTS = 'lists of lists are not supported';
export const ERR_BAD_PATCH_FORMAT_FOR_PRIMITIVE_LIST = 'invalid patch format of primitive list';
export const ERR_BAD_PATCH_FORMAT_FOR_RETAIN_KEYS = 'invalid patch format of retainKeys';
export const ERR_BAD_PATCH_FORMAT_FOR_SET_ELEMENT_ORDER_LIST = 'invalid patch format of setElementOrder list';
export const ERR_UNSUPPORTED_SMP_FORMAT = 'strategic merge patch format is not supported';

/** 400 BadRequest: one of the sentinel errors interpretStrategicMergePatchError maps to 400. */
export function smpBadRequest(message: string): PatchError {
  return new PatchError('invalid-patch', message);
}

/** 500 with the error text: any SMP error that is not a sentinel. */
export function smpServerError(message: string): PatchError {
  return new PatchError('server-error', message);
}

/** A Go panic (500, plain text). */
export function goPanicError(message: string): PatchError {
  return new PatchError('panic', message);
}
