import { Hono, type MiddlewareHandler } from 'hono';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Cluster } from '../../../src/cluster.js';
import { memkubeHono } from '../../../src/http/adapters/hono.js';
import { serveNodeRequest } from '../../../src/http/node-bridge.js';
import { drainedBodySuite, parsedBodySuite } from './parsed-body-suite.js';
import { adapterSuite } from './suite.js';

/** Serves a Hono app on node:http through memkube's own node bridge (no @hono/node-server needed). */
async function serve(app: Hono) {
  const server = createServer((req, res) => void serveNodeRequest((r) => Promise.resolve(app.fetch(r)), req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => (server.close(() => done()), server.closeAllConnections())),
  };
}

const other = (app: Hono) => app.get('/other', (c) => c.text('other'));

adapterSuite('hono (prefix option)', '/k8s', async (cluster: Cluster, prefix) => serve(other(new Hono()).route('/', memkubeHono(cluster, { prefix }))));

adapterSuite('hono (app.route(path))', '/mnt/k8s', async (cluster: Cluster) =>
  serve(other(new Hono()).route('/mnt', memkubeHono(cluster, { prefix: '/k8s' }))),
);

const behind = (middleware: MiddlewareHandler) => async (cluster: Cluster) =>
  serve(new Hono().use(middleware).route('/', memkubeHono(cluster, { prefix: '/k8s' })));

parsedBodySuite(
  'a middleware that reads JSON bodies with c.req.json() and YAML with c.req.text()',
  true,
  behind(async (c, next) => {
    const type = c.req.header('content-type') ?? '';
    if (type.includes('json')) await c.req.json();
    else if (type.includes('yaml')) await c.req.text();
    await next();
  }),
);
drainedBodySuite(
  'a middleware that reads c.req.raw itself and keeps nothing',
  behind(async (c, next) => {
    if (c.req.method !== 'GET') await c.req.raw.arrayBuffer();
    await next();
  }),
);
