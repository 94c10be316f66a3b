/**
 * Making {@link StreamedBody} values: over any source of chunks, or empty (a pod not yet on a node
 * has no log to stream).
 */
import type { StreamedBody } from './request.js';

/**
 * What a streamed body is made of.
 * @category Defining kinds
 */
export interface StreamedBodySource {
  /** The chunks, in order. Errors after `cancel()` are swallowed: the stream just ends. */
  readonly chunks: AsyncIterable<Uint8Array>;
  /** Releases the source (aborts the request that feeds it). Called at most once. */
  readonly release?: () => void;
  readonly contentType?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * A {@link StreamedBody} over `source`. It can be iterated once; iterating to the end, breaking out
 * of the loop or `cancel()` releases the source. A source that fails midway ends the stream, as
 * kube-apiserver's `io.Copy` of a log stops at the first read error.
 * @category Defining kinds
 */
export function streamedBody(source: StreamedBodySource): StreamedBody {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    source.release?.();
  };
  async function* chunks(): AsyncGenerator<Uint8Array> {
    try {
      for await (const chunk of source.chunks) {
        if (released) return;
        yield chunk;
      }
    } catch {
      // A reset midway or the cancel's abort: the stream ends where it is.
    } finally {
      release();
    }
  }
  const iterator = chunks();
  return {
    streamed: true,
    ...(source.contentType !== undefined ? { contentType: source.contentType } : {}),
    ...(source.headers !== undefined ? { headers: source.headers } : {}),
    cancel() {
      release();
      void iterator.return(undefined);
    },
    [Symbol.asyncIterator]: () => iterator,
  };
}

/** A streamed body with no bytes. */
export function emptyStreamedBody(contentType?: string): StreamedBody {
  return streamedBody({ chunks: (async function* () {})(), contentType });
}

/**
 * Every chunk of a streamed body as one byte array (tests, small answers).
 * @category Defining kinds
 */
export async function readStreamedBody(body: StreamedBody): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const chunk of body) parts.push(chunk);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
