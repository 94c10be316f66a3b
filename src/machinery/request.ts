/**
 * The one request shape every door (HTTP, in-process client, controllers) turns an operation into.
 */

/**
 * The verbs of the Kubernetes API.
 * @category API requests
 */
export type Verb = 'get' | 'list' | 'watch' | 'create' | 'update' | 'patch' | 'delete' | 'deletecollection';

/**
 * Who is making the request (`user.Info`).
 * @category API requests
 */
export interface UserInfo {
  username: string;
  uid?: string;
  groups: string[];
  extra?: Record<string, string[]>;
}

/**
 * `fieldValidation` directive of writes.
 * @category API requests
 */
export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

/**
 * Options shared by create, update and patch.
 * @category API requests
 */
export interface WriteOptions {
  /** Only `['All']` is valid: run every step but persist nothing. */
  dryRun?: string[];
  fieldManager?: string;
  /** Defaults to `Warn`. */
  fieldValidation?: string;
  /** Apply patches only: take over fields other managers own. */
  force?: boolean;
}

/**
 * The four patch types of the Kubernetes API (from the request's content type).
 * @category API requests
 */
export type PatchType = 'json' | 'merge' | 'strategic' | 'apply';

/**
 * `metav1.Preconditions` of a delete.
 * @category API requests
 */
export interface Preconditions {
  uid?: string;
  resourceVersion?: string;
}

/**
 * `metav1.DeleteOptions`.
 * @category API requests
 */
export interface DeleteOptions {
  dryRun?: string[];
  gracePeriodSeconds?: number;
  preconditions?: Preconditions;
  propagationPolicy?: string;
  /** Deprecated in Kubernetes; only one of this and `propagationPolicy` may be set. */
  orphanDependents?: boolean;
}

/**
 * List and watch options (`metav1.ListOptions`).
 * @category API requests
 */
export interface ListOptions {
  labelSelector?: string;
  fieldSelector?: string;
  limit?: number;
  continue?: string;
  resourceVersion?: string;
  resourceVersionMatch?: string;
  /** Watch only: ask for BOOKMARK events. */
  allowWatchBookmarks?: boolean;
  /** Watch only: start with synthetic ADDED events, then the initial-events-end bookmark. */
  sendInitialEvents?: boolean;
  /** Ends a watch (or bounds a list) after this many seconds. */
  timeoutSeconds?: number;
  /** Alpha (ShardedListAndWatch): `shardRange(object.metadata.uid, '0x..', '0x..') || ...`. */
  shardSelector?: string;
}

/**
 * The event types of a watch stream.
 * @category API requests
 */
export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

/**
 * One event of a watch stream (`metav1.WatchEvent`); ERROR carries a Status.
 * @category API requests
 */
export interface WatchEvent<T = unknown> {
  type: WatchEventType;
  object: T;
}

/**
 * A running watch: iterate it for events; it ends on `timeoutSeconds`, when the server closes it
 * (e.g. a consumer too slow for its buffer) or when `close()` is called. Breaking out of a
 * `for await` loop closes it too. A closed watch holds no resources in the server.
 * @category API requests
 */
export interface WatchStream<T = unknown> extends AsyncIterable<WatchEvent<T>> {
  /** Ends the watch and releases it in the server; iteration then stops. */
  close(): void;
  /** Resolves when the watch has ended, for whatever reason. */
  readonly done: Promise<void>;
  /**
   * True once the server closed the watch because its consumer fell `watchBufferSize` live events
   * behind (the initial or replayed events a watch starts with do not count; the unread events were
   * dropped): a transport then drops the connection rather than wait for a client that does not read.
   */
  readonly overflowed?: boolean;
}

/**
 * Get options (`metav1.GetOptions`).
 * @category API requests
 */
export interface GetOptions {
  resourceVersion?: string;
}

/**
 * Identifies a resource: `{ group: 'apps', version: 'v1', resource: 'statefulsets' }`.
 * @category API requests
 */
export interface GroupVersionResource {
  group: string;
  version: string;
  resource: string;
}

/**
 * A group/version/resource that carries the object type of its resource, so that the in-process
 * client answers typed objects (`cluster.client.resource(target)`), e.g. a custom resource's.
 * @category API requests
 */
