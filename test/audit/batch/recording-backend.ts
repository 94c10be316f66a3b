/** A backend that records the batches it is given, optionally held until released. */
import type { AuditBackend } from '../../../src/audit/backend.js';
import type { AuditEvent } from '../../../src/audit/event.js';

export interface RecordingBackend extends AuditBackend {
  readonly batches: string[][];
  shutdowns: number;
  /** When set, each batch waits until `release()`. */
  hold: boolean;
  release(): void;
}

export function recordingBackend(name = 'webhook', answer = true): RecordingBackend {
  const waiting: (() => void)[] = [];
  const b: RecordingBackend = {
    name,
    batches: [],
    shutdowns: 0,
    hold: false,
    release() {
      for (const w of waiting.splice(0)) w();
    },
    processEvents(events: readonly AuditEvent[]) {
      b.batches.push(events.map((e) => e.auditID));
      if (!b.hold) return answer;
      return new Promise<boolean>((resolve) => waiting.push(() => resolve(answer)));
    },
    async shutdown() {
      b.shutdowns++;
    },
  };
  return b;
}

/** Lets queued promise callbacks run. */
export async function flushMicrotasks(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve();
}
