/**
 * The public shapes of fault injection and the request log: what a fault matches, what it
 * answers, and what the log records of each caller request.
 */
import type { ApiRequest, ApiResponse, Verb } from '../../machinery/request.js';

/**
 * Which caller requests a fault applies to; every field given must match (none: every request).
 * @category Testing
 */
export interface FaultMatch {
  verb?: Verb | readonly Verb[];
  /** The resource's plural name, e.g. `configmaps`. */
  resource?: string;
  /** The API group, `''` for the core group. */
  group?: string;
  namespace?: string;
  name?: string;
  /** The username the request acts as (after impersonation), e.g. `system:admin`. */
  user?: string;
  /** The subresource, e.g. `status`; `''` matches only requests to the object itself. */
  subresource?: string;
  /** A last say: the fault applies only when this answers true. */
  when?: (req: ApiRequest) => boolean;
}

/**
 * The errors a fault can answer, each with the Status kube-apiserver sends for it.
 * @category Testing
 */
export type FaultErrorReason = 'Conflict' | 'TooManyRequests' | 'InternalError' | 'Timeout' | 'ServerTimeout' | 'ServiceUnavailable';

/**
 * Answer with an error, as Kubernetes answers it.
 * @category Testing
 */
export interface FaultError {
  error: FaultErrorReason;
  /** Replaces the part of the message that says why (the rest is Kubernetes' wording). */
  message?: string;
  /** For TooManyRequests, Timeout and ServerTimeout: the `Retry-After` the client is told (default 1). */
  retryAfterSeconds?: number;
}

/**
 * Hold the request until the cluster clock has moved `delayMs` on, then let it through.
 * @category Testing
 */
export interface FaultDelay {
  delayMs: number;
}

/**
 * For watches: let the watch through, then after `afterEvents` events either end it (`drop`, as a
 * lost connection) or send a 410 Expired ERROR event and end it (`expire`, as a server whose
 * history no longer reaches the client's resourceVersion), so that clients relist.
 * @category Testing
 */
export interface FaultWatch {
  watch: 'drop' | 'expire';
  afterEvents?: number;
}

/**
 * A function that answers the request itself (return or throw, e.g. an `ApiError`), or calls
 * `pass` to send it on to the engine (and may change what comes back).
 * @category Testing
 */
export type FaultResolver = (req: ApiRequest, pass: (req: ApiRequest) => Promise<ApiResponse>) => ApiResponse | Promise<ApiResponse>;

/**
 * What a matching request gets.
 * @category Testing
 */
export type FaultAnswer = FaultError | FaultDelay | FaultWatch | FaultResolver;

/**
 * A fault to add with `cluster.faults.add`.
 * @category Testing
 */
export interface FaultSpec {
  match?: FaultMatch;
  /** How many matching requests it applies to; then it removes itself. Default: every one. */
  times?: number;
  answer: FaultAnswer;
}

/**
 * A fault in place: how often it applied, and a way to take it away.
 * @category Testing
 */
export interface FaultHandle {
  /** How many requests this fault applied to so far. */
  readonly hits: number;
  /** Whether it still applies (false once removed, cleared or used `times` times). */
  readonly active: boolean;
  /** Stops the fault from applying to later requests. */
  remove(): void;
}

/**
 * One caller request as the request log keeps it.
 * @category Testing
 */
export interface RequestLogEntry {
  verb: Verb;
  group: string;
  version: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
  /** The username the request acted as. */
  user: string;
  /** The HTTP status code answered (a watch: 200 once it started). */
  code: number;
  /** The Status reason of a failure. */
  reason?: string;
  /** True when a fault answered or changed the request. */
  faulted: boolean;
}
