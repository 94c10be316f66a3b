/**
 * Batch mode on a manual clock: batches of the maximum size at once, smaller ones after the wait,
 * the buffer's bound, the throttle's token bucket, one batch at a time for the log, and shutdown.
 */
import { describe, expect, it } from 'vitest';
import { BufferedBackend, DEFAULT_WEBHOOK_BATCH_CONFIG, type BatchConfig } from '../../../src/audit/batch/buffered.js';
import { ManualAuditTimers } from '../../../src/audit/batch/timers.js';
import { TokenBucket } from '../../../src/audit/batch/token-bucket.js';
import { events } from '../log/events.js';
import { flushMicrotasks, recordingBackend } from './recording-backend.js';

const config = (c: Partial<BatchConfig> = {}): BatchConfig => ({ ...DEFAULT_WEBHOOK_BATCH_CONFIG, throttleEnable: false, ...c });

function setup(c: Partial<BatchConfig> = {}) {
  const timers = new ManualAuditTimers();
  const delegate = recordingBackend();
  const errors: [string, number, string][] = [];
  const backend = new BufferedBackend(delegate, config(c), { timers, onError: (p, n, e) => errors.push([p, n, e.message]) });
  return { timers, delegate, errors, backend };
}

describe('BufferedBackend', () => {
  it('is named after its delegate and never fails a request', () => {
    const { backend } = setup();
    expect(backend.name).toBe('buffered<webhook>');
    expect(backend.processEvents(events(1))).toBe(true);
  });

  it('sends a batch as soon as it reaches the maximum size', async () => {
    const { backend, delegate } = setup({ maxBatchSize: 3 });
    backend.processEvents(events(7));
    await flushMicrotasks();
    expect(delegate.batches).toEqual([
      ['id-0', 'id-1', 'id-2'],
      ['id-3', 'id-4', 'id-5'],
    ]);
    expect(backend.pending).toBe(1);
  });

  it('sends a smaller batch when the maximum wait has passed, and not before', async () => {
    const { backend, delegate, timers } = setup({ maxBatchSize: 400, maxBatchWaitMs: 30_000 });
    backend.processEvents(events(2));
    timers.advance(29_999);
    await flushMicrotasks();
    expect(delegate.batches).toEqual([]);
    timers.advance(1);
    await flushMicrotasks();
    expect(delegate.batches).toEqual([['id-0', 'id-1']]);
    // Idle, no timer is kept running.
    expect(timers.waiting).toBe(0);
  });

  it('copies the events it is given', async () => {
    const { backend, delegate } = setup({ maxBatchSize: 1 });
    const evs = events(1);
    backend.processEvents(evs);
    evs[0]!.auditID = 'changed';
    await flushMicrotasks();
    expect(delegate.batches).toEqual([['id-0']]);
  });

  it('drops events beyond the buffer size and counts them for the buffered plugin', async () => {
    const { backend, delegate, errors } = setup({ maxBatchSize: 2, bufferSize: 3, asyncDelegate: false });
    delegate.hold = true;
    // Two go out and are held; three wait in the buffer; the rest find it full.
    backend.processEvents(events(2));
    await flushMicrotasks();
    expect(backend.processEvents(events(7).slice(2))).toBe(true);
    expect(errors).toEqual([['buffered', 2, 'audit buffer queue blocked']]);
    delegate.release();
    await flushMicrotasks();
    expect(delegate.batches.slice(0, 2)).toEqual([
      ['id-0', 'id-1'],
      ['id-2', 'id-3'],
    ]);
  });

  it('sends one batch at a time to a synchronous delegate, concurrently to an asynchronous one', async () => {
    const sync = setup({ maxBatchSize: 1, asyncDelegate: false });
    sync.delegate.hold = true;
    sync.backend.processEvents(events(3));
    await flushMicrotasks();
    expect(sync.delegate.batches).toEqual([['id-0']]);
    sync.delegate.release();
    await flushMicrotasks();
    expect(sync.delegate.batches).toEqual([['id-0'], ['id-1']]);

    const async = setup({ maxBatchSize: 1, asyncDelegate: true });
    async.delegate.hold = true;
    async.backend.processEvents(events(3));
    await flushMicrotasks();
    expect(async.delegate.batches).toEqual([['id-0'], ['id-1'], ['id-2']]);
  });

  it('throttles batches: a burst at once, then qps a second', async () => {
    const { backend, delegate, timers } = setup({ maxBatchSize: 1, throttleEnable: true, throttleQPS: 2, throttleBurst: 3 });
    backend.processEvents(events(6));
    await flushMicrotasks();
    expect(delegate.batches).toHaveLength(3);
    timers.advance(499);
    await flushMicrotasks();
    expect(delegate.batches).toHaveLength(3);
    timers.advance(1);
    await flushMicrotasks();
    expect(delegate.batches).toHaveLength(4);
    timers.advance(1000);
    await flushMicrotasks();
    expect(delegate.batches.flat()).toEqual(['id-0', 'id-1', 'id-2', 'id-3', 'id-4', 'id-5']);
  });

  it('sends everything queued on shutdown, waits for it, shuts the delegate down, then drops new events', async () => {
    const { backend, delegate, errors } = setup({ maxBatchSize: 2, maxBatchWaitMs: 30_000 });
    backend.processEvents(events(5));
    await backend.shutdown();
    expect(delegate.batches.flat()).toEqual(['id-0', 'id-1', 'id-2', 'id-3', 'id-4']);
    expect(delegate.shutdowns).toBe(1);
    backend.processEvents(events(2));
    expect(errors).toEqual([['buffered', 2, 'audit backend shut down']]);
    await backend.shutdown();
    expect(delegate.shutdowns).toBe(1);
  });

  it('counts a batch its delegate threw on for the delegate', async () => {
    const timers = new ManualAuditTimers();
    const errors: [string, number][] = [];
    const backend = new BufferedBackend(
      { name: 'webhook', processEvents: () => Promise.reject(new Error('boom')), shutdown: async () => undefined },
      config({ maxBatchSize: 2 }),
      { timers, onError: (p, n) => errors.push([p, n]) },
    );
    backend.processEvents(events(2));
    await flushMicrotasks();
    expect(errors).toEqual([['webhook', 2]]);
  });
});

describe('TokenBucket', () => {
  it('starts full, refills at qps up to the burst, and owes tokens it has not got', () => {
    const bucket = new TokenBucket(10, 2, 0);
    expect([bucket.take(0), bucket.take(0), bucket.take(0), bucket.take(0)]).toEqual([0, 0, 100, 200]);
    // Long idle refills to the burst only.
    const idle = new TokenBucket(10, 2, 0);
    expect([idle.take(10_000), idle.take(10_000), idle.take(10_000)]).toEqual([0, 0, 100]);
  });
});
