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
    const r = req as Request & { rawBody?: unknown; _body?: boolean };
    const body = earlierBody(req, { raw: [r.rawBody, req.body], parsed: r._body === true || !isEmptyObject(req.body) ? [req.body] : [] });
    if (body === LOST) return void sendLostBody('Express', res).catch(next);
    serveNodeRequest(mounted.handler(prefix), req, res, { path: req.originalUrl, body }).catch(next);
  };
}

/**
 * Express 4's body-parser sets `req.body = {}` before it looks at a request (and `_body` once it
 * parsed one), so an empty object without `_body` says nothing of the body; body-parser 2 leaves
 * `req.body` undefined unless it parsed.
 */
function isEmptyObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype && Object.keys(value).length === 0;
}
