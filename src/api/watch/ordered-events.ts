/**
 * The events of one watch on their way into its channel, kept in the order their changes happened
 * when some objects take time to convert (a custom resource's conversion webhook): an event waits
 * behind every event sent before it, bookmarks and the end of the stream included, and the objects
 * of events that wait together are converted in one call (one ConversionReview). While nothing
 * waits, an event whose object converts at once goes straight into the channel, so a kind that
 * converts synchronously (or not at all) never queues anything.
 *
 * A conversion that fails ends the watch through `fail` after the events before it, as the API
 * server's watch ends with an ERROR event when it cannot decode an object; the events after it
 * are dropped.
 */
import type { WatchEvent } from '../../machinery/request.js';
import { isPromise, type MaybePromise } from '../../util/maybe-promise.js';
import type { WatchChannel } from './channel.js';

/** The types of the events that carry an object to convert. */
export type ObjectEventType = 'ADDED' | 'MODIFIED' | 'DELETED';

/** One waiting entry: an object still to convert, a ready event, or the end of the stream. */
type Waiting =
  | { readonly kind: 'object'; readonly type: ObjectEventType; readonly value: unknown; readonly bounded: boolean }
  | { readonly kind: 'event'; readonly event: WatchEvent; readonly bounded: boolean }
  | { readonly kind: 'end' };

/** How a watch converts the objects of its events (the kind's `present` and `presentAll` at its version). */
export interface EventConversion {
  one(value: unknown): MaybePromise<unknown>;
  many(values: unknown[]): MaybePromise<unknown[]>;
}

/** The ordered way into a {@link WatchChannel}; see the module comment. */
export class OrderedEvents {
  private waiting: Waiting[] = [];
  private head = 0;
  /** Live (bounded) object events waiting, counted with the channel's against its capacity. */
  private waitingLive = 0;
  private pumping = false;

  constructor(
    private readonly channel: WatchChannel,
    private readonly capacity: number,
    private readonly convert: EventConversion,
    private readonly fail: (error: unknown) => void,
  ) {}

  /** Whether nothing waits: the next event may go straight into the channel. */
  private get idle(): boolean {
    return !this.pumping && this.head === this.waiting.length;
  }

  /** An event about `value`, a stored object, converted; `bounded` as {@link WatchChannel.push}. */
  send(type: ObjectEventType, value: unknown, bounded: boolean): void {
    if (this.channel.closed) return;
    if (this.idle) {
      const object = this.convert.one(value);
      if (!isPromise(object)) {
        this.channel.push({ type, object }, bounded);
        return;
      }
      this.enqueue({ kind: 'object', type, value, bounded });
      void this.pump({ count: 1, converting: object.then((o) => [o]) });
      return;
    }
    this.enqueue({ kind: 'object', type, value, bounded });
  }

  /** Events about several stored objects (a watch's initial ADDED events), converted in one call. */
  sendAll(type: ObjectEventType, values: readonly unknown[], bounded: boolean): void {
    if (this.channel.closed || values.length === 0) return;
    if (this.idle) {
      const objects = this.convert.many([...values]);
      if (!isPromise(objects)) {
        for (const object of objects) this.channel.push({ type, object }, bounded);
        return;
      }
      for (const value of values) this.enqueue({ kind: 'object', type, value, bounded });
      void this.pump({ count: values.length, converting: objects });
      return;
    }
    for (const value of values) this.enqueue({ kind: 'object', type, value, bounded });
  }

  /** An event with nothing to convert (a BOOKMARK), after every event sent before it. */
  sendEvent(event: WatchEvent, bounded = true): void {
    if (this.channel.closed) return;
    if (this.idle) this.channel.push(event, bounded);
    else this.enqueue({ kind: 'event', event, bounded });
  }

  /** Ends the stream after every event sent before. */
  end(): void {
    if (this.idle) this.channel.end();
    else this.enqueue({ kind: 'end' });
  }

  private enqueue(entry: Waiting): void {
    if (entry.kind !== 'end' && entry.bounded) {
      // Waiting events count against the buffer like unread ones: a watcher whose events pile up
      // behind a slow conversion is cut off as one that does not read.
      if (this.channel.pendingLive + this.waitingLive >= this.capacity) {
        this.drop();
        this.channel.overflow();
        return;
      }
      if (entry.kind === 'object') this.waitingLive++;
    }
    this.waiting.push(entry);
  }

  /**
   * Moves waiting events into the channel in order, converting each run of object events in one
   * call; `first` is the conversion already under way for the first `count` waiting objects.
   */
  private async pump(first?: { count: number; converting: Promise<unknown[]> }): Promise<void> {
    this.pumping = true;
    try {
      while (this.head < this.waiting.length && !this.channel.closed) {
        const entry = this.waiting[this.head]!;
        if (entry.kind === 'end') {
          this.drop();
          this.channel.end();
          return;
        }
        if (entry.kind === 'event') {
          this.head++;
          this.channel.push(entry.event, entry.bounded);
          continue;
        }
        const run = first ? this.objectRun().slice(0, first.count) : this.objectRun();
        const converting = first ? first.converting : this.convert.many(run.map((e) => e.value));
        first = undefined;
        const objects = isPromise(converting) ? await converting : converting;
        if (this.channel.closed) return;
        for (let i = 0; i < run.length; i++) {
          const e = run[i]!;
          if (e.bounded) this.waitingLive--;
          this.channel.push({ type: e.type, object: objects[i] }, e.bounded);
        }
        this.head += run.length;
      }
    } catch (error) {
      this.drop();
      this.fail(error);
    } finally {
      // A conversion the closed stream no longer waits for must not fail unobserved.
      first?.converting.catch(() => undefined);
      this.pumping = false;
      if (this.head === this.waiting.length) this.drop();
    }
  }

  /** The object events at the head of the queue, up to the first entry of another kind. */
  private objectRun(): Extract<Waiting, { kind: 'object' }>[] {
    const run: Extract<Waiting, { kind: 'object' }>[] = [];
    for (let i = this.head; i < this.waiting.length; i++) {
      const e = this.waiting[i]!;
      if (e.kind !== 'object') break;
      run.push(e);
    }
    return run;
  }

  /** Forgets everything waiting. */
  private drop(): void {
    this.waiting = [];
    this.head = 0;
    this.waitingLive = 0;
  }
}
