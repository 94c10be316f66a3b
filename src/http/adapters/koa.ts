/**
 * Koa middleware serving a cluster's Kubernetes API: `app.use(memkubeKoa(cluster, { prefix: '/k8s' }))`
 * (under `koa-mount` too). Mount it before any body parser: it streams the raw body.
 */
import type { Middleware } from 'koa';
import { serveNodeRequest } from '../node-bridge.js';
import { mountedHandlers, pathnameOf, type AdapterOptions, type HttpCluster } from './mount.js';

export type { AdapterOptions as MemkubeKoaOptions } from './mount.js';

/** Koa middleware serving `cluster`; requests outside `prefix` go to `next()`. */
export function memkubeKoa(cluster: HttpCluster, options: AdapterOptions = {}): Middleware {
  const mounted = mountedHandlers(cluster, options);
  return async (ctx, next) => {
    // koa-mount sets ctx.mountPath and strips it from ctx.path; ctx.originalUrl keeps it.
    const prefix = mounted.prefixAt((ctx as { mountPath?: string }).mountPath);
    if (!mounted.serves(pathnameOf(ctx.originalUrl), prefix)) return next();
    ctx.respond = false;
    await serveNodeRequest(mounted.handler(prefix), ctx.req, ctx.res, { path: ctx.originalUrl });
  };
}
