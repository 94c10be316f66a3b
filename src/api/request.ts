/**
 * The one request shape every door (HTTP, in-process client, controllers) turns an operation into.
 */

/** The verbs of the Kubernetes API. */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/** Who is making the request (`user.Info`). */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/** `fieldValidation` directive of writes. */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/** Options shared by create, update and patch. */
export interface WriteOptions {
  /** Only `['All']` is valid: run every step but persist nothing. */
  dryRun?: string[];
  fieldManager?: string;
  /** Defaults to `Warn`. */
  fieldValidation?: string;
  /** Apply patches only: take over fields other managers own. */
  force?: boolean;
}

/** The four patch types of the Kubernetes API (from the request's content type). */
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

/** `metav1.Preconditions` of a delete. */
export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

/** `metav1.DeleteOptions`. */
export interface DeleteOptions {
  dryRun?: string[];
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  propagationPolicy?: string;
  /** Deprecated in Kubernetes; only one of this and `propagationPolicy` may be set. */
  orphanDependents?: boolean;
}

/** List options (`metav1.ListOptions`). */
export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
}

/** Get options (`metav1.GetOptions`). */
export interface GetOptions {
  resourceVersion?: string;
}

/** Identifies a resource: `{ group: 'apps', version: 'v1', resource: 'statefulsets' }`. */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/** One operation against the engine, whatever door it came through. */
export interface ApiRequest {
  verb: Verb;
  resource: GroupVersionResource;
  /** `status`, `scale`, ... or undefined for the main resource. */
  subresource?: string;
  namespace?: string;
  name?: string;
  /** The decoded body (a plain JSON value; the engine checks its shape). */
  body?: unknown;
  /** The patch type of a `patch` request. */
  patchType?: PatchType;
  /** Duplicate keys the decoder saw in the raw body, as field paths (e.g. `metadata.name`). */
  duplicateFields?: string[];
  writeOptions?: WriteOptions;
  deleteOptions?: DeleteOptions;
  listOptions?: ListOptions;
  getOptions?: GetOptions;
  user: UserInfo;
  /** The caller's User-Agent, used to derive a default field manager. */
  userAgent?: string;
}

/** What the engine answers to a successful request. */
export interface ApiResponse<T = unknown> {
  /** HTTP status code: 200, 201 or 202. */
  code: number;
  body: T;
  /** Warnings for `Warning: 299 - "..."` headers, in order. */
  warnings: string[];
}
