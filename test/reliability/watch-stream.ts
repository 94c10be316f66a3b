/**
 * Reading a watch over HTTP for the reliability suite: a fetch-based reader that parses one JSON
 * WatchEvent per line and hands each to a callback, and a raw TCP watch whose reading the test
 * controls (pause it to play a client that stopped reading).
 */
import { connect, type Socket } from 'node:net';

/** One decoded watch event, as it came over the wire. */
export interface WireEvent {
  readonly type: string;
  readonly object: {
    readonly metadata?: { readonly name?: string; readonly namespace?: string; readonly resourceVersion?: string; readonly labels?: Record<string, string> };
    readonly data?: Record<string, string>;
  };
}

/**
 * An open watch read by fetch. `ended` resolves when the server ended the stream or it was
 * aborted, with the error that cut it short, if any (it never rejects).
 */
export interface FetchWatch {
  /** The events received (empty with `keep: false`). */
  readonly events: WireEvent[];
  /** How many events were received. */
  count(): number;
  readonly ended: Promise<Error | undefined>;
  abort(): void;
}

/** Options of {@link openWatch}. */
export interface OpenWatchOptions {
  /** Called for each event as it arrives. */
  readonly onEvent?: (e: WireEvent) => void;
  /** Keep the events in `events` (default true); false for high-volume watches. */
  readonly keep?: boolean;
}

/**
 * Opens `base + path` (a `?watch=true` URL) and collects its events; resolves once the response
 * headers arrived, i.e. once the server registered the watcher.
 */
export async function openWatch(base: string, path: string, options: OpenWatchOptions = {}): Promise<FetchWatch> {
  const controller = new AbortController();
  const res = await fetch(base + path, { signal: controller.signal });
  if (res.status !== 200 || !res.body) throw new Error(`watch ${path} answered ${res.status}: ${await res.text()}`);
  const events: WireEvent[] = [];
  let count = 0;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const ended = (async () => {
    let rest = '';
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return undefined;
        rest += value;
        let nl: number;
        while ((nl = rest.indexOf('\n')) >= 0) {
          const line = rest.slice(0, nl);
          rest = rest.slice(nl + 1);
          if (!line) continue;
          const event = JSON.parse(line) as WireEvent;
          count++;
          if (options.keep !== false) events.push(event);
          options.onEvent?.(event);
        }
      }
    } catch (e) {
      return controller.signal.aborted ? undefined : (e as Error);
    }
  })();
  return { events, count: () => count, ended, abort: () => controller.abort() };
}

/** A watch over a raw socket: the test decides when bytes are read. */
export interface RawWatch {
  readonly socket: Socket;
  /** Bytes received so far (headers included). */
  received(): number;
  /** Resolves when the socket closed, for whatever reason. */
  readonly closed: Promise<void>;
  /** The whole text received so far. */
  text(): string;
}

/** Sends `GET path` over a new connection (`Connection: close`) and resolves once the response headers arrived. */
export async function openRawWatch(port: number, path: string): Promise<RawWatch> {
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  let bytes = 0;
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => undefined); // a reset is one way the server may end it; `closed` reports it
  socket.on('data', (c: Buffer) => {
    chunks.push(c);
    bytes += c.byteLength;
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`);
    });
    const check = () => {
      if (Buffer.concat(chunks).includes('\r\n\r\n')) {
        socket.off('data', check);
        resolve();
      }
    };
    socket.on('data', check);
    socket.once('close', () => reject(new Error(`raw watch ${path}: closed before its headers`)));
  });
  return { socket, received: () => bytes, closed, text: () => Buffer.concat(chunks).toString('utf8') };
}

/**
 * Waits, an event-loop turn at a time (no timers), until `condition` holds; fails with `what` if
 * it does not within `ms` (a bound on a hang, not a pause).
 */
export async function eventually(condition: () => boolean, what: string, ms = 10_000): Promise<void> {
  const deadline = performance.now() + ms;
  while (!condition()) {
    if (performance.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise<void>((r) => setImmediate(r));
  }
}
