/**
 * One watch's stream of events: a bounded buffer between the hub (which pushes synchronously as
 * changes commit) and the consumer (an async iterator). A consumer that falls `capacity` live
 * events behind is cut off, as the API server closes a watcher that does not keep up: the stream
 * ends and its buffer is dropped, so memory never grows without bound.
 *
 * The events a watch starts with (the initial ADDED events, or the changes replayed from a
 * resourceVersion) are not live: the API server sends them straight to the client
 * (cache_watcher.go `processInterval`) and bounds only the channel live events go through, so
 * they never count against `capacity`, however many there are.
 */
import type { WatchEvent, WatchStream } from '../../machinery/request.js';

/** A {@link WatchStream} fed by the server. */
export class WatchChannel<T = unknown> implements WatchStream<T> {
  readonly done: Promise<void>;
  /**
   * Events from `head` to `tail` wait; the slots before `head` are cleared. Both go back to 0 once
   * the consumer caught up, so a consumer that keeps up reuses the same few slots for every event.
   */
  private buffer: WatchEvent<T>[] = [];
  /** Parallel to `buffer`: whether each event is live (counted against `capacity`). */
  private live: boolean[] = [];
  private head = 0;
  private tail = 0;
  /** Live events waiting for the consumer. */
  private livePending = 0;
  private ended = false;
  private released = false;
  private fellBehind = false;
  private wake: (() => void) | undefined;
  private resolveDone!: () => void;
  private readonly releaseHooks: (() => void)[] = [];
  private readonly takeHooks: (() => void)[] = [];

  constructor(private readonly capacity: number) {
    this.done = new Promise<void>((r) => (this.resolveDone = r));
  }

  /** Events waiting for the consumer. */
  get pending(): number {
    return this.tail - this.head;
  }

  /** Live events waiting for the consumer (what `capacity` bounds). */
  get pendingLive(): number {
    return this.livePending;
  }

  /** Whether the stream was closed because its consumer fell `capacity` events behind. */
  get overflowed(): boolean {
    return this.fellBehind;
  }

  /** Whether the stream has ended (no more events will be added). */
  get closed(): boolean {
    return this.ended;
  }

  /** Runs `hook` once when the stream ends, for whatever reason (unregistering, timers). */
  onRelease(hook: () => void): void {
    if (this.released) hook();
    else this.releaseHooks.push(hook);
  }

  /**
   * Adds an event; `bounded: false` for the events a watch starts with (initial or replayed) and
   * for a final ERROR, which the API server sends apart from its bounded channel. A live event
   * arriving while `capacity` live events are unread closes the watch.
   */
  push(event: WatchEvent<T>, bounded = true): void {
    if (this.ended) return;
    if (bounded) {
      if (this.livePending >= this.capacity) {
        this.overflow();
        return;
      }
      this.livePending++;
    }
    this.buffer[this.tail] = event;
    this.live[this.tail++] = bounded;
    this.notify();
  }

  /** Closes the watch as one whose consumer fell behind (its unread events are dropped). */
  overflow(): void {
    if (this.ended) return;
    this.fellBehind = true;
    this.close();
  }

  /** Ends the stream after the events already buffered (timeout, ERROR event). */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.release();
    this.notify();
  }

  /** Ends the stream at once, dropping whatever was not read. */
  close(): void {
    this.buffer = [];
    this.live = [];
    this.head = 0;
    this.tail = 0;
    this.livePending = 0;
    this.end();
  }

  /**
   * Runs `hook` each time the consumer takes an event (what a layer that counts the events handed
   * out needs, without an iterator and a promise of its own per event).
   */
  onTake(hook: () => void): void {
    this.takeHooks.push(hook);
  }

  [Symbol.asyncIterator](): AsyncIterator<WatchEvent<T>> {
    return this.reader((event) => event);
  }

  /**
   * An iterator over the events, each handed out as `map(event)` when the consumer takes it: a
   * layer that hands every reader its own form of an event (a copy) uses it instead of wrapping the
   * iterator, which would add a promise per event and reader.
   */
  reader<U>(map: (event: WatchEvent<T>) => U): AsyncIterator<U> {
    return {
      // An event already waiting is answered without an async function's extra promise.
      next: () => {
        if (this.head < this.tail) return Promise.resolve({ value: map(this.take()), done: false });
        if (this.ended) return Promise.resolve({ value: undefined, done: true });
        return this.nextAfterWait(map);
      },
      return: async () => {
        this.close();
        return { value: undefined, done: true };
      },
    };
  }

  private async nextAfterWait<U>(map: (event: WatchEvent<T>) => U): Promise<IteratorResult<U>> {
    for (;;) {
      await new Promise<void>((r) => (this.wake = r));
      if (this.head < this.tail) return { value: map(this.take()), done: false };
      if (this.ended) return { value: undefined, done: true };
    }
  }

  /** The event at `head`; the caller checked there is one. */
  private take(): WatchEvent<T> {
    const value = this.buffer[this.head]!;
    if (this.live[this.head]) this.livePending--;
    for (let i = 0; i < this.takeHooks.length; i++) this.takeHooks[i]!();
    this.buffer[this.head++] = undefined as unknown as WatchEvent<T>;
    if (this.head === this.tail) {
      // Caught up: start over in the same slots, unless a long start (initial events) grew them.
      if (this.tail > 1024) {
        this.buffer = [];
        this.live = [];
      }
      this.head = 0;
      this.tail = 0;
    } else if (this.head > 1024 && this.head * 2 > this.tail) {
      this.buffer = this.buffer.slice(this.head, this.tail);
      this.live = this.live.slice(this.head, this.tail);
      this.tail -= this.head;
      this.head = 0;
    }
    return value;
  }

  private notify(): void {
    const w = this.wake;
    this.wake = undefined;
    w?.();
  }

  private release(): void {
    if (this.released) return;
    this.released = true;
    for (const hook of this.releaseHooks.splice(0)) {
      try {
        hook();
      } catch {
        // Releasing must always finish.
      }
    }
    this.resolveDone();
  }
}
