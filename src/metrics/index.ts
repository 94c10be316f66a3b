/** Prometheus metrics of memkube's components, their exposition, and the health checks with their SLIs. */
export * from './registry.js';
export * from './health.js';
