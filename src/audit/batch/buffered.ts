/**
 * The batch mode of a backend (k8s.io/apiserver `plugin/pkg/audit/buffered`): events are queued
 * (at most `bufferSize` waiting; more are dropped and counted for the `buffered` plugin) and handed
 * to the delegate in batches of up to `maxBatchSize`: a batch goes as soon as that many are there,
 * or `maxBatchWait` after its first event came, each batch first taking a token of the throttle
 * when it is on. The webhook's batches are sent concurrently (`asyncDelegate`); the log's
 * one after another. `processEvents` never fails a request. `shutdown` sends what is queued, waits
 * for the batches under way, then shuts the delegate down.
 */
import type { AuditBackend } from '../backend.js';
import type { AuditEvent } from '../event.js';
import { IGNORE_AUDIT_ERRORS, type AuditErrorHandler } from '../log/plugin-error.js';
import { REAL_AUDIT_TIMERS, type AuditTimers } from './timers.js';
import { TokenBucket } from './token-bucket.js';

/** The plugin name the batching wrapper counts its drops under. */
export const BUFFERED_PLUGIN_NAME = 'buffered';

/** The batching settings (`pluginbuffered.BatchConfig`). */
export interface BatchConfig {
  readonly bufferSize: number;
  readonly maxBatchSize: number;
  /** Milliseconds. */
  readonly maxBatchWaitMs: number;
  readonly throttleEnable: boolean;
  readonly throttleQPS: number;
  readonly throttleBurst: number;
  /** Send batches without waiting for the previous one (the webhook); one at a time when false (the log). */
  readonly asyncDelegate: boolean;
}

/** The webhook's defaults: 10000 buffered, 400 a batch, 30 s, throttled at 10 QPS with a burst of 15. */
export const DEFAULT_WEBHOOK_BATCH_CONFIG: BatchConfig = {
  bufferSize: 10000,
  maxBatchSize: 400,
  maxBatchWaitMs: 30_000,
  throttleEnable: true,
  throttleQPS: 10,
  throttleBurst: 15,
  asyncDelegate: true,
};

/** The log's defaults: 10000 buffered, one event a batch, no wait, no throttle (nor its rates), written in order. */
export const DEFAULT_LOG_BATCH_CONFIG: BatchConfig = {
  bufferSize: 10000,
  maxBatchSize: 1,
  maxBatchWaitMs: 0,
  throttleEnable: false,
  throttleQPS: 0,
  throttleBurst: 0,
  asyncDelegate: false,
};

/** Options of the batching wrapper besides its settings. */
export interface BufferedBackendOptions {
  readonly timers?: AuditTimers;
  readonly onError?: AuditErrorHandler;
}

/** A backend that batches events for its delegate. */
export class BufferedBackend implements AuditBackend {
  readonly name: string;
  /** Events waiting to be collected (the Go channel). */
  private readonly queue: AuditEvent[] = [];
  /** The batch being collected, when collecting. */
  private batch: AuditEvent[] | undefined = [];
  private cancelTimer: (() => void) | undefined;
  private readonly throttle: TokenBucket | undefined;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly timers: AuditTimers;
  private readonly onError: AuditErrorHandler;
  private stopping = false;
  private drained: (() => void) | undefined;

  constructor(
    private readonly delegate: AuditBackend,
    private readonly config: BatchConfig,
    options: BufferedBackendOptions = {},
  ) {
    this.name = `${BUFFERED_PLUGIN_NAME}<${delegate.name}>`;
    this.timers = options.timers ?? REAL_AUDIT_TIMERS;
    this.onError = options.onError ?? IGNORE_AUDIT_ERRORS;
    this.throttle = config.throttleEnable ? new TokenBucket(config.throttleQPS, config.throttleBurst, this.timers.now()) : undefined;
  }

  processEvents(events: readonly AuditEvent[]): boolean {
    for (let i = 0; i < events.length; i++) {
      if (this.stopping) {
        this.onError(BUFFERED_PLUGIN_NAME, events.length - i, new Error('audit backend shut down'));
        return true;
      }
      // A copy: the caller may change its events after handing them over.
      const event = structuredClone(events[i]!) as AuditEvent;
      if (this.batch && this.batch.length < this.config.maxBatchSize) {
        this.batch.push(event);
        if (this.batch.length === 1 && !this.cancelTimer) this.armTimer();
        if (this.batch.length >= this.config.maxBatchSize) this.endBatch();
      } else if (this.queue.length < this.config.bufferSize) {
        this.queue.push(event);
      } else {
        this.onError(BUFFERED_PLUGIN_NAME, events.length - i, new Error('audit buffer queue blocked'));
        return true;
      }
    }
    return true;
  }

  async shutdown(): Promise<void> {
    if (!this.stopping) {
      this.stopping = true;
      const done = new Promise<void>((resolve) => (this.drained = resolve));
      // A batch being collected is sent now; the loop then drains the queue and finishes.
      if (this.batch) this.endBatch();
      await done;
      await Promise.all([...this.inFlight]);
      await this.delegate.shutdown();
    }
  }

  /** Events waiting, collected or not (for tests and gauges). */
  get pending(): number {
    return this.queue.length + (this.batch?.length ?? 0);
  }

  private armTimer(): void {
    this.cancelTimer = this.timers.after(this.config.maxBatchWaitMs, () => {
      this.cancelTimer = undefined;
      if (this.batch) this.endBatch();
    });
  }

  /** Stops collecting and sends the batch; collecting starts again once it is handed over. */
  private endBatch(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    const batch = this.batch ?? [];
    this.batch = undefined;
    void this.dispatch(batch).then(() => this.collect());
  }

  /** Starts the next batch from the queue; sends it at once if full, arms the wait if not empty. */
  private collect(): void {
    const next = this.queue.splice(0, this.config.maxBatchSize);
    this.batch = next;
    if (this.stopping) {
      if (next.length === 0) {
        this.batch = undefined;
        this.drained?.();
        return;
      }
      return this.endBatch();
    }
    if (next.length >= this.config.maxBatchSize) return this.endBatch();
    if (next.length > 0) this.armTimer();
    // An empty batch waits without a timer: the first event arms it (see processEvents).
  }

  /** Waits for a throttle token, then hands the batch over (and, for a synchronous delegate, waits for it). */
  private async dispatch(batch: AuditEvent[]): Promise<void> {
    if (batch.length === 0) return;
    const wait = this.throttle?.take(this.timers.now()) ?? 0;
    if (wait > 0) await new Promise<void>((resolve) => this.timers.after(wait, resolve));
    const sent = Promise.resolve()
      .then(() => this.delegate.processEvents(batch))
      .catch((e: unknown) => this.onError(this.delegate.name, batch.length, e instanceof Error ? e : new Error(String(e))));
    if (this.config.asyncDelegate) {
      this.inFlight.add(sent);
      void sent.finally(() => this.inFlight.delete(sent));
    } else {
      await sent;
    }
  }
}
