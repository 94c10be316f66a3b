/**
 * `waitFor`: waits until a condition holds on one object or on the objects a selector picks, as a
 * test of a controller needs ("the Deployment has 3 ready replicas"), with a timeout on the
 * cluster clock. It lists first (a condition that already holds answers at once), then watches from
 * the list's resourceVersion, so no change between the two is missed.
 */
import type { Clock } from '../clock.js';
import { ApiError, type Status } from '../machinery/errors.js';
import type { WatchStream } from '../machinery/request.js';
import type { KubeObject } from '../schema/define-kind.js';
import type { ClientListOptions, ClientWatchOptions, List } from './client.js';

/**
 * What `waitFor` needs of a resource client: a {@link ResourceClient}, or a typed helper's.
 * @category Testing
 */
export interface WaitableResource<T extends KubeObject> {
  /** Lists the objects, as {@link ResourceClient.list}. */
  list(options?: ClientListOptions): Promise<List<T>>;
  /** Watches the objects, as {@link ResourceClient.watch}. */
  watch(options?: ClientWatchOptions): Promise<WatchStream<T>>;
  /** The namespace the client is bound to. */
  readonly namespace?: string;
  /** The cluster clock; without it (and without `options.clock`) the timeout runs in real time. */
  readonly clock?: Clock;
}

/**
 * The objects a selector waits on.
 * @category Testing
 */
export interface WaitSelector {
  labelSelector?: string;
  fieldSelector?: string;
}

/**
 * Options of {@link waitFor}.
 * @category Testing
 */
export interface WaitForOptions {
  /**
   * How long to wait, in milliseconds of the cluster clock (30 s by default). On a clock that
   * follows real time (a cluster's default) the timeout also passes by itself; on a frozen clock
   * (`createCluster({ clock: new Date(...) })`) it passes only when the test advances the clock.
   */
  timeout?: number;
  /** The namespace to look in; default: the client's bound one; for a name, else `default`; for a selector, else all. */
  namespace?: string;
  /** A clock to measure the timeout on instead of the client's. */
  clock?: Clock;
}

/**
 * Rejects a {@link waitFor} whose condition did not hold in time.
 * @category Testing
 */
