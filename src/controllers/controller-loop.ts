/**
 * Built-in controllers and `settle()`. Controllers react to storage events; their work runs on a
 * queue drained asynchronously, so a test can `await cluster.settle()` to wait until nothing is
 * left to do instead of sleeping.
 */
import type { StorageEvent } from '../storage/storage.js';

/** A built-in controller: told of every change, does its work through the engine. */
export interface Controller {
  readonly name: string;
  /** Called for every committed change; returns keys of work to do (deduplicated while queued). */
  observe(event: StorageEvent): readonly string[];
  /** Does the work for one key. Errors are retried on the next settle. */
  reconcile(key: string): Promise<void>;
  /** Work to queue when the cluster's clock moves (e.g. expired grace periods). */
  onClock?(now: number): readonly string[];
}

interface Work {
  controller: Controller;
  key: string;
}

/** Runs controllers' work one item at a time, in order. */
export class ControllerLoop {
  private readonly queue: Work[] = [];
  private readonly queued = new Set<string>();
  private running: Promise<void> | undefined;
  private idleWaiters: (() => void)[] = [];
  private readonly failures = new Map<string, number>();
  private closed = false;

  constructor(private readonly controllers: readonly Controller[]) {}

  /** Feeds a storage event to every controller. */
  observe(event: StorageEvent): void {
    for (const c of this.controllers) for (const key of c.observe(event)) this.enqueue(c, key);
  }

  /** Lets controllers queue time-based work after the clock moved. */
  clockMoved(now: number): void {
    for (const c of this.controllers) for (const key of c.onClock?.(now) ?? []) this.enqueue(c, key);
  }

  enqueue(controller: Controller, key: string): void {
    if (this.closed) return;
    const id = `${controller.name}\u0000${key}`;
    if (this.queued.has(id)) return;
    this.queued.add(id);
    this.queue.push({ controller, key });
    this.running ??= this.drain();
  }

  /** Resolves when the queue is empty and no work is running. */
  async settle(): Promise<void> {
    // Let already-resolved writes deliver their events first.
    await new Promise<void>((r) => setImmediate(r));
    while (this.running) await this.running;
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.queued.clear();
  }

  private async drain(): Promise<void> {
    // Start on a later turn, so the write that queued the work answers first.
    await new Promise<void>((r) => setImmediate(r));
    try {
      while (this.queue.length) {
        const work = this.queue.shift()!;
        const id = `${work.controller.name}\u0000${work.key}`;
        this.queued.delete(id);
        try {
          await work.controller.reconcile(work.key);
          this.failures.delete(id);
        } catch {
          // Retry a failing item a few times (its state may change), then drop it until the next event.
          const n = (this.failures.get(id) ?? 0) + 1;
          this.failures.set(id, n);
          if (n < 5) this.enqueue(work.controller, work.key);
        }
      }
    } finally {
      this.running = undefined;
      for (const w of this.idleWaiters.splice(0)) w();
    }
  }
}
