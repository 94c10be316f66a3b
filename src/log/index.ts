/** Logging as Kubernetes components log: klog's text format, component-base's JSON format, the HTTP request line. */
export * from './logger.js';
export * from './output.js';
export * from './httplog.js';
export * from './go-duration.js';
export { klogHeader } from './klog-text.js';
