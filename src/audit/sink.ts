/**
 * The backends of a cluster as one sink (k8s.io/apiserver `pkg/audit/union.go`): every backend
 * gets every event; the sink keeps an event only if every backend did. A backend that throws or
 * rejects counts as one that could not keep the event, and its error is counted for its plugin.
 */
import type { AuditBackend, AuditBackendContext } from './backend.js';
import type { AuditEvent } from './event.js';

/** Hands events to backends; a promise only when some backend answered one. */
export type AuditSink = (events: readonly AuditEvent[]) => boolean | Promise<boolean>;

/** The sink of `backends`, which report their errors to `context`. */
export function unionSink(backends: readonly AuditBackend[], context: AuditBackendContext): AuditSink {
  for (const backend of backends) backend.attach?.(context);
  const failed = (backend: AuditBackend, events: readonly AuditEvent[], e: unknown) => {
    context.handlePluginError(backend.name, e, events);
    return false;
  };
  return (events) => {
    let kept = true;
    let pending: Promise<boolean>[] | undefined;
    for (const backend of backends) {
      let answer: boolean | Promise<boolean>;
      try {
        answer = backend.processEvents(events);
      } catch (e) {
        answer = failed(backend, events, e);
      }
      if (typeof answer === 'boolean') kept = answer && kept;
      else (pending ??= []).push(answer.then(Boolean, (e: unknown) => failed(backend, events, e)));
    }
    if (!pending) return kept;
    return Promise.all(pending).then((answers) => answers.every(Boolean) && kept);
  };
}
