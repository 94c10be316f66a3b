/**
 * Where audit events go (k8s.io/apiserver `pkg/audit` Backend): the log file, a webhook, or memory.
 * A backend may buffer (batch mode) or write before it returns (blocking modes).
 */
import type { AuditEvent } from './event.js';

/**
 * What a cluster gives each of its backends when it starts (see {@link AuditBackend.attach}): the
 * means to count what the backend failed to record.
 * @category Audit
 */
export interface AuditBackendContext {
  /**
   * Counts the impacted events (the events, or how many) under `apiserver_audit_error_total{plugin}`
   * (upstream's `audit.HandlePluginError`): call it for events the backend could not write or
   * send. `error` says why (kept for the cluster's own reporting, never in a label).
   */
  handlePluginError(plugin: string, error: unknown, impacted: readonly AuditEvent[] | number): void;
}

/**
 * A sink of audit events.
 * @category Audit
 */
export interface AuditBackend {
  /** The plugin's name (`log`, `webhook`, `buffered<log>`, ...): the `plugin` label of `apiserver_audit_error_total`. */
  readonly name: string;
  /**
   * Takes events, in order. Resolves false when some could not be kept and the backend is strict
   * about it (blocking-strict mode): a request whose RequestReceived event is refused then fails.
   * The events are the cluster's to share between backends: a backend must not change them.
   */
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean>;
  /** Writes what is buffered and stops; later events are dropped. */
  shutdown(): Promise<void>;
  /**
   * Called once by each cluster that uses the backend, before its first event (optional): the
   * backend keeps the context to report its errors to that cluster's metrics.
   */
  attach?(context: AuditBackendContext): void;
}
