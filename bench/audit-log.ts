/**
 * What the audit figures audit with: a policy putting every request at Metadata level, and a log of
 * one JSON line per event written before the request goes on, as kube-apiserver's log backend does
 * in its default blocking mode (`--audit-log-mode=blocking`).
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import type { AuditBackend } from '../src/audit/backend.js';
import type { AuditEvent } from '../src/audit/event.js';

/** The audit policy of the audit figures: every request at Metadata level. */
export const METADATA_POLICY = { apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'Metadata' }] } as const;

/** Appends each event to `path` as one JSON line, synchronously. */
export class JsonLinesFileBackend implements AuditBackend {
  readonly name = 'log';
  private readonly fd: number;
  private closed = false;

  constructor(path: string) {
    this.fd = openSync(path, 'a');
  }

  processEvents(events: readonly AuditEvent[]): boolean {
    if (this.closed || events.length === 0) return true;
    writeSync(this.fd, events.map((e) => `${JSON.stringify(e)}\n`).join(''));
    return true;
  }

  async shutdown(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }
}
