/**
 * memkube mounted in an Express app under `/k8s`, beside a route of the app's own: `fetch` creates
 * and reads a ConfigMap through the app, follows a watch and gets a Status error; then the same
 * cluster answers through Hono without a socket. Run with `npx tsx examples/mount-in-a-framework.ts`.
 */
import express from 'express';
import { Hono } from 'hono';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createCluster } from 'memkube';
import { memkubeExpress } from 'memkube/adapters/express';
import { memkubeHono } from 'memkube/adapters/hono';

interface ConfigMap {
  metadata: { name: string };
  data?: Record<string, string>;
}

/** The events of a watch stream, one JSON object per line, as they arrive. */
async function* watchEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<{ type: string; object: ConfigMap }> {
  let buffered = '';
  for await (const text of body.pipeThrough(new TextDecoderStream())) {
    buffered += text;
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      yield JSON.parse(buffered.slice(0, end)) as { type: string; object: ConfigMap };
      buffered = buffered.slice(end + 1);
    }
  }
}

export async function main(log: (line: string) => void = console.log): Promise<void> {
  const cluster = await createCluster();
  const app = express();
  // memkube first, so that it reads its own bodies; the app's JSON parser after it.
  app.use('/k8s', memkubeExpress(cluster));
  app.use(express.json());
  app.get('/hello', (_req, res) => void res.send('hello from the app'));

  const server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    log(`serving on ${base}, the Kubernetes API under ${base}/k8s`);
    const hello = await fetch(`${base}/hello`);
    log(`GET /hello: ${hello.status} ${await hello.text()}`);

    const path = '/k8s/api/v1/namespaces/default/configmaps';
    const created = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'settings' }, data: { mode: 'fast' } }),
    });
    log(`POST ${path}: ${created.status} created ${((await created.json()) as ConfigMap).metadata.name}`);
    const read = await fetch(`${base}${path}/settings`);
    log(`GET ${path}/settings: ${read.status} mode=${((await read.json()) as ConfigMap).data?.mode}`);

    // The watch streams through Express: it starts with the ConfigMap there is, then follows changes.
    const watch = await fetch(`${base}${path}?watch=true`);
    const events = watchEvents(watch.body!);
    const added = (await events.next()).value!;
    log(`watch: ${added.type} ${added.object.metadata.name}`);
    await fetch(`${base}${path}/settings`, {
      method: 'PATCH',
      headers: { 'Content-Type': 'application/merge-patch+json' },
      body: JSON.stringify({ data: { mode: 'safe' } }),
    });
    const modified = (await events.next()).value!;
    log(`watch: ${modified.type} ${modified.object.metadata.name} mode=${modified.object.data?.mode}`);
    await events.return(undefined);

    const missing = await fetch(`${base}${path}/missing`);
    const status = (await missing.json()) as { reason: string; message: string };
    log(`GET ${path}/missing: ${missing.status} ${status.reason}: ${status.message}`);

    // The same cluster through Hono, without a socket.
    const hono = new Hono().route('/k8s', memkubeHono(cluster));
    const viaHono = await hono.request(`${path}/settings`);
    log(`Hono, no socket: GET ${path}/settings: ${viaHono.status} mode=${((await viaHono.json()) as ConfigMap).data?.mode}`);
  } finally {
    // The cluster first: it ends open watches.
    await cluster.close();
    // closeAllConnections: a keep-alive connection the client opened but never used would hold close() open.
    await new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main(console.log);
}
