/** Whole answers written together at the end of the event loop's turn that finished them. */
import { connect, type Socket } from 'node:net';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BatchedResponse } from '../../src/http/answer-batch.js';
import type { Cluster } from '../../src/cluster.js';
import type { Listening } from '../../src/http/listen.js';
import { ConfigMapKind } from '../../src/kinds/index.js';
import { testCluster } from '../support/cluster.js';

const { endInBatch } = await import('../../src/http/answer-batch.js');

/** A response that records what it was ended with, in a log shared by several. */
function response(name: string, log: string[], options: { destroyed?: boolean; fails?: boolean } = {}): BatchedResponse {
  return {
    destroyed: options.destroyed ?? false,
    end(body: Uint8Array) {
      if (options.fails) throw new Error('write failed');
      log.push(`${name}:${Buffer.from(body).toString()}`);
    },
  };
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('endInBatch', () => {
  it('writes nothing during the turn that hands it an answer, not even after its microtasks', async () => {
    const log: string[] = [];
    endInBatch(response('a', log), Buffer.from('1'));
    expect(log).toEqual([]);
    await Promise.resolve();
    await new Promise<void>((resolve) => process.nextTick(resolve));
    expect(log).toEqual([]);
    await nextTurn();
    expect(log).toEqual(['a:1']);
  });

  it('writes the answers of one turn together, in the order they came, before the next turn begins', async () => {
    const log: string[] = [];
    endInBatch(response('a', log), Buffer.from('1'));
    endInBatch(response('b', log), Buffer.from('2'));
    // Queued after both, so it runs after the batch in the same check phase.
    const seen = new Promise<string[]>((resolve) => setImmediate(() => resolve([...log])));
    endInBatch(response('c', log), Buffer.from('3'));
    expect(await seen).toEqual(['a:1', 'b:2', 'c:3']);
  });

  it('skips a response whose client left, and goes on past one whose write throws', async () => {
    const log: string[] = [];
    endInBatch(response('gone', log, { destroyed: true }), Buffer.from('1'));
    endInBatch(response('broken', log, { fails: true }), Buffer.from('2'));
    endInBatch(response('fine', log), Buffer.from('3'));
    await nextTurn();
    expect(log).toEqual(['fine:3']);
  });

  it('starts a new batch for answers handed to it while one is written', async () => {
    const log: string[] = [];
    const late = response('late', log);
    endInBatch({ destroyed: false, end: () => (log.push('first'), endInBatch(late, Buffer.from('x'))) }, Buffer.from(''));
    await nextTurn();
    expect(log).toEqual(['first']);
    await nextTurn();
    expect(log).toEqual(['first', 'late:x']);
  });
});

describe('a server of listen(), whose whole answers are batched', () => {
  let cluster: Cluster;
  let server: Listening;
  beforeAll(async () => {
    cluster = await testCluster();
    server = await cluster.listen();
    for (let i = 0; i < 20; i++)
      await cluster.client.resource(ConfigMapKind).create({ metadata: { name: `cm-${i}`, namespace: 'default' }, data: { n: String(i) } });
  });
  afterAll(async () => {
    await cluster.close();
  });

  /** Writes `text` on a new connection and reads until `done` says the answers are all there. */
  function exchange(text: string, done: (received: string) => boolean): Promise<string> {
    const { port } = new URL(server.url);
    return new Promise((resolve, reject) => {
      const socket: Socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
      let received = '';
      socket.on('data', (d: Buffer) => {
        received += d.toString('latin1');
        if (done(received)) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on('error', reject);
      socket.on('close', () => resolve(received));
    });
  }
  const get = (path: string, method = 'GET') => `${method} ${path} HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n\r\n`;
  const answers = (text: string) => text.split(/(?=HTTP\/1\.1 )/);

  it('writes the answers it finishes in one turn together, after setting the head of each', async () => {
    // Two requests pipelined on one connection reach the server in one read, so both are answered
    // in the same turn. Unbatched, each answer's head and body would be written before the next's.
    const calls: string[] = [];
    let started = 0;
    const onStart = (message: unknown) => {
      const res = (message as { response: ServerResponse }).response;
      const name = `answer ${++started}`;
      const { writeHead, end } = res;
      res.writeHead = function (this: ServerResponse, ...args: Parameters<ServerResponse['writeHead']>) {
        calls.push(`head of ${name}`);
        return writeHead.apply(this, args);
      } as ServerResponse['writeHead'];
      res.end = function (this: ServerResponse, ...args: Parameters<ServerResponse['end']>) {
        calls.push(`body of ${name}`);
        return end.apply(this, args);
      } as ServerResponse['end'];
    };
    subscribe('http.server.request.start', onStart);
    try {
      const text = await exchange(
        get('/api/v1/namespaces/default/configmaps/cm-1') + get('/api/v1/namespaces/default/configmaps/cm-2'),
        (r) => answers(r).length === 2 && /\}\s*$/.test(r),
      );
      expect(answers(text)).toHaveLength(2);
    } finally {
      unsubscribe('http.server.request.start', onStart);
    }
    expect(calls).toEqual(['head of answer 1', 'head of answer 2', 'body of answer 1', 'body of answer 2']);
  });

  it('answers requests pipelined on one connection in the order they were sent', async () => {
    const names = [3, 1, 4, 1, 5, 9, 2, 6];
    const text = await exchange(
      names.map((n) => get(`/api/v1/namespaces/default/configmaps/cm-${n}`)).join(''),
      (r) => answers(r).length === names.length && /\}\s*$/.test(r),
    );
    const got = answers(text).map((a) => JSON.parse(a.slice(a.indexOf('\r\n\r\n') + 4)) as { metadata: { name: string } });
    expect(got.map((o) => o.metadata.name)).toEqual(names.map((n) => `cm-${n}`));
  });

  it('gives each of many connections in flight at once its own answer, HEAD without a body', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        exchange(get(`/api/v1/namespaces/default/configmaps/cm-${i}`, i % 5 === 0 ? 'HEAD' : 'GET'), (r) =>
          i % 5 === 0 ? r.includes('\r\n\r\n') : /\}\s*$/.test(r),
        ),
      ),
    );
    results.forEach((text, i) => {
      expect(text).toMatch(/^HTTP\/1\.1 200 OK/);
      const body = text.slice(text.indexOf('\r\n\r\n') + 4);
      if (i % 5 === 0) expect(body).toBe('');
      else expect((JSON.parse(body) as { data: { n: string } }).data.n).toBe(String(i));
    });
  });

  it('goes on serving when a client leaves before its answer is written', async () => {
    const { port } = new URL(server.url);
    await Promise.all(
      Array.from(
        { length: 10 },
        () =>
          new Promise<void>((resolve) => {
            const socket = connect(Number(port), '127.0.0.1', () => {
              socket.write(get('/api/v1/namespaces/default/configmaps/cm-2'));
              socket.destroy();
            });
            socket.on('close', () => resolve());
            socket.on('error', () => undefined);
          }),
      ),
    );
    const text = await exchange(get('/api/v1/namespaces/default/configmaps/cm-7'), (r) => /\}\s*$/.test(r));
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ metadata: { name: 'cm-7' } });
  });
});
