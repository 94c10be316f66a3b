/**
 * The log backend (k8s.io/apiserver `plugin/pkg/audit/log`): each event one line, JSON
 * (`--audit-log-format json`, the default) or the legacy one-line text, written before
 * `processEvents` returns. A line that cannot be written is counted for the `log` plugin and makes
 * the call answer false, which only blocking-strict mode passes on.
 */
import type { AuditBackend } from '../backend.js';
import type { AuditEvent } from '../event.js';
import { IGNORE_AUDIT_ERRORS, type AuditErrorHandler } from './plugin-error.js';
import { auditJsonLine, auditLegacyLine } from './encode.js';
import type { AuditLogWriter } from './rotating-file.js';

/** The log formats (`--audit-log-format`). */
export const AUDIT_LOG_FORMATS = ['legacy', 'json'] as const;

/** A log format. */
export type AuditLogFormat = (typeof AUDIT_LOG_FORMATS)[number];

/** The plugin name of the log backend, in error counts and flag names. */
export const LOG_PLUGIN_NAME = 'log';

/** How to make a log backend. */
export interface LogBackendOptions {
  readonly out: AuditLogWriter;
  readonly format?: AuditLogFormat;
  /** Told of each event that could not be written. */
  readonly onError?: AuditErrorHandler;
}

/** Writes events as lines to a file or standard output. */
export class LogBackend implements AuditBackend {
  readonly name = LOG_PLUGIN_NAME;
  private readonly line: (e: AuditEvent) => string;
  private readonly onError: AuditErrorHandler;
  private stopped = false;

  constructor(private readonly options: LogBackendOptions) {
    this.line = (options.format ?? 'json') === 'legacy' ? auditLegacyLine : auditJsonLine;
    this.onError = options.onError ?? IGNORE_AUDIT_ERRORS;
  }

  processEvents(events: readonly AuditEvent[]): boolean {
    let ok = true;
    for (const event of events) {
      try {
        if (this.stopped) throw new Error('audit log backend shut down');
        this.options.out.write(this.line(event));
      } catch (e) {
        this.onError(this.name, 1, e instanceof Error ? e : new Error(String(e)));
        ok = false;
      }
    }
    return ok;
  }

  async shutdown(): Promise<void> {
    this.stopped = true;
    await this.options.out.close();
  }
}
