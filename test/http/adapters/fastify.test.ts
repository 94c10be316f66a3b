import Fastify, { type FastifyInstance } from 'fastify';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { memkubeFastify } from '../../../src/http/adapters/fastify.js';
import type { Cluster } from '../../../src/cluster.js';
import { testCluster } from '../../support/cluster.js';
import { drainedBodySuite, parsedBodySuite } from './parsed-body-suite.js';
import { adapterSuite } from './suite.js';

adapterSuite('fastify', '/k8s', async (cluster, prefix) => {
  const app = Fastify({ forceCloseConnections: true });
  app.get('/other', async () => 'other');
  await app.register(memkubeFastify, { cluster, prefix });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
});

const behind = (setup: (app: FastifyInstance) => void) => async (cluster: Cluster) => {
  const app = Fastify({ forceCloseConnections: true });
  setup(app);
  await app.register(memkubeFastify, { cluster, prefix: '/k8s' });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return { url, close: () => app.close() };
};

parsedBodySuite(
  "Fastify's JSON parser and parsers of the app's own for the patch and YAML types",
  true,
  behind((app) => {
    const asJson = (_req: unknown, body: string | Buffer, done: (e: Error | null, v?: unknown) => void) => done(null, JSON.parse(String(body)));
    app.addContentTypeParser(
      ['application/merge-patch+json', 'application/strategic-merge-patch+json', 'application/json-patch+json'],
      { parseAs: 'string' },
      asJson,
    );
    app.addContentTypeParser(['application/yaml', 'application/apply-patch+yaml'], { parseAs: 'string' }, (_req, body, done) => done(null, body));
  }),
);
parsedBodySuite(
  'a preParsing hook that reads the body and hands Fastify a copy (as raw-body plugins do)',
  true,
  behind((app) => {
    app.addHook('preParsing', async (request, _reply, payload) => {
      const chunks: Buffer[] = [];
      for await (const chunk of payload) chunks.push(chunk as Buffer);
      const raw = Buffer.concat(chunks);
      Object.assign(request, { rawBody: raw });
      return Readable.from([raw]);
    });
  }),
);
drainedBodySuite(
  'an onRequest hook that reads the body and keeps nothing',
  behind((app) => {
    app.addHook('onRequest', async (request) => {
      for await (const _ of request.raw);
    });
  }),
);

describe('behind a preParsing hook that hands Fastify a copy of the body', () => {
  it('a copy over 3 MiB is 413, as the request itself would be', async () => {
    const cluster = await testCluster();
    const server = await behind((app) => app.addHook('preParsing', async (_request, _reply, payload) => Readable.from(payload)))(cluster);
    try {
      const big = JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'big' }, data: { a: 'x'.repeat(3 * 1024 * 1024) } });
      const res = await fetch(`${server.url}/k8s/api/v1/namespaces/default/configmaps`, {
        method: 'POST',
        body: big,
        headers: { 'Content-Type': 'application/json' },
      });
      expect(res.status).toBe(413);
      expect(await res.json()).toMatchObject({ kind: 'Status', reason: 'RequestEntityTooLarge', code: 413 });
    } finally {
      await server.close();
      await cluster.close();
    }
  });
});
