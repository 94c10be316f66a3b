/**
 * node:http ↔ Fetch: an IncomingMessage as a Fetch `Request` (its body streamed, not buffered) and a
 * Fetch `Response` written to a ServerResponse with the headers sent at once and a flush per chunk
 * (watch), its body cancelled when the client goes. `listen()` and the framework adapters
 * (`adapters/`) share it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { FetchHandler } from './handler.js';

/**
 * The Fetch `Request` of a node request. `path` (the request target, `req.url` by default) is read
 * against `base`'s origin; `body`, when given, stands for a body a framework already read.
 */
export function toFetchRequest(req: IncomingMessage, base: string | URL, path = req.url ?? '/', body?: Uint8Array): Request {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i]!, req.rawHeaders[i + 1]!);
  const method = req.method ?? 'GET';
  const init: RequestInit & { duplex?: 'half' } = { method, headers };
  if (method !== 'GET' && method !== 'HEAD') {
    if (body) {
      headers.delete('content-length');
      init.body = body;
    } else {
      init.body = bodyStream(req);
      init.duplex = 'half';
    }
  }
  // `//x/api` is a path, not a protocol-relative URL naming host x.
  const url = path.startsWith('/') ? new URL(new URL(base).origin + path) : new URL(path, base);
  return new Request(url, init);
}

/**
 * A node request's body as a byte stream read on demand: a body the handler never reads is left
 * to node:http, which discards it once the response is sent; one it stops reading (413 on a
 * chunked body) is drained and discarded. Either way the connection stays usable for the next
 * request (`Readable.toWeb` reads ahead and, once cancelled, leaves the rest of the body unread,
 * so a keep-alive client's next request on that connection hangs until the socket times out).
 */
function bodyStream(req: IncomingMessage): ReadableStream<Uint8Array> {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const onData = (chunk: Buffer) => {
    controller?.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    req.pause();
  };
  const onEnd = () => {
    controller?.close();
    detach();
  };
  const onError = (e: Error) => {
    controller?.error(e);
    detach();
  };
  function detach() {
    req.off('data', onData).off('end', onEnd).off('error', onError);
    controller = undefined;
  }
  let started = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(c) {
        if (!started) {
          started = true;
          controller = c;
          req.on('data', onData).on('end', onEnd).on('error', onError);
        }
        req.resume();
      },
      cancel() {
        detach();
        req.resume();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Writes a Fetch `Response` to a node response; resolves once it is written or the client left. */
export async function sendFetchResponse(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  if (!response.body) {
    res.end();
    return;
  }
  res.flushHeaders();
  const reader = response.body.getReader();
  res.on('close', () => {
    if (!res.writableFinished) void reader.cancel().catch(() => undefined);
  });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise<void>((resolve) => res.once('drain', resolve).once('close', resolve));
      if (res.destroyed) break;
    }
  } catch {
    /* the client went away, or the stream failed after the headers were sent */
  }
  res.end();
}

/** `http(s)://<Host header>` of a node request (`localhost` when it has none or a malformed one). */
export function originOf(req: IncomingMessage): string {
  const scheme = (req.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
  try {
    return new URL(`${scheme}://${req.headers.host ?? 'localhost'}`).origin;
  } catch {
    return `${scheme}://localhost`;
  }
}

/**
 * Serves one node request with a Fetch handler: 400 when it makes no Fetch `Request`, 500 when the
 * handler fails (it answers API errors itself, as Status). `path` is the request target to serve
 * (`req.url` by default); `body` a body a framework already read.
 */
export async function serveNodeRequest(
  handler: FetchHandler,
  req: IncomingMessage,
  res: ServerResponse,
  options: { base?: string; path?: string; body?: Uint8Array } = {},
): Promise<void> {
  let request: Request;
  try {
    request = toFetchRequest(req, options.base ?? originOf(req), options.path, options.body);
  } catch {
    res.writeHead(400).end();
    return;
  }
  try {
    await sendFetchResponse(await handler(request), res);
  } catch {
    if (!res.headersSent) res.writeHead(500);
    res.end();
  }
}
