import express from 'express';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { memkubeExpress } from '../../../src/http/adapters/express.js';
import type { Cluster } from '../../../src/cluster.js';
import { ConfigMapKind } from '../../../src/kinds/index.js';
import { testCluster } from '../../support/cluster.js';
import { drainedBodySuite, parsedBodySuite } from './parsed-body-suite.js';
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

const behind =
  (...parsers: express.RequestHandler[]) =>
  async (cluster: Cluster) => {
    const app = express();
    app.use(...parsers);
    app.use(memkubeExpress(cluster, { prefix: '/k8s' }));
    return serve(app);
  };

parsedBodySuite('express.json()', false, behind(express.json()));
parsedBodySuite(
  'express.json() for every JSON type and express.text() for YAML',
  false,
  behind(express.json({ type: ['application/json', 'application/*+json'] }), express.text({ type: ['application/yaml', 'application/apply-patch+yaml'] })),
);
parsedBodySuite('express.raw() for every type', true, behind(express.raw({ type: () => true })));
parsedBodySuite(
  'a body-parser verify hook keeping req.rawBody',
  true,
  behind(
    express.json({
      type: ['application/json', 'application/*+json'],
      verify: (req, _res, buf) => void Object.assign(req, { rawBody: Buffer.from(buf) }),
    }),
  ),
);
drainedBodySuite(
  'a middleware that reads the body and keeps nothing',
  behind((req, _res, next) => void req.resume().once('end', () => next())),
);

describe('behind express.json() (body-parser 2, Express 5)', () => {
  it('a JSON body {} reaches the API as {}: DeleteOptions {} delete, a create of {} is 422, as without the parser', async () => {
    const cluster = await testCluster();
    const server = await behind(express.json())(cluster);
    try {
      await cluster.client.resource(ConfigMapKind).create({ metadata: { name: 'a' } }, { namespace: 'default' });
      const at = `${server.url}/k8s/api/v1/namespaces/default/configmaps`;
      const json = (method: string): RequestInit => ({ method, body: '{}', headers: { 'Content-Type': 'application/json' } });
      const deleted = await fetch(`${at}/a`, json('DELETE'));
      expect(deleted.status).toBe(200);
      expect(await deleted.json()).toMatchObject({ kind: 'Status', status: 'Success', details: { name: 'a' } });
      const created = await fetch(at, json('POST'));
      expect(created.status).toBe(422);
      expect(await created.json()).toMatchObject({
        reason: 'Invalid',
        message: 'ConfigMap "" is invalid: metadata.name: Required value: name or generateName is required',
      });
      expect((await cluster.client.resource(ConfigMapKind).list({ namespace: 'default' })).items).toEqual([]);
    } finally {
      await server.close();
      await cluster.close();
    }
  });
});
