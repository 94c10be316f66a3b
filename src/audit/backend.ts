/**
 * Where audit events go (k8s.io/apiserver `pkg/audit` Backend): the log file, a webhook, or memory.
 * A backend may buffer (batch mode) or write before it returns (blocking modes).
 */
import type { AuditEvent } from './event.js';

/** A sink of audit events. */
export interface AuditBackend {
  /** The plugin's name (`log`, `webhook`, `buffered<log>`, ...): the `plugin` label of `apiserver_audit_error_total`. */
  readonly name: string;
  /**
   * Takes events, in order. Resolves false when some could not be kept and the backend is strict
   * about it (blocking-strict mode): a request whose RequestReceived event is refused then fails.
   */
  processEvents(events: readonly AuditEvent[]): boolean | Promise<boolean>;
  /** Writes what is buffered and stops; later events are dropped. */
  shutdown(): Promise<void>;
}
