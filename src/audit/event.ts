/**
 * The audit.k8s.io/v1 Event: what kube-apiserver records of a request at each stage, and the
 * EventList a webhook backend posts. Field names and order are upstream's (k8s.io/apiserver
 * `pkg/apis/audit/v1/types.go`), so that a line of the log backend reads as kube-apiserver's.
 */
import type { AuditLevel, AuditStage } from '../config/audit/types.js';

export { AUDIT_LEVELS, AUDIT_STAGES, type AuditLevel, type AuditStage } from '../config/audit/types.js';

/**
 * A user as an event records it (authentication.k8s.io/v1 `UserInfo`): every field is left out
 * when empty, so the event of a request refused before anyone was authenticated has `user: {}`.
 * @category Audit
 */
export interface AuditUserInfo {
  username?: string;
  uid?: string;
  groups?: string[];
  extra?: Record<string, string[]>;
}

/**
 * What a request was about (`ObjectReference` of the audit API).
 * @category Audit
 */
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

/**
 * The `responseStatus` of an event: a metav1.Status, in part for successes.
 * @category Audit
 */
export interface AuditResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code: number;
}

/**
 * One audit event (`audit.k8s.io/v1` Event).
 * @category Audit
 */
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
  user: AuditUserInfo;
  impersonatedUser?: AuditUserInfo;
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

/**
 * What a webhook backend posts: a batch of events.
 * @category Audit
 */
export interface AuditEventList {
  kind: 'EventList';
  apiVersion: 'audit.k8s.io/v1';
  metadata: Record<string, never>;
  items: AuditEvent[];
}
