/**
 * Truncation (k8s.io/apiserver `plugin/pkg/audit/truncate`, `--audit-*-truncate-*`): an event whose
 * JSON is larger than `maxEventSize` loses its request and response objects (and is annotated
 * `audit.k8s.io/truncated: "true"`) when its level recorded them, and is dropped, counted for the
 * `truncate` plugin, if still too large; the events are passed on in batches whose JSON adds up
 * to at most `maxBatchSize`.
 */
import { AUDIT_LEVELS, type AuditEvent } from '../event.js';
import type { AuditBackend } from '../backend.js';
import { auditJsonLine } from '../log/encode.js';
import { IGNORE_AUDIT_ERRORS, type AuditErrorHandler } from '../log/plugin-error.js';

/** The plugin name truncation counts its drops under. */
export const TRUNCATE_PLUGIN_NAME = 'truncate';

/** The annotation of an event that lost its objects. */
export const TRUNCATED_ANNOTATION = 'audit.k8s.io/truncated';

/** The truncation limits, in bytes. */
export interface TruncateConfig {
  readonly maxEventSize: number;
  readonly maxBatchSize: number;
}

/** The defaults of the flags: 100 KiB an event, 10 MiB a batch. */
export const DEFAULT_TRUNCATE_CONFIG: TruncateConfig = { maxEventSize: 100 * 1024, maxBatchSize: 10 * 1024 * 1024 };

/** The size of an event as the encoder writes it (its JSON and the newline). */
export function auditEventSize(e: AuditEvent): number {
  return Buffer.byteLength(auditJsonLine(e), 'utf8');
}

/** The event without its request and response objects, marked as truncated. */
function withoutObjects(e: AuditEvent): AuditEvent {
  const { requestObject: _req, responseObject: _res, ...rest } = e;
  return { ...rest, annotations: { ...e.annotations, [TRUNCATED_ANNOTATION]: 'true' } };
}

/** A backend that truncates and splits for its delegate. */
export class TruncateBackend implements AuditBackend {
  readonly name: string;
  private readonly onError: AuditErrorHandler;

  constructor(
    private readonly delegate: AuditBackend,
    private readonly config: TruncateConfig,
    options: { readonly onError?: AuditErrorHandler } = {},
  ) {
    this.name = `${TRUNCATE_PLUGIN_NAME}<${delegate.name}>`;
    this.onError = options.onError ?? IGNORE_AUDIT_ERRORS;
  }

  async processEvents(events: readonly AuditEvent[]): Promise<boolean> {
    let ok = true;
    let batch: AuditEvent[] = [];
    let batchSize = 0;
    let dropped = 0;
    for (let event of events) {
      let size = auditEventSize(event);
      if (size > this.config.maxEventSize && AUDIT_LEVELS.indexOf(event.level) >= AUDIT_LEVELS.indexOf('Request')) {
        event = withoutObjects(event);
        size = auditEventSize(event);
      }
      if (size > this.config.maxEventSize) {
        dropped++;
        continue;
      }
      if (batch.length > 0 && batchSize + size > this.config.maxBatchSize) {
        ok = (await this.delegate.processEvents(batch)) && ok;
        batch = [];
        batchSize = 0;
      }
      batchSize += size;
      batch.push(event);
    }
    if (batch.length > 0) ok = (await this.delegate.processEvents(batch)) && ok;
    if (dropped > 0) this.onError(TRUNCATE_PLUGIN_NAME, dropped, new Error('event is too large even after truncating'));
    return ok;
  }

  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }
}
