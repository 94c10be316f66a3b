import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { CORS_ALLOWED_ORIGINS_HELP, validateCorsAllowedOrigins } from '../../src/http/cors.js';
import { memkubeHono } from '../../src/http/adapters/hono.js';
import { createFetchHandler } from '../../src/http/handler.js';
import { testCluster, useTestCluster } from '../support/cluster.js';

const BASE = 'http://memkube.test';
const APP = 'http://localhost:5173';
const LOCALHOST = '^https?://localhost(:|$)';

/** The headers kube-apiserver's WithCORS gives an allowed origin, with its defaults. */
const CORS_HEADERS = {
  'access-control-allow-origin': APP,
  'access-control-allow-methods': 'POST, GET, OPTIONS, PUT, DELETE, PATCH',
  'access-control-allow-headers': 'Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since',
  'access-control-expose-headers': 'Date',
  'access-control-allow-credentials': 'true',
};

/** The Access-Control-* headers of a response. */
function corsOf(headers: Headers): Record<string, string> {
  return Object.fromEntries([...headers].filter(([name]) => name.startsWith('access-control-')));
}

describe('CORS (--cors-allowed-origins)', () => {
  const cluster = useTestCluster();
  const handler = (allowedOrigins: string[] = [LOCALHOST]) => createFetchHandler(cluster, { cors: { allowedOrigins } });
  const call = (h: (r: Request) => Promise<Response>, path: string, init: RequestInit = {}) => h(new Request(BASE + path, init));

  it('gives a matching origin the CORS headers on its answer', async () => {
    const res = await call(handler(), '/api/v1/namespaces/default/configmaps', { headers: { Origin: APP } });
    expect(res.status).toBe(200);
    expect(corsOf(res.headers)).toEqual(CORS_HEADERS);
    expect(await res.json()).toMatchObject({ kind: 'ConfigMapList' });
  });

  it('gives no CORS header to an origin that does not match, nor to a request without Origin', async () => {
    const h = handler();
    for (const origin of ['http://localhost.evil.example', 'https://evil.example', 'null', 'http://evil.example http://localhost:5173', 'localhost']) {
      const res = await call(h, '/api/v1/namespaces', { headers: { Origin: origin } });
      expect(res.status, origin).toBe(200);
      expect(corsOf(res.headers), origin).toEqual({});
    }
    expect(corsOf((await call(h, '/api/v1/namespaces')).headers)).toEqual({});
  });

  it('answers a preflight of a matching origin 204 before going further', async () => {
    const counted = await cluster.metrics.value('apiserver_request_total', {});
    const res = await call(handler(), '/api/v1/namespaces/default/configmaps', {
      method: 'OPTIONS',
      headers: { Origin: APP, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization,content-type', 'Audit-Id': 'a1' },
    });
    expect(res.status).toBe(204);
    expect(corsOf(res.headers)).toEqual(CORS_HEADERS);
    expect(res.headers.get('audit-id')).toBe('a1');
    expect(res.headers.get('cache-control')).toBe('no-cache, private');
    expect(res.headers.get('content-type')).toBeNull();
    expect(await res.text()).toBe('');
    // Answered in front of the API: no request is counted.
    expect(await cluster.metrics.value('apiserver_request_total', {})).toBe(counted);
  });

  it('passes the preflight of another origin on, as if there were no CORS', async () => {
    const init = { method: 'OPTIONS', headers: { Origin: 'https://evil.example', 'Access-Control-Request-Method': 'DELETE' } };
    const withCors = await call(handler(), '/api/v1/namespaces/default/configmaps', init);
    const without = await call(createFetchHandler(cluster), '/api/v1/namespaces/default/configmaps', init);
    expect(withCors.status).toBe(405);
    expect(without.status).toBe(405);
    expect(corsOf(withCors.headers)).toEqual({});
  });

  it('serves no CORS with an empty list', async () => {
    const res = await call(handler([]), '/api/v1/namespaces', { method: 'OPTIONS', headers: { Origin: APP } });
    expect(res.status).toBe(405);
    expect(corsOf(res.headers)).toEqual({});
  });

  it('matches the whole Origin against every pattern, Go (RE2) syntax', async () => {
    const h = handler(['^https://app\\.example\\.com$', '//[a-z]+\\.internal(:|$)']);
    const allowed = async (origin: string) => corsOf((await call(h, '/version', { headers: { Origin: origin } })).headers)['access-control-allow-origin'];
    expect(await allowed('https://app.example.com')).toBe('https://app.example.com');
    expect(await allowed('http://dash.internal:8080')).toBe('http://dash.internal:8080');
    expect(await allowed('https://app.example.com.evil.example')).toBeUndefined();
    expect(await allowed('https://appxexample.com')).toBeUndefined();
    // A loose pattern is as loose as upstream's: `//x.internal(:|$)` is found inside an origin list.
    expect(await allowed('http://evil.example http://x.internal')).toBe('http://evil.example http://x.internal');
  });

  it('matches a long hostile Origin in linear time', async () => {
    const h = handler(['^http://(a+)+(:|$)']);
    const origin = `http://${'a'.repeat(50_000)}!`;
    const started = performance.now();
    const res = await call(h, '/version', { headers: { Origin: origin } });
    expect(corsOf(res.headers)).toEqual({});
    expect(performance.now() - started).toBeLessThan(2000);
  });
});

describe('CORS and authentication', () => {
  const cluster = useTestCluster({ authentication: { anonymous: false } });

  it('answers a preflight without credentials, and puts the CORS headers on a 401 so the page can read it', async () => {
    const h = createFetchHandler(cluster, { cors: { allowedOrigins: [LOCALHOST] } });
    const preflight = await h(new Request(`${BASE}/api/v1/namespaces`, { method: 'OPTIONS', headers: { Origin: APP } }));
    expect(preflight.status).toBe(204);
    const unauthorized = await h(new Request(`${BASE}/api/v1/namespaces`, { headers: { Origin: APP } }));
    expect(unauthorized.status).toBe(401);
    expect(corsOf(unauthorized.headers)).toEqual(CORS_HEADERS);
    const authorized = await h(new Request(`${BASE}/api/v1/namespaces`, { headers: { Origin: APP, Authorization: `Bearer ${cluster.adminToken}` } }));
    expect(authorized.status).toBe(200);
    expect(corsOf(authorized.headers)).toEqual(CORS_HEADERS);
  });
});

describe('CORS patterns', () => {
  const invalid = (e: string) => `--cors-allowed-origins has an invalid regular expression: ${e}, help: ${CORS_ALLOWED_ORIGINS_HELP}`;

  it('takes the patterns kube-apiserver takes, and refuses the others with its words', () => {
    for (const ok of ['^http://foo.com$', '^http://foo.com', '://foo.com$', '//foo.com$', '^http://foo.com(:|$)', '//foo.com(:|$)', '(^foo.com$)']) {
      expect(validateCorsAllowedOrigins([ok]), ok).toEqual([]);
    }
    for (const unpinned of ['^foo.com', '//foo.com', 'foo.com$', 'foo.com(:|$)']) {
      expect(validateCorsAllowedOrigins([unpinned]), unpinned).toEqual([invalid('regular expression does not pin to start/end of host in the origin header')]);
    }
    expect(validateCorsAllowedOrigins(['^http://foo.com$', ''])).toEqual([`empty value in --cors-allowed-origins, help: ${CORS_ALLOWED_ORIGINS_HELP}`]);
    expect(validateCorsAllowedOrigins(['^(foo$'])).toEqual([invalid('error parsing regexp: missing closing ): `^(foo$`')]);
    // Go's syntax, not JavaScript's: a lookahead does not compile.
    expect(validateCorsAllowedOrigins(['^(?=x)foo$'])).toEqual([invalid('error parsing regexp: invalid or unsupported Perl syntax: `(?=`')]);
  });

  it('makes an invalid pattern a startup error: createFetchHandler throws, cluster.listen() rejects', async () => {
    const cluster = await testCluster();
    try {
      expect(() => createFetchHandler(cluster, { cors: { allowedOrigins: ['^(foo$'] } })).toThrow(invalid('error parsing regexp: missing closing ): `^(foo$`'));
      expect(() => createFetchHandler(cluster, { cors: { allowedOrigins: ['foo', '^(x$'] } })).toThrow(
        `[${invalid('regular expression does not pin to start/end of host in the origin header')}, ${invalid('error parsing regexp: missing closing ): `^(x$`')}]`,
      );
      await expect(cluster.listen({ cors: { allowedOrigins: ['example.com'] } })).rejects.toThrow('does not pin to start/end of host');
      // A framework adapter makes its handlers at the first request, and checks the patterns before.
      expect(() => memkubeHono(cluster, { cors: { allowedOrigins: [''] } })).toThrow('empty value in --cors-allowed-origins');
    } finally {
      await cluster.close();
    }
  });
});

describe('CORS through a framework adapter', () => {
  const cluster = useTestCluster();

  it('serves the preflight and the headers under a mount prefix', async () => {
    const app = memkubeHono(cluster, { prefix: '/k8s', cors: { allowedOrigins: [LOCALHOST] } });
    const preflight = await app.request('/k8s/api/v1/namespaces', { method: 'OPTIONS', headers: { Origin: APP } });
    expect(preflight.status).toBe(204);
    expect(corsOf(preflight.headers)).toEqual(CORS_HEADERS);
    const list = await app.request('/k8s/api/v1/namespaces', { headers: { Origin: APP } });
    expect(list.status).toBe(200);
    expect(corsOf(list.headers)).toEqual(CORS_HEADERS);
  });
});

describe('CORS over HTTP (cluster.listen)', () => {
  const cluster = useTestCluster();

  /** One raw HTTP request: status, headers and the first chunk of the body. */
  function raw(
    url: string,
    method: string,
    headers: Record<string, string>,
  ): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; first: string }> {
    return new Promise((resolve, reject) => {
      const req = httpRequest(url, { method, headers }, (res) => {
        const done = (first: string) => {
          resolve({ status: res.statusCode!, headers: res.headers, first });
          res.destroy();
        };
        if (res.statusCode === 204) return done('');
        res.once('data', (chunk: Buffer) => done(chunk.toString('utf8')));
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('serves a preflight, a GET and a watch stream to the allowed origin, and not to another', async () => {
    await cluster.load('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: default}\ndata: {theme: dark}\n');
    const server = await cluster.listen({ cors: { allowedOrigins: [LOCALHOST] } });
    const plain = await cluster.listen();
    const configmaps = `${server.url}/api/v1/namespaces/default/configmaps`;

    const preflight = await raw(configmaps, 'OPTIONS', { Origin: APP, 'Access-Control-Request-Method': 'GET' });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(APP);
    expect(preflight.headers['content-length']).toBeUndefined();

    const watch = await raw(`${configmaps}?watch=true`, 'GET', { Origin: APP, Authorization: `Bearer ${cluster.adminToken}` });
    expect(watch.status).toBe(200);
    expect(watch.headers['access-control-allow-origin']).toBe(APP);
    expect(watch.headers['access-control-allow-credentials']).toBe('true');
    expect(JSON.parse(watch.first.split('\n')[0]!)).toMatchObject({ type: 'ADDED', object: { metadata: { name: 'settings' } } });

    const other = await raw(configmaps, 'GET', { Origin: 'https://evil.example' });
    expect(other.status).toBe(200);
    expect(other.headers['access-control-allow-origin']).toBeUndefined();

    // A server started without cors serves none, whatever another one of the cluster does.
    const none = await raw(`${plain.url}/api/v1/namespaces/default/configmaps`, 'OPTIONS', { Origin: APP });
    expect(none.status).toBe(405);
    expect(none.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('serves an Origin with bytes outside ASCII without failing', async () => {
    const server = await cluster.listen({ cors: { allowedOrigins: ['^http://(.*)(:|$)'] } });
    const res = await raw(`${server.url}/version`, 'GET', { Origin: 'http://caf\u00e9.example' });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBe('http://caf\u00e9.example');
  });
});
