/**
 * Hono serving a cluster's Kubernetes API: `app.route('/k8s', memkubeHono(cluster))`, or
 * `memkubeHono(cluster, { prefix: '/k8s' })` served as it is. Hono is Fetch-native: the request
 * goes to the Fetch handler as it came.
 */
import { Hono } from 'hono';
import { routePath } from 'hono/route';
import { mountedHandlers, type AdapterOptions, type HttpCluster } from './mount.js';

export type { AdapterOptions as MemkubeHonoOptions } from './mount.js';

/** A Hono app serving `cluster` under `prefix` (and under the path it is routed at). */
export function memkubeHono(cluster: HttpCluster, options: AdapterOptions = {}): Hono {
  const { prefix = '', ...handlerOptions } = options;
  const mounted = mountedHandlers(cluster, handlerOptions);
  return new Hono().all(`${mounted.prefixAt(prefix)}/*`, (c) =>
    // The route as registered is `<where the app is routed><prefix>/*`: without `/*`, the full prefix.
    mounted.handler(routePath(c).replace(/\/?\*$/, ''))(c.req.raw),
  );
}
