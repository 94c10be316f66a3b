import { describe, expect, it, vi } from 'vitest';
import { createFetchDispatcher, type DispatchHandler } from '../../src/http/fetch-dispatcher.js';

/** A handler that records what the dispatcher tells it. */
function recorder() {
  const seen: { status?: number; headers?: string[]; data: string[]; complete: boolean; error?: Error } = { data: [], complete: false };
  const handler: DispatchHandler = {
    onHeaders: (status, raw) => ((seen.status = status), (seen.headers = raw.map(String)), true),
    onData: (chunk) => (seen.data.push(chunk.toString()), true),
    onComplete: () => (seen.complete = true),
    onError: (e) => (seen.error = e),
  };
  return { seen, handler };
}

describe('createFetchDispatcher', () => {
  it('turns undici dispatch options into a Request and streams the Response back', async () => {
    const handle = vi.fn(
      async (req: Request) => new Response(`${req.method} ${req.url} ${req.headers.get('x-a')} ${await req.text()}`, { status: 201, headers: { 'x-b': '2' } }),
    );
    const { seen, handler } = recorder();
    async function* body() {
      yield Buffer.from('{"a":');
      yield '1}';
    }
    createFetchDispatcher(handle).dispatch({ origin: 'https://h', path: '/p?q=1', method: 'POST', headers: { 'x-a': '1' }, body: body() }, handler);
    await vi.waitFor(() => expect(seen.complete).toBe(true));
    expect(seen.status).toBe(201);
    expect(seen.headers).toContain('x-b');
    expect(seen.data.join('')).toBe('POST https://h/p?q=1 1 {"a":1}');
  });

  it('a request body that fails is an error to the client, and the handler never sees the request', async () => {
    const handle = vi.fn(async () => new Response('unreachable'));
    const { seen, handler } = recorder();
    async function* broken(): AsyncGenerator<Uint8Array> {
      yield Buffer.from('{');
      throw new Error('body stream broke');
    }
    createFetchDispatcher(handle).dispatch({ origin: 'https://h', path: '/', method: 'POST', body: broken() }, handler);
    await vi.waitFor(() => expect(seen.error?.message).toBe('body stream broke'));
    expect(handle).not.toHaveBeenCalled();
    expect(seen.complete).toBe(false);
  });

  it('abort cancels the response body, which is how a watch ends on the server', async () => {
    let cancelled: unknown;
    const stream = new ReadableStream<Uint8Array>({ pull: () => undefined, cancel: (reason) => void (cancelled = reason ?? 'cancelled') });
    let abort: ((reason?: unknown) => void) | undefined;
    const { seen, handler } = recorder();
    createFetchDispatcher(async () => new Response(stream)).dispatch(
      { origin: 'https://h', path: '/', method: 'GET' },
      { ...handler, onConnect: (a) => (abort = a) },
    );
    await vi.waitFor(() => expect(seen.status).toBe(200));
    abort!(new Error('stop'));
    await vi.waitFor(() => expect(cancelled).toBeInstanceOf(Error));
    expect(seen.error?.message).toBe('stop');
    expect(seen.complete).toBe(false);
  });
});
