/**
 * Points a `@kubernetes/client-node` `KubeConfig` at an in-process cluster with no socket: every
 * request its API clients, `Watch`, informers and `KubernetesObjectApi` send goes to the cluster's
 * Fetch handler. Structural: memkube does not import client-node, the caller brings its KubeConfig.
 */
import { createFetchDispatcher, type FetchFunction } from './fetch-dispatcher.js';

/** The server address a portless KubeConfig names; nothing ever connects to it. */
export const PORTLESS_SERVER = 'https://memkube.portless';

/**
 * The request context client-node authenticates (its `RequestContext`; the method read here).
 * @category HTTP and adapters
 */
export interface PortlessRequestContext {
  /** Sets the undici dispatcher the request is sent with. */
  setDispatcher(dispatcher: never): void;
}

/**
 * The part of client-node's `KubeConfig` a portless configuration sets up.
 * @category HTTP and adapters
 */
export interface PortlessKubeConfigTarget {
  /** Replaces the configuration with these clusters, users and contexts. */
  loadFromOptions(options: {
    clusters: { name: string; server: string; skipTLSVerify: boolean }[];
    users: { name: string; token?: string }[];
    contexts: { name: string; cluster: string; user: string }[];
    currentContext: string;
  }): void;
  /** Applies the current user's credentials and the cluster's TLS settings to a request context. */
  applySecurityAuthentication(context: never): Promise<void>;
}

/**
 * The cluster a portless KubeConfig talks to (a memkube `Cluster` is one).
 * @category HTTP and adapters
 */
export interface PortlessCluster {
  fetch: FetchFunction;
  /** The bearer token used when the options name none. */
  readonly adminToken: string;
}

/**
 * How a portless KubeConfig authenticates.
 * @category HTTP and adapters
 */
export interface PortlessKubeConfigOptions {
  /**
   * The bearer token sent with every request, authenticated by the cluster as over HTTP (a
   * service account token, a static token...); `cluster.adminToken` (`system:admin`) by default.
   */
  readonly token?: string;
  /** The name of the user entry, and of the context (`memkube` by default). */
  readonly name?: string;
  /**
   * What answers the requests: `cluster.fetch` by default. Give a handler of your own from
   * `createFetchHandler(cluster, options)` for the HTTP door's options, e.g. the
   * `minRequestTimeoutSeconds` after which the server ends a watch that set no timeout.
   */
  readonly fetch?: (request: Request) => Promise<Response>;
}

/**
 * Loads a cluster, a user and a context into `kubeConfig` and routes its requests to
 * `cluster.fetch` instead of the network; answers the same KubeConfig.
 *
 * @example
 * ```ts
 * const kc = portlessKubeConfig(new KubeConfig(), cluster);
 * const core = kc.makeApiClient(CoreV1Api);
 * ```
 * @category HTTP and adapters
 */
export function portlessKubeConfig<K extends PortlessKubeConfigTarget>(kubeConfig: K, cluster: PortlessCluster, options: PortlessKubeConfigOptions = {}): K {
  const name = options.name ?? 'memkube';
  kubeConfig.loadFromOptions({
    clusters: [{ name, server: PORTLESS_SERVER, skipTLSVerify: false }],
    users: [{ name, token: options.token ?? cluster.adminToken }],
    contexts: [{ name, cluster: name, user: name }],
    currentContext: name,
  });
  const answer = options.fetch ?? ((request: Request) => cluster.fetch(request));
  const dispatcher = createFetchDispatcher(answer);
  const authenticate = kubeConfig.applySecurityAuthentication.bind(kubeConfig) as (context: PortlessRequestContext) => Promise<void>;
  // Only this instance changes: another KubeConfig, and the global fetch, keep their network.
  const applySecurityAuthentication = async (context: PortlessRequestContext): Promise<void> => {
    await authenticate(context);
    context.setDispatcher(dispatcher as never);
  };
  Object.defineProperty(kubeConfig, 'applySecurityAuthentication', { value: applySecurityAuthentication, configurable: true, writable: true });
  return kubeConfig;
}
