/**
 * Hono serving a cluster's Kubernetes API: `app.route('/k8s', memkubeHono(cluster))`, or
 * `memkubeHono(cluster, { prefix: '/k8s' })` served as it is. Hono is Fetch-native: the request
 * goes to the Fetch handler as it came. When a middleware already read its body through Hono
 * (`c.req.json()`, `c.req.text()`, a validator), Hono's cached copy stands for it: the exact text,
 * or, on a Hono whose `c.req.json()` caches the parsed value, that value written back as JSON. A
 * body read from `c.req.raw` directly is gone, and answered at once (`earlier-body.ts`).
 *
 * @module memkube/adapters/hono
 */
import { Hono, type Context } from 'hono';
import { routePath } from 'hono/route';
import { lostBodyResponse } from './earlier-body.js';
import { mountedHandlers, type AdapterOptions, type HttpCluster } from './mount.js';

/** @category HTTP and adapters */
export type { AdapterOptions as MemkubeHonoOptions } from './mount.js';

/**
 * A Hono app serving `cluster` under `prefix` (and under the path it is routed at).
 * @category HTTP and adapters
 */
export function memkubeHono(cluster: HttpCluster, options: AdapterOptions = {}): Hono {
  const { prefix = '', ...handlerOptions } = options;
  const mounted = mountedHandlers(cluster, handlerOptions);
  return new Hono().all(`${mounted.prefixAt(prefix)}/*`, async (c) => {
    // The route as registered is `<where the app is routed><prefix>/*`: without `/*`, the full prefix.
    const handler = mounted.handler(routePath(c).replace(/\/?\*$/, ''));
    if (!c.req.raw.bodyUsed) return handler(c.req.raw);
    const request = await fromBodyCache(c);
    return request ? handler(request) : lostBodyResponse('Hono');
  });
}

/** The request again, its body from what Hono cached when a middleware read it; undefined if nothing was cached. */
async function fromBodyCache(c: Context): Promise<Request | undefined> {
  if (Object.keys(c.req.bodyCache).length === 0) return undefined;
  const headers = new Headers(c.req.raw.headers);
  headers.delete('content-length');
  return new Request(c.req.raw.url, { method: c.req.raw.method, headers, body: await c.req.arrayBuffer(), signal: c.req.raw.signal });
}
