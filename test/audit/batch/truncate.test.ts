/**
 * Truncation: an oversized event loses its objects (and says so) when its level recorded them, is
 * dropped and counted if still too large, and batches are split to fit the batch limit.
 */
import { describe, expect, it } from 'vitest';
import { auditEventSize, TruncateBackend } from '../../../src/audit/batch/truncate.js';
import { events, sampleEvent } from '../log/events.js';
import { recordingBackend } from './recording-backend.js';

describe('TruncateBackend', () => {
  const small = auditEventSize(sampleEvent({ auditID: 'id-0' }));

  it('passes events that fit unchanged, in one batch', async () => {
    const delegate = recordingBackend();
    const backend = new TruncateBackend(delegate, { maxEventSize: small, maxBatchSize: 10 * small });
    expect(backend.name).toBe('truncate<webhook>');
    expect(await backend.processEvents(events(3))).toBe(true);
    expect(delegate.batches).toEqual([['id-0', 'id-1', 'id-2']]);
  });

  it('splits batches whose JSON would pass the batch limit', async () => {
    const delegate = recordingBackend();
    const backend = new TruncateBackend(delegate, { maxEventSize: small, maxBatchSize: 2 * small + 1 });
    await backend.processEvents(events(5));
    expect(delegate.batches).toEqual([['id-0', 'id-1'], ['id-2', 'id-3'], ['id-4']]);
  });

  it('strips the request and response of an oversized Request-level event and annotates it', async () => {
    const seen: unknown[] = [];
    const delegate = recordingBackend();
    const wrapped = { ...delegate, processEvents: (evs: readonly unknown[]) => (seen.push(...evs), true) };
    const backend = new TruncateBackend(wrapped, { maxEventSize: small + 200, maxBatchSize: 10 * small });
    const big = sampleEvent({ level: 'RequestResponse', requestObject: { data: 'x'.repeat(5000) }, responseObject: { data: 'y'.repeat(5000) } });
    expect(await backend.processEvents([big])).toBe(true);
    const out = seen[0] as Record<string, unknown>;
    expect(out['requestObject']).toBeUndefined();
    expect(out['responseObject']).toBeUndefined();
    expect(out['annotations']).toEqual({ ...big.annotations, 'audit.k8s.io/truncated': 'true' });
    // The caller's event is left as it was.
    expect(big.requestObject).toBeDefined();
  });

  it('drops an event still too large, or a Metadata one it may not strip, and counts it for the truncate plugin', async () => {
    const delegate = recordingBackend();
    const errors: [string, number, string][] = [];
    const backend = new TruncateBackend(delegate, { maxEventSize: small, maxBatchSize: 10 * small }, { onError: (p, n, e) => errors.push([p, n, e.message]) });
    const huge = sampleEvent({ auditID: 'huge', level: 'Request', requestURI: `/${'a'.repeat(small)}` });
    const metadata = sampleEvent({ auditID: 'meta', annotations: { note: 'z'.repeat(small) } });
    await backend.processEvents([huge, sampleEvent({ auditID: 'ok' }), metadata]);
    expect(delegate.batches).toEqual([['ok']]);
    expect(errors).toEqual([['truncate', 2, 'event is too large even after truncating']]);
  });

  it("answers false when a delegate's batch failed", async () => {
    const backend = new TruncateBackend(recordingBackend('log', false), { maxEventSize: small, maxBatchSize: small });
    expect(await backend.processEvents(events(2))).toBe(false);
  });
});
