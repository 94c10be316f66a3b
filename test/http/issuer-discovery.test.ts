import { afterAll, describe, expect, it } from 'vitest';
import { createCluster } from '../../src/index.js';

const cluster = await createCluster();
afterAll(() => cluster.close());

const PATHS = [
  ['/.well-known/openid-configuration', 'application/json'],
  ['/openid/v1/jwks', 'application/jwk-set+json'],
] as const;

/** What a client that may cache the documents must see (pkg/serviceaccount/openidmetadata.go). */
async function expectDocument(res: Response, contentType: string): Promise<void> {
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=3600');
  expect(res.headers.get('content-type')).toBe(contentType);
  const text = await res.text();
  // The compact JSON kube-apiserver computes once, even for curl, which gets other answers indented.
  expect(text).toBe(JSON.stringify(JSON.parse(text)));
}

describe('the service account issuer discovery documents', () => {
  it.each(PATHS)('%s through cluster.fetch: cacheable for an hour, compact', async (path, contentType) => {
    await expectDocument(await cluster.fetch(new Request(`https://x${path}`, { headers: { 'user-agent': 'curl/8.5.0' } })), contentType);
  });

  it.each(PATHS)('%s over HTTP: cacheable for an hour, compact; other answers keep no-cache', async (path, contentType) => {
    const server = await cluster.listen();
    try {
      await expectDocument(await fetch(`${server.url}${path}`, { headers: { 'user-agent': 'curl/8.5.0' } }), contentType);
      const version = await fetch(`${server.url}/api`);
      expect(version.headers.get('cache-control')).toBe('no-cache, private');
    } finally {
      await server.close();
    }
  });
});