export interface TypedResourceTarget<T extends object> {
  readonly group: string;
  readonly version: string;
  readonly resource: string;
  /** Phantom member carrying the object type; never set. */
  readonly __type?: T;
}

/**
 * One operation against the engine, whatever door it came through.
 * @category API requests
 */
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
  /** A connect subresource's request (`pods/log`, `nodes/proxy`): method, query, and what a proxy passes on. */
  connect?: ConnectRequest;
  user: UserInfo;
  /** The caller's User-Agent, used to derive a default field manager. */
  userAgent?: string;
  /**
   * Set when the request was already authorized with the same attributes (by the HTTP door, which
   * authorizes before routing as kube-apiserver's filters do, or as the inner step of an authorized
   * request: an eviction's delete): the engine then does not ask the authorizer again.
   */
  authorized?: boolean;
  /**
   * Set by a door that records the request's metrics itself (the HTTP door, which sees the bytes
   * it writes): the engine then does not count it again; it still times a watch, whose end only it sees.
   */
  meteredByDoor?: boolean;
  /**
   * The audit record of the request, set by the door that audits it (the HTTP door, or the
   * cluster for an in-process request): the engine and admission plugins add annotations to it,
   * and a request that carries one is not audited again.
   */
  audit?: RequestAuditRecorder;
}

/**
 * What the engine may add to a request's audit event.
 * @category Audit
 */
export interface RequestAuditRecorder {
  /**
   * Adds an annotation to the request's audit event (`audit.AddAuditAnnotation`): a key keeps the
   * first value it was given. Nothing is recorded when the request is not audited.
   */
  addAnnotation(key: string, value: string): void;
}

/**
 * What the engine answers to a successful request.
 * @category API requests
 */
export interface ApiResponse<T = unknown> {
  /** HTTP status code: 200, 201 or 202 (a connect subresource's: any, e.g. a proxied answer's). */
  code: number;
  body: T;
  /** Warnings for `Warning: 299 - "..."` headers, in order. */
  warnings: string[];
}

/**
 * What a connect subresource (a Pod's `log`, a Node's `proxy`) receives besides the request's
 * target: the HTTP method, the query as it came, and for a proxy the rest of the path, the body
 * and the headers to pass on.
 * @category API requests
 */
export interface ConnectRequest {
  /** `GET`, `POST`, ...: a proxy passes it on. */
  method: string;
  /** The query parameters, each with every value given (`?a=1&a=2` is `{ a: ['1', '2'] }`). */
  params: Readonly<Record<string, readonly string[]>>;
  /** The query as it came, without its `?` (a proxy passes it on unchanged); built from `params` when absent. */
  query?: string;
  /** The path after the subresource (`healthz` of `.../nodes/n1/proxy/healthz`), still to be cleaned. */
  path?: string;
  /** The request's body, passed on by a proxy. */
  body?: Uint8Array;
  /** Request headers a proxy passes on (lower-cased names; credentials already removed). */
  headers?: Readonly<Record<string, string>>;
}

/**
 * An answer that is not an object but bytes streamed as they come (a container's log, a node agent's
 * answer through a proxy): the HTTP door writes its chunks as they arrive, with its content type
 * and headers; the in-process client iterates it. Iterating to the end or calling `cancel()`
 * releases what feeds it (the request to the node agent is aborted).
 * @category Defining kinds
 */
export interface StreamedBody extends AsyncIterable<Uint8Array> {
  /** Brand that tells a streamed body from an object body. */
  readonly streamed: true;
  /** The Content-Type to answer with; `application/octet-stream` when undefined, as kube-apiserver's StreamObject. */
  readonly contentType?: string;
  /** Other response headers to pass on (a proxied answer's), lower-cased names. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Stops the stream early: the source is released, iteration ends. */
  cancel(): void;
}

/**
 * Whether an answer's body is a {@link StreamedBody}.
 * @category Defining kinds
 */
export function isStreamedBody(body: unknown): body is StreamedBody {
  return typeof body === 'object' && body !== null && (body as { streamed?: unknown }).streamed === true && Symbol.asyncIterator in body;
}
