/**
 * Express (4 and 5) middleware serving a cluster's Kubernetes API:
 * `app.use(memkubeExpress(cluster, { prefix: '/k8s' }))` or `app.use('/k8s', memkubeExpress(cluster))`.
 * Best mounted before any body parser: it streams the raw body. Behind one, it uses what the
 * parser left (`earlier-body.ts`): a `req.rawBody` (a body-parser `verify` hook, Cloud
 * Functions), the Buffer or string of express.raw()/express.text(), else the value express.json()
 * parsed, written back as JSON.
 *
 * @module memkube/adapters/express
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { serveNodeRequest } from '../node-bridge.js';
import { earlierBody, LOST, sendLostBody } from './earlier-body.js';
import { mountedHandlers, pathnameOf, type AdapterOptions, type HttpCluster } from './mount.js';

export type { AdapterOptions as MemkubeExpressOptions } from './mount.js';

/**
 * Express middleware serving `cluster`; requests outside `prefix` go to `next()`.
 * @category HTTP and adapters
 */
export function memkubeExpress(cluster: HttpCluster, options: AdapterOptions = {}): RequestHandler {
  const mounted = mountedHandlers(cluster, options);
  return (req: Request, res: Response, next: NextFunction) => {
    const prefix = mounted.prefixAt(req.baseUrl);
    if (!mounted.serves(pathnameOf(req.originalUrl), prefix)) return next();
    const body = earlierBody(req, { raw: [(req as Request & { rawBody?: unknown }).rawBody, req.body], parsed: parsedBodies(req) });
    if (body === LOST) return void sendLostBody('Express', res).catch(next);
    serveNodeRequest(mounted.handler(prefix), req, res, { path: req.originalUrl, body }).catch(next);
  };
}

/**
 * The value express.json() parsed, if it did. Express 4's body-parser sets `req.body = {}` before
 * it looks at a request (and `_body` once it parsed one), so there an empty object without `_body`
 * says nothing of the body. body-parser 2 (Express 5) sets no flag and leaves `req.body` undefined
 * unless it parsed, so there `{}` is what it parsed: a JSON body `{}`. Express 4 is told apart by
 * `req.param()`, which Express 5 removed.
 */
function parsedBodies(req: Request): unknown[] {
  if ((req as Request & { _body?: boolean })._body === true) return [req.body];
  const express4 = typeof (req as Request & { param?: unknown }).param === 'function';
  return express4 && isEmptyObject(req.body) ? [] : [req.body];
}

/** A plain object without keys (`{}`). */
function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).length === 0;
}
