/**
 * Express (4 and 5) middleware serving a cluster's Kubernetes API:
 * `app.use(memkubeExpress(cluster, { prefix: '/k8s' }))` or `app.use('/k8s', memkubeExpress(cluster))`.
 * Mount it before any body parser: it streams the raw body (a Buffer or string an earlier
 * `express.raw()`/`express.text()` left in `req.body` is used instead).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { serveNodeRequest } from '../node-bridge.js';
import { mountedHandlers, pathnameOf, type AdapterOptions, type HttpCluster } from './mount.js';

export type { AdapterOptions as MemkubeExpressOptions } from './mount.js';

/** Express middleware serving `cluster`; requests outside `prefix` go to `next()`. */
export function memkubeExpress(cluster: HttpCluster, options: AdapterOptions = {}): RequestHandler {
  const mounted = mountedHandlers(cluster, options);
  return (req: Request, res: Response, next: NextFunction) => {
    const prefix = mounted.prefixAt(req.baseUrl);
    if (!mounted.serves(pathnameOf(req.originalUrl), prefix)) return next();
    serveNodeRequest(mounted.handler(prefix), req, res, { path: req.originalUrl, body: parsedBody(req) }).catch(next);
  };
}

/** A body an earlier raw/text parser read, as bytes; undefined when the stream is still unread. */
function parsedBody(req: Request): Uint8Array | undefined {
  if (!req.readableEnded) return undefined;
  const body: unknown = req.body;
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return new TextEncoder().encode(body);
  return undefined;
}
