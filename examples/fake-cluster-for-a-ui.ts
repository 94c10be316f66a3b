/**
 * A fake cluster for a browser UI: seeded from YAML, served on 127.0.0.1 with CORS for the app's
 * origin, called as a browser calls it (a preflight, then a GET with a bearer token, then a watch
 * streamed with fetch), aged by moving the cluster clock, and reset for the next demo run.
 * Run with `npx tsx examples/fake-cluster-for-a-ui.ts`.
 */
import { createCluster } from 'memkube';

/** What the demo starts from: a namespace and two ConfigMaps. */
const SEED = `
apiVersion: v1
kind: Namespace
metadata: {name: shop}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: storefront, namespace: shop, labels: {app: storefront}}
data: {theme: dark}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: checkout, namespace: shop, labels: {app: checkout}}
data: {currency: EUR}
`;

/** The origin of the UI's dev server, and what `--cors-allowed-origins` would say for it. */
const APP_ORIGIN = 'http://localhost:5173';
const ALLOWED = '^http://localhost(:|$)';
const DAY = 24 * 60 * 60_000;

interface ConfigMapList {
  metadata: { resourceVersion: string };
  items: { metadata: { name: string } }[];
}

export async function main(log: (line: string) => void): Promise<void> {
  // A frozen clock, so that ages (and this program's output) do not depend on when it runs.
  const cluster = await createCluster({ clock: new Date('2026-03-01T09:00:00Z') });
  const server = await cluster.listen({ host: '127.0.0.1', port: 0, cors: { allowedOrigins: [ALLOWED] } });
  try {
    await cluster.load(SEED);
    await cluster.settle();
    const seed = cluster.snapshot();
    const configMaps = `${server.url}/api/v1/namespaces/shop/configmaps`;
    // What a page's fetch sends: its Origin, and here a bearer token.
    const browser = { Origin: APP_ORIGIN, Authorization: `Bearer ${cluster.adminToken}` };

    // The browser asks first whether it may send an Authorization header cross-origin.
    const preflight = await fetch(configMaps, {
      method: 'OPTIONS',
      headers: { Origin: APP_ORIGIN, 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'authorization' },
    });
    const allowsAuthorization = (preflight.headers.get('access-control-allow-headers') ?? '').split(', ').includes('Authorization');
    log(`preflight: ${preflight.status}, Authorization allowed: ${allowsAuthorization}`);

    const listed = await fetch(configMaps, { headers: browser });
    const list = (await listed.json()) as ConfigMapList;
    log(
      `list: ${listed.status}, ${list.items.map((c) => c.metadata.name).join(', ')}; Access-Control-Allow-Origin: ${listed.headers.get('access-control-allow-origin')}`,
    );

    // A watch from the list's resourceVersion, read as a page reads it: one JSON event per line.
    const watch = await fetch(`${configMaps}?watch=1&resourceVersion=${list.metadata.resourceVersion}`, { headers: browser });
    const lines = watchLines(watch.body!);
    await fetch(configMaps, {
      method: 'POST',
      headers: { ...browser, 'Content-Type': 'application/json' },
      body: JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'banner' }, data: { text: 'Spring sale' } }),
    });
    const event = JSON.parse((await lines.next()).value as string) as { type: string; object: { metadata: { name: string } } };
    log(`watch: ${event.type} ${event.object.metadata.name}`);

    // kubectl's AGE column is the server's Table, counted on the cluster clock.
    cluster.clock.advance(3 * DAY);
    const table = await fetch(configMaps, { headers: { ...browser, Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' } });
    const rows = ((await table.json()) as { rows: { cells: string[] }[] }).rows.map((r) => `${r.cells[0]} ${r.cells[2]}`);
    log(`three days later: ${rows.join(', ')}`);

    // Back to the seed for the next run: the open watch ends, the page lists again.
    await cluster.reset(seed);
    const ended = await lines.next();
    const after = (await (await fetch(configMaps, { headers: browser })).json()) as ConfigMapList;
    log(`reset: watch ended: ${ended.done === true}; configmaps: ${after.items.map((c) => c.metadata.name).join(', ')}`);

    const other = await fetch(configMaps, { headers: { ...browser, Origin: 'https://elsewhere.example' } });
    log(`another origin: ${other.status}, Access-Control-Allow-Origin: ${other.headers.get('access-control-allow-origin') ?? 'none'}`);
  } finally {
    await server.close();
    await cluster.close();
  }
}

/** The lines of a streamed body, as they arrive. */
async function* watchLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of body) {
    pending += decoder.decode(chunk, { stream: true });
    for (let at = pending.indexOf('\n'); at >= 0; at = pending.indexOf('\n')) {
      yield pending.slice(0, at);
      pending = pending.slice(at + 1);
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await main(console.log);
}
