/**
 * Koa middleware serving a cluster's Kubernetes API: `app.use(memkubeKoa(cluster, { prefix: '/k8s' }))`
 * (under `koa-mount` too). Best mounted before any body parser: it streams the raw body. Behind
 * one, it uses what the parser left (`earlier-body.ts`): the exact text @koa/bodyparser and
 * koa-bodyparser keep in `ctx.request.rawBody`, a Buffer or string body, else the parsed value
 * (koa-body), written back as JSON.
 *
 * @module memkube/adapters/koa
 */
import type { Middleware } from 'koa';
import { serveNodeRequest } from '../node-bridge.js';
import { earlierBody, LOST, sendLostBody } from './earlier-body.js';
import { mountedHandlers, pathnameOf, type AdapterOptions, type HttpCluster } from './mount.js';

/** @category HTTP and adapters */
export type { AdapterOptions as MemkubeKoaOptions } from './mount.js';

interface ParsedBodies {
  body?: unknown;
  rawBody?: unknown;
}

/**
 * Koa middleware serving `cluster`; requests outside `prefix` go to `next()`.
 * @category HTTP and adapters
 */
export function memkubeKoa(cluster: HttpCluster, options: AdapterOptions = {}): Middleware {
  const mounted = mountedHandlers(cluster, options);
  return async (ctx, next) => {
    // koa-mount sets ctx.mountPath and strips it from ctx.path; ctx.originalUrl keeps it.
    const prefix = mounted.prefixAt((ctx as { mountPath?: string }).mountPath);
    if (!mounted.serves(pathnameOf(ctx.originalUrl), prefix)) return next();
    ctx.respond = false;
    // The parsers' `patchNode` option puts the same on the node request.
    const request = ctx.request as ParsedBodies;
    const req = ctx.req as ParsedBodies;
    const body = earlierBody(ctx.req, { raw: [request.rawBody, req.rawBody, request.body, req.body], parsed: [request.body, req.body] });
    if (body === LOST) return sendLostBody('Koa', ctx.res);
    await serveNodeRequest(mounted.handler(prefix), ctx.req, ctx.res, { path: ctx.originalUrl, body });
  };
}
