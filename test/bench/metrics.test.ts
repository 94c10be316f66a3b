import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { JsonLinesFileBackend, METADATA_POLICY } from '../../bench/audit-log.js';
import { costPerRequestMicros, costSummary } from '../../bench/request-cost.js';
import type { AuditEvent } from '../../src/audit/event.js';

describe('costPerRequestMicros', () => {
  it('answers per round the microseconds a request gains: 1e6 / ours - 1e6 / baseline', () => {
    // 8,000 req/s is 125 µs a request, 10,000 req/s 100 µs: 25 µs more.
    expect(costPerRequestMicros([8000, 10_000], [10_000, 10_000])).toEqual([25, 0]);
    expect(costSummary([8000, 10_000, 5000], [10_000, 10_000, 10_000])).toMatchObject({ n: 3, median: 25, min: 0, max: 100 });
  });

  it('goes negative when ours was the faster, and refuses unpaired rounds', () => {
    expect(costPerRequestMicros([20_000], [10_000])).toEqual([-50]);
    expect(() => costPerRequestMicros([1, 2], [1])).toThrow(/2 rounds of ours beside 1/);
  });
});

describe('the audit figures', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('audit every request at Metadata level', () => {
    expect(METADATA_POLICY).toEqual({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', rules: [{ level: 'Metadata' }] });
  });

  it('log one JSON line per event, in order, and nothing after shutdown', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memkube-bench-audit-test-'));
    dirs.push(dir);
    const backend = new JsonLinesFileBackend(join(dir, 'audit.log'));
    const event = (auditID: string) =>
      ({ kind: 'Event', apiVersion: 'audit.k8s.io/v1', level: 'Metadata', auditID, stage: 'ResponseComplete' }) as unknown as AuditEvent;
    expect(backend.name).toBe('log');
    expect(backend.processEvents([event('a'), event('b')])).toBe(true);
    expect(backend.processEvents([])).toBe(true);
    backend.processEvents([event('c')]);
    await backend.shutdown();
    backend.processEvents([event('late')]);
    await backend.shutdown();
    const lines = readFileSync(join(dir, 'audit.log'), 'utf8').trimEnd().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { auditID: string }).auditID)).toEqual(['a', 'b', 'c']);
  });
});
