/**
 * An undici dispatcher that answers requests with a Fetch handler instead of a socket: undici's
 * `fetch` (which `@kubernetes/client-node` 2.x uses for every call and watch) hands it each request,
 * and it streams the handler's `Response` back chunk by chunk. It is structural: memkube imports
 * nothing of undici.
 */

/**
 * A Fetch-standard handler, such as `cluster.fetch`.
 * @category HTTP and adapters
 */
export type FetchFunction = (request: Request) => Promise<Response>;

/** What undici's `fetch` passes to a dispatcher for one request (the fields read here). */
export interface DispatchOptions {
  readonly origin?: string | URL;
  readonly path: string;
  readonly method: string;
  readonly headers?: Record<string, string | string[] | undefined> | Iterable<[string, string]> | string[] | null;
  readonly body?: string | Uint8Array | AsyncIterable<Uint8Array | string> | Iterable<Uint8Array | string> | null;
}

/** The callbacks undici's `fetch` gives a dispatcher (its handler of the older, still served form). */
export interface DispatchHandler {
  onConnect?(abort: (reason?: unknown) => void): void;
  onResponseStarted?(): void;
  onHeaders?(status: number, rawHeaders: Buffer[], resume: () => void, statusText: string): boolean;
  onData?(chunk: Buffer): boolean;
  onComplete?(trailers: Buffer[] | null): void;
  onError?(error: Error): void;
}

/** The part of undici's `Dispatcher` its `fetch` calls. */
export interface FetchDispatcher {
  dispatch(options: DispatchOptions, handler: DispatchHandler): boolean;
}

/** Builds the dispatcher that serves every request with `handle`. */
export function createFetchDispatcher(handle: FetchFunction): FetchDispatcher {
  return {
    dispatch(options, handler) {
      void serve(handle, options, handler);
      return true;
    },
  };
}

function headersOf(raw: DispatchOptions['headers']): Headers {
  const headers = new Headers();
  if (!raw) return headers;
  if (Array.isArray(raw)) {
    // undici's flat form: name, value, name, value ...
    for (let i = 0; i + 1 < raw.length; i += 2) headers.append(String(raw[i]), String(raw[i + 1]));
  } else if (Symbol.iterator in raw) {
    for (const [name, value] of raw as Iterable<[string, string]>) headers.append(name, value);
  } else {
    for (const [name, value] of Object.entries(raw)) {
      if (value === undefined) continue;
      for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
    }
  }
  return headers;
}

/** The request body as one buffer: a client-node request body is JSON of known size. */
async function bodyOf(body: DispatchOptions['body']): Promise<Uint8Array | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return body;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

async function serve(handle: FetchFunction, options: DispatchOptions, handler: DispatchHandler): Promise<void> {
  const aborter = new AbortController();
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  let failed = false;
  let resumed: (() => void) | undefined;
  const fail = (reason: unknown) => {
    if (failed) return;
    failed = true;
    aborter.abort(reason);
    // Cancelling the body is what ends a watch on the cluster's side.
    reader?.cancel(reason).catch(() => undefined);
    resumed?.();
    handler.onError?.(reason instanceof Error ? reason : new Error(String(reason)));
  };
  handler.onConnect?.(fail);
  if (failed) return;
  try {
    const url = new URL(options.path, options.origin);
    const body = await bodyOf(options.body);
    const request = new Request(url, { method: options.method, headers: headersOf(options.headers), body: body ?? null, signal: aborter.signal });
    const response = await handle(request);
    if (failed) {
      await response.body?.cancel().catch(() => undefined);
      return;
    }
    handler.onResponseStarted?.();
    const rawHeaders: Buffer[] = [];
    response.headers.forEach((value, name) => rawHeaders.push(Buffer.from(name, 'latin1'), Buffer.from(value, 'latin1')));
    const resume = () => resumed?.();
    handler.onHeaders?.(response.status, rawHeaders, resume, response.statusText);
    if (response.body) {
      reader = response.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (failed) return;
        if (done) break;
        // false means the consumer is full: wait until it asks for more (undici's backpressure).
        if (handler.onData?.(Buffer.from(value.buffer, value.byteOffset, value.byteLength)) === false) {
          await new Promise<void>((r) => (resumed = r));
          resumed = undefined;
          if (failed) return;
        }
      }
    }
    handler.onComplete?.(null);
  } catch (e) {
    fail(e);
  }
}
