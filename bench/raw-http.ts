/**
 * The load generator's HTTP/1.1 client: one kept-alive socket per connection, a request written as
 * one buffer, one request at a time (no pipelining), and the answer parsed only as far as a client
 * must: the status line, then the body framed by Content-Length, chunked encoding or the end of the
 * connection. node:http's client costs several times more CPU per request than this, which on a
 * small machine made the generator, not the server, the limit of the HTTP figures.
 */
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

/** Where a connection goes. */
export interface Target {
  host: string;
  port: number;
  tls: boolean;
  /** TLS: accept any certificate. */
  insecure: boolean;
}

/** What came back for one request. */
export interface Answer {
  status: number;
}

const CRLF = Buffer.from('\r\n');
const HEAD_END = Buffer.from('\r\n\r\n');
/** A head larger than this is not an answer this client understands. */
const MAX_HEAD = 64 * 1024;

/** Header names and values node:http would refuse to send: no control characters but tab. */
const BAD_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The bytes of a request's head, ending with the empty line. Throws for a header that could not be
 * sent as it is (a control character in a value, a name that is not a token).
 */
export function requestHead(method: string, path: string, host: string, headers: Readonly<Record<string, string | number>>): string {
  let head = `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    const text = String(value);
    if (!TOKEN.test(name)) throw new Error(`Invalid header name ${JSON.stringify(name)}`);
    if (BAD_HEADER_VALUE.test(text)) throw new Error(`Invalid character in header content ${JSON.stringify(name)}`);
    head += `${name}: ${text}\r\n`;
  }
  return `${head}\r\n`;
}

type Framing = { kind: 'length'; remaining: number } | { kind: 'chunked' } | { kind: 'close' };

/**
 * One kept-alive connection. {@link send} writes a request and resolves with its answer once the
 * last byte of the body arrived; it rejects on a transport error, a malformed answer or
 * {@link abort}. A connection whose answer said `Connection: close`, or that failed, reconnects on
 * the next request.
 */
export class RawConnection {
  private socket: Socket | undefined;
  private pending: { resolve: (a: Answer) => void; reject: (e: Error) => void; head: boolean } | undefined;
  /** Bytes not parsed yet: a head still incomplete, or a chunked body. */
  private buffered: Buffer = Buffer.alloc(0);
  private status = 0;
  private framing: Framing | undefined;
  private closeAfter = false;
  /** performance.now() when the request in flight was sent; undefined when idle. */
  sentAt: number | undefined;

  constructor(private readonly target: Target) {}

  /** Writes `request` (head and body) and resolves with the answer. `isHead`: a HEAD request (no body comes back). */
  send(request: string | Buffer, isHead = false): Promise<Answer> {
    if (this.pending) return Promise.reject(new Error('a request is already in flight on this connection'));
    const socket = this.socket ?? this.open();
    return new Promise<Answer>((resolve, reject) => {
      this.pending = { resolve, reject, head: isHead };
      this.sentAt = performance.now();
      socket.write(request);
    });
  }

  /** Fails the request in flight with `error` and drops the socket. */
  abort(error: Error): void {
    this.fail(error);
  }

  /** Closes the socket; a request in flight fails. */
  close(): void {
    this.fail(new Error('connection closed by the client'));
  }

  private open(): Socket {
    const { host, port, tls, insecure } = this.target;
    const socket = tls ? tlsConnect({ host, port, servername: host, rejectUnauthorized: !insecure }) : netConnect({ host, port });
    socket.setNoDelay(true);
    socket.on('data', (d: Buffer) => this.onData(socket, d));
    socket.on('error', (e) => {
      if (this.socket === socket) this.fail(e);
    });
    socket.on('close', () => {
      if (this.socket !== socket) return;
      if (this.pending && this.framing?.kind === 'close') this.finish();
      else this.fail(new Error('socket closed before the answer ended'));
    });
    this.socket = socket;
    this.buffered = Buffer.alloc(0);
    this.framing = undefined;
    return socket;
  }

  private fail(error: Error): void {
    const socket = this.socket;
    this.socket = undefined;
    this.framing = undefined;
    this.buffered = Buffer.alloc(0);
    socket?.destroy();
    const pending = this.pending;
    this.pending = undefined;
    this.sentAt = undefined;
    pending?.reject(error);
  }

  private finish(): void {
    const pending = this.pending!;
    this.pending = undefined;
    this.sentAt = undefined;
    this.framing = undefined;
    if (this.closeAfter) {
      const socket = this.socket;
      this.socket = undefined;
      socket?.destroy();
    }
    pending.resolve({ status: this.status });
  }

  private onData(socket: Socket, data: Buffer): void {
    if (socket !== this.socket) return;
    if (!this.pending) {
      this.fail(new Error('the server sent bytes with no request in flight'));
      return;
    }
    if (this.framing === undefined) {
      const all = this.buffered.length ? Buffer.concat([this.buffered, data]) : data;
      const end = all.indexOf(HEAD_END);
      if (end < 0) {
        if (all.length > MAX_HEAD) this.fail(new Error(`answer head longer than ${MAX_HEAD} bytes`));
        else this.buffered = all;
        return;
      }
      this.buffered = Buffer.alloc(0);
      const error = this.parseHead(all.toString('latin1', 0, end));
      if (error) {
        this.fail(new Error(error));
        return;
      }
      data = all.subarray(end + HEAD_END.length);
      const framing = this.framing!;
      if (framing.kind === 'length' && framing.remaining === 0) {
        this.finish();
        return;
      }
    }
    this.onBody(data);
  }

  /** Reads status and framing from the head; answers an error message for a malformed one. */
  private parseHead(head: string): string | undefined {
    const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
    if (!m) return `malformed status line ${JSON.stringify(head.slice(0, 80))}`;
    this.status = Number(m[1]);
    const lower = head.toLowerCase();
    this.closeAfter = /\r\nconnection:[ \t]*close/.test(lower) || head.startsWith('HTTP/1.0');
    const noBody = this.pending!.head || this.status === 204 || this.status === 304 || (this.status >= 100 && this.status < 200);
    if (noBody) {
      this.framing = { kind: 'length', remaining: 0 };
      return undefined;
    }
    if (/\r\ntransfer-encoding:[^\r]*chunked/.test(lower)) {
      this.framing = { kind: 'chunked' };
      return undefined;
    }
    const length = /\r\ncontent-length:[ \t]*(\d+)/.exec(lower);
    this.framing = length ? { kind: 'length', remaining: Number(length[1]) } : { kind: 'close' };
    return undefined;
  }

  private onBody(data: Buffer): void {
    const framing = this.framing!;
    if (framing.kind === 'close') return; // the body ends with the connection
    if (framing.kind === 'length') {
      if (data.length > framing.remaining) {
        this.fail(new Error('the server sent more than Content-Length'));
        return;
      }
      framing.remaining -= data.length;
      if (framing.remaining === 0) this.finish();
      return;
    }
    this.buffered = this.buffered.length ? Buffer.concat([this.buffered, data]) : data;
    this.readChunks();
  }

  /** Consumes whole chunks of a chunked body; finishes at the last chunk and its empty trailer. */
  private readChunks(): void {
    let at = 0;
    const buf = this.buffered;
    for (;;) {
      const lineEnd = buf.indexOf(CRLF, at);
      if (lineEnd < 0) break;
      const size = parseInt(buf.toString('latin1', at, lineEnd).split(';')[0]!.trim(), 16);
      if (!Number.isFinite(size) || size < 0) {
        this.fail(new Error('malformed chunk size'));
        return;
      }
      if (size === 0) {
        // The last chunk, then no trailers (an empty line) or trailers ending with an empty line.
        const rest = buf.subarray(lineEnd + 2);
        const ended = (rest.length >= 2 && rest[0] === 13 && rest[1] === 10) || rest.indexOf(HEAD_END) >= 0;
        if (ended) {
          this.buffered = Buffer.alloc(0);
          this.finish();
        } else this.buffered = buf.subarray(at);
        return;
      }
      const next = lineEnd + 2 + size + 2;
      if (buf.length < next) break;
      at = next;
    }
    this.buffered = buf.subarray(at);
  }
}
