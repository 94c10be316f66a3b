/**
 * The audit.k8s.io/v1 Event: what kube-apiserver records of a request at each stage, and the
 * EventList a webhook backend posts. Field names and order are upstream's (k8s.io/apiserver
 * `pkg/apis/audit/v1/types.go`), so that a line of the log backend reads as kube-apiserver's.
 */
import type { UserInfo } from '../machinery/request.js';

/** How much of a request is recorded. */
export type AuditLevel = 'None' | 'Metadata' | 'Request' | 'RequestResponse';

/** The audit levels from least to most. */
export const AUDIT_LEVELS: readonly AuditLevel[] = ['None', 'Metadata', 'Request', 'RequestResponse'];

/** When in a request's life an event is made. */
export type AuditStage = 'RequestReceived' | 'ResponseStarted' | 'ResponseComplete' | 'Panic';

/** The audit stages, in the order a request goes through them. */
export const AUDIT_STAGES: readonly AuditStage[] = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'];

/** What a request was about (`ObjectReference` of the audit API). */
export interface AuditObjectReference {
  resource?: string;
  namespace?: string;
  name?: string;
  uid?: string;
  /** Empty for the core group; then left out, as upstream's `omitempty`. */
  apiGroup?: string;
  apiVersion?: string;
  resourceVersion?: string;
  subresource?: string;
}

/** The `responseStatus` of an event: a metav1.Status, in part for successes. */
export interface AuditResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code: number;
}

/** One audit event (`audit.k8s.io/v1` Event). */
export interface AuditEvent {
  kind: 'Event';
  apiVersion: 'audit.k8s.io/v1';
  level: AuditLevel;
  /** A UUID per request, the same for all its stages; also the `Audit-Id` response header. */
  auditID: string;
  stage: AuditStage;
  requestURI: string;
  /** The request-info verb: `get`, `list`, `watch`, `create`, ... or the lower-cased method of a non-resource request. */
  verb: string;
  user: UserInfo;
  impersonatedUser?: UserInfo;
  sourceIPs?: string[];
  userAgent?: string;
  objectRef?: AuditObjectReference;
  responseStatus?: AuditResponseStatus;
  /** The request's body as received (Request and RequestResponse levels). */
  requestObject?: unknown;
  /** The response's body (RequestResponse level). */
  responseObject?: unknown;
  /** RFC 3339 with microseconds, `2026-12-02T01:02:03.456789Z`. */
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

/** What a webhook backend posts: a batch of events. */
export interface AuditEventList {
  kind: 'EventList';
  apiVersion: 'audit.k8s.io/v1';
  metadata: Record<string, never>;
  items: AuditEvent[];
}
