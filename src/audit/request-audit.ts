/**
 * The audit of one request (k8s.io/apiserver `pkg/audit/context.go` AuditContext and
 * `request.go`): what is known of it from the start, what the door and the engine add on the way
 * (impersonated user, annotations, the request's object, the response), and one event per stage.
 * Each stage's event is a new object, so that a backend may keep it while the request goes on.
 */
import { formatMicroTime, type Clock } from '../clock.js';

import type { AuditLevel, AuditStage } from '../config/audit/types.js';
import type { ApiRequest, RequestAuditRecorder, UserInfo } from '../machinery/request.js';
import type { Status } from '../machinery/errors.js';
import type { AuditAttributes, RequestAuditConfig } from './evaluate.js';
import type { AuditEvent, AuditObjectReference, AuditResponseStatus, AuditUserInfo } from './event.js';
import { withoutManagedFields } from './managed-fields.js';
import type { AuditMetrics } from './metrics.js';
import type { AuditSink } from './sink.js';

/**
 * What a door knows of a request when its audit begins.
 * @category Audit
 */
export interface AuditRequestInit {
  /** The request's `Audit-ID` header, or a new UUID. */
  readonly auditID: string;
  /** When the request was received, on the cluster clock (ms). */
  readonly receivedAt: number;
  /** The path and query as sent. */
  readonly requestURI: string;
  /** The authorizer attributes (the authenticated user, before impersonation; none when authentication failed). */
  readonly attributes: AuditAttributes;
  readonly sourceIPs?: readonly string[];
  readonly userAgent?: string;
}

/** What the pipeline shares with every request's audit. */
export interface AuditServices {
  readonly sink: AuditSink;
  readonly metrics: AuditMetrics;
  readonly clock: Clock;
}

/**
 * The outcome of a request, as its last events record it.
 * @category Audit
 */
export interface AuditOutcome {
  /** The HTTP status code. */
  readonly code: number;
  /** The Status answered (a failure's, or a success answered as a Status). */
  readonly status?: Status;
  /** The answer's object, before encoding (recorded at RequestResponse). */
  readonly body?: unknown;
}

let lastMs = Number.NaN;
let lastText = '';

/** `formatMicroTime`, remembering the last time formatted: the stages of a request mostly fall in one millisecond. */
function microTime(ms: number): string {
  if (ms !== lastMs) {
    lastText = formatMicroTime(ms);
    lastMs = ms;
  }
  return lastText;
}

/** The longest User-Agent recorded (`maxUserAgentLength`); longer ones are cut and marked. */
const MAX_USER_AGENT_LENGTH = 1024;

/** Verbs and subresources of long-running requests, as kube-apiserver's `BasicLongRunningRequestCheck` is configured. */
const LONG_RUNNING_VERBS = new Set(['watch', 'proxy']);
const LONG_RUNNING_SUBRESOURCES = new Set(['attach', 'exec', 'proxy', 'log', 'portforward']);

/** Whether a request is long-running: its events then include ResponseStarted. */
export function isLongRunning(attributes: AuditAttributes): boolean {
  if (LONG_RUNNING_VERBS.has(attributes.verb)) return true;
  if (attributes.resourceRequest) return LONG_RUNNING_SUBRESOURCES.has(attributes.subresource ?? '');
  return (attributes.path ?? '').startsWith('/debug/pprof/');
}

/** A user as an event records it: empty fields left out. */
export function auditUser(user: UserInfo): AuditUserInfo {
  const out: AuditUserInfo = { username: user.username };
  if (user.uid) out.uid = user.uid;
  if (user.groups.length) out.groups = user.groups;
  if (user.extra && Object.keys(user.extra).length) out.extra = user.extra;
  return out;
}

/** The objectRef of a resource request, from its attributes (`LogRequestMetadata`). */
function objectRefOf(attributes: AuditAttributes): AuditObjectReference | undefined {
  if (!attributes.resourceRequest) return undefined;
  const ref: AuditObjectReference = {};
  if (attributes.resource) ref.resource = attributes.resource;
  if (attributes.namespace) ref.namespace = attributes.namespace;
  if (attributes.name) ref.name = attributes.name;
  if (attributes.apiGroup) ref.apiGroup = attributes.apiGroup;
  if (attributes.apiVersion) ref.apiVersion = attributes.apiVersion;
  if (attributes.subresource) ref.subresource = attributes.subresource;
  return ref;
}

