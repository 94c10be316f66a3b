/**
 * Built-in controllers and `settle()`. Controllers react to storage events; their work runs on a
 * queue drained asynchronously, so a test can `await cluster.settle()` to wait until nothing is
 * left to do instead of sleeping.
 */
import type { StorageEvent, StoredObject } from '../storage/storage.js';

/**
 * A whole stored state a cluster starts from (a snapshot's): its objects by bucket, then by
 * storage key. Never changed once handed over, so a controller may keep it and read it later.
 */
export interface StartingState {
  readonly revision: number;
  readonly buckets: ReadonlyMap<string, { readonly objects: ReadonlyMap<string, StoredObject> }>;
}

/** How a cluster starts from a {@link StartingState}. */
export interface StartOptions {
  /**
   * The state is one the same controllers had finished with: a fork of a cluster whose controllers
   * had nothing left to do (nothing queued, running or waiting) when it was taken. The work an
   * informer's first list queues would then find nothing to do, and a controller that
   * {@link Controller.keepsOnlyObserved} is told of the objects without queuing it.
   */
  readonly settled?: boolean;
}

/** A built-in controller: told of every change, does its work through the engine. */
export interface Controller {
  readonly name: string;
  /** Called for every committed change; returns keys of work to do (deduplicated while queued). */
  observe(event: StorageEvent): readonly string[];
  /** Does the work for one key. Errors are retried on the next settle. */
  reconcile(key: string): Promise<void>;
  /** Work to queue when the cluster's clock moves (e.g. expired grace periods). */
  onClock?(now: number): readonly string[];
  /**
   * How long (real time, in ms) a key returned by `observe` waits before it is worked on; at once
   * when absent or 0. `settle()` does waiting work at once, so tests never wait for it.
   */
  delayFor?(key: string): number;
  /**
   * Whether an ADDED event of `bucket` can give it work or change what it keeps. A cluster starting
   * from a snapshot tells it of the objects of these buckets only, as ADDED events (of every
   * bucket when absent), so a fork of a large store does not walk every object for every controller.
   */
  addsFrom?(bucket: string): boolean;
  /**
   * Told of a whole starting state at once, instead of an ADDED event per object (and instead of
   * `addsFrom`); answers its work (which it need not look for when its work is skipped: see
   * {@link Controller.keepsOnlyObserved}). For a controller that keeps something of every object.
   */
  start?(state: StartingState, options: StartOptions): readonly string[];
  /**
   * True when its `reconcile` keeps nothing of its own (whatever it keeps comes from `observe` or
   * `start`): starting from a settled state (see {@link StartOptions.settled}) it is not given the
   * work its start would queue. A controller that learns something in `reconcile` (what it serves,
   * which namespaces are terminating) must do that work in every new cluster, and leaves this unset.
   */
  readonly keepsOnlyObserved?: boolean;
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
  /** Work waiting for its delay, by work id. */
  private readonly delayed = new Map<string, { work: Work; timer: ReturnType<typeof setTimeout> }>();
  private closed = false;

  constructor(private readonly controllers: readonly Controller[]) {}

  /** Feeds a storage event to every controller. */
  observe(event: StorageEvent): void {
    for (const c of this.controllers) this.queueAll(c, c.observe(event));
  }

  /**
   * Tells every controller of the state a cluster starts from, as the ADDED events of an informer's
   * first list would: through `start`, or the objects of the buckets it `addsFrom`.
   */
  start(state: StartingState, options: StartOptions = {}): void {
    const skips = (c: Controller) => options.settled === true && c.keepsOnlyObserved === true;
    for (const c of this.controllers) {
      if (!c.start) continue;
      const work = c.start(state, options);
      if (!skips(c)) this.queueAll(c, work);
    }
    // Object by object, as the events of a restore come, so the work is queued in the same order.
    for (const [bucket, { objects }] of state.buckets) {
      const told = this.controllers.filter((c) => !c.start && (c.addsFrom?.(bucket) ?? true));
      if (told.length === 0) continue;
      for (const { namespace, name, value } of objects.values()) {
        const event: StorageEvent = { type: 'ADDED', bucket, namespace, name, revision: state.revision, object: value };
        for (const c of told) {
          const work = c.observe(event);
          if (!skips(c)) this.queueAll(c, work);
        }
      }
    }
  }

  /** Whether nothing is queued, running or waiting for its delay. */
  get idle(): boolean {
    return this.running === undefined && this.queue.length === 0 && this.delayed.size === 0;
  }

  private queueAll(c: Controller, keys: readonly string[]): void {
    for (const key of keys) {
      const delay = c.delayFor?.(key) ?? 0;
      if (delay > 0) this.enqueueAfter(c, key, delay);
      else this.enqueue(c, key);
    }
  }

  /** Queues work after `delayMs` of real time (once: a key already waiting keeps its time). */
  enqueueAfter(controller: Controller, key: string, delayMs: number): void {
    if (this.closed) return;
    const id = `${controller.name}\u0000${key}`;
    if (this.delayed.has(id) || this.queued.has(id)) return;
    const timer = setTimeout(() => {
      this.delayed.delete(id);
      this.enqueue(controller, key);
    }, delayMs);
    // A waiting namespace deletion must not keep a process alive.
    timer.unref?.();
    this.delayed.set(id, { work: { controller, key }, timer });
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
    for (;;) {
      this.startDelayedNow();
      if (!this.running) return;
      while (this.running) await this.running;
    }
  }

  close(): void {
    this.closed = true;
    this.queue.length = 0;
    this.queued.clear();
    for (const { timer } of this.delayed.values()) clearTimeout(timer);
    this.delayed.clear();
  }

  /** Moves every waiting item into the queue without waiting for its delay. */
  private startDelayedNow(): void {
    for (const [id, { work, timer }] of [...this.delayed]) {
      clearTimeout(timer);
      this.delayed.delete(id);
      this.enqueue(work.controller, work.key);
    }
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
