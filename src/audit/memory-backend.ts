/**
 * An audit backend that keeps every event in memory, for tests: read `events`, `clear()` between
 * cases. It never refuses an event unless told to (`refuse`), which is how a test sees a
 * blocking-strict backend fail a request.
 */
import type { AuditBackend } from './backend.js';
import type { AuditEvent } from './event.js';

/**
 * Options of {@link createMemoryAuditBackend}.
 * @category Audit
 */
export interface MemoryAuditBackendOptions {
  /** The plugin name (`memory` by default). */
  name?: string;
  /**
   * Answers true for an event the backend refuses, as a blocking-strict backend that could not
   * write it (the event is not kept; refusing a RequestReceived event fails its request).
   */
  refuse?: (event: AuditEvent) => boolean;
}

/**
 * An in-memory audit backend.
 * @category Audit
 */
export interface MemoryAuditBackend extends AuditBackend {
  /** Every event received, in order. */
  readonly events: readonly AuditEvent[];
  /** Forgets the events received so far. */
  clear(): void;
  /** True once `shutdown()` was called (later events are dropped). */
  readonly closed: boolean;
}

/**
 * Creates an in-memory audit backend for `createCluster({ audit: { policy, backends: [backend] } })`.
 * @category Audit
 */
export function createMemoryAuditBackend(options: MemoryAuditBackendOptions = {}): MemoryAuditBackend {
  const events: AuditEvent[] = [];
  let closed = false;
  const refuse = options.refuse;
  return {
    name: options.name ?? 'memory',
    get events() {
      return events;
    },
    get closed() {
      return closed;
    },
    clear() {
      events.length = 0;
    },
    processEvents(batch) {
      if (closed) return true;
      let kept = true;
      for (const event of batch) {
        if (refuse?.(event)) kept = false;
        else events.push(event);
      }
      return kept;
    },
    shutdown() {
      closed = true;
      return Promise.resolve();
    },
  };
}