function truncatedUserAgent(userAgent: string | undefined): string | undefined {
  if (!userAgent) return undefined;
  return userAgent.length > MAX_USER_AGENT_LENGTH ? `${userAgent.slice(0, MAX_USER_AGENT_LENGTH)}...TRUNCATED` : userAgent;
}

const LEVEL_ORDER: Readonly<Record<AuditLevel, number>> = { None: 0, Metadata: 1, Request: 2, RequestResponse: 3 };

/** Whether `level` records at least as much as `least`. */
export function levelAtLeast(level: AuditLevel, least: AuditLevel): boolean {
  return LEVEL_ORDER[level] >= LEVEL_ORDER[least];
}

/**
 * The audit of one request at Metadata level or more.
 * @category Audit
 */
export class RequestAudit implements RequestAuditRecorder {
  readonly level: AuditLevel;
  readonly auditID: string;
  readonly longRunning: boolean;
  private readonly verb: string;
  private readonly user: AuditUserInfo;
  private impersonatedUser: AuditUserInfo | undefined;
  private readonly sourceIPs: readonly string[] | undefined;
  private readonly userAgent: string | undefined;
  private objectRef: AuditObjectReference | undefined;
  private responseStatus: AuditResponseStatus | undefined;
  private requestObject: unknown;
  private responseObject: unknown;
  private readonly receivedTimestamp: string;
  private annotations: Record<string, string> | undefined;
  private finished = false;

  constructor(
    private readonly services: AuditServices,
    private readonly config: RequestAuditConfig,
    private readonly init: AuditRequestInit,
  ) {
    this.level = config.level;
    this.auditID = init.auditID;
    this.verb = init.attributes.verb;
    this.user = init.attributes.user ? auditUser(init.attributes.user) : {};
    this.sourceIPs = init.sourceIPs?.length ? init.sourceIPs : undefined;
    this.userAgent = truncatedUserAgent(init.userAgent);
    this.objectRef = objectRefOf(init.attributes);
    this.receivedTimestamp = microTime(init.receivedAt);
    this.longRunning = isLongRunning(init.attributes);
  }

  /** Adds an annotation; a key keeps its first value, as upstream (which logs the conflict). */
  addAnnotation(key: string, value: string): void {
    const annotations = (this.annotations ??= {});
    if (!Object.prototype.hasOwnProperty.call(annotations, key)) annotations[key] = value;
  }

  /** Records the user the request acts as, once impersonation is authorized (`LogImpersonatedUser`). */
  impersonate(user: UserInfo): void {
    this.impersonatedUser = auditUser(user);
  }

  /**
   * Records what the request sends, once decoded (`LogRequestObject`, `LogRequestPatch`): a
   * written object also names the objectRef's missing namespace, name, uid and resourceVersion.
   */
  request(req: ApiRequest): void {
    const records = levelAtLeast(this.level, 'Request');
    if (req.verb === 'create' || req.verb === 'update') {
      this.fillObjectRef(req.body);
      if (records) this.requestObject = this.config.omitManagedFields ? withoutManagedFields(req.body) : req.body;
    } else if (req.verb === 'patch') {
      if (records) this.requestObject = req.body;
    } else if ((req.verb === 'delete' || req.verb === 'deletecollection') && req.deleteOptions && records) {
      this.requestObject = { kind: 'DeleteOptions', apiVersion: 'meta.k8s.io/v1', ...req.deleteOptions };
    }
  }

  private fillObjectRef(body: unknown): void {
    const meta = (body as { metadata?: Record<string, unknown> } | undefined)?.metadata;
    if (typeof meta !== 'object' || meta === null) return;
    const ref: AuditObjectReference = { ...this.objectRef };
    const fill = (field: 'namespace' | 'name' | 'uid' | 'resourceVersion') => {
      const value = meta[field];
      if (!ref[field] && typeof value === 'string' && value !== '') ref[field] = value;
    };
    fill('namespace');
    fill('name');
    fill('uid');
    fill('resourceVersion');
    // Rebuilt in upstream's field order, so the event's JSON reads as kube-apiserver's.
    this.objectRef = {
      ...(ref.resource ? { resource: ref.resource } : {}),
      ...(ref.namespace ? { namespace: ref.namespace } : {}),
      ...(ref.name ? { name: ref.name } : {}),
      ...(ref.uid ? { uid: ref.uid } : {}),
      ...(ref.apiGroup ? { apiGroup: ref.apiGroup } : {}),
      ...(ref.apiVersion ? { apiVersion: ref.apiVersion } : {}),
      ...(ref.resourceVersion ? { resourceVersion: ref.resourceVersion } : {}),
      ...(ref.subresource ? { subresource: ref.subresource } : {}),
    };
  }

