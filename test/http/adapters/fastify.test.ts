import Fastify from 'fastify';
import { memkubeFastify } from '../../../src/http/adapters/fastify.js';
import { adapterSuite } from './suite.js';

adapterSuite('fastify', '/k8s', async (cluster, prefix) => {
  const app = Fastify({ forceCloseConnections: true });
  app.get('/other', async () => 'other');
  await app.register(memkubeFastify, { cluster, prefix });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
});
