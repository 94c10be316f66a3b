/**
 * Streamed answers over HTTP (a container's log, a node agent's answer through `nodes/proxy`):
 * the bytes are written as they come, with the content type the engine gave
 * (`application/octet-stream` when none, as kube-apiserver's StreamObject), the node agent's other
 * headers for a proxy; a 204 has no body. Cancelling the body (the client went away) cancels the
 * engine's stream, which aborts the request to the node agent.
 */
import type { StreamedBody } from '../machinery/request.js';

/** Headers that belong to one connection and are never passed on (Go's `httputil.ReverseProxy` hop-by-hop list). */
export const HOP_BY_HOP_HEADERS: ReadonlySet<string> = new Set([
  'connection',
  'proxy-connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
]);

/** The Response of a streamed body; `headers` carries the warnings. */
export function streamedResponse(status: number, body: StreamedBody, headers: Headers = new Headers()): Response {
  for (const [name, value] of Object.entries(body.headers ?? {})) {
    // The length and framing are this connection's: the body is re-chunked as it streams.
    if (HOP_BY_HOP_HEADERS.has(name) || name === 'content-length' || name === 'content-type') continue;
    headers.set(name, value);
  }
  if (status === 204 || status === 304) {
    body.cancel();
    return new Response(null, { status, headers });
  }
  headers.set('Content-Type', body.contentType ?? 'application/octet-stream');
  const iterator = body[Symbol.asyncIterator]();
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      } catch (e) {
        controller.error(e);
      }
    },
    cancel() {
      body.cancel();
    },
  });
  return new Response(stream, { status, headers });
}

/** The request headers a proxy passes on: not the credentials the API server consumed, nor hop-by-hop ones. */
export function proxiedRequestHeaders(names: readonly string[], header: (name: string) => string | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    if (HOP_BY_HOP_HEADERS.has(name) || name === 'host' || name === 'content-length' || name === 'authorization' || name.startsWith('impersonate-')) continue;
    const value = header(name);
    if (value !== null) out[name] = value;
  }
  return out;
}
