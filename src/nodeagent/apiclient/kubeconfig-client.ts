/**
 * The node agent's API server client from its kubeconfig (`--kubeconfig`): the current context's
 * server and credentials, read as the webhook kubeconfigs are (client-go's `clientcmd` rules and
 * messages), over the HTTPS transport.
 */
import { readFileSync } from 'node:fs';
import { loadWebhookKubeconfig, type ReadFile } from '../../auth/webhook/kubeconfig.js';
import { kubeApiClientOverFetch } from '../kube-api-fetch.js';
import type { KubeApiClient } from '../kube-api.js';
import { createHttpsFetch } from './https-fetch.js';
import type { MetricsRegistry } from '../../metrics/registry.js';

/**
 * Settings of {@link kubeApiClientFromKubeconfig}.
 * @category Node agent
 */
export interface KubeconfigClientOptions {
  /** Reads the kubeconfig and the files it names; `readFileSync(path, 'utf8')` by default. */
  readonly readFile?: ReadFile;
  /** The User-Agent of every request. */
  readonly userAgent?: string;
  /** Where the requests are counted (`rest_client_requests_total`, `rest_client_request_duration_seconds`). */
  readonly metrics?: MetricsRegistry;
}

/**
 * A client of the API server a kubeconfig names. Throws a `KubeconfigError` with client-go's
 * message for a kubeconfig that will not do. A `token-file` is re-read for every request, as
 * client-go's cached token source picks up a rotated token.
 * @category Node agent
 */
export function kubeApiClientFromKubeconfig(path: string, options: KubeconfigClientOptions = {}): KubeApiClient {
  const readFile = options.readFile ?? ((p: string) => readFileSync(p, 'utf8'));
  const config = loadWebhookKubeconfig(path, readFile);
  const tokenFile = config.tokenFile;
  const transport = createHttpsFetch({
    ...config.endpoint,
    ...(tokenFile ? { bearerToken: () => readFile(tokenFile).trim() } : {}),
  });
  return kubeApiClientOverFetch(config.endpoint.url, transport.fetch, {
    ...(config.token && !tokenFile ? { token: config.token } : {}),
    ...(options.userAgent ? { userAgent: options.userAgent } : {}),
    ...(options.metrics ? { metrics: options.metrics } : {}),
    onClose: () => transport.close(),
  });
}
