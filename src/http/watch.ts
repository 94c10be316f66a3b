/**
 * Watch streams over HTTP: one JSON `WatchEvent` per line, flushed per event; the response's
 * headers go out before the first event. Cancelling the body (the client went away) closes the
 * engine's WatchStream; a WatchStream the engine closed because the client fell behind errors the
 * body (a {@link WatchOverflowError}), so the transport drops the connection instead of waiting
 * for a client that does not read.
 */
import type { WatchEvent, WatchStream } from '../machinery/request.js';
import { encodeBody } from './encode.js';
import { sharedWatchLine, sharesWatchLine } from './watch-lines.js';

/** Why a watch body errored: the server closed the watch because its client fell behind. */
export class WatchOverflowError extends Error {
  constructor() {
    super('watch closed: the client fell too far behind');
    this.name = 'WatchOverflowError';
  }
}

/** The text of one event as a watch body carries it: a JSON line, or a YAML document. */
function eventLine(type: string, object: unknown, format: 'json' | 'yaml'): string {
  return format === 'yaml' ? `---\n${encodeBody({ type, object }, 'yaml', false)}` : encodeBody({ type, object }, 'json', false);
}

/** Whether an engine answer is a WatchStream. */
export function isWatchStream(body: unknown): body is WatchStream {
  return typeof body === 'object' && body !== null && typeof (body as WatchStream).close === 'function' && Symbol.asyncIterator in body;
}

/** The streaming Response of a watch; `transform` maps each event's object (e.g. to a Table). */
export function watchResponse(
  stream: WatchStream,
  options: {
    contentType: string;
    format: 'json' | 'yaml';
    transform?: (event: WatchEvent, index: number) => unknown;
    headers?: Headers;
    /** Told the size in bytes of every event written (the watch event metrics). */
    onEvent?: (bytes: number) => void;
  },
): Response {
  const iterator = stream[Symbol.asyncIterator]();
  let index = 0;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      // The stream overflows only while nothing pulls (the transport is waiting for the socket to
      // drain): erroring the body is what wakes the transport up.
      void stream.done.then(() => {
        if (stream.overflowed) controller.error(new WatchOverflowError());
      });
    },
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) {
          if (!stream.overflowed) controller.close();
          return;
        }
        const event = next.value;
        const transformed = options.transform !== undefined && event.type !== 'ERROR' && event.type !== 'BOOKMARK';
        const object = transformed ? options.transform!(event, index) : event.object;
        index++;
        const encode = () => encoder.encode(eventLine(event.type, object, options.format));
        // The same stored object in the same form is encoded once for every watcher (watch-lines.ts).
        const bytes = !transformed && sharesWatchLine(event.type, object) ? sharedWatchLine(event.type, object, options.format, encode) : encode();
        options.onEvent?.(bytes.byteLength);
        controller.enqueue(bytes);
      } catch (e) {
        stream.close();
        controller.error(e);
      }
    },
    cancel() {
      stream.close();
    },
  });
  const headers = options.headers ?? new Headers();
  headers.set('Content-Type', options.contentType);
  headers.set('Cache-Control', 'no-cache, private');
  return new Response(body, { status: 200, headers });
}
