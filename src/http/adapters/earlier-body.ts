/**
 * A request body that a framework's middleware read before the adapter ran. A body parser
 * (express.json(), @koa/bodyparser, ...) consumes the request stream: waiting for it again would
 * wait forever. What the parser left stands for the body instead: the exact text or bytes when
 * it kept them (a raw or text parser, a `rawBody`), else its parsed value written back as JSON,
 * which loses only what the text alone had (a duplicate key, a number's spelling). A write whose
 * body was read and left nothing usable is answered at once with a Status naming the fix.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from '../../machinery/errors.js';
import { errorResponse } from '../errors.js';
import { sendFetchResponse } from '../node-bridge.js';

/** What earlier middleware left of a body: exact text or bytes first, then parsed values. */
export interface Leftovers {
  /** Candidates for the exact body: a Buffer/Uint8Array or a string counts, anything else is skipped. */
  readonly raw: readonly unknown[];
  /** Values a JSON parser produced from the body, written back as JSON. */
  readonly parsed: readonly unknown[];
}

/** The body was read and nothing usable is left. */
export const LOST = Symbol('memkube: body lost');

const encoder = new TextEncoder();

/** Whether a request declares a body at all (RFC 9112: Content-Length or Transfer-Encoding). */
function declaresBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return length.trim() !== '0';
  return req.headers['transfer-encoding'] !== undefined;
}

/** Bytes of an exact body: a Buffer or Uint8Array as it is, a string as UTF-8; else undefined. */
export function exactBytes(value: unknown): Uint8Array | undefined {
  if (value instanceof Uint8Array) return value;
  if (typeof value === 'string') return encoder.encode(value);
  return undefined;
}

/**
 * The body of a node request for the bridge: undefined when the stream is still unread (the bridge
 * streams it as usual), the bytes earlier middleware left, or {@link LOST}.
 */
export function earlierBody(req: IncomingMessage, left: Leftovers): Uint8Array | undefined | typeof LOST {
  if (req.method === 'GET' || req.method === 'HEAD') return undefined;
  if (!req.readableEnded && !req.readableDidRead) return undefined;
  if (!declaresBody(req)) return new Uint8Array(0);
  for (const value of left.raw) {
    const bytes = exactBytes(value);
    if (bytes) return bytes;
  }
  for (const value of left.parsed) {
    if (value === undefined) continue;
    const text = JSON.stringify(value);
    if (text !== undefined) return encoder.encode(text);
  }
  return LOST;
}

/** The Status for a body that is gone: a 500 naming the fix, as kubectl prints it. */
export function lostBodyResponse(framework: string): Response {
  return errorResponse(
    new ApiError({
      code: 500,
      reason: 'InternalError',
      message:
        `memkube (${framework} adapter): the request body was already read by a middleware that ran before memkube ` +
        'and left nothing memkube can use: mount memkube before body-parsing middleware',
      details: {},
    }),
  );
}

/** Answers a node request whose body is gone with {@link lostBodyResponse}. */
export function sendLostBody(framework: string, res: ServerResponse): Promise<void> {
  return sendFetchResponse(lostBodyResponse(framework), res);
}
