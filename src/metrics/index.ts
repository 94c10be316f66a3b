/** Prometheus metrics of memkube's components, their exposition (text, OpenMetrics, protobuf with native histograms), and the health checks with their SLIs. */
export * from './registry.js';
export * from './health.js';
export * from './answer.js';
export { negotiateEncoding, negotiateFormat, parseAccept, type AcceptClause, type ExpositionFormat, type NegotiatedFormat } from './negotiate.js';
export * from './metric-families.js';
export { encodeMetricFamiliesDelimited, encodeMetricFamily, PROTOBUF_DELIMITED_TYPE } from './protobuf-exposition.js';
export * from './native-histogram.js';
export { bucketKey, bucketUpperBound, pickSchema } from './native-bucket-math.js';
