import { createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RawConnection, requestHead } from '../../bench/raw-http.js';

const servers: NetServer[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  for (const s of servers.splice(0)) await new Promise((resolve) => s.close(resolve));
});

/** A TCP server that answers every complete request head with `reply(head)`, written as it is. */
async function rawServer(reply: (head: string, socket: Socket) => string | (string | Buffer)[] | undefined): Promise<{ port: number; heads: string[] }> {
  const heads: string[] = [];
  const server = createNetServer((socket) => {
    sockets.push(socket);
    let buf = '';
    socket.on('data', (d: Buffer) => {
      buf += d.toString('latin1');
      let end: number;
      while ((end = buf.indexOf('\r\n\r\n')) >= 0) {
        const head = buf.slice(0, end);
        const length = /content-length: (\d+)/i.exec(head);
        const total = end + 4 + (length ? Number(length[1]) : 0);
        if (buf.length < total) return;
        heads.push(buf.slice(0, total));
        buf = buf.slice(total);
        const answer = reply(head, socket);
        if (typeof answer === 'string') socket.write(answer);
        // Several writes: the client must put an answer together from pieces.
        else if (answer) for (const piece of answer) socket.write(piece);
      }
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, heads };
}

const target = (port: number) => ({ host: '127.0.0.1', port, tls: false, insecure: false });

describe('bench/raw-http.ts RawConnection', () => {
  it('reads answers framed by Content-Length, in pieces, several on one connection', async () => {
    const { port, heads } = await rawServer(() => [Buffer.from('HTTP/1.1 200 OK\r\nContent-Le'), Buffer.from('ngth: 5\r\n\r\nhel'), Buffer.from('lo')]);
    const c = new RawConnection(target(port));
    for (let i = 0; i < 3; i++) expect(await c.send(requestHead('GET', '/x', `127.0.0.1:${port}`, {}))).toEqual({ status: 200 });
    c.close();
    expect(heads).toHaveLength(3);
    expect(heads[0]).toBe(`GET /x HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`);
  });

  it('reads chunked answers, trailers included, and answers without a body', async () => {
    const { port } = await rawServer((head) => {
      if (head.startsWith('HEAD')) return 'HTTP/1.1 200 OK\r\nContent-Length: 99\r\n\r\n';
      if (head.includes('/trailers')) return ['HTTP/1.1 201 Created\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n', '0\r\nX-Trailer: 1\r\n\r\n'];
      if (head.includes('/empty')) return 'HTTP/1.1 204 No Content\r\n\r\n';
      return ['HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n', '6\r\n world\r\n0\r\n', '\r\n'];
    });
    const c = new RawConnection(target(port));
    expect(await c.send(requestHead('GET', '/chunked', 'h', {}))).toEqual({ status: 200 });
    expect(await c.send(requestHead('GET', '/trailers', 'h', {}))).toEqual({ status: 201 });
    expect(await c.send(requestHead('GET', '/empty', 'h', {}))).toEqual({ status: 204 });
    // HEAD: the Content-Length says what a GET would carry; no body follows.
    expect(await c.send(requestHead('HEAD', '/', 'h', {}), true)).toEqual({ status: 200 });
    expect(await c.send(requestHead('GET', '/chunked', 'h', {}))).toEqual({ status: 200 });
    c.close();
  });

  it('reconnects after Connection: close and reads a body that ends with the connection', async () => {
    let connections = 0;
    const { port } = await rawServer((head, socket) => {
      if (head.includes('/until-close')) {
        socket.end('HTTP/1.1 200 OK\r\n\r\nall of it');
        return undefined;
      }
      return 'HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';
    });
    servers[0]!.on('connection', () => connections++);
    const c = new RawConnection(target(port));
    expect(await c.send(requestHead('GET', '/', 'h', {}))).toEqual({ status: 200 });
    expect(await c.send(requestHead('GET', '/', 'h', {}))).toEqual({ status: 200 });
    expect(await c.send(requestHead('GET', '/until-close', 'h', {}))).toEqual({ status: 200 });
    expect(connections).toBe(3);
    c.close();
  });

  it('fails a request on a malformed answer, more bytes than announced, or a head too long', async () => {
    const { port } = await rawServer((head) => {
      if (head.includes('/garbage')) return 'SMTP ready\r\n\r\n';
      if (head.includes('/extra')) return 'HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nab';
      if (head.includes('/bad-chunk')) return 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n';
      return `HTTP/1.1 200 OK\r\nX-Long: ${'a'.repeat(70_000)}`;
    });
    const c = new RawConnection(target(port));
    await expect(c.send(requestHead('GET', '/garbage', 'h', {}))).rejects.toThrow('malformed status line "SMTP ready"');
    await expect(c.send(requestHead('GET', '/extra', 'h', {}))).rejects.toThrow('the server sent more than Content-Length');
    await expect(c.send(requestHead('GET', '/bad-chunk', 'h', {}))).rejects.toThrow('malformed chunk size');
    await expect(c.send(requestHead('GET', '/long', 'h', {}))).rejects.toThrow('answer head longer than 65536 bytes');
    // After each failure the connection starts over and works again.
    await expect(c.send(requestHead('GET', '/extra', 'h', {}))).rejects.toThrow(/more than Content-Length/);
    c.close();
  });

  it('refuses a second request in flight, and fails the one in flight when aborted or closed', async () => {
    const { port } = await rawServer(() => undefined);
    const c = new RawConnection(target(port));
    const first = c.send(requestHead('GET', '/', 'h', {}));
    await expect(c.send(requestHead('GET', '/', 'h', {}))).rejects.toThrow('a request is already in flight on this connection');
    expect(c.sentAt).toBeGreaterThan(0);
    c.abort(new Error('timeout after 5 ms'));
    await expect(first).rejects.toThrow('timeout after 5 ms');
    expect(c.sentAt).toBeUndefined();
    const second = c.send(requestHead('GET', '/', 'h', {}));
    c.close();
    await expect(second).rejects.toThrow('connection closed by the client');
  });

  it('writes request heads and refuses headers that could not be sent', () => {
    expect(requestHead('POST', '/p?q=1', 'h:1', { 'content-type': 'application/json', 'content-length': 2 })).toBe(
      'POST /p?q=1 HTTP/1.1\r\nHost: h:1\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n',
    );
    expect(() => requestHead('GET', '/', 'h', { 'x-bad': 'a\nb' })).toThrow('Invalid character in header content "x-bad"');
    expect(() => requestHead('GET', '/', 'h', { 'bad name': 'v' })).toThrow('Invalid header name "bad name"');
  });
});
