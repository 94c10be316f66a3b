/**
 * What the framework adapters share: a Fetch handler per mount path (the framework's mount point
 * followed by the adapter's `prefix`), so the URLs the server hands out carry it.
 */
import { checkCorsOptions } from '../cors.js';
import { createFetchHandler, normalizePrefix, stripPrefix, type FetchHandler, type FetchHandlerOptions, type HttpCluster } from '../handler.js';

export type { HttpCluster };

/**
 * Options of the framework adapters: the handler's, `prefix` being the path below the mount point.
 * @category HTTP and adapters
 */
export type AdapterOptions = FetchHandlerOptions;

/** Handlers by full prefix (mount point + `prefix`); `forPath` tells whether a path is below it. */
export function mountedHandlers(cluster: HttpCluster, options: AdapterOptions = {}) {
  const own = normalizePrefix(options.prefix);
  // Handlers are made at the first request of each mount path: a bad CORS pattern fails here, at startup.
  if (options.cors) checkCorsOptions(options.cors);
  const cache = new Map<string, FetchHandler>();
  return {
    /** The full prefix of a request mounted at `mount` (`''` at the root). */
    prefixAt(mount = ''): string {
      return normalizePrefix(mount) + own;
    },
    /** Whether `pathname` is served under `prefix` (always, when there is none). */
    serves(pathname: string, prefix: string): boolean {
      return prefix === '' || stripPrefix(pathname, prefix) !== undefined;
    },
    handler(prefix: string): FetchHandler {
      let h = cache.get(prefix);
      if (!h) cache.set(prefix, (h = createFetchHandler(cluster, { ...options, prefix })));
      return h;
    },
  };
}

/** The path of a request target (`/a/b?c` → `/a/b`). */
export function pathnameOf(target: string): string {
  const q = target.search(/[?#]/);
  return q < 0 ? target : target.slice(0, q);
}
