import Koa from 'koa';
import type { AddressInfo } from 'node:net';
import { memkubeKoa } from '../../../src/http/adapters/koa.js';
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
