/**
 * How the node agent talks to its API server: a small REST client over the HTTP API (memkube's or
 * a real kube-apiserver), with the credentials of a kubeconfig. The agent shares nothing of the
 * engine: everything goes through this interface, as a kubelet's client-go calls do.
 */

/**
 * An object as the API server sends it.
 * @category Node agent
 */
export interface KubeObjectJson {
  apiVersion?: string;
  kind?: string;
  metadata?: {
    name?: string;
    namespace?: string;
    uid?: string;
    resourceVersion?: string;
    [key: string]: unknown;
  };
  [key: string]: unknown;
}

/**
 * One event of a watch stream.
 * @category Node agent
 */
export interface KubeWatchEvent {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: KubeObjectJson;
}

/**
 * Options of one request.
 * @category Node agent
 */
export interface KubeRequestOptions {
  /** Query parameters (`labelSelector`, `fieldSelector`, `dryRun`, ...). */
  query?: Readonly<Record<string, string>>;
  /** A JSON body. */
  body?: unknown;
  /** Content-Type of a PATCH: `application/merge-patch+json`, `application/strategic-merge-patch+json`, ... */
  contentType?: string;
  signal?: AbortSignal;
}

/**
 * A request the API server refused: its HTTP code and `Status` body (reason, message).
 * @category Node agent
 */
export class KubeApiError extends Error {
  constructor(
    readonly code: number,
    readonly reason: string,
    message: string,
    readonly status?: unknown,
  ) {
    super(message);
    this.name = 'KubeApiError';
  }
}

/**
 * The agent's API server connection.
 * @category Node agent
 */
export interface KubeApiClient {
  /** The API server's base URL (`https://127.0.0.1:6443`). */
  readonly server: string;
  /** One request; resolves with the decoded JSON body, rejects with {@link KubeApiError} on a non-2xx answer. */
  request<T = KubeObjectJson>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, options?: KubeRequestOptions): Promise<T>;
  /** A watch (`?watch=true` is added); ends when the server closes the stream or the signal aborts. */
  watch(path: string, options?: Omit<KubeRequestOptions, 'body' | 'contentType'>): AsyncIterable<KubeWatchEvent>;
  /** Closes idle connections. */
  close(): void;
}
