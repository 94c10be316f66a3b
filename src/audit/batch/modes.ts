/**
 * The modes of a backend (`--audit-log-mode`, `--audit-webhook-mode`), as kube-apiserver's
 * `AuditBatchOptions.wrapBackend` applies them: `blocking-strict` hands events straight to the
 * backend, and its failure fails the request; `blocking` too, but failures are only counted;
 * `batch` queues them (buffered.ts).
 */
import type { AuditBackend } from '../backend.js';
import type { AuditEvent } from '../event.js';
import { BufferedBackend, type BatchConfig, type BufferedBackendOptions } from './buffered.js';

/** The modes, in kube-apiserver's order. */
export const AUDIT_MODES = ['batch', 'blocking', 'blocking-strict'] as const;

/** A backend mode. */
export type AuditMode = (typeof AUDIT_MODES)[number];

/** Blocking mode: the delegate's answer is waited for and then ignored. */
export class IgnoreErrorsBackend implements AuditBackend {
  readonly name: string;

  constructor(private readonly delegate: AuditBackend) {
    this.name = `ignoreErrors<${delegate.name}>`;
  }

  async processEvents(events: readonly AuditEvent[]): Promise<boolean> {
    await this.delegate.processEvents(events);
    return true;
  }

  shutdown(): Promise<void> {
    return this.delegate.shutdown();
  }
}

/** The backend in its mode. */
export function wrapInMode(delegate: AuditBackend, mode: AuditMode, batch: BatchConfig, options: BufferedBackendOptions = {}): AuditBackend {
  if (mode === 'blocking-strict') return delegate;
  if (mode === 'blocking') return new IgnoreErrorsBackend(delegate);
  return new BufferedBackend(delegate, batch, options);
}
