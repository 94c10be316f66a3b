/**
 * Concurrency over the wire: 50 keep-alive clients each make 40 read-modify-write increments of one
 * ConfigMap counter against `memkube serve` (a separate process), retrying on 409 Conflict.
 * Optimistic concurrency must lose no increment and answer no 5xx; the 409s prove the clients
 * really raced.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, type ServeProcess } from '../support/serve.js';
import { keepAliveAgent, send, sendJson } from './http-client.js';

const CLIENTS = 50;
const INCREMENTS = 40;
const PATH = '/api/v1/namespaces/default/configmaps/counter';

let dir: string;
let server: ServeProcess;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'memkube-concurrency-'));
  server = await startServe(join(dir, 'kubeconfig'));
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await rm(dir, { recursive: true, force: true });
});

interface ConfigMap {
  metadata: { name: string; resourceVersion: string };
  data: { count: string };
}

describe('concurrent read-modify-write', () => {
  it(`${CLIENTS} clients × ${INCREMENTS} increments end at exactly ${CLIENTS * INCREMENTS}, with conflicts and no 5xx`, async () => {
    const created = await sendJson(server.url, '/api/v1/namespaces/default/configmaps', 'POST', {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'counter' },
      data: { count: '0' },
    });
    expect(created.status).toBe(201);

    const agent = keepAliveAgent(CLIENTS);
    const statuses = new Map<number, number>();
    const count = (status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);
    const client = async () => {
      for (let done = 0; done < INCREMENTS;) {
        const got = await send(server.url, PATH, { agent });
        count(got.status);
        if (got.status !== 200) throw new Error(`GET answered ${got.status}: ${got.text}`);
        const cm = JSON.parse(got.text) as ConfigMap;
        cm.data.count = String(Number(cm.data.count) + 1);
        // The body carries the resourceVersion read: a write in between makes this a 409.
        const put = await sendJson(server.url, PATH, 'PUT', cm, { agent });
        count(put.status);
        if (put.status === 200) done++;
        else if (put.status !== 409) throw new Error(`PUT answered ${put.status}: ${put.text}`);
      }
    };
    try {
      await Promise.all(Array.from({ length: CLIENTS }, client));
    } finally {
      agent.destroy();
    }

    const final = await send(server.url, PATH);
    expect(JSON.parse(final.text).data.count).toBe(String(CLIENTS * INCREMENTS));
    const codes = [...statuses.keys()].sort();
    expect(codes.filter((c) => c >= 500)).toEqual([]);
    expect(codes).toEqual([200, 409]);
    const conflicts = statuses.get(409) ?? 0;
    console.log(`concurrency: ${CLIENTS * INCREMENTS} increments, ${conflicts} conflicts (409), ${statuses.get(200)} 200s (GETs and PUTs)`);
    expect(conflicts).toBeGreaterThan(0);
  }, 120_000);
});