  /** The RequestReceived event; false when a backend refused it (the request must then fail). */
  received(): boolean | Promise<boolean> {
    const kept = this.process('RequestReceived');
    if (kept === true) return true;
    const rejected = () => (this.services.metrics.rejected(), false);
    if (kept === false) return rejected();
    return kept.then((ok) => ok || rejected());
  }

  /** The response started with `code` (long-running requests: a watch, a stream): the ResponseStarted event. */
  started(code: number, status?: Status): boolean | Promise<boolean> {
    this.responseStatus = statusOf(code, status);
    return this.process('ResponseStarted');
  }

  /** The request is over: the ResponseComplete event (once). */
  complete(outcome: AuditOutcome): boolean | Promise<boolean> {
    if (this.finished) return true;
    this.finished = true;
    this.responseStatus = statusOf(outcome.code, outcome.status);
    if (levelAtLeast(this.level, 'RequestResponse') && outcome.body !== undefined) {
      this.responseObject = this.config.omitManagedFields ? withoutManagedFields(outcome.body) : outcome.body;
    }
    return this.process('ResponseComplete');
  }

  /** The request failed unexpectedly (a Go panic upstream): the Panic event in place of ResponseComplete. */
  panic(error: unknown): boolean | Promise<boolean> {
    if (this.finished) return true;
    this.finished = true;
    const text = error instanceof Error ? error.message : String(error);
    this.responseStatus = { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${text}`, reason: 'InternalError', code: 500 };
    return this.process('Panic');
  }

  /** A request refused by authentication: its one event, ResponseStarted with the 401 (`WithFailedAuthenticationAudit`). */
  unauthenticated(message: string): boolean | Promise<boolean> {
    this.finished = true;
    this.responseStatus = { metadata: {}, message, code: 401 };
    return this.process('ResponseStarted');
  }

  private process(stage: AuditStage): boolean | Promise<boolean> {
    if (this.config.omitStages.includes(stage)) return true;
    this.services.metrics.event();
    return this.services.sink([this.eventAt(stage)]);
  }

  /** The event of a stage, its fields in upstream's order; optional ones only when set. */
  private eventAt(stage: AuditStage): AuditEvent {
    const event: AuditEvent = {
      kind: 'Event',
      apiVersion: 'audit.k8s.io/v1',
      level: this.level,
      auditID: this.auditID,
      stage,
      requestURI: this.init.requestURI,
      verb: this.verb,
      user: this.user,
    } as AuditEvent;
    if (this.impersonatedUser) event.impersonatedUser = this.impersonatedUser;
    if (this.sourceIPs) event.sourceIPs = this.sourceIPs as string[];
    if (this.userAgent) event.userAgent = this.userAgent;
    if (this.objectRef) event.objectRef = this.objectRef;
    if (this.responseStatus) event.responseStatus = this.responseStatus;
    if (this.requestObject !== undefined) event.requestObject = this.requestObject;
    if (this.responseObject !== undefined) event.responseObject = this.responseObject;
    event.requestReceivedTimestamp = this.receivedTimestamp;
    event.stageTimestamp = stage === 'RequestReceived' ? this.receivedTimestamp : microTime(this.services.clock.now());
    if (this.annotations) event.annotations = { ...this.annotations };
    return event;
  }
}

/** The responseStatus of an answer: a Status's bounded fields (`LogResponseObject`), or only the code. */
function statusOf(code: number, status: Status | undefined): AuditResponseStatus {
  if (!status) return { metadata: {}, code };
  const out = { metadata: {} } as AuditResponseStatus;
  if (status.status) out.status = status.status;
  if (status.message) out.message = status.message;
  if (status.reason) out.reason = status.reason;
  if (status.details !== undefined) out.details = status.details;
  out.code = code;
  return out;
}

/** The recorder of a request that is not audited: annotations go nowhere, and nothing audits it again. */
export const NOT_AUDITED: RequestAuditRecorder = Object.freeze({ addAnnotation() {} });
