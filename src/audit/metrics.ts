/**
 * The audit metrics of k8s.io/apiserver `pkg/audit/metrics.go`: events sent, policy levels (one
 * per request), requests refused because a backend could not keep their event, and events a
 * backend failed to record, by plugin. kube-apiserver registers them whether or not audit is on.
 */
import type { AuditLevel } from '../config/audit/types.js';
import type { MetricsRegistry } from '../metrics/registry.js';

/** What the audit pipeline counts. */
export interface AuditMetrics {
  /** `apiserver_audit_event_total`: one event handed to the backends. */
  event(): void;
  /** `apiserver_audit_level_total{level}`: the level a request's policy evaluated to. */
  level(level: AuditLevel): void;
  /** `apiserver_audit_requests_rejected_total`: a request failed because its RequestReceived event was refused. */
  rejected(): void;
  /** `apiserver_audit_error_total{plugin}`: `count` events a backend could not record. */
  pluginError(plugin: string, count: number): void;
}

/** Declares the audit metrics on a registry (idempotent). */
export function defineAuditMetrics(registry: MetricsRegistry): AuditMetrics {
  const events = registry.counter({ name: 'apiserver_audit_event_total', help: 'Counter of audit events generated and sent to the audit backend.' });
  const errors = registry.counter<'plugin'>({
    name: 'apiserver_audit_error_total',
    help: 'Counter of audit events that failed to be audited properly. Plugin identifies the plugin affected by the error.',
    labelNames: ['plugin'],
  });
  const levels = registry.counter<'level'>({
    name: 'apiserver_audit_level_total',
    help: 'Counter of policy levels for audit events (1 per request).',
    labelNames: ['level'],
  });
  const rejected = registry.counter({
    name: 'apiserver_audit_requests_rejected_total',
    help: 'Counter of apiserver requests rejected due to an error in audit logging backend.',
  });
  // The hot path only adds to plain numbers; they reach the counters before every read.
  let pendingEvents = 0;
  const pendingLevels = new Map<AuditLevel, number>();
  registry.onCollect(() => {
    if (pendingEvents) events.inc(undefined, pendingEvents);
    pendingEvents = 0;
    for (const [level, n] of pendingLevels) if (n) levels.inc({ level }, n);
    pendingLevels.clear();
  });
  return {
    event: () => {
      pendingEvents++;
    },
    level: (level) => {
      pendingLevels.set(level, (pendingLevels.get(level) ?? 0) + 1);
    },
    rejected: () => rejected.inc(),
    pluginError: (plugin, count) => errors.inc({ plugin }, count),
  };
}
