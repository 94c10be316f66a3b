/**
 * Finished resource requests of an HTTP door, kept as they ended until they are recorded in one
 * pass: when the batch is full, and before every read of the metrics. Working out the labels of
 * many requests in a row finds that code and its lookup tables in the CPU's caches; one request at
 * a time, after everything else the request ran, finds them evicted, and pays several times over.
 */
import type { ResourceRoute } from './routes.js';

/** How many finished requests wait at most before they are recorded. */
export const FINISHED_REQUESTS_BATCH = 64;

/** What the door knew of one finished request, as {@link FinishedRequests} hands it back. */
export interface FinishedRequest {
  readonly route: ResourceRoute;
  readonly method: string;
  /** The URL's query string (`?watch=true`), as the door read it. */
  readonly search: string;
  /** The request's Content-Type for a PATCH (what tells an apply), undefined otherwise. */
  readonly contentType: string | undefined;
  readonly status: number;
  readonly seconds: number;
  /** The answer's size in bytes, undefined when it streamed. */
  readonly bytes: number | undefined;
}

/**
 * A fixed-size batch of finished requests in parallel arrays (nothing allocated per request),
 * recorded by `record` in the order they finished.
 */
export class FinishedRequests {
  private readonly routes: ResourceRoute[] = [];
  private readonly methods: string[] = [];
  private readonly searches: string[] = [];
  private readonly contentTypes: (string | undefined)[] = [];
  private readonly statuses = new Uint16Array(FINISHED_REQUESTS_BATCH);
  private readonly seconds = new Float64Array(FINISHED_REQUESTS_BATCH);
  /** −1 for an answer of unknown size. */
  private readonly bytes = new Float64Array(FINISHED_REQUESTS_BATCH);
  private size = 0;

  constructor(private readonly record: (request: FinishedRequest) => void) {}

  /** Keeps one finished request; records the whole batch once it is full. */
  add(route: ResourceRoute, method: string, search: string, contentType: string | undefined, status: number, seconds: number, bytes: number | undefined): void {
    const i = this.size;
    this.routes[i] = route;
    this.methods[i] = method;
    this.searches[i] = search;
    this.contentTypes[i] = contentType;
    this.statuses[i] = status;
    this.seconds[i] = seconds;
    this.bytes[i] = bytes ?? -1;
    this.size = i + 1;
    if (this.size === FINISHED_REQUESTS_BATCH) this.drain();
  }

  /** Records every request kept so far. */
  drain(): void {
    const size = this.size;
    // Emptied first: a record that throws must not make the next drain record the same requests again.
    this.size = 0;
    for (let i = 0; i < size; i++) {
      const bytes = this.bytes[i]!;
      this.record({
        route: this.routes[i]!,
        method: this.methods[i]!,
        search: this.searches[i]!,
        contentType: this.contentTypes[i],
        status: this.statuses[i]!,
        seconds: this.seconds[i]!,
        bytes: bytes < 0 ? undefined : bytes,
      });
    }
  }

  /** How many requests wait to be recorded. */
  get pending(): number {
    return this.size;
  }
}
