/**
 * The log backend: JSON lines that parse back to the events, the legacy format, standard output,
 * and what a failed write does in each mode.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LogBackend } from '../../../src/audit/log/backend.js';
import { RotatingFile, STDOUT_AUDIT_LOG, type AuditLogWriter } from '../../../src/audit/log/rotating-file.js';
import { IgnoreErrorsBackend, wrapInMode } from '../../../src/audit/batch/modes.js';
import { DEFAULT_LOG_BATCH_CONFIG } from '../../../src/audit/batch/buffered.js';
import { events, sampleEvent } from './events.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  vi.restoreAllMocks();
});

/** A writer that keeps what it is given, or fails every write when `fail` is set. */
function memoryWriter(fail?: string): AuditLogWriter & { text: string } {
  return {
    text: '',
    write(t) {
      if (fail) throw new Error(fail);
      this.text += t;
    },
    close: async () => undefined,
  };
}

describe('LogBackend', () => {
  it('writes one JSON line per event to the file, which parse back to the events', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memkube-audit-backend-'));
    dirs.push(dir);
    const path = join(dir, 'audit.log');
    const backend = new LogBackend({ out: new RotatingFile({ path }) });
    const evs = events(3, { requestObject: { spec: { a: 1 } } });
    expect(backend.processEvents(evs)).toBe(true);
    await backend.shutdown();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines.pop()).toBe('');
    expect(lines.map((l) => JSON.parse(l) as unknown)).toEqual(evs);
  });

  it('writes the legacy line when asked', () => {
    const out = memoryWriter();
    new LogBackend({ out, format: 'legacy' }).processEvents([sampleEvent()]);
    expect(out.text).toMatch(/^2026-12-02T01:02:03\.456Z AUDIT: id="0b5e2f46-1d6c-4c8f-9a52-3f1f3e1d2a10" stage="ResponseComplete" .* response="200"\n$/);
  });

  it('writes to standard output for --audit-log-path -', async () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const backend = new LogBackend({ out: STDOUT_AUDIT_LOG });
    backend.processEvents([sampleEvent()]);
    await backend.shutdown();
    vi.restoreAllMocks();
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0]!)).toEqual(sampleEvent());
  });

  it('answers false and counts each event it could not write for the log plugin', () => {
    const errors: [string, number, string][] = [];
    const backend = new LogBackend({ out: memoryWriter('write audit.log: no space left on device'), onError: (p, n, e) => errors.push([p, n, e.message]) });
    expect(backend.processEvents(events(2))).toBe(false);
    expect(errors).toEqual([
      ['log', 1, 'write audit.log: no space left on device'],
      ['log', 1, 'write audit.log: no space left on device'],
    ]);
  });

  it('fails the call in blocking-strict mode only; blocking mode counts the failure and answers true', async () => {
    const count = { n: 0 };
    const failing = () => new LogBackend({ out: memoryWriter('disk full'), onError: (_p, n) => (count.n += n) });
    const strict = wrapInMode(failing(), 'blocking-strict', DEFAULT_LOG_BATCH_CONFIG);
    const blocking = wrapInMode(failing(), 'blocking', DEFAULT_LOG_BATCH_CONFIG);
    expect(blocking).toBeInstanceOf(IgnoreErrorsBackend);
    expect(blocking.name).toBe('ignoreErrors<log>');
    expect(await strict.processEvents([sampleEvent()])).toBe(false);
    expect(await blocking.processEvents([sampleEvent()])).toBe(true);
    expect(count.n).toBe(2);
  });

  it('in batch mode writes the events one by one, in order, and all of them by the end of shutdown', async () => {
    const out = memoryWriter();
    const batched = wrapInMode(new LogBackend({ out }), 'batch', DEFAULT_LOG_BATCH_CONFIG);
    expect(batched.name).toBe('buffered<log>');
    expect(await batched.processEvents(events(50))).toBe(true);
    await batched.shutdown();
    expect(
      out.text
        .trimEnd()
        .split('\n')
        .map((l) => (JSON.parse(l) as { auditID: string }).auditID),
    ).toEqual(events(50).map((e) => e.auditID));
  });

  it('drops and counts events after shutdown', async () => {
    const out = memoryWriter();
    const errors: number[] = [];
    const backend = new LogBackend({ out, onError: (_p, n) => errors.push(n) });
    await backend.shutdown();
    expect(backend.processEvents([sampleEvent()])).toBe(false);
    expect(out.text).toBe('');
    expect(errors).toEqual([1]);
  });
});
