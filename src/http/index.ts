/** The HTTP door: a Fetch-standard handler and a node:http adapter. */
export { createFetchHandler, type CorsOptions, type FetchHandler, type FetchHandlerOptions, type HttpAccess, type HttpCluster } from './handler.js';
export { listen, kubeconfigFor, type ListenOptions, type Listening } from './listen.js';
