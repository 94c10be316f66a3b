/** The node agent's metrics: kubelet's pod, runtime, HTTP server and REST client metrics, and their exposition. */
export * from './buckets.js';
export * from './expose.js';
export * from './http-metrics.js';
export * from './kubelet-metrics.js';
export * from './rest-client-metrics.js';
export * from './runtime-metrics.js';
