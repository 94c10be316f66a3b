/**
 * The webhook backend against a real HTTPS server on 127.0.0.1 trusting memkube's test CA: the
 * EventList it posts, retries with backoff, batches of the maximum size and after the maximum
 * wait on a manual clock, throttling, and the kubeconfig errors it stops the server with.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BufferedBackend, DEFAULT_WEBHOOK_BATCH_CONFIG } from '../../../src/audit/batch/buffered.js';
import { ManualAuditTimers } from '../../../src/audit/batch/timers.js';
import { WebhookBackend } from '../../../src/audit/webhook/backend.js';
import type { RetryTiming } from '../../../src/auth/webhook/retry.js';
import { startWebhook, tempDir, testCertificates, writeKubeconfig, type TestWebhook } from '../../auth/webhook/webhook-server.js';
import { events, sampleEvent } from '../log/events.js';

const dir = tempDir();
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let webhook: TestWebhook;
beforeAll(async () => {
  await testCertificates();
  webhook = await startWebhook();
});
afterAll(() => webhook.close());
beforeEach(() => {
  webhook.received.length = 0;
  webhook.handler = status(200);
  sleeps.length = 0;
});

const sleeps: number[] = [];
const timing: RetryTiming = {
  sleep: async (ms) => {
    sleeps.push(ms);
  },
  random: () => 0.5,
};

/** Answers `status` to every post. */
const status =
  (code: number): TestWebhook['handler'] =>
  (_req, res) => {
    res.writeHead(code, { 'Content-Type': 'application/json' });
    res.end('{}');
  };

async function backendFor(options: { token?: string; port?: number } = {}, errors: [string, number][] = []): Promise<WebhookBackend> {
  const kubeconfigFile = await writeKubeconfig(dir, `https://127.0.0.1:${options.port ?? webhook.port}/audit`, options);
  return WebhookBackend.create({ kubeconfigFile, timing, onError: (p, n) => errors.push([p, n]) });
}

/** The items' audit IDs of each EventList received. */
const posted = () => webhook.received.map((r) => (JSON.parse(r.body) as { items: { auditID: string }[] }).items.map((i) => i.auditID));

/** A port of 127.0.0.1 nothing listens on. */
async function closedPort(): Promise<number> {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));
  return port;
}

/** Polls until `check` holds (bounded). */
async function until(check: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('WebhookBackend', () => {
  it('posts the events as one EventList JSON with the kubeconfig credentials', async () => {
    const backend = await backendFor({ token: 'audit-token' });
    expect(await backend.processEvents([sampleEvent(), sampleEvent({ auditID: 'second' })])).toBe(true);
    expect(webhook.received).toHaveLength(1);
    const r = webhook.received[0]!;
    expect(r.url).toBe('/audit?timeout=30s');
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['authorization']).toBe('Bearer audit-token');
    const list = JSON.parse(r.body) as Record<string, unknown>;
    expect(Object.keys(list)).toEqual(['kind', 'apiVersion', 'metadata', 'items']);
    expect(list['kind']).toBe('EventList');
    expect(list['apiVersion']).toBe('audit.k8s.io/v1');
    const { kind: _k, apiVersion: _a, ...item } = sampleEvent();
    expect((list['items'] as unknown[])[0]).toEqual(item);
  });

  it('retries a failed post after 10s, then 1.5 times longer, with jitter, and succeeds', async () => {
    const backend = await backendFor();
    let calls = 0;
    webhook.handler = (req, res, body) => (++calls < 3 ? status(500) : status(201))(req, res, body);
    expect(await backend.processEvents(events(1))).toBe(true);
    expect(webhook.received).toHaveLength(3);
    // 10s and 15s, each stretched by random() * 20%.
    expect(sleeps).toEqual([11_000, 16_500]);
  });

  it('gives up after 5 calls, answers false and counts the batch for the webhook plugin', async () => {
    const errors: [string, number][] = [];
    const backend = await backendFor({}, errors);
    webhook.handler = status(403);
    expect(await backend.processEvents(events(3))).toBe(false);
    expect(webhook.received).toHaveLength(5);
    expect(sleeps).toHaveLength(4);
    expect(errors).toEqual([['webhook', 3]]);
  });

  it('holds a hostile initial backoff at the longest wait a timer can hold', async () => {
    const kubeconfigFile = await writeKubeconfig(dir, `https://127.0.0.1:${await closedPort()}/audit`, { name: 'closed.yaml' });
    const backend = WebhookBackend.create({ kubeconfigFile, timing, initialBackoffMs: 1e15 });
    expect(await backend.processEvents(events(1))).toBe(false);
    expect(sleeps).toEqual([2 ** 31 - 1, 2 ** 31 - 1, 2 ** 31 - 1, 2 ** 31 - 1]);
  });

  it('counts a batch it could not deliver because nothing listens', async () => {
    const errors: [string, number][] = [];
    const backend = await backendFor({ port: await closedPort() }, errors);
    expect(await backend.processEvents(events(1))).toBe(false);
    expect(errors).toEqual([['webhook', 1]]);
  });

  it('in batch mode posts batches of the maximum size at once and the rest after the maximum wait', async () => {
    const backend = await backendFor();
    const timers = new ManualAuditTimers();
    const batched = new BufferedBackend(backend, { ...DEFAULT_WEBHOOK_BATCH_CONFIG, maxBatchSize: 4, throttleEnable: false }, { timers });
    batched.processEvents(events(10));
    await until(() => webhook.received.length === 2);
    expect(posted()).toEqual([
      ['id-0', 'id-1', 'id-2', 'id-3'],
      ['id-4', 'id-5', 'id-6', 'id-7'],
    ]);
    timers.advance(29_999);
    await new Promise((r) => setTimeout(r, 50));
    expect(webhook.received).toHaveLength(2);
    timers.advance(1);
    await until(() => webhook.received.length === 3);
    expect(posted()[2]).toEqual(['id-8', 'id-9']);
    await batched.shutdown();
  });

  it('throttles batches to the burst, then the qps', async () => {
    const backend = await backendFor();
    const timers = new ManualAuditTimers();
    const batched = new BufferedBackend(backend, { ...DEFAULT_WEBHOOK_BATCH_CONFIG, maxBatchSize: 1, throttleQPS: 10, throttleBurst: 2 }, { timers });
    batched.processEvents(events(4));
    await until(() => webhook.received.length === 2);
    await new Promise((r) => setTimeout(r, 50));
    expect(webhook.received).toHaveLength(2);
    timers.advance(100);
    await until(() => webhook.received.length === 3);
    timers.advance(100);
    await until(() => webhook.received.length === 4);
    expect(posted().flat().sort()).toEqual(['id-0', 'id-1', 'id-2', 'id-3']);
    await batched.shutdown();
  });

  it("refuses a kubeconfig it cannot use, with client-go's words", () => {
    const missing = join(dir, 'missing.yaml');
    expect(() => WebhookBackend.create({ kubeconfigFile: missing })).toThrow(`initializing audit webhook: stat ${missing}: no such file or directory`);
    const http = join(dir, 'http.yaml');
    writeFileSync(
      http,
      'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "http://127.0.0.1:1"}}]\ncontexts: [{name: x, context: {cluster: c}}]\ncurrent-context: x\n',
    );
    expect(() => WebhookBackend.create({ kubeconfigFile: http })).toThrow(
      'initializing audit webhook: memkube calls audit webhooks over HTTPS only, not "http://127.0.0.1:1"',
    );
  });
});