export class WaitTimeoutError extends Error {
  override readonly name = 'WaitTimeoutError';
  constructor(
    message: string,
    /** What the wait saw last: the objects it was looking at when it gave up. */
    readonly lastSeen: readonly KubeObject[],
  ) {
    super(message);
  }
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Waits until `predicate` holds for the object named `name` (`undefined` while it does not exist,
 * so a wait for a deletion is `(o) => o === undefined`); resolves with what the predicate saw.
 * @category Testing
 */
export function waitFor<T extends KubeObject>(
  resource: WaitableResource<T>,
  name: string,
  predicate: (object: T | undefined) => boolean,
  options?: WaitForOptions,
): Promise<T | undefined>;
/** Waits until `predicate` holds for the objects `selector` picks; resolves with them. */
export function waitFor<T extends KubeObject>(
  resource: WaitableResource<T>,
  selector: WaitSelector,
  predicate: (objects: T[]) => boolean,
  options?: WaitForOptions,
): Promise<T[]>;
export function waitFor<T extends KubeObject>(
  resource: WaitableResource<T>,
  target: string | WaitSelector,
  predicate: ((object: T | undefined) => boolean) | ((objects: T[]) => boolean),
  options: WaitForOptions = {},
): Promise<T | undefined | T[]> {
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeout) || timeout < 0)
    return Promise.reject(new RangeError(`waitFor: timeout ${timeout} is not a non-negative number of milliseconds`));
  if (typeof target === 'string' && target === '') return Promise.reject(new TypeError('waitFor: the name to wait for is empty'));
  const byName = typeof target === 'string';
  const namespace = options.namespace ?? resource.namespace ?? (byName ? 'default' : undefined);
  const selector: WaitSelector = byName ? { fieldSelector: `metadata.name=${target}` } : target;
  const seen = new Map<string, T>();
  const answer = () => (byName ? [...seen.values()][0] : [...seen.values()]);
  const holds = () => (byName ? (predicate as (o: T | undefined) => boolean)(answer() as T | undefined) : (predicate as (o: T[]) => boolean)(answer() as T[]));
  const what = byName ? `"${target}"` : `objects with ${describe(selector)}`;

  return new Promise((resolve, reject) => {
    let done = false;
    let stream: WatchStream<T> | undefined;
    // Assigned below; a timeout that is already over fires while the timer is being set up.
    let stopTimer: () => void = () => {};
    const finish = (error: unknown, value?: T | undefined | T[]) => {
      if (done) return;
      done = true;
      stopTimer();
      stream?.close();
      if (error !== undefined) reject(error);
      else resolve(value);
    };
    stopTimer = afterOnClock(options.clock ?? resource.clock, timeout, () =>
      finish(
        new WaitTimeoutError(`waitFor: ${what}${namespace ? ` in namespace "${namespace}"` : ''}: the condition did not hold within ${timeout} ms`, [
          ...seen.values(),
        ]),
      ),
    );
    const check = (): boolean => {
      if (!holds()) return false;
      finish(undefined, answer());
      return true;
    };

    const run = async () => {
      while (!done) {
        const list = await resource.list({ namespace, ...selector });
        if (done) return;
        seen.clear();
        for (const o of list.items) seen.set(keyOf(o), o);
        if (check()) return;
        stream = await resource.watch({ namespace, ...selector, resourceVersion: list.metadata.resourceVersion });
        if (done) return stream.close();
        for await (const event of stream) {
          if (event.type === 'BOOKMARK') continue;
          if (event.type === 'ERROR') {
            const status = event.object as unknown as Status;
            // 410 Gone: the resourceVersion fell out of the server's history; list again, as an informer does.
            if (status.code === 410) break;
            throw new ApiError(status);
          }
          if (event.type === 'DELETED') seen.delete(keyOf(event.object));
          else seen.set(keyOf(event.object), event.object);
          if (check()) return;
        }
        if (done) return; // finish() closed it
        stream.close();
        // The watch ended (expired, or the server let it go): list and watch again.
      }
    };
    run().catch((e: unknown) => finish(e));
  });
}

function keyOf(o: KubeObject): string {
  return `${o.metadata?.namespace ?? ''}/${o.metadata?.name ?? ''}`;
}

function describe(selector: WaitSelector): string {
  const parts = [selector.labelSelector && `labels "${selector.labelSelector}"`, selector.fieldSelector && `fields "${selector.fieldSelector}"`].filter(
    Boolean,
  );
  return parts.length ? parts.join(' and ') : 'any name';
}

/** A clock that can say when it was moved by hand (the cluster's). */
interface AdvancingClock extends Clock {
  readonly realTime?: boolean;
  onAdvance?(listener: (now: number) => void): () => void;
}

/**
 * Calls `fire` once `ms` have passed on `clock`: checked whenever the clock is advanced by hand, and
 * by a real timer when the clock follows real time (or cannot tell of its moves). Returns a function
 * that cancels it.
 */
export function afterOnClock(clock: AdvancingClock | undefined, ms: number, fire: () => void): () => void {
  const time: AdvancingClock = clock ?? { now: () => Date.now(), realTime: true };
  const deadline = time.now() + ms;
  const unsubscribe = typeof time.onAdvance === 'function' ? time.onAdvance(() => arm()) : undefined;
  const realTime = time.realTime !== false || unsubscribe === undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let fired = false;
  const cancel = () => {
    clearTimeout(timer);
    unsubscribe?.();
  };
  function arm(): void {
    if (fired) return;
    clearTimeout(timer);
    const left = deadline - time.now();
    if (left <= 0) {
      fired = true;
      cancel();
      fire();
    } else if (realTime) timer = setTimeout(arm, left);
  }
  arm();
  return cancel;
}
