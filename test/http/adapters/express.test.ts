import express from 'express';
import type { AddressInfo } from 'node:net';
import { memkubeExpress } from '../../../src/http/adapters/express.js';
import { adapterSuite } from './suite.js';

const serve = (app: express.Express) =>
  new Promise<{ url: string; close(): Promise<void> }>((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => {
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
        close: () => new Promise<void>((done) => (server.close(() => done()), server.closeAllConnections())),
      });
    });
  });

adapterSuite('express (prefix option)', '/k8s', async (cluster, prefix) => {
  const app = express();
  app.use(memkubeExpress(cluster, { prefix }));
  app.get('/other', (_req, res) => void res.send('other'));
  return serve(app);
});

adapterSuite('express (app.use(path))', '/mnt/k8s', async (cluster) => {
  const app = express();
  app.use('/mnt', memkubeExpress(cluster, { prefix: '/k8s' }));
  app.get('/other', (_req, res) => void res.send('other'));
  return serve(app);
});
