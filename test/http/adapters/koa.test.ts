import { bodyParser } from '@koa/bodyparser';
import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { memkubeKoa } from '../../../src/http/adapters/koa.js';
import type { Cluster } from '../../../src/cluster.js';
import { drainedBodySuite, parsedBodySuite } from './parsed-body-suite.js';
import { adapterSuite } from './suite.js';

adapterSuite('koa', '/k8s', async (cluster, prefix) => {
  const app = new Koa();
  app.use(memkubeKoa(cluster, { prefix }));
  app.use((ctx) => {
    if (ctx.path === '/other') ctx.body = 'other';
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => (server.close(() => done()), server.closeAllConnections())),
  };
});

async function serve(app: Koa) {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => (server.close(() => done()), server.closeAllConnections())),
  };
}

const behind = (parser: Koa.Middleware) => async (cluster: Cluster) => serve(new Koa().use(parser).use(memkubeKoa(cluster, { prefix: '/k8s' })));

/** A parser that keeps only the value it parsed (as koa-body does), nothing of the text. */
const parsedOnly: Koa.Middleware = async (ctx, next) => {
  if (ctx.is('application/json', 'application/*+json')) {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    (ctx.request as { body?: unknown }).body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  }
  await next();
};

parsedBodySuite('@koa/bodyparser', true, behind(bodyParser()));
parsedBodySuite(
  '@koa/bodyparser for every JSON type and text for YAML',
  true,
  behind(
    bodyParser({
      enableTypes: ['json', 'text'],
      extendTypes: {
        json: ['application/merge-patch+json', 'application/strategic-merge-patch+json'],
        text: ['application/yaml', 'application/apply-patch+yaml'],
      },
    }),
  ),
);
parsedBodySuite('a parser that keeps only the parsed value', false, behind(parsedOnly));
drainedBodySuite(
  'a middleware that reads the body and keeps nothing',
  behind(async (ctx, next) => {
    for await (const _ of ctx.req);
    await next();
  }),
);
