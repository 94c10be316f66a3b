/**
 * A {@link KubeApiClient} over any Fetch-standard function: the node agent's HTTPS transport (built
 * from a kubeconfig), or memkube's own `createFetchHandler(cluster)` so that an agent and its API
 * server share one process and no port.
 */
import type { MetricsRegistry } from '../metrics/registry.js';
import { instrumentFetch } from './metrics/rest-client-metrics.js';
import { KubeApiError, type KubeApiClient, type KubeObjectJson, type KubeRequestOptions, type KubeWatchEvent } from './kube-api.js';

/**
 * The Fetch function the client sends its requests through.
 * @category Node agent
 */
export type FetchLike = (request: Request) => Promise<Response>;

/**
 * Settings of {@link kubeApiClientOverFetch}.
 * @category Node agent
 */
export interface FetchClientOptions {
  /** A bearer token sent on every request. */
  readonly token?: string;
  /** The User-Agent header (kubelet sends `kubelet/<version> (<os>/<arch>) kubernetes/<commit>`). */
  readonly userAgent?: string;
  /** Called when idle connections should be closed. */
  readonly onClose?: () => void;
  /** Where every request is counted, as client-go's REST client metrics. */
  readonly metrics?: MetricsRegistry;
}

/** The largest watch event line accepted: an event above it fails the watch instead of buffering without bound. */
const MAX_WATCH_LINE_BYTES = 16 * 1024 * 1024;

function urlOf(server: string, path: string, query: Readonly<Record<string, string>> | undefined): string {
  const url = new URL(path, server.endsWith('/') ? server : `${server}/`);
  url.pathname = `${new URL(server).pathname.replace(/\/$/, '')}${path}`;
  for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
  return url.toString();
}

async function errorOf(res: Response): Promise<KubeApiError> {
  const text = await res.text().catch(() => '');
  try {
    const status = JSON.parse(text) as { reason?: string; message?: string; kind?: string };
    if (status && status.kind === 'Status') return new KubeApiError(res.status, status.reason ?? '', status.message ?? text, status);
  } catch {
    // not a Status: the body's text is the message
  }
  return new KubeApiError(res.status, '', text || res.statusText);
}

/**
 * A client of the API server at `server`, sending each request through `fetch`.
 * @category Node agent
 */
export function kubeApiClientOverFetch(server: string, transport: FetchLike, options: FetchClientOptions = {}): KubeApiClient {
  const fetch = options.metrics ? instrumentFetch(transport, options.metrics) : transport;
  const headers = (extra: Record<string, string>): Headers => {
    const h = new Headers({ accept: 'application/json', ...extra });
    if (options.token) h.set('authorization', `Bearer ${options.token}`);
    if (options.userAgent) h.set('user-agent', options.userAgent);
    return h;
  };
  return {
    server,
    async request<T = KubeObjectJson>(method: string, path: string, req: KubeRequestOptions = {}): Promise<T> {
      const extra: Record<string, string> = {};
      if (req.body !== undefined) extra['content-type'] = req.contentType ?? 'application/json';
      const res = await fetch(
        new Request(urlOf(server, path, req.query), {
          method,
          headers: headers(extra),
          body: req.body === undefined ? undefined : JSON.stringify(req.body),
          signal: req.signal,
        }),
      );
      if (res.status < 200 || res.status > 299) throw await errorOf(res);
      const text = await res.text();
      return (text ? JSON.parse(text) : {}) as T;
    },
    watch(path: string, req: Omit<KubeRequestOptions, 'body' | 'contentType'> = {}): AsyncIterable<KubeWatchEvent> {
      return {
        async *[Symbol.asyncIterator]() {
          const res = await fetch(new Request(urlOf(server, path, { ...req.query, watch: 'true' }), { headers: headers({}), signal: req.signal }));
          if (res.status < 200 || res.status > 299) throw await errorOf(res);
          if (!res.body) return;
          const decoder = new TextDecoder();
          let buffered = '';
          const reader = res.body.getReader();
          // A handler that ignores the request's signal (memkube's in-process one) still ends the stream when it aborts.
          const cancel = () => void reader.cancel().catch(() => undefined);
          req.signal?.addEventListener('abort', cancel, { once: true });
          try {
            for (;;) {
              const { done, value } = await reader.read();
              if (done) break;
              buffered += decoder.decode(value, { stream: true });
              let nl: number;
              while ((nl = buffered.indexOf('\n')) >= 0) {
                const line = buffered.slice(0, nl).trim();
                buffered = buffered.slice(nl + 1);
                if (line) yield JSON.parse(line) as KubeWatchEvent;
              }
              if (buffered.length > MAX_WATCH_LINE_BYTES) throw new Error(`watch event of more than ${MAX_WATCH_LINE_BYTES} bytes`);
            }
            const rest = buffered.trim();
            if (rest) yield JSON.parse(rest) as KubeWatchEvent;
          } finally {
            req.signal?.removeEventListener('abort', cancel);
            await reader.cancel().catch(() => undefined);
          }
        },
      };
    },
    close() {
      options.onClose?.();
    },
  };
}
