/**
 * API errors as values. Every failure the engine reports is an {@link ApiError} carrying the exact
 * `metav1.Status` the Kubernetes API server would return, so the HTTP layer only serializes it.
 */
import { aggregateMessage, fieldErrorBody, type FieldError } from './field-errors.js';

/**
 * `metav1.StatusCause`.
 * @category Errors
 */
export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

/**
 * `metav1.StatusDetails`.
 * @category Errors
 */
export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

/**
 * `metav1.Status`, as returned by the API for failures (and for some deletes).
 * @category Errors
 */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: { resourceVersion?: string; continue?: string; remainingItemCount?: number };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: StatusReason;
  details?: StatusDetails;
  code: number;
}

/**
 * The `metav1.StatusReason` values Kubernetes uses.
 * @category Errors
 */
export type StatusReason =
  | ''
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Invalid'
  | 'ServerTimeout'
  | 'StoreReadError'
  | 'Timeout'
  | 'TooManyRequests'
  | 'BadRequest'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'RequestEntityTooLarge'
  | 'UnsupportedMediaType'
  | 'InternalError'
  | 'Expired'
  | 'ServiceUnavailable';

/**
 * A group and resource, e.g. `{ group: 'apps', resource: 'statefulsets' }`; the core group is `''`.
 * @category Errors
 */
export interface GroupResource {
  group: string;
  resource: string;
}

/**
 * A group and kind, e.g. `{ group: 'apps', kind: 'StatefulSet' }`.
 * @category Errors
 */
export interface GroupKind {
  group: string;
  kind: string;
}

/** `configmaps` or `statefulsets.apps`, as Kubernetes prints a qualified resource. */
export function qualifiedResource(gr: GroupResource): string {
  return gr.group ? `${gr.resource}.${gr.group}` : gr.resource;
}

/** `ConfigMap` or `StatefulSet.apps`, as Kubernetes prints a qualified kind. */
export function qualifiedKind(gk: GroupKind): string {
  return gk.group ? `${gk.kind}.${gk.group}` : gk.kind;
}

/**
 * An error answered by the API, carrying the full `metav1.Status`.
 * @category Errors
 */
export class ApiError extends Error {
  readonly status: Status;
  /**
   * Warnings that go with the failure (HTTP `Warning: 299` headers), e.g. the deprecation warning
   * of a deprecated resource, which Kubernetes sends whatever the answer.
   */
  readonly warnings: readonly string[];

  constructor(status: Omit<Status, 'kind' | 'apiVersion' | 'metadata' | 'status'> & { metadata?: Status['metadata'] }, warnings: readonly string[] = []) {
    super(status.message ?? status.reason ?? `HTTP ${status.code}`);
    this.name = 'ApiError';
    // Keys in metav1.Status's field order, so a body reads byte for byte as kube-apiserver's.
    const { message, reason, details, code } = status;
    this.status = {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: status.metadata ?? {},
      status: 'Failure',
      ...(message !== undefined ? { message } : {}),
      ...(reason !== undefined ? { reason } : {}),
      ...(details !== undefined ? { details } : {}),
      code,
    };
    this.warnings = warnings;
  }

  /** The same failure with `warnings` before its own. */
  withWarnings(warnings: readonly string[]): ApiError {
    if (warnings.length === 0) return this;
    const copy = new ApiError(this.status, [...warnings, ...this.warnings]);
    copy.stack = this.stack;
    return copy;
  }

  /** HTTP status code. */
  get code(): number {
    return this.status.code;
  }

  /** Kubernetes reason, e.g. `NotFound`. */
  get reason(): StatusReason | undefined {
    return this.status.reason;
  }
}

/**
 * True when `e` is an {@link ApiError}, optionally with the given reason.
 * @category Errors
 */
export function isApiError(e: unknown, reason?: StatusReason): e is ApiError {
  return e instanceof ApiError && (reason === undefined || e.status.reason === reason);
}

/** 404 `configmaps "x" not found`. */
export function notFound(gr: GroupResource, name: string): ApiError {
  return new ApiError({
    code: 404,
    reason: 'NotFound',
    message: `${qualifiedResource(gr)} ${JSON.stringify(name)} not found`,
    details: { name, group: gr.group || undefined, kind: gr.resource },
  });
}

/** 409 `configmaps "x" already exists`. */
export function alreadyExists(gr: GroupResource, name: string): ApiError {
  return new ApiError({
    code: 409,
    reason: 'AlreadyExists',
    message: `${qualifiedResource(gr)} ${JSON.stringify(name)} already exists`,
    details: { name, group: gr.group || undefined, kind: gr.resource },
  });
}

/** 409 `Operation cannot be fulfilled on configmaps "x": <reason>`. */
export function conflict(gr: GroupResource, name: string, why: string): ApiError {
  return new ApiError({
    code: 409,
    reason: 'Conflict',
    message: `Operation cannot be fulfilled on ${qualifiedResource(gr)} ${JSON.stringify(name)}: ${why}`,
    details: { name, group: gr.group || undefined, kind: gr.resource },
  });
}

/** The optimistic-concurrency failure message of Kubernetes. */
export const OBJECT_MODIFIED = 'the object has been modified; please apply your changes to the latest version and try again';

/** 422 `ConfigMap "x" is invalid: <causes>`. */
export function invalid(gk: GroupKind, name: string, errors: readonly FieldError[]): ApiError {
  const qk = qualifiedKind(gk);
  return new ApiError({
    code: 422,
    reason: 'Invalid',
    message: errors.length ? `${qk} ${JSON.stringify(name)} is invalid: ${aggregateMessage(errors)}` : `${qk} ${JSON.stringify(name)} is invalid`,
    details: {
      name,
      group: gk.group || undefined,
      kind: gk.kind,
      causes: errors.map((e) => ({ reason: e.type, message: fieldErrorBody(e), field: e.field })),
    },
  });
}

/** 400 BadRequest with a message. */
export function badRequest(message: string): ApiError {
  return new ApiError({ code: 400, reason: 'BadRequest', message });
}

/** 403 `configmaps "x" is forbidden: <why>`. */
export function forbidden(gr: GroupResource, name: string, why: string, causes?: StatusCause[]): ApiError {
  const subject = name ? `${qualifiedResource(gr)} ${JSON.stringify(name)}` : qualifiedResource(gr);
  return new ApiError({
    code: 403,
    reason: 'Forbidden',
    message: `${subject} is forbidden: ${why}`,
    details: { name: name || undefined, group: gr.group || undefined, kind: gr.resource, causes },
  });
}

/** 405 MethodNotAllowed for a verb a resource does not support. */
export function methodNotSupported(gr: GroupResource, verb: string): ApiError {
  return new ApiError({
    code: 405,
    reason: 'MethodNotAllowed',
    message: `${verb} is not supported on resources of kind ${JSON.stringify(qualifiedResource(gr))}`,
    details: { group: gr.group || undefined, kind: gr.resource },
  });
}

/** 500 InternalError; the engine uses it only for its own bugs. */
export function internalError(cause: unknown): ApiError {
  const text = cause instanceof Error ? cause.message : String(cause);
  return new ApiError({
    code: 500,
    reason: 'InternalError',
    message: `Internal error occurred: ${text}`,
    details: { causes: [{ message: text }] },
  });
}

/** Drops `undefined` members so a Status serializes exactly like Kubernetes' (omitempty). */
export function compactStatus(status: Status): Status {
  return JSON.parse(JSON.stringify(status)) as Status;
}
